import HealthCore
import HKCtlSupport
import TextSupport

/// `hkctl add workout|blood-pressure|food ...`: the add command for workouts and correlations.
enum AddComposite {
    static let options: [OptionSpec] = [
        OptionSpec(name: "energy", valueName: "amount", help: "Workout: energy burned (420kcal); food: dietary energy (350kcal)."),
        OptionSpec(name: "distance", valueName: "amount", help: "Workout: distance covered (7.2km, 4.5mi)."),
        OptionSpec(name: "indoor", valueName: nil, help: "Workout: it was indoors (HKIndoorWorkout = 1)."),
        OptionSpec(name: "protein", valueName: "amount", help: "Food: protein (12g)."),
        OptionSpec(name: "carbs", valueName: "amount", help: "Food: carbohydrates (60g)."),
        OptionSpec(name: "fat", valueName: "amount", help: "Food: total fat (7g)."),
        OptionSpec(name: "sugar", valueName: "amount", help: "Food: sugar (5g)."),
        OptionSpec(name: "fiber", valueName: "amount", help: "Food: fiber (8g)."),
        OptionSpec(name: "sodium", valueName: "amount", help: "Food: sodium (400mg)."),
        OptionSpec(name: "caffeine", valueName: "amount", help: "Food: caffeine (95mg, or 0mg for none)."),
        OptionSpec(name: "nutrient", valueName: "type=amount", repeatable: true, help: "Food: any other dietary type (water=250mL)."),
    ]

    /// Handles the add if `<type>` is a workout or a correlation; false otherwise.
    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> Bool {
        guard let typeName = arguments.positionals.first else { return false }
        if CompositeNames.isMood(typeName) {
            try AddMood.run(arguments, context: context)
        } else if CompositeNames.isWorkout(typeName) {
            try refuse(AddMood.moodOnlyOptions, for: "workouts", arguments)
            try workout(arguments, context: context)
        } else if let type = CorrelationType.named(typeName) {
            try refuse(AddMood.moodOnlyOptions, for: type.name, arguments)
            try correlation(type, arguments, context: context)
        } else {
            if let option = AddMood.moodOnlyOptions.first(where: arguments.has) {
                throw UsageError(message: "--\(option) is for mood, not \(typeName)", command: AddCommand.name)
            }
            if let option = CompositeNames.compositeOnlyOptions.first(where: arguments.has) {
                throw UsageError(message: "--\(option) is for workouts and food, not \(typeName)", command: AddCommand.name)
            }
            return false
        }
        return true
    }

    private static func time(_ arguments: ParsedArguments, _ name: String, context: CommandContext) throws -> TimeExpression? {
        try arguments.value(name).map { try TimeExpression.parse($0, in: context.globals.time) }
    }

    private static func refuse(_ options: [String], for what: String, _ arguments: ParsedArguments) throws {
        if let option = options.first(where: arguments.has) {
            throw UsageError(message: "--\(option) does not apply to \(what)", command: AddCommand.name)
        }
    }

