import Foundation
import HealthCore

/// An export destination for tests: collects the text and writes it to `path` when the export finishes.
final class FileDestination: ExportDestination {
    let path: String
    private(set) var text = ""

    init(path: String) { self.path = path }

    func write(_ text: String) throws { self.text += text }

    func finish() throws { try text.write(toFile: path, atomically: true, encoding: .utf8) }
}
