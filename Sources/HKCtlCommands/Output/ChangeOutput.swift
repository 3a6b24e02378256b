import HealthCore
import TextSupport

/// Prints change sets and tombstones as JSON or JSON Lines.
enum ChangeOutput {
    /// Each type's sample formatter, made once for a whole change set.
    struct Formatters {
        fileprivate var byType: [String: SampleFormatter] = [:]
    }

    static func tombstone(_ tombstone: Tombstone, zone: ZoneRules) -> String {
        "{\"uuid\":\"\(tombstone.uuid.lowercasedText)\",\"type\":\(JSONText.quoted(tombstone.typeIdentifier)),"
            + "\"deletedAt\":\"\(ISODate.format(tombstone.deletedAt, in: zone))\"}"
    }

    /// A sample as `list --format json` prints it, in its type's display unit; a correlation with the values of its
    /// members (`correlations`, by the correlation's uuid), as `list blood-pressure --format json` shows them.
    /// `formatters` keeps each type's formatter for the next sample.
    static func sample(_ sample: Sample, correlations: [UUID: Correlation], context: CommandContext,
                       formatters: inout Formatters) -> String {
        if let workout = Workout(sample: sample) { return WorkoutOutput(context: context).json(workout, heartRate: nil) }
        if sample.detail?.correlation != nil {
            return CorrelationOutput(context: context, type: nil)
                .json(correlations[sample.uuid] ?? Correlation(sample: sample, members: []))
        }
        if let known = formatters.byType[sample.typeIdentifier] { return known.json(sample) }
        let type = context.catalogue.type(identifier: sample.typeIdentifier)
        let formatter = SampleFormatter(
            type: type ?? .quantity(sample.typeIdentifier, name: sample.typeIdentifier, title: sample.typeIdentifier,
                                    aggregation: .discreteArithmetic, unit: "count", examples: []),
            unit: type?.displayUnit, timeZone: context.globals.time.timeZone, recorded: context.globals.recordedZones)
        formatters.byType[sample.typeIdentifier] = formatter
        return formatter.json(sample)
    }

    /// The added correlations of `changes` with their members as `store` shows them, by uuid.
    static func correlations(in changes: ChangeSet, store: SampleStore) throws -> [UUID: Correlation] {
        let samples = changes.added.filter { $0.detail?.correlation != nil }
        guard !samples.isEmpty else { return [:] }
        let found = try CorrelationQuery.correlations(of: samples, in: store)
        return Dictionary(found.map { ($0.sample.uuid, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// One line per added sample and deletion, then the anchor: the form `changes --format jsonl` and `watch` print.
    static func printLines(_ changes: ChangeSet, store: SampleStore, context: CommandContext) throws {
        let zone = context.globals.time.timeZone
        let correlations = try self.correlations(in: changes, store: store)
        var formatters = Formatters()
        for sample in changes.added {
            if context.console.outputClosed { return }
            context.console.line("{\"added\":" + self.sample(sample, correlations: correlations, context: context,
                                                               formatters: &formatters) + "}")
        }
        for tombstone in changes.deleted { context.console.line("{\"deleted\":" + self.tombstone(tombstone, zone: zone) + "}") }
        context.console.line("{\"anchor\":\"\(changes.anchor)\"}")
    }

    /// `{"added":[…],"deleted":[…],"anchor":"…"}` (json) or one object per line with the anchor last (jsonl).
    static func print(_ changes: ChangeSet, store: SampleStore, context: CommandContext, lines: Bool) throws {
        if lines { return try printLines(changes, store: store, context: context) }
        let zone = context.globals.time.timeZone
        let correlations = try self.correlations(in: changes, store: store)
        // Written piece by piece: ten years' changes are 630 MB of JSON, which building whole took 2.5 GB of memory.
        let console = context.console
        var formatters = Formatters()
        console.part("{\"added\":[")
        for (index, added) in changes.added.enumerated() {
            if console.outputClosed { return }
            if index > 0 { console.part(",") }
            console.part(sample(added, correlations: correlations, context: context, formatters: &formatters))
        }
        console.part("],\"deleted\":[")
        for (index, deleted) in changes.deleted.enumerated() {
            if console.outputClosed { return }
            if index > 0 { console.part(",") }
            console.part(tombstone(deleted, zone: zone))
        }
        console.line("],\"anchor\":\"\(changes.anchor)\"}")
    }
}
