import HealthCore

/// `hkctl list TYPE [RANGE]`: samples, newest first.
enum ListCommand: Command {
    static let name = "list"
    static let showsSampleTimes = true
    static let abstract = "List samples of a type, newest first."
    static let usage = "list <type> [--today | --yesterday | --week | --month | --year | --from <time> --to <time>] [--limit <n>] [--unit <unit>]"
    static let arguments: [(label: String, help: String)] = [
        ("<type>", "water, steps, weight, sleep, workouts, blood-pressure, food, mood (or a HealthKit identifier)."),
    ]
    static let options: [OptionSpec] = RangeOptions.specs + [
        OptionSpec(name: "limit", valueName: "n", help: "Show at most n samples (default: all)."),
        OptionSpec(name: "unit", valueName: "unit", help: "Show quantities in this unit (default: the type's usual unit)."),
        OptionSpec(name: "activity", valueName: "activity", help: "Workouts: only this activity (see 'hkctl types workouts')."),
    ]

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        if try ListComposite.run(arguments, context: context) { return }
        let type: SampleType
        do {
            type = try onlyType(arguments, context: context)
        } catch let SampleError.unknownType(name, _) where name.hasPrefix("HK")
                    && !((try? context.healthStore().latestSamples(ofType: name, overlapping: DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd),
                                                                   limit: 1))?.isEmpty ?? true) {
            // Samples an import kept generically (a type or element hkctl's catalogue does not have).
            throw UsageError(message: "'\(name)' is kept generically (hkctl has no type for it); see its samples with "
                             + "'hkctl export --type \(name) --format jsonl'", command: self.name)
        }
        var limit = Int.max
        if let text = arguments.value("limit") {
            guard let value = Int(text), value > 0 else {
                throw UsageError(message: "The value '\(text)' is invalid for '--limit <n>'; give a whole number above 0", command: name)
            }
            limit = value
        }
        let unit = try context.displayUnit(for: type, explicit: arguments.value("unit"))
        let range = try RangeOptions.range(arguments, context: context.globals.time, command: name) ?? .allTime
        let interval = try range.interval(in: context.globals.time)
        let samples = try context.healthStore().latestSamples(ofType: type.identifier, overlapping: interval, limit: limit)
        SampleOutput.print(samples, type: type, unit: unit, context: context)
    }
}
