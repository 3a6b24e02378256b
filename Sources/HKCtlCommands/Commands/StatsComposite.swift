import HealthCore

/// `hkctl stats workouts [RANGE] [--by week|month] [--activity A]` and `hkctl stats blood-pressure [RANGE] [--by P]`.
enum StatsComposite {
    /// Handles the stats if `<type>` is a workout or blood pressure; false otherwise.
    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Bool {
        guard let typeName = arguments.positionals.first else { return false }
        if CompositeNames.isMood(typeName) {
            throw UsageError(message: "stats does not summarise moods; 'hkctl list mood' lists them (--format json or csv for other tools)", command: StatsCommand.name)
        }
        let isWorkout = CompositeNames.isWorkout(typeName)
        let correlation = CorrelationType.named(typeName)
        guard isWorkout || correlation != nil else {
            if arguments.has("activity") { throw UsageError(message: "--activity is for workouts, not \(typeName)", command: StatsCommand.name) }
            return false
        }
        if correlation == .food {
            throw UsageError(message: "Food entries are summed by nutrient: use 'hkctl stats dietary-energy' (or protein, carbs, ...)", command: StatsCommand.name)
        }
        if arguments.positionals.count > 1 {
            throw UsageError(message: "Unexpected argument '\(arguments.positionals[1])'", command: StatsCommand.name)
        }
        let supported = Set(RangeOptions.specs.map(\.name) + GlobalOptions.specs.map(\.name) + ["by", "week-start", "activity"])
        if let other = (Array(arguments.flags) + Array(arguments.values.keys)).sorted().first(where: { !supported.contains($0) }) {
            throw UsageError(message: "--\(other) does not apply to \(typeName); it takes a range, --by and\(isWorkout ? " --activity" : "")", command: StatsCommand.name)
        }
        var time = context.globals.time
        time.calendar.firstWeekday = try StatsCommand.weekStart(arguments) ?? time.calendar.firstWeekday
        let bucket = try arguments.value("by").map { text -> BucketInterval in
            guard let unit = BucketUnit(rawValue: text) else {
                throw UsageError(message: "The value '\(text)' is invalid for '--by <period>'; use hour, day, week, month or year", command: StatsCommand.name)
            }
            return BucketInterval(unit)
        }
        let interval = try (try RangeOptions.range(arguments, context: time, command: StatsCommand.name) ?? .today).interval(in: time)
        let store = try context.healthStore()
        if isWorkout {
            let activity = try arguments.value("activity").map(WorkoutActivityType.named)
            let summary = try WorkoutQuery(interval: interval, activity: activity).summary(in: store, bucket: bucket, calendar: time.calendar)
            WorkoutOutput(context: context).print(summary, activity: activity, bucketed: bucket != nil)
        } else {
            if arguments.has("activity") { throw UsageError(message: "--activity is for workouts, not \(typeName)", command: StatsCommand.name) }
            let summary = try BloodPressureSummary(store: store, interval: interval, bucket: bucket, calendar: time.calendar)
            CorrelationOutput(context: context, type: .bloodPressure).print(summary, bucketed: bucket != nil)
        }
        return true
    }
}
