import HealthCore
import TextSupport

/// A point in time as typed on the command line.
///
/// Accepted forms: ISO 8601 (`2024-06-01`, `2024-06-01T08:30`, `2024-06-01T08:30:00+02:00`), a time of day
/// (`08:30`, today), `today`/`yesterday` with an optional time (`yesterday 22:30`), `now`, and relative times
/// (`-2h`, `-30m`, `-3d`, `-1w`, `-45s`; whole days and weeks are calendar days, keeping the clock time across a DST
/// change). Times without an offset are in the context's zone.
package struct TimeExpression: Equatable, Sendable {
    /// The instant named.
    package var date: Date
    /// Whether only a day was given (`2024-06-01`, `yesterday`): then `date` is that day's midnight.
    package var isDateOnly: Bool
    /// The text as typed, for messages (empty when built in code).
    package var text: String = ""

    /// Equal when they name the same instant the same way; the typed text does not matter.
    package static func == (lhs: TimeExpression, rhs: TimeExpression) -> Bool {
        lhs.date == rhs.date && lhs.isDateOnly == rhs.isDateOnly
    }

    /// Creates a time expression.
    package init(date: Date, isDateOnly: Bool, text: String = "") {
        self.date = date
        self.isDateOnly = isDateOnly
        self.text = text
    }

    /// Parses `text` relative to `context`.
    ///
    /// - Throws: ``TimeInputError`` when the text is not a time or names one that does not exist.
    package static func parse(_ text: String, in context: TimeContext) throws -> TimeExpression {
        var expression = try parseWithoutText(text, in: context)
        expression.text = text
        return expression
    }

    private static func parseWithoutText(_ text: String, in context: TimeContext) throws -> TimeExpression {
        // A full date-time with an offset needs neither the context nor the other forms.
        if let date = ISODate.parse(text) { return TimeExpression(date: date, isDateOnly: false) }
        let trimmed = text.trimmingSpaces()
        let lowered = trimmed.lowercased()
        if lowered == "now" { return TimeExpression(date: context.now, isDateOnly: false) }
        if let relative = try relativeOffset(lowered, original: text) {
            // Whole days and weeks are calendar days in the zone: `-2w` across a DST change keeps the clock time.
            let days = relative / 86_400
            let date = (lowered.hasSuffix("d") || lowered.hasSuffix("w")) && days == days.rounded() && abs(days) <= 400_000
                ? context.adding(days: Int(days), to: context.now) : context.now.addingTimeInterval(relative)
            guard date >= DateRange.distantStart, date <= DateRange.distantEnd else {
                throw TimeInputError.impossible(text, reason: "hkctl keeps dates from 1900 to 2999")
            }
            return TimeExpression(date: date, isDateOnly: false)
        }
        for (word, days) in [("today", 0), ("yesterday", -1)] where lowered == word || lowered.hasPrefix(word + " ") {
            let day = context.adding(days: days, to: context.startOfDay(context.now))
            let rest = lowered.dropFirst(word.count).trimmingSpaces()
            if rest.isEmpty { return TimeExpression(date: day, isDateOnly: true) }
            return TimeExpression(date: try timeOfDay(rest, on: day, in: context, original: text), isDateOnly: false)
        }
        if trimmed.count <= 8, trimmed.contains(":"), !trimmed.contains("-") {
            return TimeExpression(
                date: try timeOfDay(trimmed, on: context.startOfDay(context.now), in: context, original: text),
                isDateOnly: false)
        }
        let parts = try ISODate.components(trimmed)
        return TimeExpression(date: try context.date(parts, text: text), isDateOnly: !parts.hasTime)
    }

    /// Parses `HH:MM` or `HH:MM:SS` on the day starting at `day`.
    static func timeOfDay(_ text: String, on day: Date, in context: TimeContext, original: String) throws -> Date {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(fields.count),
              fields.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let hour = Int(fields[0]), let minute = Int(fields[1])
        else { throw TimeInputError.malformed(original) }
        let second = fields.count == 3 ? Int(fields[2]) ?? 0 : 0
        guard hour < 24, minute < 60, second < 60 else {
            throw TimeInputError.impossible(original, reason: "the time of day must be between 00:00 and 23:59")
        }
        var parts = ISODate.Components(year: 0, month: 0, day: 0)
        let local = context.calendar.localTime(of: day)
        parts.year = local.year
        parts.month = local.month
        parts.day = local.day
        parts.hour = hour
        parts.minute = minute
        parts.second = second
        parts.hasTime = true
        return try context.date(parts, text: original)
    }

    /// `-2h` → -7200; nil when the text is not a relative time.
    private static func relativeOffset(_ text: String, original: String) throws -> TimeInterval? {
        guard text.hasPrefix("-") || text.hasPrefix("+"), text.count >= 3, let unit = text.last, unit.isLetter else {
            return nil
        }
        let number = text.dropFirst().dropLast()
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
              let amount = Double(number) else { return nil }
        let seconds: Double
        switch unit {
        case "s": seconds = 1
        case "m": seconds = 60
        case "h": seconds = 3600
        case "d": seconds = 86_400
        case "w": seconds = 604_800
        default: throw TimeInputError.malformed(original)
        }
        return (text.hasPrefix("-") ? -1 : 1) * amount * seconds
    }
}
