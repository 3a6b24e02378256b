import HealthCore
import HKCtlSupport
import TextSupport

/// `hkctl edit UUID [VALUE]`: replaces a sample by a corrected copy in one undoable operation.
enum EditCommand: Command {
    static let name = "edit"
    static let showsSampleTimes = true
    static let abstract = "Correct a sample: its value, times, stage or metadata (one undoable replacement)."
    static let usage = "edit <uuid> [<value>] [--at <time> | --from <time> --to <time>] [--stage <stage>] [--meta <key=value> ...]"
    static let arguments: [(label: String, help: String)] = [
        ("<uuid>", "The sample to correct: its uuid or a unique prefix of 8 or more characters (see 'hkctl list')."),
        ("<value>", "The corrected amount with its unit (72.4kg, 500mL), or for sleep a range such as 23:10-07:05; left out, the value stays."),
    ]
    static let options: [OptionSpec] = [
        OptionSpec(name: "at", valueName: "time", help: "The corrected time of an instantaneous sample."),
        OptionSpec(name: "from", valueName: "time", help: "The corrected start (with --to)."),
        OptionSpec(name: "to", valueName: "time", help: "The corrected end (with --from)."),
        OptionSpec(name: "stage", valueName: "stage", help: "The corrected sleep stage (inbed, asleep, core, deep, rem, awake)."),
        OptionSpec(name: "meta", valueName: "key=value", repeatable: true, help: "Metadata to set or change; the sample's other metadata stays."),
        QuietOption.spec,
    ]
    static let discussion = """
        The sample is replaced by a corrected one with a new uuid, in one write: 'hkctl changes' and 'watch' see a
        deletion and an addition, and 'hkctl undo' takes the edit back (the original returns as a copy with a new
        uuid). Its times, source and metadata stay unless changed; a sleep range stays on the sample's night. A source edits only the samples it may delete
        (its own; the owner: all). Workouts and correlations (blood pressure, food) are not edited: delete and add
        them again.

        EXAMPLES:
          hkctl edit 1332c702 72.4kg
          hkctl edit 1332c702 --at 07:30
          hkctl edit 5d0e77a1 --stage deep
          hkctl edit 5d0e77a1 23:10-07:05
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        guard let first = arguments.positionals.first else {
            throw UsageError(message: "Missing expected argument '<uuid>'", command: name)
        }
        let words = Array(arguments.positionals.dropFirst())
        // `72.4 kg` arrives as two arguments; more is a forgotten quote.
        if words.count > 2 { throw UsageError(message: "Unexpected argument '\(words[2])'", command: name) }
        let value = words.isEmpty ? nil : words.joined(separator: " ")
        if arguments.value("at") != nil && (arguments.value("from") != nil || arguments.value("to") != nil) {
            throw UsageError(message: "Give either --at or --from and --to, not both", command: name)
        }
        if (arguments.value("from") == nil) != (arguments.value("to") == nil) {
            throw UsageError(message: "--from and --to go together", command: name)
        }
        let changesTime = arguments.value("at") != nil || arguments.value("from") != nil
        guard value != nil || changesTime || arguments.value("stage") != nil || arguments.values["meta"] != nil else {
            throw UsageError(message: "Nothing to change: give the corrected value, --at, --from/--to, --stage or --meta", command: name)
        }
        let time = context.globals.time
        let store = context.store(recording: .replace)
        let access = try context.healthStore()
        let uuid = try UUIDArgument.resolve([first], store: store, access: access)[0]
        guard let old = try store.samples(withUUIDs: [uuid]).first(where: { !access.deletable([$0]).isEmpty }) else {
            throw ChangeError.notFoundToReplace([uuid])
        }
        guard let type = context.catalogue.type(identifier: old.typeIdentifier), old.detail == nil else {
            throw UsageError(message: "'hkctl edit' corrects quantity and category samples, not a "
                + "\(old.detail?.workout != nil ? "workout" : "correlation"); delete it and add it again ('hkctl undo' "
                + "takes a delete back)", command: name)
        }
        if type.kind == .quantity, arguments.value("stage") != nil {
            throw UsageError(message: "--stage is for category types such as sleep, not \(type.name)", command: name)
        }
        try access.checkMaySave([type.identifier])
        let corrected = try correctedSample(old, type: type, value: value, arguments: arguments, context: context)
        // A copy that says what the sample says would only give it a new uuid: every syncing client would see a
        // deletion and an addition, and undo a step that changed nothing.
        // (The same amount in another unit, `72400g` for 72.4 kg, is the same value.)
        let sameValue = corrected.value == old.value
            || corrected.value.quantity.map { new in old.value.quantity.map { new.isSameAmount(as: $0) } ?? false } ?? false
        if sameValue, corrected.start == old.start, corrected.end == old.end,
           corrected.metadata.filter({ !Sample.correctionKeys.contains($0.key) })
            == old.metadata.filter({ !Sample.correctionKeys.contains($0.key) }) {
            throw UsageError(message: "Nothing to change: \(old.uuid.lowercasedText) already has this value, time and metadata",
                             command: name)
        }
        // Said of a range or times this edit gives, not again of a stored range whose metadata it changes.
        let warnings = corrected.start != old.start || corrected.end != old.end
            ? SampleEntry.warnings(for: corrected, of: type, context: time) : []
        try store.replace([old.uuid], with: [corrected], source: access.isOwner ? nil : access.source,
                          types: [old.typeIdentifier], now: time.now)
        context.console.note("Replaced \(old.uuid.lowercasedText) by \(corrected.uuid.lowercasedText); 'hkctl undo' takes it back.")
        for warning in warnings { context.console.error("Warning: " + warning) }
        SampleOutput.print([corrected], type: type, unit: corrected.value.quantity?.unit, context: context, single: true)
    }

    /// `old` with what the arguments change, a new uuid and created now, checked as `add` checks a sample.
    private static func correctedSample(_ old: Sample, type: SampleType, value: String?, arguments: ParsedArguments,
                                        context: CommandContext) throws -> Sample {
        let time = context.globals.time
        let at = try arguments.value("at").map { try TimeExpression.parse($0, in: time) }
        let from = try arguments.value("from").map { try TimeExpression.parse($0, in: time) }
        let to = try arguments.value("to").map { try TimeExpression.parse($0, in: time) }
        var corrected = old
        corrected.uuid = UUID()
        corrected.created = time.now
        // An import that meets the old sample's record again finds it corrected, not new.
        corrected.markAsCorrection(of: old, catalogue: context.catalogue)
        for (key, text) in try CompositeNames.metadata(arguments, command: name) { corrected.metadata[key] = text }
        let stage = arguments.value("stage")
        let range = type.kind == .category && (value.map(ClockRange.looksLikeRange) ?? false)
        if value != nil || stage != nil {
            // The value as `add` reads it (for sleep, a range brings its times); the old stage unless another is named.
            let oldName = type.categoryValues.first { $0.rawValue == old.value.categoryRawValue }?.name
            // A range stays on the sample's night: it ends on the morning the old sample ended.
            let fresh = try SampleEntry(type: type, value: value, categoryValue: stage ?? (range || value == nil ? oldName : nil),
                                        endDay: time.startOfDay(old.end), metadata: corrected.metadata)
                .sample(source: old.source, context: time)
            corrected.value = fresh.value
            if range {
                corrected.start = fresh.start
                corrected.end = fresh.end
            }
        }
        if let at {
            corrected.start = at.date
            corrected.end = at.date
        } else if let from, let to {
            let end = to.isDateOnly ? time.startOfNextDay(after: to.date) : to.date
            guard end >= from.date else {
                throw SampleError.endBeforeStart(start: ISODate.format(from.date, in: time.timeZone),
                                                 end: ISODate.format(end, in: time.timeZone))
            }
            corrected.start = from.date
            corrected.end = end
        }
        // Through the initializer, which keeps dates to the millisecond as every stored sample.
        corrected = Sample(uuid: corrected.uuid, typeIdentifier: corrected.typeIdentifier, start: corrected.start,
                           end: corrected.end, value: corrected.value, source: corrected.source, created: corrected.created,
                           metadata: corrected.metadata, sourceVersion: corrected.sourceVersion, device: corrected.device)
        return try corrected.validated(as: type, now: time.now, timeZone: time.timeZone)
    }
}
