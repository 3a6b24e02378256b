import Foundation
import Testing

/// HealthCore and hkctl reach Foundation only through their FoundationImport.swift, which on Linux takes
/// FoundationEssentials: one stray `import Foundation` links ICU and swift-corelibs-foundation into the static
/// binary (35 MB → 86 MB, start-up memory 4 → 7 MB, measured when SampleQueryDescriptor once did it).
struct SmallFoundationTests {
    @Test func noSourceFileImportsFullFoundation() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../../Sources").standardizedFileURL.path
        let files = try #require(FileManager.default.enumerator(atPath: sources)?.allObjects as? [String])
        var offenders: [String] = []
        for file in files where file.hasSuffix(".swift") && !file.hasSuffix("FoundationImport.swift") {
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            for line in text.split(separator: "\n") where line.hasPrefix("import Foundation") || line.hasPrefix("@_exported import Foundation") {
                offenders.append("\(file): \(line)")
            }
        }
        #expect(files.count > 100)
        #expect(offenders.isEmpty, "import FoundationEssentials through FoundationImport.swift instead: \(offenders)")
    }
}
