import HealthCore
import HKCtlSupport
import TextSupport

/// `hkctl today` (and bare `hkctl`): water and steps against their goals, weight and last night's sleep.
enum TodayCommand: Command {
    static let name = "today"
    static let abstract = "Today at a glance: water, steps, weight and last night's sleep against your goals."
    static let usage = "today [--color <when>] [--ascii] [--width <columns>]"
    static let arguments: [(label: String, help: String)] = []
    static let options: [OptionSpec] = TerminalOptions.specs
    static let formats = ["table", "json"]
    static let discussion = """
        This is also what 'hkctl' alone prints. Water and steps are today's totals
        (sources merged) against the daily goals set with 'hkctl goal' (defaults:
        2 L of water, 10,000 steps, 8 h of sleep). Weight is the latest reading with
        the daily averages of the last seven days as a sparkline and the change
        between the first and last of them. Sleep is the night that ended this
        morning, with its stages.

        Examples:
          hkctl today
          hkctl today --ascii --color never
          hkctl today --format json
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        if let extra = arguments.positionals.first {
            throw UsageError(message: "Unexpected argument '\(extra)'", command: name)
        }
        let style = try TerminalOptions.style(arguments, context: context, command: name)
        let store = try context.healthStore()
        let summary = try DailySummary.load(
            from: store, goals: try store.storage.document("goals.json", default: Goals()),
            settings: try store.storage.document("settings.json", default: Settings()),
            priorities: try store.storage.sourcePriorities(), catalogue: context.catalogue, context: context.globals.time)
        if context.globals.formatName == "json" {
            context.console.line(json(summary, context: context))
            return
        }
        let calendar = context.globals.time.calendar
        for line in DashboardRenderer(calendar: calendar).render(summary, style: style) { context.console.line(line) }
    }

    /// The summary as one JSON object; numbers plain, durations in seconds, dates ISO 8601.
    private static func json(_ summary: DailySummary, context: CommandContext) -> String {
        let zone = context.globals.time.timeZone
        // Derived figures, rounded for their unit (DerivedFigure); durations in seconds to the millisecond.
        func number(_ value: Double?, unit: HealthUnit?) -> String {
            value.map { DerivedFigure.text($0, unitString: unit?.unitString) } ?? "null"
        }
        func seconds(_ value: Double?) -> String { value.map(DerivedFigure.seconds) ?? "null" }
        func date(_ value: Date?) -> String { value.map { JSONText.quoted(ISODate.format($0, in: zone)) } ?? "null" }
        func progress(_ progress: DailySummary.Progress) -> String {
            "{\"type\":\(JSONText.quoted(progress.type.identifier)),\"total\":\(number(progress.total, unit: progress.unit)),"
                + "\"unit\":\(progress.unit.map { JSONText.quoted($0.unitString) } ?? "null"),\"goal\":\(number(progress.goal, unit: progress.unit)),"
                + "\"count\":\(progress.sampleCount)}"
        }
        func object(_ fields: [(String, String)]) -> String {
            "{" + fields.map { JSONText.quoted($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
        }
        let weight = summary.weight
        let unit = weight.unit.map { JSONText.quoted($0.unitString) } ?? "null"
        let weightFields: [(String, String)] = [
            ("latest", number(weight.latest, unit: weight.unit)), ("latestDate", date(weight.latestDate)), ("unit", unit),
            ("days", "[" + weight.days.map { number($0, unit: weight.unit) }.joined(separator: ",") + "]"),
            ("change", number(weight.change, unit: weight.unit)),
        ]
        let night = summary.sleep
        let sleepFields: [(String, String)] = [
            ("night", date(night.date)), ("start", date(night.sleepStart)), ("end", date(night.sleepEnd)),
            ("asleep", seconds(night.asleep)), ("inBed", seconds(night.inBed)), ("awake", seconds(night.awake)),
            ("asleepCore", seconds(night.asleepCore)), ("asleepDeep", seconds(night.asleepDeep)),
            ("asleepREM", seconds(night.asleepREM)), ("asleepUnspecified", seconds(night.asleepUnspecified)),
            ("goal", seconds(summary.sleepGoal)), ("unit", "\"s\""), ("count", String(night.sampleCount)),
        ]
        return object([("date", date(summary.date)), ("water", progress(summary.water)), ("steps", progress(summary.steps)),
                       ("weight", object(weightFields)), ("sleep", object(sleepFields))])
    }
}
