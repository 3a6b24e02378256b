import HealthCore

/// `hkctl stats TYPE [RANGE] [--by UNIT]`: totals or averages, optionally per calendar bucket.
enum StatsCommand: Command {
    static let name = "stats"
    static let abstract = "Summarise a type over a range: sum, or average/min/max/latest, or time asleep."
    static let usage = "stats <type> [--today | --yesterday | --week | --month | --year | --from <time> --to <time>] [--by <period>] [--unit <unit>]"
    static let arguments: [(label: String, help: String)] = [
        ("<type>", "water, steps, weight, sleep (or a HealthKit identifier)."),
    ]
    static let options: [OptionSpec] = RangeOptions.specs + [
        OptionSpec(name: "by", valueName: "period", help: "One row per calendar period (values: hour, day, week, month, year)."),
        OptionSpec(name: "unit", valueName: "unit", help: "Show quantities in this unit (default: the type's usual unit)."),
    ]
    static let discussion = """
        The range defaults to --today. Cumulative types (water, steps) give the sum; samples that straddle
        the range's edges or a period boundary are split by time. Discrete types (weight) give average,
        minimum, maximum and most recent of the readings that start in the range. Sleep gives seconds
        asleep (all asleep stages) and in bed, overlapping samples counted once.
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        guard let typeName = arguments.positionals.first else {
            throw UsageError(message: "Missing expected argument '<type>'", command: name)
        }
        if arguments.positionals.count > 1 {
            throw UsageError(message: "Unexpected argument '\(arguments.positionals[1])'", command: name)
        }
        let type = try context.type(typeName)
        var bucketUnit: BucketUnit?
        if let text = arguments.value("by") {
            guard let unit = BucketUnit(rawValue: text) else {
                throw UsageError(message: "The value '\(text)' is invalid for '--by <period>'; use hour, day, week, month or year", command: name)
            }
            bucketUnit = unit
        }
        let unit = try context.displayUnit(for: type, explicit: arguments.value("unit"))
        let time = context.globals.time
        let range = try RangeOptions.range(arguments, context: time, command: name) ?? .today
        let query = StatisticsQuery(type: type, interval: try range.interval(in: time), bucketUnit: bucketUnit, unit: unit)
        let result = try query.run(on: context.healthStore(), calendar: time.calendar)
        StatisticsOutput(result: result, context: context).print()
    }
}
