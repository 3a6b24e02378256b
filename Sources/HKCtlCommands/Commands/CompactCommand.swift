import HealthCore

/// `hkctl compact`: rewrites partitions without deleted samples and drops old tombstones.
enum CompactCommand: Command {
    static let name = "compact"
    static let abstract = "Remove deleted samples from disk and drop tombstones older than the retention."
    static let usage = "compact [--retention <days>]"
    static let arguments: [(label: String, help: String)] = []
    static let options: [OptionSpec] = [
        OptionSpec(name: "retention", valueName: "days", help: "Keep tombstones this many days for syncing clients (default: 90)."),
        QuietOption.spec,
    ]
    static let discussion = """
        Each file is rewritten atomically under the store's lock, so concurrent 'hkctl add' waits and no
        statistic changes. Anchors stay valid; a client whose anchor is older than the oldest dropped
        tombstone is told to sync from the beginning.
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        if let extra = arguments.positionals.first {
            throw UsageError(message: "Unexpected argument '\(extra)'", command: name)
        }
        try context.requireOwner(to: "compact the store")
        var days = 90.0
        if let text = arguments.value("retention") {
            guard let value = StrictNumber.parse(text), value >= 0, value <= 36_500 else {
                throw UsageError(message: "The value '\(text)' is invalid for '--retention <days>'", command: name)
            }
            days = value
        }
        let report = try context.store().compact(now: context.globals.time.now, retention: days * 86_400)
        switch context.globals.format {
        case .json:
            context.console.line("{\"partitionsRewritten\":\(report.partitionsRewritten),\"samplesRemoved\":\(report.samplesRemoved),\"tombstonesDropped\":\(report.tombstonesDropped)}")
        case .csv:
            context.console.line("partitionsRewritten,samplesRemoved,tombstonesDropped")
            context.console.line("\(report.partitionsRewritten),\(report.samplesRemoved),\(report.tombstonesDropped)")
        case .table:
            context.console.line("rewrote \(report.partitionsRewritten) files, removed \(report.samplesRemoved) deleted samples, dropped \(report.tombstonesDropped) tombstones")
        }
    }
}
