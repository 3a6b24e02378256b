import Foundation
import HealthCore

/// `hkctl export`: writes samples as csv, jsonl, json or Apple-Health-shaped XML.
enum ExportCommand: Command {
    static let name = "export"
    static let abstract = "Export samples as csv, jsonl, json or Apple Health XML."
    static let usage = "export [--type <type> ...] [range] --format csv|jsonl|json|healthxml [--out <file>]"
    static let arguments: [(label: String, help: String)] = []
    static let options: [OptionSpec] = []

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        throw UsageError(message: "'export' is not implemented yet", command: name)
    }
}
