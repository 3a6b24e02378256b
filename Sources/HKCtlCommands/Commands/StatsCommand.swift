import HealthCore
import HKCtlSupport
import TextSupport

/// `hkctl stats TYPE [RANGE] [--by UNIT | --every LENGTH] [figures] [filters]`: statistics like HealthKit's
/// statistics and statistics-collection queries, with sources merged by priority.
enum StatsCommand: Command {
    static let name = "stats"
    static let abstract = "Summarise a type over a range, sources merged: sum, averages or sleep."
    static let usage = "stats <type> [<range>] [--by <period> | --every <length>] [options]"
    static let arguments: [(label: String, help: String)] = [
        ("<type>", "water, steps, weight, sleep (or a HealthKit identifier)."),
    ]
    static let options: [OptionSpec] = RangeOptions.specs + [
        OptionSpec(name: "by", valueName: "period",
                   help: "One row per calendar period; sleep: day and night give one row per night (values: hour, day, week, month, year, night)."),
        OptionSpec(name: "every", valueName: "length", help: "One row per bucket of this length, such as 15m, 6h, 2w or 3mo."),
        OptionSpec(name: "anchor", valueName: "time", help: "A bucket boundary (default: local midnight, or the week, month or year start)."),
        OptionSpec(name: "week-start", valueName: "day", help: "First day of week buckets (values: mon, sun; default: the locale's, else mon)."),
        OptionSpec(name: "unit", valueName: "unit", help: "Show quantities in this unit (default: the type's usual unit)."),
        OptionSpec(name: "sum", valueName: nil, help: "Show the sum (cumulative types)."),
        OptionSpec(name: "average", valueName: nil, help: "Show the average (discrete types)."),
        OptionSpec(name: "min", valueName: nil, help: "Show the minimum (discrete types)."),
        OptionSpec(name: "max", valueName: nil, help: "Show the maximum (discrete types)."),
        OptionSpec(name: "latest", valueName: nil, help: "Show the most recent value and its date."),
        OptionSpec(name: "duration", valueName: nil, help: "Show the time covered by samples, overlaps once."),
        OptionSpec(name: "by-source", valueName: nil, help: "Add each source's own figures beside the merged ones."),
        OptionSpec(name: "no-merge", valueName: nil, help: "Add every source up instead of merging overlaps by priority."),
        OptionSpec(name: "only-source", valueName: "name", repeatable: true, help: "Use only samples from this source (repeatable)."),
        OptionSpec(name: "meta", valueName: "key=value", repeatable: true,
                   help: "Use only samples with this metadata (KEY=VALUE, or KEY to require the key; repeatable)."),
        OptionSpec(name: "strict-start", valueName: nil, help: "Count a sample only in the range or bucket where it starts."),
        OptionSpec(name: "strict-end", valueName: nil, help: "Count a sample only in the range or bucket where it ends."),
        OptionSpec(name: "night-cutoff", valueName: "time", help: "Sleep: when one night ends and the next begins (default: 12:00)."),
        OptionSpec(name: "clip-to-days", valueName: nil,
                   help: "Sleep: count by the clock (cut at midnight) instead of by the night."),
        OptionSpec(name: "explain", valueName: nil, help: "Show how every sample counted in each bucket."),
        OptionSpec(name: "activity", valueName: "activity", help: "Workouts: only this activity (see 'hkctl types workouts')."),
    ]
    static let discussion = """
        The range defaults to --today. Cumulative types (water, steps) give the sum;
        samples that straddle the range's edges or a bucket boundary are split by time.
        When several sources record the same time (a phone and a watch), only the
        highest-priority source counts there; see 'hkctl sources priority'. Discrete
        types (weight) give average, minimum, maximum and most recent of the readings
        that start in the range (heart rate is averaged by time). Sleep is counted by
        the night, as the Health app does: a night belongs to the morning it ends on,
        from cut-off to cut-off, and the range names those mornings (--today is last
        night, --week the last seven nights). It gives seconds asleep (all asleep
        stages) and in bed (unknown when no in-bed sample was recorded), overlapping
        samples counted once, and lists the nights; --by day (or --by night) gives a
        row per night, --by week/month/year the nights whose morning falls in each.
        --clip-to-days counts sleep by the clock instead, cut at midnight.
        In a table, a period cut by the range or a total not over yet (today, this
        week) is marked * with a note; whole days show as dates (DAY). JSON and CSV
        round figures hkctl computes to two more decimals than the table shows.

        Examples:
          hkctl stats steps --week --by day
          hkctl stats steps --today --every 15m --by-source
          hkctl stats heart-rate --yesterday --average --max
          hkctl stats sleep --week
          hkctl stats steps --explain
          hkctl stats workouts --month --by week --activity running
          hkctl stats blood-pressure --month
        """

