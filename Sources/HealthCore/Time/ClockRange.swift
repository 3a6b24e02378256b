/// A time span written as two times of day, `23:10-07:05`, as people log a night's sleep.
public enum ClockRange {
    /// Whether `text` has the `HH:MM-HH:MM` shape.
    public static func looksLikeRange(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { $0.contains(":") }
    }

    /// The interval `text` names.
    ///
    /// The end is on `endDay` when given (a day's midnight), otherwise the latest occurrence of the end time
    /// that is not after now (today, or yesterday if that time has not come yet). The start is the latest
    /// occurrence of the start time before the end, so `23:10-07:05` crosses midnight.
    ///
    /// - Throws: ``TimeInputError`` for a malformed or impossible time.
    public static func parse(_ text: String, endDay: Date? = nil, in context: TimeContext) throws -> DateInterval {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map {
            $0.trimmingSpaces()
        }
        guard parts.count == 2 else { throw TimeInputError.malformed(text) }
        let today = context.startOfDay(context.now)
        var end = try TimeExpression.timeOfDay(parts[1], on: endDay ?? today, in: context, original: text)
        if endDay == nil, end > context.now {
            end = try TimeExpression.timeOfDay(parts[1], on: context.adding(days: -1, to: today), in: context, original: text)
        }
        let endDayStart = context.startOfDay(end)
        var start = try TimeExpression.timeOfDay(parts[0], on: endDayStart, in: context, original: text)
        if start >= end {
            start = try TimeExpression.timeOfDay(parts[0], on: context.adding(days: -1, to: endDayStart), in: context, original: text)
        }
        return DateInterval(start: start, end: end)
    }
}
