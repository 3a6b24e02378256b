import Foundation
import HealthCore

/// `hkctl import PATH`: imports an Apple Health export (zip, XML, or hkctl jsonl; `-` for stdin).
enum ImportCommand: Command {
    static let name = "import"
    static let abstract = "Import an Apple Health export (export.zip or export.xml) or an hkctl jsonl export."
    static let usage = "import <path> [--dry-run] [--format text|json] [--progress]"
    static let arguments: [(label: String, help: String)] = [
        ("<path>", "export.zip, export.xml, an hkctl jsonl export, or '-' for standard input."),
    ]
    static let options: [OptionSpec] = []

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        throw UsageError(message: "'import' is not implemented yet", command: name)
    }
}