    /// The flag of each figure option.
    static let figureFlags: [(flag: String, option: StatisticsOptions)] = [
        ("sum", .sum), ("average", .average), ("min", .minimum), ("max", .maximum), ("latest", .mostRecent),
        ("duration", .duration),
    ]

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        if try StatsComposite.run(arguments, context: context) { return }
        let type = try onlyType(arguments, context: context)
        var time = context.globals.time
        time.calendar.firstWeekday = try weekStart(arguments) ?? time.calendar.firstWeekday
        let clipped = arguments.has("clip-to-days")
        if clipped && !type.isSleepAnalysis {
            throw UsageError(message: "'--clip-to-days' applies to sleep only (other types are always counted by the clock)", command: name)
        }
        let (bucket, byNight) = try buckets(arguments, type: type, byTheNight: !clipped)
        let anchor = try arguments.value("anchor").map { try TimeExpression.parse($0, in: time).date }
        let unit = try context.displayUnit(for: type, explicit: arguments.value("unit"))
        let range = try RangeOptions.range(arguments, context: time, command: name) ?? .today
        let interval = try range.interval(in: time)
        let store = try context.healthStore()
        let priority = try store.storage.sourcePriorities().priority(for: type.identifier)
        let predicate = try self.predicate(arguments)
        let merging = !arguments.has("no-merge")
        do {
            let query = StatisticsRequest(
                type: type, interval: interval, unit: unit, options: try figures(arguments, type: type),
                predicate: predicate, bucketInterval: bucket, anchor: anchor, priority: priority,
                mergesSources: merging, explains: arguments.has("explain"))
            let cutoff = try arguments.value("night-cutoff").map { try NightCutoff(parsing: $0) } ?? .noon
            if arguments.value("night-cutoff") != nil && !(type.isSleepAnalysis && (bucket == nil || !clipped)) {
                throw UsageError(message: "'--night-cutoff' applies to sleep nights only", command: name)
            }
            // Sleep is counted by the night unless asked to clip to the clock; without buckets its nights are listed.
            let result: StatisticsResult
            var nights: [SleepNight]?
            if type.isSleepAnalysis && !clipped && bucket == nil {
                (result, nights) = try query.runByNightListingNights(on: store, calendar: time.calendar, cutoff: cutoff)
            } else {
                result = type.isSleepAnalysis && !clipped
                    ? try query.runByNight(on: store, calendar: time.calendar, cutoff: cutoff)
                    : try query.run(on: store, calendar: time.calendar)
                if type.isSleepAnalysis && bucket == nil {
                    nights = try SleepNightsQuery(interval: interval, cutoff: cutoff, predicate: predicate, priority: priority,
                                                  mergesSources: merging).run(on: store, calendar: time.calendar)
                }
            }
            // Calendar periods (not `--every`, not moved by `--anchor`) can be partial and whole days shown as dates.
            let calendarBucket = bucket != nil && anchor == nil ? arguments.value("by").flatMap(BucketUnit.init(rawValue:)) : nil
            StatisticsOutput(result: result, nights: nights, nightRows: byNight, explain: arguments.has("explain"),
                             time: time, context: context, calendarBucket: calendarBucket).print()
        } catch let error as StatisticsError {
            throw usageError(error)
        }
    }

    /// `--by` / `--every`: the bucket length, and whether `--by night` asked for one row per night (as `--by day` does
    /// for sleep counted by the night).
    private static func buckets(_ arguments: ParsedArguments, type: SampleType, byTheNight: Bool) throws -> (BucketInterval?, Bool) {
        let by = arguments.value("by"), every = arguments.value("every")
        if by != nil && every != nil {
            throw UsageError(message: "Give one of '--by <period>' and '--every <length>'", command: name)
        }
        if let by {
            if by == "night" || (by == "day" && type.isSleepAnalysis && byTheNight) {
                guard type.isSleepAnalysis else {
                    throw UsageError(message: "'--by night' applies to sleep only; use hour, day, week, month or year", command: name)
                }
                return (nil, true)
            }
            guard let unit = BucketUnit(rawValue: by) else {
                throw UsageError(message: "The value '\(by)' is invalid for '--by <period>'; use hour, day, week, month or year "
                    + "(or night, for sleep)", command: name)
            }
            return (BucketInterval(unit), false)
        }
        if let every {
            do {
                return (try BucketInterval(parsing: every), false)
            } catch {
                throw UsageError(message: "The value '\(every)' is invalid for '--every <length>'; write it like 15m, 6h, 1d, 2w, 3mo or 1y", command: name)
            }
        }
        if arguments.value("anchor") != nil {
            throw UsageError(message: "'--anchor' needs '--by <period>' or '--every <length>'", command: name)
        }
        return (nil, false)
    }

    /// The figure flags given, or nil for the type's defaults.
    private static func figures(_ arguments: ParsedArguments, type: SampleType) throws -> StatisticsOptions? {
        var figures: StatisticsOptions = []
        for (flag, option) in figureFlags where arguments.has(flag) { figures.insert(option) }
        if arguments.has("by-source") { figures.insert(.separateBySource) }
        return figures.isEmpty ? nil : figures
    }

    private static func predicate(_ arguments: ParsedArguments) throws -> SamplePredicate {
        var dates: SamplePredicate.DateOptions = []
        if arguments.has("strict-start") { dates.insert(.strictStartDate) }
        if arguments.has("strict-end") { dates.insert(.strictEndDate) }
        let sources = arguments.values["only-source"].map(Set.init)
        let metadata = try (arguments.values["meta"] ?? []).map { text in
            do {
                return try MetadataCondition(parsing: text)
            } catch {
                throw UsageError(message: "The value '\(text)' is invalid for '--meta <key=value>'; write KEY=VALUE or KEY", command: name)
            }
        }
        return SamplePredicate(dateOptions: dates, sources: sources, metadata: metadata)
    }

    /// A library error about the command line, as a usage error that names the flags.
    private static func usageError(_ error: StatisticsError) -> UsageError {
        if case let .optionNotApplicable(option, type, allowed) = error {
            func flag(_ name: String) -> String {
                let option = StatisticsOptions.named.first { $0.name == name }?.option
                return "--" + (figureFlags.first { $0.option == option }?.flag ?? name)
            }
            let choices = allowed.isEmpty ? "sleep gives time asleep and in bed and takes no figure flags"
                : "use " + allowed.map(flag).joined(separator: ", ")
            return UsageError(message: "'\(flag(option))' does not apply to \(type); \(choices)", command: name)
        }
        return UsageError(message: error.description, command: name)
    }
}
