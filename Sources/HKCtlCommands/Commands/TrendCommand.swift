import HealthCore
import HKCtlSupport
import TextSupport

/// `hkctl trend TYPE [RANGE]`: a value per day with its moving average, the change over the period and figures
/// per weekday.
enum TrendCommand: Command {
    static let name = "trend"
    static let abstract = "Daily values, moving average, change and weekday pattern of a type."
    static let usage = "trend <type> [<range>] [--window <days>] [--unit <unit>]"
    static let arguments: [(label: String, help: String)] = [
        ("<type>", "weight, steps, water, sleep (or a HealthKit identifier)."),
    ]
    static let options: [OptionSpec] = RangeOptions.specs + [
        OptionSpec(name: "window", valueName: "days", help: "Days in the moving average (default: 7)."),
        OptionSpec(name: "unit", valueName: "unit", help: "Show quantities in this unit (default: the type's usual unit)."),
        OptionSpec(name: "week-start", valueName: "day", help: "First weekday of the weekday table (values: mon, sun; default: the locale's, else mon)."),
        OptionSpec(name: "no-merge", valueName: nil, help: "Add every source up instead of merging overlaps by priority."),
        OptionSpec(name: "night-cutoff", valueName: "time", help: "Sleep: when one night ends and the next begins (default: 12:00)."),
    ]
    static let discussion = """
        The range defaults to --month (30 days). A day's value is its total (steps,
        water), its average (weight) or the sleep of the night ending that morning. Days
        with nothing recorded are left out of averages. The weekday table gives the
        average value per weekday and the average change from the day before (both
        recorded): for weight, which days you gain or lose.

        Examples:
          hkctl trend weight --month
          hkctl trend steps --month
          hkctl trend sleep --year --window 30
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        let type = try onlyType(arguments, context: context)
        var time = context.globals.time
        time.calendar.firstWeekday = try weekStart(arguments) ?? time.calendar.firstWeekday
        var window = 7
        if let text = arguments.value("window") {
            guard let days = Int(text), (1...365).contains(days) else {
                throw UsageError(message: "The value '\(text)' is invalid for '--window <days>'; give a whole number from 1 to 365", command: name)
            }
            window = days
        }
        let cutoff: NightCutoff
        do {
            cutoff = try arguments.value("night-cutoff").map { try NightCutoff(parsing: $0) } ?? .noon
        } catch {
            throw UsageError(message: "The value '\(arguments.value("night-cutoff") ?? "")' is invalid for '--night-cutoff <time>'; write HH:MM", command: name)
        }
        let unit = try context.displayUnit(for: type, explicit: arguments.value("unit"))
        let range = try RangeOptions.range(arguments, context: time, command: name) ?? .lastDays(30)
        let store = try context.healthStore()
        let query = TrendQuery(type: type, interval: try range.interval(in: time), unit: unit, window: window,
                               priority: try store.storage.sourcePriorities().priority(for: type.identifier),
                               mergesSources: !arguments.has("no-merge"), nightCutoff: cutoff)
        let trend: Trend
        do {
            trend = try query.run(on: store, calendar: time.calendar)
        } catch let error as StatisticsError {
            throw UsageError(message: error.description, command: name)
        } catch let error as TrendError {
            throw UsageError(message: error.description, command: name)
        }
        TrendOutput(trend: trend, zone: time.timeZone, console: context.console).print(format: context.globals.format)
    }
}

/// Prints a ``Trend`` as a table, JSON or CSV.
struct TrendOutput {
    let trend: Trend
    let zone: ZoneRules
    let console: Console

    private var unitText: String { trend.unit?.unitString ?? "s" }
    private var isCumulative: Bool { trend.measure == "sum" }

    func print(format: OutputFormat) {
        switch format {
        case .json: printJSON()
        case .csv: printCSV()
        case .table: printTable()
        }
    }

    private func day(_ date: Date) -> String { ISODate.localDayText(date, in: zone) }
    /// A derived figure in the trend's unit, rounded for it (``DerivedFigure``); nil is `null`.
    private func number(_ value: Double?) -> String { value.map { DerivedFigure.text($0, unitString: unitText) } ?? "null" }

    private func show(_ value: Double?, signed: Bool = false) -> String {
        guard let value else { return "-" }
        let sign = signed && value > 0 ? "+" : ""
        if trend.unit == nil { return (signed && value < 0 ? "-" : sign) + Display.duration(abs(value)) }
        return sign + Display.quantity(value, unit: unitText)
    }

    private func printJSON() {
        var text = "{\"type\":\(JSONText.quoted(trend.type.identifier)),\"unit\":\(JSONText.quoted(unitText))"
        text += ",\"measure\":\"\(trend.measure)\",\"window\":\(trend.window)"
        if let first = trend.days.first, let last = trend.days.last {
            text += ",\"from\":\"\(day(first.date))\",\"to\":\"\(day(last.date))\""
        }
        text += ",\"average\":" + number(trend.average)
        if let change = trend.change {
            text += ",\"change\":{\"first\":\(number(change.first)),\"firstDate\":\"\(day(change.firstDate))\""
            text += ",\"last\":\(number(change.last)),\"lastDate\":\"\(day(change.lastDate))\""
            text += ",\"absolute\":\(number(change.absolute)),\"relative\":\(change.relative.map(DerivedFigure.ratio) ?? "null")"
            text += ",\"movingAverageChange\":\(number(change.movingAverageChange))}"
        } else {
            text += ",\"change\":null"
        }
        let days = trend.days.map { "{\"date\":\"\(day($0.date))\",\"value\":\(number($0.value)),\"movingAverage\":\(number($0.movingAverage))}" }
        text += ",\"days\":[" + days.joined(separator: ",") + "]"
        let weekdays = trend.weekdays.map {
            "{\"weekday\":\"\($0.name)\",\"average\":\(number($0.average)),\"days\":\($0.days),\"averageChange\":\(number($0.averageChange)),\"changes\":\($0.changes)}"
        }
        console.line(text + ",\"weekdays\":[" + weekdays.joined(separator: ",") + "]}")
    }

    private func printCSV() {
        console.line(CSV.row(["date", "value", "movingAverage", "unit"]))
        for entry in trend.days {
            console.line(CSV.row([day(entry.date), entry.value.map { DerivedFigure.text($0, unitString: unitText) } ?? "",
                                  entry.movingAverage.map { DerivedFigure.text($0, unitString: unitText) } ?? "", unitText]))
        }
    }

    private func printTable() {
        guard let first = trend.days.first, let last = trend.days.last else { return }
        console.line("\(trend.type.title) by day, \(day(first.date)) to \(day(last.date)) (\(zone.identifier)); "
            + "\(trend.window)-day moving average")
        var days = TableWriter(headers: ["DAY", "", trend.measure.uppercased(), "MOVING AVG"], rightAligned: [2, 3])
        // Readings of a discrete type (weight) are sparse: the table shows the days that have one, not a row of '-'
        // for every other day (JSON and CSV keep every day).
        let recordedOnly = !isCumulative && trend.unit != nil
        for entry in trend.days where !(recordedOnly && entry.value == nil) {
            let weekday = Trend.Weekday.names[entry.weekday - 1].prefix(3)
            days.add([day(entry.date), String(weekday), show(entry.value), show(entry.movingAverage)])
        }
        for line in days.lines() { console.line(line) }
        console.line("")
        console.line("Average per recorded day: \(show(trend.average))")
        // A cumulative type's first and last days are two days' totals: their difference says nothing, so no change
        // line (JSON keeps it).
        if let change = trend.change, !isCumulative {
            var line = "Change \(day(change.firstDate)) → \(day(change.lastDate)): \(show(change.absolute, signed: true))"
            if let relative = change.relative { line += " (\(relative >= 0 ? "+" : "")\(NumberFormatting.human(relative * 100, fractionDigits: 1)) %)" }
            line += "; moving average \(show(change.movingAverageChange, signed: true))"
            console.line(line)
        }
        console.line("")
        var weekdays = TableWriter(headers: ["WEEKDAY", "AVERAGE", "DAYS", "AVG CHANGE FROM DAY BEFORE"], rightAligned: [1, 2, 3])
        for entry in trend.weekdays {
            weekdays.add([entry.name, show(entry.average), String(entry.days), show(entry.averageChange, signed: true)])
        }
        for line in weekdays.lines() { console.line(line) }
    }
}
