import HealthCore

/// `hkctl list workouts|blood-pressure|food|mood [RANGE] [--activity A] [--limit N]`.
enum ListComposite {
    /// Handles the list if `<type>` is a workout or a correlation; false otherwise.
    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Bool {
        guard let typeName = arguments.positionals.first else { return false }
        let isWorkout = CompositeNames.isWorkout(typeName)
        let correlation = CorrelationType.named(typeName)
        let isMood = CompositeNames.isMood(typeName)
        guard isWorkout || correlation != nil || isMood else {
            if arguments.has("activity") { throw UsageError(message: "--activity is for workouts, not \(typeName)", command: ListCommand.name) }
            return false
        }
        if arguments.positionals.count > 1 {
            throw UsageError(message: "Unexpected argument '\(arguments.positionals[1])'", command: ListCommand.name)
        }
        if arguments.has("unit") { throw UsageError(message: "--unit does not apply to \(typeName)", command: ListCommand.name) }
        var limit = Int.max
        if let text = arguments.value("limit") {
            guard let value = Int(text), value > 0 else {
                throw UsageError(message: "The value '\(text)' is invalid for '--limit <n>'; give a whole number above 0", command: ListCommand.name)
            }
            limit = value
        }
        let time = context.globals.time
        let interval = try (try RangeOptions.range(arguments, context: time, command: ListCommand.name) ?? .allTime).interval(in: time)
        let store = try context.healthStore()
        if isMood {
            if arguments.has("activity") { throw UsageError(message: "--activity is for workouts, not \(typeName)", command: ListCommand.name) }
            let states = try store.latestSamples(ofType: StateOfMind.typeIdentifier, overlapping: interval, limit: limit)
                .compactMap(StateOfMind.init)
            MoodOutput(context: context).print(states)
        } else if let correlation {
            if arguments.has("activity") { throw UsageError(message: "--activity is for workouts, not \(typeName)", command: ListCommand.name) }
            let found = try CorrelationQuery(type: correlation, interval: interval).run(on: store)
            CorrelationOutput(context: context, type: correlation).print(Array(found.reversed().prefix(limit)))
        } else {
            let activity = try arguments.value("activity").map(WorkoutActivityType.named)
            let workouts = Array(try WorkoutQuery(interval: interval, activity: activity).workouts(in: store).reversed().prefix(limit))
            let heartRates = try WorkoutQuery.averageHeartRates(for: workouts, in: store)
            WorkoutOutput(context: context).print(workouts, heartRates: heartRates)
        }
        return true
    }
}
