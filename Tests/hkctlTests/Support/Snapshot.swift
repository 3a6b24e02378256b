import Foundation
import Testing

/// Compares text with a file in `Tests/Snapshots/` (outside the test targets, so SwiftPM does not see resources). With `HKCTL_RECORD_SNAPSHOTS=1` the file is
/// (re)written instead; a missing file is written and the test fails, so a new snapshot is always looked at.
enum Snapshot {
    static func check(_ text: String, named name: String, file: String = #filePath,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        var tests = URL(fileURLWithPath: file).deletingLastPathComponent()
        while tests.lastPathComponent != "Tests" && tests.path != "/" { tests.deleteLastPathComponent() }
        let folder = tests.appendingPathComponent("Snapshots")
        let url = folder.appendingPathComponent(name + ".txt")
        let recording = ProcessInfo.processInfo.environment["HKCTL_RECORD_SNAPSHOTS"] == "1"
        guard !recording, let expected = try? String(contentsOf: url, encoding: .utf8) else {
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try? text.write(to: url, atomically: true, encoding: .utf8)
            Issue.record("Snapshot \(name) recorded at \(url.path); check it and run again", sourceLocation: sourceLocation)
            return
        }
        #expect(text == expected, "snapshot \(name) differs; run with HKCTL_RECORD_SNAPSHOTS=1 to accept:\n\(text)",
                sourceLocation: sourceLocation)
    }
}
