import HealthCore
import HKCtlSupport

/// Everything a command needs to run: options, catalogue, output.
struct CommandContext {
    let globals: GlobalOptions
    let console: Console
    let catalogue: SampleTypeCatalogue
    /// The process environment (`NO_COLOR`, `COLUMNS`).
    var environment: [String: String] = [:]
    /// The store's settings when ``applyingZoneSetting()`` has read them, so ``displayUnit(for:explicit:)`` need not
    /// read the document again.
    var settingsRead: Settings? = nil

    /// The store named by the global options (created on first write).
    func store() -> JSONFileStore {
        store(recording: nil)
    }

    /// The store as the acting source sees it: writes checked against its permissions, reads filtered.
    func healthStore() throws -> HealthStore {
        try HealthStore(storage: store(), source: globals.source, catalogue: catalogue)
    }

    /// The store, recording its writes in `operations.jsonl` as one operation of `kind` by the acting source, so that
    /// `hkctl undo` can take it back.
    func store(recording kind: OperationRecord.Kind) -> JSONFileStore {
        store(recording: OperationRecording(kind: kind, source: globals.source, date: globals.time.now))
    }

    private func store(recording: OperationRecording?) -> JSONFileStore {
        JSONFileStore(path: globals.storePath, catalogue: catalogue, timeZone: globals.time.timeZone,
                      lockTimeout: globals.lockTimeout, clock: { [now = globals.time.now] in now }, recording: recording)
    }

    /// ``healthStore()`` recording its writes as one operation of `kind` (see ``store(recording:)``).
    func healthStore(recording kind: OperationRecord.Kind) throws -> HealthStore {
        try HealthStore(storage: store(recording: kind), source: globals.source, catalogue: catalogue)
    }

    /// Throws unless the acting source is the owner (for settings, permissions and compaction); `action` says what the
    /// command does, completing "Only the owner may" ("export the store").
    func requireOwner(to action: String) throws {
        if globals.source != AuthorizationState.ownerSource {
            throw AuthorizationError.ownerOnly(source: globals.source, action: action)
        }
    }

    /// Looks a type up by any of its names.
    func type(_ name: String) throws -> SampleType {
        if CompositeNames.isWorkout(name) { return Workout.sampleType }
        if CompositeNames.isMood(name) { return .stateOfMindType() }
        if let correlation = CorrelationType.named(name) { return correlation.sampleType }
        return try catalogue.type(named: name)
    }

    /// This context with the store's `tz = recorded` setting applied (`hkctl config set tz recorded`): samples are shown
    /// in the zone each was recorded in, unless `--tz` or `$HKCTL_TZ` names a zone. The setting only changes how
    /// times are shown, so a settings document that cannot be read leaves it off (`hkctl doctor` reports it).
    func applyingZoneSetting() -> CommandContext {
        guard globals.recordedZones == nil, !globals.zoneWasGiven,
              let settings = try? store().document("settings.json", default: Settings()) else { return self }
        var globals = self.globals
        if settings.showsRecordedZones { globals.recordedZones = RecordedZones(database: globals.zones) }
        return CommandContext(globals: globals, console: console, catalogue: catalogue, environment: environment,
                              settingsRead: settings)
    }

    /// The unit to show a type in: `--unit`, else the `unit.<type>` setting, else the type's usual unit.
    func displayUnit(for type: SampleType, explicit: String?) throws -> HealthUnit? {
        if let explicit { return try QuantityInput.unit(explicit, for: type) }
        let settings = try settingsRead ?? store().document("settings.json", default: Settings())
        return settings.displayUnit(for: type) ?? type.displayUnit
    }
}

/// A subcommand: its help and its `run`, which parses, calls the library and renders, nothing more.
protocol Command: Sendable {
    static var name: String { get }
    /// One sentence.
    static var abstract: String { get }
    /// The usage line after `hkctl `.
    static var usage: String { get }
    /// Positional arguments and their help.
    static var arguments: [(label: String, help: String)] { get }
    /// The command's own options (the global ones are added).
    static var options: [OptionSpec] { get }
    /// Extra paragraphs for `--help` (examples, rules).
    static var discussion: String { get }
    /// The values `--format` may take; the first is the default.
    static var formats: [String] { get }
    /// Whether it prints samples with their times, so that `config set tz recorded` applies to it.
    static var showsSampleTimes: Bool { get }

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws
}

extension Command {
    static var discussion: String { "" }
    /// The values `--format` may take for this command; the first is the default.
    static var formats: [String] { ["table", "json", "csv"] }
    static var showsSampleTimes: Bool { false }
}

