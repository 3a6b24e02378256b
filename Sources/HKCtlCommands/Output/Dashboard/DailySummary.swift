import HealthCore
import HKCtlSupport

/// Today at a glance (`hkctl today`): water and steps against their goals, the latest weight with its last seven
/// days, and last night's sleep with its stages.
///
/// It is assembled from the statistics queries (``StatisticsRequest``, ``TrendQuery``, ``SleepNightsQuery``), with
/// sources merged by each type's priority, so its figures are the ones `hkctl stats` and `hkctl trend` give.
struct DailySummary: Equatable, Sendable {
    /// A day's total against a goal.
    struct Progress: Equatable, Sendable {
        /// The type.
        var type: SampleType
        /// The unit of ``total`` and ``goal``.
        var unit: HealthUnit?
        /// Today's total (sources merged).
        var total: Double
        /// Samples that counted.
        var sampleCount: Int
        /// The daily goal; nil when there is none.
        var goal: Double?

        /// `total / goal`; nil without a goal.
        var fraction: Double? { goal.map { $0 > 0 ? total / $0 : 0 } }
    }

    /// The latest weight and the days before it.
    struct Weight: Equatable, Sendable {
        /// The type (body mass).
        var type: SampleType
        /// The unit of every figure.
        var unit: HealthUnit?
        /// The most recent reading ever recorded, nil when there is none.
        var latest: Double?
        /// When it was taken.
        var latestDate: Date?
        /// The average of each of the last seven days, oldest first (nil: no reading that day).
        var days: [Double?]
        /// The last recorded day's average minus the first one's, within those seven days; nil with fewer than two.
        var change: Double?
    }

    /// The local day summarised (midnight).
    var date: Date
    /// Water today.
    var water: Progress
    /// Steps today.
    var steps: Progress
    /// Weight.
    var weight: Weight
    /// The night that ended this morning.
    var sleep: SleepNight
    /// Seconds of sleep to aim for; nil for none.
    var sleepGoal: TimeInterval?

    /// Builds the summary of the day containing `context.now`.
    ///
    /// - Parameters:
    ///   - store: Where to read samples.
    ///   - goals: The daily goals.
    ///   - settings: Display units (`unit.weight lb`).
    ///   - priorities: The source order per type.
    ///   - catalogue: Where water, steps, weight and sleep are looked up.
    ///   - context: Now and the calendar.
    /// - Throws: Store errors.
    static func load(from store: SampleStore, goals: Goals, settings: Settings = Settings(),
                            priorities: SourcePriorities = SourcePriorities(),
                            catalogue: SampleTypeCatalogue = .standard, context: TimeContext) throws -> DailySummary {
        let today = try RangeExpression.today.interval(in: context)
        func progress(_ name: String) throws -> Progress {
            let type = try catalogue.type(named: name)
            let unit = settings.displayUnit(for: type) ?? type.displayUnit
            let result = try StatisticsRequest(type: type, interval: today, unit: unit,
                                             priority: priorities.priority(for: type.identifier))
                .run(on: store, calendar: context.calendar)
            return Progress(type: type, unit: result.unit, total: result.total.sum ?? 0, sampleCount: result.total.sampleCount,
                            goal: goals.goal(for: type, in: result.unit))
        }
        let weightType = try catalogue.type(named: "weight")
        let weightUnit = settings.displayUnit(for: weightType) ?? weightType.displayUnit
        let latest = try StatisticsRequest(type: weightType, interval: DateInterval(start: DateRange.distantStart, end: today.end),
                                         unit: weightUnit, options: .mostRecent)
            .run(on: store, calendar: context.calendar)
        let week = try TrendQuery(type: weightType, interval: RangeExpression.lastDays(7).interval(in: context), unit: weightUnit,
                                  priority: priorities.priority(for: weightType.identifier))
            .run(on: store, calendar: context.calendar)
        let recordedDays = week.days.compactMap(\.value)
        let weight = Weight(type: weightType, unit: latest.unit, latest: latest.total.mostRecent, latestDate: latest.total.mostRecentDate,
                            days: week.days.map(\.value),
                            change: recordedDays.count > 1 ? recordedDays.last! - recordedDays.first! : nil)
        let sleepType = try catalogue.type(named: "sleep")
        let nights = try SleepNightsQuery(interval: today, priority: priorities.priority(for: sleepType.identifier))
            .run(on: store, calendar: context.calendar)
        return DailySummary(date: today.start, water: try progress("water"), steps: try progress("steps"), weight: weight,
                            sleep: nights.first ?? SleepNight(date: today.start, start: today.start, end: today.start),
                            sleepGoal: goals.goal(for: sleepType, in: .second()))
    }
}
