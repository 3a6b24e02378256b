import HealthCore
import HKCtlSupport
import TextSupport

/// `hkctl add TYPE VALUE`: saves one sample and prints it.
enum AddCommand: Command {
    static let name = "add"
    static let showsSampleTimes = true
    static let abstract = "Save one sample: an amount, or for sleep a time range."
    static let usage = "add <type> <value> [--at <time> | --from <time> --to <time>] [--stage <stage>] [--meta <key=value> ...] [--sync-id <id> [--sync-version <n>]]"
    static let arguments: [(label: String, help: String)] = [
        ("<type>", "water, steps, weight, sleep, workout, blood-pressure, food, mood (or a HealthKit identifier; see 'hkctl types')."),
        ("<value>", "An amount with its unit (0.5L, 500mL, 16.9fl_oz_us, 72.4kg, 160lb, 11st; a bare number only for steps), or for sleep a range such as 23:10-07:05 (it ends this morning)."),
    ]
    static let options: [OptionSpec] = [
        OptionSpec(name: "at", valueName: "time", help: "When it happened (default: now)."),
        OptionSpec(name: "from", valueName: "time", help: "Start of a sample that lasted a while."),
        OptionSpec(name: "to", valueName: "time", help: "End of a sample that lasted a while."),
        OptionSpec(name: "stage", valueName: "stage", help: "Sleep stage (values: inbed, asleep, core, deep, rem, awake; default: asleep)."),
        OptionSpec(name: "on", valueName: "date", help: "For a sleep range: the day it ended (default: the latest such morning)."),
        OptionSpec(name: "meta", valueName: "key=value", repeatable: true, help: "Metadata to attach, kept as typed: a number only when written as hkctl prints it (42, 0.5), else text (007, 1.10)."),
        OptionSpec(name: "sync-id", valueName: "id", help: "HealthKit's sync identifier (HKMetadataKeySyncIdentifier): a sample with this id from this source is stored once; a greater --sync-version replaces it, an equal or lower one changes nothing (so a cron line run twice stores one sample)."),
        OptionSpec(name: "sync-version", valueName: "n", help: "The sync version (HKMetadataKeySyncVersion), a whole number; default 1 with --sync-id."),
    ] + AddComposite.options + AddMood.options + [QuietOption.spec]
    static let discussion = """
        TIME is ISO 8601 (2024-06-01, 2024-06-01T08:30, with or without an offset), HH:MM (today),
        'yesterday 22:30', or relative (-2h, -30m, -3d). Times without an offset are in --tz.

        EXAMPLES:
          hkctl add water 0.5L
          hkctl add steps 8000 --from 08:00 --to 09:00
          hkctl add weight 160lb --at 2024-06-01T07:30
          hkctl add sleep 23:10-07:05 --stage inbed
          hkctl add workout running 45min --energy 420kcal --distance 7.2km
          hkctl add blood-pressure 120/80
          hkctl add food "Oatmeal" --energy 350kcal --protein 12g
          hkctl add mood pleasant --labels calm,grateful --about work

        MOOD (HealthKit's state of mind) is a valence word, very-unpleasant, unpleasant,
        slightly-unpleasant, neutral, slightly-pleasant, pleasant or very-pleasant (the middle of
        HealthKit's band of that name), or a number from -1 to 1.
        """

