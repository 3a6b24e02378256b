import HealthCore
import TextSupport

/// A period as people say it, on the model of hledger's period expressions: `2024`, `2024-03`, `2024-Q1`,
/// `2024-W12`, `2024-03-18`, `march`, `today`, `yesterday`, `this week`, `last month`, `next year`, `last 7 days`,
/// `last monday`, `-2w`, and ranges of them: `from 2024-03-01 to 2024-03-15`, `2024-03..2024-05`, `since 2024-03`,
/// `until last month`.
///
/// Rules (docs/STATISTICS.md, "Periods"):
/// - Every single form names a whole calendar period in the context's zone: a day, a week (starting on the calendar's
///   ``GregorianCalendar/firstWeekday``; `2024-W12` is the ISO week, Monday to Sunday), a month, a quarter or a year.
/// - `this`, `last` and `next` move by whole periods from the one containing now; `last 7 days` is the 7 days ending
///   today (today included), `last 2 weeks` 14 such days, `last 3 months` from the day after the same day three
///   months back.
/// - A weekday (`monday`) is the latest such day up to today; `last monday` the latest before today. As the end of a
///   range, a bare month or weekday is the first such one at or after the range's start (`from mar to may`,
///   `monday to friday`).
/// - A relative offset (`-3d`, `-2w`) counts calendar days back from today, and names that day.
/// - In a range, `from`/`since` start at the first instant of their period and `to`/`until` end with the last
///   instant of theirs: unlike hledger, the end is included (`to 2024-03` covers March), as `--to` is.
package enum PeriodExpression: Sendable {
    /// The half-open interval `[start, end)` that `text` names in `context`.
    ///
    /// - Throws: ``TypedTimeError/unknownPeriod(_:)`` for text that is no period, ``TimeInputError/impossible(_:reason:)``
    ///   for one that does not exist (`2024-13`, `2024-W54`), ``TypedTimeError/emptyRange(from:to:)`` for a range that
    ///   ends before it starts.
    package static func interval(of text: String, in context: TimeContext) throws -> DateInterval {
        let words = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        do {
            guard !words.isEmpty else { throw TimeInputError.malformed(text) }
            if let range = try range(words, original: text, in: context) { return range }
            return try span(of: words, original: text, in: context)
        } catch TimeInputError.malformed {
            throw TypedTimeError.unknownPeriod(text)
        }
    }

    /// The period one side of a range, `--from` or `--to` names: nil when `text` is not a period (a time such as
    /// `08:30` or `2024-06-01T08:30` is not one).
    package static func span(of text: String, in context: TimeContext) throws -> DateInterval? {
        let words = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard !words.isEmpty, try range(words, original: text, in: context) == nil else { return nil }
        do {
            return try span(of: words, original: text, in: context)
        } catch TimeInputError.malformed {
            return nil
        }
    }

    // MARK: - Ranges

    private static func range(_ words: [String], original: String, in context: TimeContext) throws -> DateInterval? {
        func side(_ part: ArraySlice<String>) throws -> DateInterval {
            guard !part.isEmpty else { throw TimeInputError.malformed(original) }
            return try span(of: Array(part), original: original, in: context)
        }
        /// The end of `part` read as the end of a range starting at `start`: a bare month or weekday name
        /// (`from mar to may`, `monday to friday`) is the first such period at or after the start, not the latest
        /// one up to now.
        func end(of part: ArraySlice<String>, after start: Date) throws -> Date {
            var span = try side(part)
            guard part.count == 1, let word = part.first else { return span.end }
            let step: (Int, GregorianCalendar.Step)? = month(word) != nil ? (1, .years) : weekday(word) != nil ? (1, .weeks) : nil
            guard let (count, unit) = step else { return span.end }
            var guardCount = 0
            while span.end <= start && guardCount < 2 {
                span = DateInterval(start: context.calendar.adding(count, unit, to: span.start),
                                    end: context.calendar.adding(count, unit, to: span.end))
                guardCount += 1
            }
            return span.end
        }
        func bounded(_ start: Date, _ end: Date) throws -> DateInterval {
            guard end > start else {
                throw TypedTimeError.emptyRange(from: ISODate.format(start, in: context.timeZone),
                                                to: ISODate.format(end, in: context.timeZone))
            }
            return DateInterval(start: start, end: end)
        }
        if words.count == 1, words[0].contains("..") {
            let halves = words[0].split(separator: ".", maxSplits: 2, omittingEmptySubsequences: false)
            guard halves.count == 3, halves[1].isEmpty, !halves[2].hasPrefix(".") else { throw TimeInputError.malformed(original) }
            let left = String(halves[0]), right = String(halves[2])
            let start = left.isEmpty ? DateRange.distantStart : try side([left]).start
            let finish = right.isEmpty ? DateRange.distantEnd : try end(of: [right], after: start)
            return try bounded(start, finish)
        }
        let first = words[0]
        if first == "from" || first == "since" {
            let rest = words.dropFirst()
            if let to = rest.firstIndex(where: { $0 == "to" || $0 == "until" }) {
                let start = try side(rest[..<to]).start
                return try bounded(start, try end(of: rest[(to + 1)...], after: start))
            }
            return try bounded(try side(rest).start, DateRange.distantEnd)
        }
        if first == "to" || first == "until" {
            return try bounded(DateRange.distantStart, try side(words.dropFirst()).end)
        }
        if let to = words.firstIndex(where: { $0 == "to" || $0 == "until" }), to > 0 {
            let start = try side(words[..<to]).start
            return try bounded(start, try end(of: words[(to + 1)...], after: start))
        }
        return nil
    }

    // MARK: - Single periods

    private enum Unit: String, CaseIterable {
        case day, week, month, quarter, year

        init?(word: String) {
            var singular = word
            if singular.hasSuffix("s") { singular.removeLast() }
            self.init(rawValue: singular)
        }
    }

    private static let monthNames = ["january", "february", "march", "april", "may", "june", "july", "august",
                                     "september", "october", "november", "december"]
    private static let weekdayNames = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    private static func span(of words: [String], original: String, in context: TimeContext) throws -> DateInterval {
        let calendar = context.calendar
        let today = calendar.startOfDay(for: context.now)
        switch words.count {
        case 1:
            let word = words[0]
            switch word {
            case "today": return period(.day, containing: today, in: calendar)
            case "yesterday": return period(.day, containing: calendar.adding(-1, .days, to: today), in: calendar)
            case "tomorrow": return period(.day, containing: calendar.adding(1, .days, to: today), in: calendar)
            default: break
            }
            if let weekday = weekday(word) { return try day(weekday, strictlyBefore: false, today: today, in: calendar) }
            if let month = month(word) {
                // The latest such month up to this one.
                let now = calendar.localTime(of: today)
                return try monthPeriod(year: month <= now.month ? now.year : now.year - 1, month: month, original: original,
                                       in: calendar)
            }
            if let days = relativeDays(word) {
                let day = calendar.adding(days, .days, to: today)
                guard day >= DateRange.distantStart, day < DateRange.distantEnd else {
                    throw TimeInputError.impossible(original, reason: "hkctl keeps dates from 1900 to 2999")
                }
                return period(.day, containing: day, in: calendar)
            }
            return try numbered(word, original: original, in: calendar)
        case 2:
            if let month = month(words[0]), let year = year(words[1]) {
                return try monthPeriod(year: year, month: month, original: original, in: calendar)
            }
            guard let unit = Unit(rawValue: words[1]) else {
                if words[0] == "last" || words[0] == "this", let weekday = weekday(words[1]) {
                    return try day(weekday, strictlyBefore: words[0] == "last", today: today, in: calendar)
                }
                throw TimeInputError.malformed(original)
            }
            let step: Int
            switch words[0] {
            case "this", "current": step = 0
            case "last", "previous", "prev": step = -1
            case "next": step = 1
            default: throw TimeInputError.malformed(original)
            }
            return period(unit, containing: moved(today, by: step, unit, in: calendar), in: calendar)
        case 3:
            guard words[0] == "last" || words[0] == "past", let count = Int(words[1]), count > 0, count <= 100_000,
                  let unit = Unit(word: words[2]) else { throw TimeInputError.malformed(original) }
            let tomorrow = calendar.adding(1, .days, to: today)
            let start = moved(tomorrow, by: -count, unit, in: calendar)
            guard start >= DateRange.distantStart else {
                throw TimeInputError.impossible(original, reason: "hkctl keeps dates from 1900 to 2999")
            }
            return DateInterval(start: start, end: tomorrow)
        default:
            throw TimeInputError.malformed(original)
        }
    }

    /// `2024`, `2024-03`, `2024/03`, `2024-Q1`, `2024-W12`, `2024-03-18`.
    private static func numbered(_ word: String, original: String, in calendar: GregorianCalendar) throws -> DateInterval {
        let parts = word.split(separator: word.contains("/") ? "/" : "-", omittingEmptySubsequences: false).map(String.init)
        guard let year = year(parts[0]) else { throw TimeInputError.malformed(original) }
        switch parts.count {
        case 1:
            let start = calendar.date(year: year, month: 1, day: 1)
            return DateInterval(start: start, end: calendar.adding(1, .years, to: start))
        case 2:
            let second = parts[1]
            if second.hasPrefix("q"), let quarter = Int(second.dropFirst()), second.count == 2 {
                guard (1...4).contains(quarter) else { throw TimeInputError.impossible(original, reason: "a year has quarters 1 to 4") }
                let start = calendar.date(year: year, month: 3 * quarter - 2, day: 1)
                return DateInterval(start: start, end: calendar.adding(3, .months, to: start))
            }
            if second.hasPrefix("w"), let week = Int(second.dropFirst()), (2...3).contains(second.count) {
                return try isoWeek(year: year, week: week, original: original, in: calendar)
            }
            guard let month = Int(second), (1...2).contains(second.count), second.allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw TimeInputError.malformed(original)
            }
            return try monthPeriod(year: year, month: month, original: original, in: calendar)
        case 3:
            guard parts[1].count == 2, parts[2].count == 2, let month = Int(parts[1]), let day = Int(parts[2]),
                  parts[1].allSatisfy({ $0.isASCII && $0.isNumber }), parts[2].allSatisfy({ $0.isASCII && $0.isNumber }) else {
                throw TimeInputError.malformed(original)
            }
            guard (1...12).contains(month), day >= 1, day <= ISODate.daysInMonth(year: year, month: month) else {
                throw TimeInputError.impossible(original, reason: "that day is not in the calendar")
            }
            return period(.day, containing: calendar.date(year: year, month: month, day: day), in: calendar)
        default:
            throw TimeInputError.malformed(original)
        }
    }

    private static func monthPeriod(year: Int, month: Int, original: String, in calendar: GregorianCalendar) throws -> DateInterval {
        guard (1...12).contains(month) else { throw TimeInputError.impossible(original, reason: "a year has months 1 to 12") }
        let start = calendar.date(year: year, month: month, day: 1)
        return DateInterval(start: start, end: calendar.adding(1, .months, to: start))
    }

    /// ISO 8601 week `week` of `year`: Monday to Sunday, week 1 holding the year's first Thursday.
    private static func isoWeek(year: Int, week: Int, original: String, in calendar: GregorianCalendar) throws -> DateInterval {
        let utc = GregorianCalendar(timeZone: .gmt)
        /// The day number (days since 1970-01-01) of the Monday of `year`'s week 1, the week holding 4 January.
        func firstMonday(of year: Int) -> Int {
            let january4 = utc.localTime(of: utc.date(year: year, month: 1, day: 4))
            return january4.dayNumber - (january4.weekday + 5) % 7 // Monday 0 … Sunday 6
        }
        let first = firstMonday(of: year)
        let weeks = (firstMonday(of: year + 1) - first) / 7
        guard week >= 1, week <= weeks else {
            throw TimeInputError.impossible(original, reason: "\(year) has ISO weeks 1 to \(weeks)")
        }
        // Days past the end of a month carry over: day n + 1 of January 1970 is the local midnight of day number n.
        let start = calendar.date(year: 1970, month: 1, day: first + 7 * (week - 1) + 1)
        return DateInterval(start: start, end: calendar.date(year: 1970, month: 1, day: first + 7 * week + 1))
    }

    /// The period of `unit` that holds `date`. It ends where the next one starts, at its first instant: a day whose
    /// midnight the zone skips starts at 01:00, and the day before it still ends there, not at the next day's 01:00.
    private static func period(_ unit: Unit, containing date: Date, in calendar: GregorianCalendar) -> DateInterval {
        switch unit {
        case .day:
            let start = calendar.start(of: .day, for: date)
            return DateInterval(start: start, end: calendar.start(of: .day, for: calendar.adding(1, .days, to: start)))
        case .week:
            let start = calendar.start(of: .week, for: date)
            return DateInterval(start: start, end: calendar.start(of: .week, for: calendar.adding(1, .weeks, to: start)))
        case .month:
            let start = calendar.start(of: .month, for: date)
            return DateInterval(start: start, end: calendar.start(of: .month, for: calendar.adding(1, .months, to: start)))
        case .quarter:
            let local = calendar.localTime(of: date)
            let start = calendar.date(year: local.year, month: (local.month - 1) / 3 * 3 + 1, day: 1)
            return DateInterval(start: start, end: calendar.start(of: .month, for: calendar.adding(3, .months, to: start)))
        case .year:
            let start = calendar.start(of: .year, for: date)
            return DateInterval(start: start, end: calendar.start(of: .year, for: calendar.adding(1, .years, to: start)))
        }
    }

    private static func moved(_ date: Date, by count: Int, _ unit: Unit, in calendar: GregorianCalendar) -> Date {
        switch unit {
        case .day: return calendar.adding(count, .days, to: date)
        case .week: return calendar.adding(count, .weeks, to: date)
        case .month: return calendar.adding(count, .months, to: date)
        case .quarter: return calendar.adding(3 * count, .months, to: date)
        case .year: return calendar.adding(count, .years, to: date)
        }
    }

    /// The latest `weekday` (1 Sunday … 7 Saturday) up to today, or before today.
    private static func day(_ weekday: Int, strictlyBefore: Bool, today: Date, in calendar: GregorianCalendar) throws -> DateInterval {
        var back = (calendar.weekday(of: today) - weekday + 7) % 7
        if strictlyBefore && back == 0 { back = 7 }
        return period(.day, containing: calendar.adding(-back, .days, to: today), in: calendar)
    }

    private static func weekday(_ word: String) -> Int? {
        guard word.count >= 3 else { return nil }
        return weekdayNames.firstIndex { $0.hasPrefix(word) }.map { $0 + 1 }
    }

    private static func month(_ word: String) -> Int? {
        guard word.count >= 3 else { return nil }
        return monthNames.firstIndex { $0.hasPrefix(word) }.map { $0 + 1 }
    }

    private static func year(_ text: String) -> Int? {
        guard text.count == 4, text.allSatisfy({ $0.isASCII && $0.isNumber }), let year = Int(text), (1900...2999).contains(year) else {
            return nil
        }
        return year
    }

    /// `-3d` → -3, `-2w` → -14, `+1d` → 1; nil for anything else.
    private static func relativeDays(_ word: String) -> Int? {
        guard let sign = word.first, sign == "-" || sign == "+", let unit = word.last, unit == "d" || unit == "w" else { return nil }
        let digits = word.dropFirst().dropLast()
        guard !digits.isEmpty, digits.count <= 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let count = Int(digits) else {
            return nil
        }
        return (sign == "-" ? -1 : 1) * count * (unit == "w" ? 7 : 1)
    }
}
