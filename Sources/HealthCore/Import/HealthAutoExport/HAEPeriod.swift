/// The period a Health Auto Export point covers: HAE's aggregation setting (none, minute, hour, day, week) is not
/// written in the payload, so it is recognised from the dates.
///
/// A point's `date` is the start of its period in the phone's local time (`2023-01-22 00:00:00 +1100` for a day).
/// The level of a metric is the coarsest of minute, hour and day that all its dates start (in their own offsets);
/// dates with seconds are unaggregated samples (instants). Because the setting is one for the whole payload, every
/// aggregated metric takes the finest level found among the metrics HAE aggregates (so a per-hour payload whose steps
/// happen to fall at midnight is still per hour; a blood-pressure or glucose reading at a whole minute does not decide). A payload at the day level is per week when every date falls on the same weekday
/// and distinct dates are at least 7 days apart (one week alone cannot be told from one day, and is read as a day).
enum HAEPeriod: Int, Comparable, Sendable {
    case instant = 0, minute, hour, day, week

    static func < (a: HAEPeriod, b: HAEPeriod) -> Bool { a.rawValue < b.rawValue }

    /// The name used in metadata and messages.
    var name: String {
        switch self {
        case .instant: return "none"
        case .minute: return "minute"
        case .hour: return "hour"
        case .day: return "day"
        case .week: return "week"
        }
    }

    /// The coarsest level `date` (written with `offset` seconds east of UTC) starts. `offsets`: the offsets the
    /// payload's dates are written with; a date at 01:00 whose offset is an hour more than one of them starts a day
    /// (a day where summer time begins at midnight, as in Chile, starts at 01:00: `2024-09-08 01:00:00 -0300` after
    /// `2024-09-07 00:00:00 -0400`).
    static func alignment(of date: Date, offset: Int, offsets: Set<Int> = []) -> HAEPeriod {
        let local = Int((date.timeIntervalSince1970 * 1000).rounded()) + offset * 1000
        let millisecondsInDay = 86_400_000
        let inDay = ((local % millisecondsInDay) + millisecondsInDay) % millisecondsInDay
        if inDay % 60_000 != 0 { return .instant }
        if inDay % 3_600_000 != 0 { return .minute }
        if inDay == 3_600_000, offsets.contains(offset - 3600) { return .day }
        if inDay != 0 { return .hour }
        return .day
    }

    /// The period of a payload's aggregated points, from the dates of its metrics (each a list of date and offset).
    /// `deciding`: per metric, whether its dates decide the level (those HAE aggregates by its setting, such as steps
    /// or heart rate); a reading kept at its own time and taken at a whole minute (a blood pressure typed in the
    /// Health app) does not make a per-day payload per minute. When no deciding metric has an aggregated date,
    /// all decide. Empty: all decide.
    static func payloadLevel(_ metrics: [[(date: Date, offset: Int)]], deciding: [Bool] = []) -> HAEPeriod {
        let offsets = Set(metrics.joined().map(\.offset))
        let chosen = metrics.indices.filter { deciding.indices.contains($0) ? deciding[$0] : true }
        let decided = level(of: chosen.map { metrics[$0] }, offsets: offsets)
        return decided > .instant ? decided : level(of: metrics, offsets: offsets)
    }

    private static func level(of metrics: [[(date: Date, offset: Int)]], offsets: Set<Int>) -> HAEPeriod {
        var level: HAEPeriod?
        var dayDates: [(date: Date, offset: Int)] = []
        for dates in metrics where !dates.isEmpty {
            let metricLevel = dates.reduce(HAEPeriod.day) { min($0, alignment(of: $1.date, offset: $1.offset, offsets: offsets)) }
            guard metricLevel > .instant else { continue }
            level = min(level ?? metricLevel, metricLevel)
            if metricLevel == .day { dayDates += dates }
        }
        guard let level else { return .instant }
        if level == .day, isWeekly(dayDates) { return .week }
        return level
    }

    private static func isWeekly(_ dates: [(date: Date, offset: Int)]) -> Bool {
        let days = Set(dates.map { Int((($0.date.timeIntervalSince1970 + Double($0.offset)) / 86_400).rounded(.down)) }).sorted()
        guard days.count >= 2 else { return false }
        let weekday = ((days[0] % 7) + 7) % 7
        for (index, day) in days.enumerated() {
            guard ((day % 7) + 7) % 7 == weekday else { return false }
            if index > 0, day - days[index - 1] < 7 { return false }
        }
        return true
    }

    /// The end of the period that starts at `start` (written with `offset`): a minute or hour later; for a day or a
    /// week, the next local midnight in `zone` when the zone has that offset at `start` (so a day across a DST change
    /// is 23 or 25 hours long and its total counts on that day), else 24 hours (7 days) later at the written offset.
    /// `rules`, when given, stand for `zone` (the zone database's, with our own calendar).
    func end(of start: Date, offset: Int, zone: TimeZone, rules: ZoneRules? = nil) -> Date {
        switch self {
        case .instant: return start
        case .minute: return start.addingTimeInterval(60)
        case .hour: return start.addingTimeInterval(3600)
        case .day, .week:
            let days = self == .day ? 1 : 7
            if let rules {
                if rules.secondsFromGMT(for: start) == offset {
                    let calendar = GregorianCalendar(timeZone: rules)
                    return calendar.startOfDay(for: calendar.adding(days, .days, to: start))
                }
            } else if zone.secondsFromGMT(for: start) == offset {
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = zone
                // The next day's start (a day that starts at 01:00 ends at the next midnight, not at 01:00).
                if let next = calendar.date(byAdding: .day, value: days, to: start) { return calendar.startOfDay(for: next) }
            }
            return start.addingTimeInterval(Double(days) * 86_400)
        }
    }
}