    private static func workout(_ arguments: ParsedArguments, context: CommandContext) throws {
        let words = Array(arguments.positionals.dropFirst())
        guard let activity = words.first else {
            throw UsageError(message: "Missing expected argument '<activity>': write it like 'hkctl add workout running 45min' (see 'hkctl types workouts')", command: AddCommand.name)
        }
        guard words.count <= 2 else { throw UsageError(message: "Unexpected argument '\(words[2])'", command: AddCommand.name) }
        try refuse(["stage", "on", "protein", "carbs", "fat", "sugar", "fiber", "sodium", "caffeine", "nutrient"], for: "workouts", arguments)
        if arguments.value("at") != nil && (arguments.value("from") != nil || arguments.value("to") != nil) {
            throw UsageError(message: "Give either --at or --from and --to, not both", command: AddCommand.name)
        }
        if (arguments.value("from") == nil) != (arguments.value("to") == nil) {
            throw UsageError(message: "--from and --to go together", command: AddCommand.name)
        }
        if words.count < 2 && arguments.value("from") == nil {
            throw UsageError(message: "Missing expected argument '<duration>': write it like '45min' or '1h30m', or give --from and --to", command: AddCommand.name)
        }
        let entry = WorkoutEntry(
            activity: activity, duration: words.count > 1 ? words[1] : nil, at: try time(arguments, "at", context: context),
            from: try time(arguments, "from", context: context), to: try time(arguments, "to", context: context),
            energy: arguments.value("energy"), distance: arguments.value("distance"), indoor: arguments.has("indoor"),
            metadata: AddCommand.recordingZone(in: try SyncOptions.metadata(arguments, adding: try CompositeNames.metadata(arguments, command: AddCommand.name),
                                                                            command: AddCommand.name), context: context))
        let workout = try entry.workout(source: context.globals.source, context: context.globals.time, catalogue: context.catalogue)
        guard SyncOptions.report(try context.healthStore(recording: .add).saveReporting([workout.sample]), workout.sample,
                                 context: context) else { return }
        WorkoutOutput(context: context).print([workout], heartRates: [:], single: true)
    }

    private static func correlation(_ type: CorrelationType, _ arguments: ParsedArguments, context: CommandContext) throws {
        try refuse(["from", "to", "stage", "on", "distance", "indoor"], for: type.name, arguments)
        let words = Array(arguments.positionals.dropFirst())
        let metadata = AddCommand.recordingZone(in: try SyncOptions.metadata(arguments, adding: try CompositeNames.metadata(arguments, command: AddCommand.name),
                                                                             command: AddCommand.name), context: context)
        let samples: [Sample]
        if type == .bloodPressure {
            try refuse(CompositeNames.nutrientFlags.map(\.flag) + ["nutrient"], for: type.name, arguments)
            guard !words.isEmpty else {
                throw UsageError(message: "Missing expected argument '<reading>': write it like '120/80' (mmHg)", command: AddCommand.name)
            }
            // `120/80 mmHg` arrives as two arguments.
            guard words.count <= 2 else { throw UsageError(message: "Unexpected argument '\(words[2])'", command: AddCommand.name) }
            samples = try BloodPressureEntry(reading: words.joined(), at: try time(arguments, "at", context: context),
                                             metadata: metadata)
                .samples(source: context.globals.source, context: context.globals.time, catalogue: context.catalogue)
        } else {
            guard let name = words.first else {
                throw UsageError(message: "Missing expected argument '<name>': write it like 'hkctl add food \"Oatmeal\" --energy 350kcal'", command: AddCommand.name)
            }
            guard words.count == 1 else {
                throw UsageError(message: "Unexpected argument '\(words[1])'; put a name with spaces in quotes", command: AddCommand.name)
            }
            var amounts: [(type: String, amount: String)] = []
            for (flag, typeName) in CompositeNames.nutrientFlags {
                if let amount = arguments.value(flag) { amounts.append((typeName, amount)) }
            }
            for pair in arguments.values["nutrient"] ?? [] {
                guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                    throw UsageError(message: "The value '\(pair)' is invalid for '--nutrient <type=amount>'; write it like 'water=250mL'", command: AddCommand.name)
                }
                amounts.append((String(pair[..<equals]), String(pair[pair.index(after: equals)...])))
            }
            samples = try FoodEntry(name: name, amounts: amounts, at: try time(arguments, "at", context: context), metadata: metadata)
                .samples(source: context.globals.source, context: context.globals.time, catalogue: context.catalogue)
        }
        // Members and correlation in one all-or-nothing batch.
        guard SyncOptions.report(try context.healthStore(recording: .add).saveReporting(samples), samples.last!,
                                 context: context) else { return }
        let correlation = Correlation(sample: samples.last!, members: Array(samples.dropLast()))
        CorrelationOutput(context: context, type: type).print([correlation], single: true)
    }
}
