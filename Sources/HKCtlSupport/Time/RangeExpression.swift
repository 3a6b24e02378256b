import HealthCore

/// A range of time named relative to now: today, yesterday, the last `n` days, an explicit range, a period as people
/// say it, or everything;
/// ``interval(in:)`` turns it into instants in a ``TimeContext``.
package enum RangeExpression: Equatable, Sendable {
    /// From midnight today to midnight tomorrow.
    case today
    /// The whole of yesterday.
    case yesterday
    /// The last `n` days ending with today (week = 7, month = 30, year = 365).
    case lastDays(Int)
    /// An explicit range; a missing bound is open. A date-only `to` means through the end of that day.
    case between(from: TimeExpression?, to: TimeExpression?)
    /// Everything.
    case allTime
    /// A period as people say it (`2024-03`, `last month`, `from 2024-03-01 to 2024-03-15`): see
    /// ``PeriodExpression``.
    case period(String)

    /// The half-open interval `[start, end)` this range covers in `context`.
    ///
    /// - Throws: ``TypedTimeError/emptyRange(from:to:)`` when the end is not after the start; ``TimeInputError`` for a
    ///   period that is not understood.
    package func interval(in context: TimeContext) throws -> DateInterval {
        let today = context.startOfDay(context.now)
        switch self {
        case .today:
            return DateInterval(start: today, end: context.startOfNextDay(after: today))
        case .yesterday:
            return DateInterval(start: context.startOfDay(context.adding(days: -1, to: today)), end: today)
        case let .lastDays(count):
            return DateInterval(start: context.startOfDay(context.adding(days: 1 - count, to: today)),
                                end: context.startOfNextDay(after: today))
        case .allTime:
            return DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
        case let .period(text):
            return try PeriodExpression.interval(of: text, in: context)
        case let .between(from, to):
            let start = from?.date ?? DateRange.distantStart
            var end = to?.date ?? DateRange.distantEnd
            if let to, to.isDateOnly { end = context.startOfNextDay(after: to.date) }
            guard end > start else {
                func shown(_ time: TimeExpression?, _ date: Date) -> String {
                    if let time, !time.text.isEmpty { return "'\(time.text)'" }
                    return ISODate.format(date, in: context.timeZone)
                }
                throw TypedTimeError.emptyRange(from: shown(from, start), to: shown(to, to?.date ?? end))
            }
            return DateInterval(start: start, end: end)
        }
    }
}
