import HealthCore
import TextSupport

/// Prints change sets and tombstones as JSON or JSON Lines.
enum ChangeOutput {
    static func tombstone(_ tombstone: Tombstone, zone: ZoneRules) -> String {
        "{\"uuid\":\"\(tombstone.uuid.lowercasedText)\",\"type\":\(JSONText.quoted(tombstone.typeIdentifier)),"
            + "\"deletedAt\":\"\(ISODate.format(tombstone.deletedAt, in: zone))\"}"
    }

    /// A sample as `list --format json` prints it, in its type's display unit.
    static func sample(_ sample: Sample, context: CommandContext) -> String {
        if let workout = Workout(sample: sample) { return WorkoutOutput(context: context).json(workout, heartRate: nil) }
        if sample.detail?.correlation != nil {
            // Members are separate changes of their own types; the correlation lists their uuids.
            return CorrelationOutput(context: context, type: nil).json(Correlation(sample: sample, members: []))
        }
        let type = context.catalogue.type(identifier: sample.typeIdentifier)
        let formatter = SampleFormatter(
            type: type ?? .quantity(sample.typeIdentifier, name: sample.typeIdentifier, title: sample.typeIdentifier,
                                    aggregation: .discreteArithmetic, unit: "count", examples: []),
            unit: type?.displayUnit, timeZone: context.globals.time.timeZone)
        return formatter.json(sample)
    }

    /// `{"added":[…],"deleted":[…],"anchor":"…"}` (json) or one object per line with the anchor last (jsonl).
    static func print(_ changes: ChangeSet, context: CommandContext, lines: Bool) {
        let zone = context.globals.time.timeZone
        let console = context.console
        if lines {
            for sample in changes.added { console.line("{\"added\":" + self.sample(sample, context: context) + "}") }
            for tombstone in changes.deleted { console.line("{\"deleted\":" + self.tombstone(tombstone, zone: zone) + "}") }
            console.line("{\"anchor\":\"\(changes.anchor)\"}")
        } else {
            let added = changes.added.map { self.sample($0, context: context) }.joined(separator: ",")
            let deleted = changes.deleted.map { tombstone($0, zone: zone) }.joined(separator: ",")
            console.line("{\"added\":[\(added)],\"deleted\":[\(deleted)],\"anchor\":\"\(changes.anchor)\"}")
        }
    }
}
