import HealthCore
import HKCtlSupport

/// `hkctl chart TYPE [RANGE] [--by day|week|month] [--svg FILE]`: bars for totals, a line for averages, stages per
/// night for sleep, in the terminal or as an SVG image.
enum ChartCommand: Command {
    static let name = "chart"
    static let abstract = "Draw a type over time: bars for totals, a line for averages, stages for sleep."
    static let usage = "chart <type> [<range>] [--by <period>] [--svg <file>] [options]"
    static let arguments: [(label: String, help: String)] = [
        ("<type>", "steps, water, weight, heart-rate, sleep (or a HealthKit identifier)."),
    ]
    static let options: [OptionSpec] = RangeOptions.specs + [
        OptionSpec(name: "by", valueName: "period", help: "One bar or point per period (values: hour, day, week, month, year; default: day)."),
        OptionSpec(name: "unit", valueName: "unit", help: "Show quantities in this unit (default: the type's usual unit)."),
        OptionSpec(name: "svg", valueName: "file", help: "Write the chart as a standalone SVG image to this file (- for standard output); written like export --out: a link is followed, a file replaced only when complete."),
    ] + TerminalOptions.specs
    static let formats = ["table"]
    static let discussion = """
        Cumulative types (steps, water) are drawn as one bar per period with the
        daily goal marked (│; see 'hkctl goal'); discrete types (weight, heart rate)
        as a line of the period averages with a sparkline; sleep as one bar per night
        split into its stages (deep, core, REM, asleep, awake, in bed). The chart fits
        the terminal's width; --ascii draws with # | - instead of block characters.
        The range defaults to the last 7 days by day, 12 weeks by week, 365 days by
        month or year, and today by hour. Sleep is always drawn per night. A period
        only partly in the range, or a total not over yet (today, this week), is
        marked * and left out of the average a period (the summary says so).

        Examples:
          hkctl chart steps
          hkctl chart steps --month --by week
          hkctl chart weight --month
          hkctl chart sleep --week --ascii
          hkctl chart steps --year --by month --svg steps.svg
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        let type = try onlyType(arguments, context: context)
        let style = try TerminalOptions.style(arguments, context: context, command: name)
        let bucket = try bucketUnit(arguments, type: type)
        let time = context.globals.time
        let defaultRange: RangeExpression = [.hour: .today, .day: .lastDays(7), .week: .lastDays(84)][bucket] ?? .lastDays(365)
        let range = try RangeOptions.range(arguments, context: time, command: name) ?? defaultRange
        var interval = try range.interval(in: time)
        if interval.end == DateRange.distantEnd { interval.end = try RangeExpression.today.interval(in: time).end }
        let store = try context.healthStore()
        let goals = try store.storage.document("goals.json", default: Goals())
        let priority = try store.storage.sourcePriorities().priority(for: type.identifier)
        let svg = arguments.value("svg")
        // Opened before the store is read: a path it cannot write is refused with nothing done (a long-range query
        // writes the store's derived summaries); the temporary file goes if anything later fails.
        let output = try svg.flatMap { $0 == "-" ? nil : try ExportOutput(path: $0, outside: context.store()) }
        if type.isSleepAnalysis {
            if arguments.value("unit") != nil {
                throw UsageError(message: "'--unit' does not apply to sleep, which is drawn in hours", command: name)
            }
            let nights = try SleepNightsQuery(interval: interval, priority: priority).run(on: store, calendar: time.calendar)
            let goal = goals.goal(for: type, in: .second())
            if svg != nil {
                return try write(SVGChart(calendar: time.calendar).render(sleep: nights, goal: goal), to: output, context: context)
            }
            return print(SleepChart(nights: nights, goal: goal, calendar: time.calendar).render(style: style), context: context)
        }
        let unit = try context.displayUnit(for: type, explicit: arguments.value("unit"))
        let result: StatisticsResult
        do {
            result = try StatisticsRequest(type: type, interval: interval, bucketUnit: bucket, unit: unit, priority: priority)
                .run(on: store, calendar: time.calendar)
        } catch let error as StatisticsError {
            throw UsageError(message: error.description, command: name)
        }
        let series = ChartSeries(result: result, bucket: bucket, goal: goals.goal(for: type), calendar: time.calendar,
                                 now: time.now)
        if svg != nil { return try write(SVGChart(calendar: time.calendar).render(series), to: output, context: context) }
        switch series.style {
        case .bars: print(BarChart(series: series, calendar: time.calendar).render(style: style), context: context)
        case .line: print(LineChart(series: series, calendar: time.calendar).render(style: style), context: context)
        }
    }

    private static func bucketUnit(_ arguments: ParsedArguments, type: SampleType) throws -> BucketUnit {
        guard let text = arguments.value("by") else { return .day }
        if type.isSleepAnalysis {
            guard text == "day" || text == "night" else {
                throw UsageError(message: "Sleep is drawn per night; leave out '--by' or use '--by night'", command: name)
            }
            return .day
        }
        guard let unit = BucketUnit(rawValue: text) else {
            throw UsageError(message: "The value '\(text)' is invalid for '--by <period>'; use hour, day, week, month or year", command: name)
        }
        return unit
    }

    private static func print(_ lines: [String], context: CommandContext) {
        for line in lines { context.console.line(line) }
    }

    /// Writes the SVG document to `output` (nil: standard output), by the output-file rule of ``ExportOutput``: a
    /// link is followed, a device or FIFO written in place, a file replaced only once the image is complete.
    private static func write(_ document: String, to output: ExportOutput?, context: CommandContext) throws {
        guard let output else {
            context.console.line(document.dropLastNewline())
            return
        }
        do {
            try output.write(document)
            try output.finish()
        } catch ExportError.outputClosed {
            return  // a FIFO's reader that went away has what it wanted, as with `| head`
        }
    }
}