    /// `metadata` with the zone the sample is logged in (`HKTimeZone`), unless it names one: as the Health app does,
    /// so that every sample `add` saves (quantities, sleep, workouts, blood pressure, food) can be shown as it was lived.
    static func recordingZone(in metadata: [String: MetadataValue], context: CommandContext) -> [String: MetadataValue] {
        var metadata = metadata
        if metadata[MetadataKeyTimeZone] == nil, let zone = context.globals.recordingZoneName { metadata[MetadataKeyTimeZone] = .string(zone) }
        return metadata
    }

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        if try AddComposite.run(arguments, context: context) { return }
        guard let typeName = arguments.positionals.first else {
            throw UsageError(message: "Missing expected argument '<type>'", command: name)
        }
        let type = try context.type(typeName)
        guard arguments.positionals.count <= 3 else {
            throw UsageError(message: "Unexpected argument '\(arguments.positionals[3])'", command: name)
        }
        // `500 mL` arrives as two arguments: the amount and its unit. A third word after an amount that already has
        // its unit is no unit: most often the rest of an unquoted `--meta note=after run`.
        if type.kind == .quantity, arguments.positionals.count == 3,
           arguments.positionals[1].contains(where: { $0.isLetter }), Double(arguments.positionals[1]) == nil {
            let word = arguments.positionals[2]
            let hint = arguments.values["meta"] == nil ? "" : "; a --meta value with spaces needs quotes: --meta 'key=value with spaces'"
            throw UsageError(message: "Unexpected argument '\(word)' after the amount '\(arguments.positionals[1])'\(hint)", command: name)
        }
        let value = arguments.positionals.count > 1 ? Array(arguments.positionals.dropFirst()).joined(separator: " ") : nil
        if value == nil && type.kind == .quantity {
            throw UsageError(message: "Missing expected argument '<value>': write it like \(type.examples.map { "'\($0)'" }.joined(separator: " or "))", command: name)
        }
        if arguments.value("at") != nil && (arguments.value("from") != nil || arguments.value("to") != nil) {
            throw UsageError(message: "Give either --at or --from and --to, not both", command: name)
        }
        if (arguments.value("from") == nil) != (arguments.value("to") == nil) {
            throw UsageError(message: "--from and --to go together", command: name)
        }
        if type.kind == .quantity, arguments.value("stage") != nil {
            throw UsageError(message: "--stage is for category types such as sleep, not \(type.name)", command: name)
        }
        if type.kind == .quantity, arguments.value("on") != nil {
            throw UsageError(message: "--on is for a time range such as 23:10-07:05, not \(type.name)", command: name)
        }
        if let value, type.kind == .category, ClockRange.looksLikeRange(value),
           arguments.value("at") != nil || arguments.value("from") != nil {
            throw UsageError(message: "Give either a range such as 23:10-07:05 or --at/--from/--to, not both", command: name)
        }
        if type.kind == .category, value == nil, arguments.value("from") == nil {
            throw UsageError(message: "Missing the time range: write it like '23:10-07:05' or use --from and --to", command: name)
        }
        let time = context.globals.time
        var metadata = try SyncOptions.metadata(arguments, adding: try CompositeNames.metadata(arguments, command: name),
                                                command: name)
        metadata = recordingZone(in: metadata, context: context)
        let entry = SampleEntry(
            type: type, value: value,
            at: try arguments.value("at").map { try TimeExpression.parse($0, in: time) },
            from: try arguments.value("from").map { try TimeExpression.parse($0, in: time) },
            to: try arguments.value("to").map { try TimeExpression.parse($0, in: time) },
            categoryValue: arguments.value("stage"),
            endDay: try arguments.value("on").map { context.globals.time.startOfDay(try TimeExpression.parse($0, in: time).date) },
            metadata: metadata)
        let sample = try entry.sample(source: context.globals.source, context: time)
        let store = try context.healthStore(recording: .add)
        var warnings = entry.warnings(for: sample, context: time)
        // Advice only: a store that cannot be read here fails the save below, with its own message.
        if type.isSleepAnalysis, let overlap = (try? sameSourceSleep(overlapping: sample, type: type, in: store, context: time)) ?? nil {
            warnings.append(overlap)
        }
        if let jump = (try? implausibleJump(to: sample, type: type, in: store, zone: time.timeZone)) ?? nil {
            warnings.append(jump)
        }
        let outcome = try store.saveReporting([sample])
        if outcome.unchanged.isEmpty { for warning in warnings { context.console.error("Warning: " + warning) } }
        guard SyncOptions.report(outcome, sample, context: context) else { return }
        let unit = sample.value.quantity?.unit
        SampleOutput.print([sample], type: type, unit: unit, context: context, single: true)
    }

    /// A warning when `sample` (a sleep range) overlaps stage data (core, deep, REM, awake) the same source already
    /// saved for that night: the night's figures then count the stages, and the new range only where they leave gaps.
    /// Otherwise a warning when the night already holds sleep of the same stage from the same source (a second
    /// `23:10-07:05`, or a range that landed on a night other than the one meant): both count.
    private static func sameSourceSleep(overlapping sample: Sample, type: SampleType, in store: HealthStore,
                                        context: TimeContext) throws -> String? {
        let stages: Set<Int> = [2, 3, 4, 5]
        let found = try store.samples(ofType: sample.typeIdentifier, overlapping: DateInterval(start: sample.start, end: sample.end))
            .filter { $0.source == sample.source && $0.end > sample.start && $0.start < sample.end
                && stages.contains($0.value.categoryRawValue ?? -1) && !replaces(sample, $0) }
        if !found.isEmpty {
            return "this range overlaps \(found.count) sleep stage sample\(found.count == 1 ? "" : "s") that '\(sample.source)' "
                + "already saved for this night; the night counts the stages first (saved as given)"
        }
        let night = NightCutoff.noon.night(containing: sample.start.addingTimeInterval(sample.duration / 2), calendar: context.calendar)
        let stage = sample.value.categoryRawValue
        let zone = context.timeZone
        // The spans of the night's samples of the same stage and source (a plain loop: Swift 6.3's release build
        // crashed on the filter-then-first form of this code).
        var spans: [String] = []
        for other in try store.samples(ofType: sample.typeIdentifier, overlapping: night)
        where other.source == sample.source && other.uuid != sample.uuid && other.value.categoryRawValue == stage
            && other.start >= night.start && other.start < night.end && !replaces(sample, other)
            // A nap in the afternoon and the night after it are no double entry: only ranges that overlap or lie
            // within two hours of each other are.
            && other.end > sample.start.addingTimeInterval(-7200) && other.start < sample.end.addingTimeInterval(7200) {
            spans.append("\(Display.time(other.start, in: zone).suffix(5))–\(Display.time(other.end, in: zone).suffix(5))")
        }
        guard !spans.isEmpty else { return nil }
        let morning = Display.time(night.end, in: zone).prefix(10)
        let stageName = type.categoryValues.first { $0.rawValue == stage }?.aliases.first ?? "sleep"
        return "the night ending on \(morning) already has \(stageName) from '\(sample.source)' (\(spans.joined(separator: ", "))); "
            + "this range is added to it (saved as given; if it was meant for another night, 'hkctl undo' takes it back)"
    }

    /// Whether saving `sample` replaces `stored` by HealthKit's sync-identifier rule (same source, same identifier):
    /// the warnings then leave the stored one out, since it is being corrected, not joined.
    private static func replaces(_ sample: Sample, _ stored: Sample) -> Bool {
        guard stored.source == sample.source, case let .string(identifier)? = sample.metadata[MetadataKeySyncIdentifier] else {
            return false
        }
        return stored.metadata[MetadataKeySyncIdentifier] == .string(identifier)
    }

    /// A warning when a body measurement differs from the type's previous reading by more than it can change in the
    /// time between them (``ReadingChangeRules``): `27.2kg` the day after `72.3kg` is a typing mistake, not a change.
    private static func implausibleJump(to sample: Sample, type: SampleType, in store: HealthStore, zone: ZoneRules) throws -> String? {
        let rules = ReadingChangeRules()
        guard rules.allowances[type.identifier] != nil else { return nil }
        let before = DateInterval(start: DateRange.distantStart, end: sample.start.addingTimeInterval(0.001))
        guard let previous = try store.latestSamples(ofType: type.identifier, overlapping: before, limit: 4)
                .first(where: { $0.start <= sample.start && $0.uuid != sample.uuid && !replaces(sample, $0) }),
              let jump = rules.jump(to: sample, from: previous, type: type),
              let display = type.displayUnit, let canonical = type.canonicalUnit else { return nil }
        func shown(_ value: Double) -> String {
            Display.quantity((try? canonical.convert(value, to: display)) ?? value, unit: display.unitString)
        }
        let difference = shown(abs(jump.value - jump.previousValue))
        let direction = jump.value < jump.previousValue ? "less" : "more"
        return "\(shown(jump.value)) is \(difference) \(direction) than the previous \(type.name) (\(shown(jump.previousValue)) on "
            + "\(Display.time(jump.previousDate, in: zone))), more than it can change in that time; check the number and "
            + "its unit (saved as given; 'hkctl undo' takes it back)"
    }
}