extension Command {
    /// The one `<type>` argument of list, stats and trend: exactly one positional, looked up in the catalogue.
    static func onlyType(_ arguments: ParsedArguments, context: CommandContext) throws -> SampleType {
        guard let typeName = arguments.positionals.first else {
            throw UsageError(message: "Missing expected argument '<type>'", command: name)
        }
        if arguments.positionals.count > 1 {
            throw UsageError(message: "Unexpected argument '\(arguments.positionals[1])'", command: name)
        }
        return try context.type(typeName)
    }

    /// `--week-start mon|sun` as a `Calendar.firstWeekday` (nil when not given).
    static func weekStart(_ arguments: ParsedArguments) throws -> Int? {
        guard let text = arguments.value("week-start") else { return nil }
        switch text.lowercased() {
        case "mon", "monday": return 2
        case "sun", "sunday": return 1
        case "sat", "saturday": return 7
        default:
            throw UsageError(message: "The value '\(text)' is invalid for '--week-start <day>'; use mon or sun", command: name)
        }
    }
}

/// The range options shared by list, stats and the other commands that read a range.
enum RangeOptions {
    static let specs: [OptionSpec] = [
        OptionSpec(name: "today", valueName: nil, help: "From midnight today to midnight tomorrow."),
        OptionSpec(name: "yesterday", valueName: nil, help: "The whole of yesterday."),
        OptionSpec(name: "week", valueName: nil, help: "The 7 days ending today (not the calendar week: see --this-week)."),
        OptionSpec(name: "month", valueName: nil, help: "The 30 days ending today (not the calendar month: see --this-month)."),
        OptionSpec(name: "year", valueName: nil, help: "The 365 days ending today (not the calendar year: see --this-year)."),
        OptionSpec(name: "this-week", valueName: nil, help: "This calendar week, from its first day (the locale's, or --week-start where a command has it) to its last."),
        OptionSpec(name: "this-month", valueName: nil, help: "This calendar month, from the 1st to its last day."),
        OptionSpec(name: "this-year", valueName: nil, help: "This calendar year, from January 1 to December 31."),
        OptionSpec(name: "period", valueName: "period", help: "A period as people say it: 2024, 2024-03, 2024-Q1, 2024-W12, 'last month', 'this week', 'last 7 days', 'from 2024-03-01 to 2024-03-15', 'since 2024-03' (see 'hkctl help periods').", short: "p"),
        OptionSpec(name: "from", valueName: "time", help: "Start of the range: a time (08:30, -2h, -2w: the same clock time two weeks back), or the first instant of a period (2024-03, 'last monday')."),
        OptionSpec(name: "to", valueName: "time", help: "End of the range: a time, or the end of a period (a date or 2024-03 is included whole)."),
    ]

    /// The range the options name, or nil when none was given.
    static func range(_ arguments: ParsedArguments, context: TimeContext, command: String) throws -> RangeExpression? {
        let named: [(String, RangeExpression)] = [
            ("today", .today), ("yesterday", .yesterday), ("week", .lastDays(7)), ("month", .lastDays(30)),
            ("year", .lastDays(365)), ("this-week", .period("this week")), ("this-month", .period("this month")),
            ("this-year", .period("this year")),
        ]
        let chosen = named.filter { arguments.flags.contains($0.0) }
        let explicit = arguments.value("from") != nil || arguments.value("to") != nil
        let period = arguments.value("period")
        if chosen.count + (explicit ? 1 : 0) + (period == nil ? 0 : 1) > 1 {
            throw UsageError(message: "Give one range: --today, --yesterday, --week, --month, --year, --this-week, --this-month, "
                + "--this-year, -p PERIOD or --from/--to", command: command)
        }
        if let only = chosen.first { return only.1 }
        if let period {
            _ = try PeriodExpression.interval(of: period, in: context)
            return .period(period)
        }
        if explicit {
            let from = try arguments.value("from").map { try bound($0, start: true, in: context) }
            let to = try arguments.value("to").map { try bound($0, start: false, in: context) }
            return .between(from: from, to: to)
        }
        return nil
    }

    /// One side of `--from`/`--to`: a time as ``TimeExpression`` reads it, else the start (or the end) of a period
    /// (`2024-03`, `last monday`, `2024-W12`). A date and a relative day (`-3d`) are read as times: a date's `--to`
    /// is through the end of that day either way.
    private static func bound(_ text: String, start: Bool, in context: TimeContext) throws -> TimeExpression {
        do {
            return try TimeExpression.parse(text, in: context)
        } catch let error as TimeInputError {
            guard case .malformed = error, let span = try PeriodExpression.span(of: text, in: context) else { throw error }
            return TimeExpression(date: start ? span.start : span.end, isDateOnly: false, text: text)
        }
    }
}
