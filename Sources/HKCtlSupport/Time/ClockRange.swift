import HealthCore
import TextSupport

/// A time span written as two times joined by `-`, as people log a night's sleep: `23:10-07:05`,
/// `yesterday 22:30-06:45`, `2024-05-30T22:40-2024-05-31T06:10`.
///
/// Each side is a bare time of day (`HH:MM`) or any time ``TimeExpression`` reads with a clock time in it. A bare
/// time takes its day from the other side (the start is the latest such time before the end, the end the first
/// such time after the start); two bare times end on the latest occurrence of the end that is not after now. A range
/// of two bare times that is still going on (begun before now, ending after it) is refused, not moved a day back.
package enum ClockRange: Sendable {
    /// Whether `text` has the `TIME-TIME` shape: a `-` with a clock time (`HH:MM`) on each side.
    package static func looksLikeRange(_ text: String) -> Bool {
        !splits(of: text).isEmpty
    }

    /// The ways to cut `text` at a `-` (or the en dash `–` hkctl prints ranges with) into two sides that each hold a
    /// `:` and are not themselves ranges (so `23:10-07:05-08:00` is no range), first cut first.
    private static func splits(of text: String, nested: Bool = false) -> [(String, String)] {
        // A side that is a date and time with a negative offset (`2024-05-30T22:40-04:00`, as hkctl prints times west
        // of UTC) is one time, not a range of `22:40` and `04:00`. (The whole text so written reads as that range: a
        // sleep value is a range, and `2024-05-30T22:40-07:00` is more likely a night than a time in California.)
        if nested && isDateTimeWithOffset(text) { return [] }
        var result: [(String, String)] = []
        for index in text.indices where text[index] == "-" || text[index] == "\u{2013}" {
            let left = text[..<index].trimmingSpaces(), right = text[text.index(after: index)...].trimmingSpaces()
            guard left.contains(":") && right.contains(":") else { continue }
            if nested { return [(left, right)] }
            if splits(of: left, nested: true).isEmpty && splits(of: right, nested: true).isEmpty {
                result.append((left, right))
            }
        }
        return result
    }

    /// Whether `text` is a date, a time and an offset: `YYYY-MM-DD`, `T` or a space, `HH:MM` (`:SS`, fractions), then
    /// (after a space or not) `Z` or a sign and `HH:MM` or `HHMM`.
    static func isDateTimeWithOffset(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func digits(_ range: Range<Int>) -> Bool { range.upperBound <= bytes.count && range.allSatisfy { bytes[$0] &- 0x30 < 10 } }
        guard bytes.count >= 17, digits(0..<4), bytes[4] == 0x2D, digits(5..<7), bytes[7] == 0x2D, digits(8..<10),
              bytes[10] == 0x54 || bytes[10] == 0x20, digits(11..<13), bytes[13] == 0x3A, digits(14..<16) else { return false }
        var index = 16
        if index < bytes.count, bytes[index] == 0x3A {
            guard digits(index + 1..<index + 3) else { return false }
            index += 3
            if index < bytes.count, bytes[index] == 0x2E {
                index += 1
                while index < bytes.count, bytes[index] &- 0x30 < 10 { index += 1 }
            }
        }
        if index + 1 < bytes.count, bytes[index] == 0x20 { index += 1 }
        guard index < bytes.count else { return false }
        if bytes[index] == 0x5A { return index + 1 == bytes.count }
        guard bytes[index] == 0x2B || bytes[index] == 0x2D, digits(index + 1..<index + 3) else { return false }
        let rest = bytes.count - (index + 3)
        if rest == 0 { return true }
        if rest == 2 { return digits(index + 3..<index + 5) }
        return rest == 3 && bytes[index + 3] == 0x3A && digits(index + 4..<index + 6)
    }

    /// Whether `text` is a bare time of day, `HH:MM` or `HH:MM:SS`.
    static func isBareTime(_ text: String) -> Bool {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        return (2...3).contains(fields.count) && fields.allSatisfy { (1...2).contains($0.count) && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }

    /// The interval `text` names.
    ///
    /// With two bare times the end is on `endDay` when given (a day's midnight), otherwise the latest occurrence
    /// of the end time that is not after now (today, or yesterday if today's range has not begun yet); the start is the
    /// latest occurrence of the start time before the end, so `23:10-07:05` crosses midnight. A side that names
    /// its day (`yesterday 22:30`, a full date) fixes the other side's day as described on the type.
    ///
    /// - Throws: ``TimeInputError`` for a malformed or impossible time.
    package static func parse(_ text: String, endDay: Date? = nil, in context: TimeContext) throws -> DateInterval {
        var failure: Error = TimeInputError.malformed(text)
        var twoTimes = false
        for (left, right) in splits(of: text) {
            do {
                return try parse(left, right, endDay: endDay, in: context, original: text)
            } catch let error as SampleError where error.isEndBeforeStart {
                // Both sides read as times (the end before the start): the cut meant, whatever the other cuts say.
                (failure, twoTimes) = (error, true)
            } catch let error as TypedTimeError where error.isRangeNotOver {
                (failure, twoTimes) = (error, true)
            } catch {
                if !twoTimes { failure = error }
            }
        }
        throw failure
    }

    private static func parse(_ left: String, _ right: String, endDay: Date?, in context: TimeContext,
                              original text: String) throws -> DateInterval {
        switch (isBareTime(left), isBareTime(right)) {
        case (true, true):
            let today = context.startOfDay(context.now)
            var end = try TimeExpression.timeOfDay(right, on: endDay ?? today, in: context, original: text)
            if endDay == nil, end > context.now {
                // A range that has begun but not ended (at 07:30, `00:10-07:40`) is this morning's, typed a little
                // early: refused with the fix, never moved silently onto the night before.
                if try latest(left, before: end, in: context, original: text) < context.now {
                    throw TypedTimeError.rangeNotOver(text, end: ISODate.format(end, in: context.timeZone),
                                                      now: ISODate.format(context.now, in: context.timeZone))
                }
                end = try TimeExpression.timeOfDay(right, on: context.adding(days: -1, to: today), in: context, original: text)
            }
            return DateInterval(start: try latest(left, before: end, in: context, original: text), end: end)
        case (false, true):
            let start = try TimeExpression.parse(left, in: context).date
            var end = try TimeExpression.timeOfDay(right, on: context.startOfDay(start), in: context, original: text)
            if end <= start {
                end = try TimeExpression.timeOfDay(right, on: context.adding(days: 1, to: context.startOfDay(start)),
                                                   in: context, original: text)
            }
            return DateInterval(start: start, end: end)
        case (true, false):
            let end = try TimeExpression.parse(right, in: context).date
            return DateInterval(start: try latest(left, before: end, in: context, original: text), end: end)
        case (false, false):
            let start = try TimeExpression.parse(left, in: context).date, end = try TimeExpression.parse(right, in: context).date
            guard end >= start else {
                throw SampleError.endBeforeStart(start: ISODate.format(start, in: context.timeZone),
                                                 end: ISODate.format(end, in: context.timeZone))
            }
            return DateInterval(start: start, end: end)
        }
    }

    /// The latest occurrence of the time of day `time` before `end`.
    private static func latest(_ time: String, before end: Date, in context: TimeContext, original: String) throws -> Date {
        let endDayStart = context.startOfDay(end)
        let start = try TimeExpression.timeOfDay(time, on: endDayStart, in: context, original: original)
        if start < end { return start }
        return try TimeExpression.timeOfDay(time, on: context.adding(days: -1, to: endDayStart), in: context, original: original)
    }
}

private extension SampleError {
    var isEndBeforeStart: Bool {
        if case .endBeforeStart = self { return true }
        return false
    }
}

private extension TypedTimeError {
    var isRangeNotOver: Bool {
        if case .rangeNotOver = self { return true }
        return false
    }
}
