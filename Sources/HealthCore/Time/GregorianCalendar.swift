/// The Gregorian calendar in one time zone: local dates and times of instants, the starts of days, weeks, months
/// and years, and calendar arithmetic that keeps the time of day across daylight-saving changes.
///
/// It does what the library needs of Foundation's `Calendar`, with the same answers (the tests compare the two), on
/// the library's own ``ZoneRules``, so neither ICU nor Foundation's calendar is loaded at start-up.
public struct GregorianCalendar: Sendable, Equatable {
    /// The zone in which dates are read.
    public var timeZone: ZoneRules
    /// The first day of a week: 1 = Sunday … 7 = Saturday.
    public var firstWeekday: Int

    /// A calendar in `timeZone` whose weeks start on `firstWeekday` (Monday unless told).
    public init(timeZone: ZoneRules = .gmt, firstWeekday: Int = 2) {
        self.timeZone = timeZone
        self.firstWeekday = firstWeekday
    }

    /// The local date and time of an instant.
    public struct LocalTime: Equatable, Sendable {
        public var year: Int, month: Int, day: Int
        public var hour: Int, minute: Int, second: Int
        /// 1 = Sunday … 7 = Saturday.
        public var weekday: Int
        /// Days since 1970-01-01 of the local date.
        public var dayNumber: Int
    }

    /// What ``adding(_:_:to:)`` adds.
    public enum Step: Sendable, Equatable {
        case days, weeks, months, years
    }

    /// What ``start(of:for:)`` finds the start of.
    public enum Period: Sendable, Equatable {
        case day, week, month, year
    }

    /// The local date and time at `date`.
    public func localTime(of date: Date) -> LocalTime {
        let seconds = Self.wholeSeconds(date)
        let local = seconds + Int64(timeZone.offset(at: seconds))
        let days = Int(Self.floorDivide(local, 86_400))
        let secondOfDay = Int(local - Int64(days) * 86_400)
        let (year, month, day) = ISODate.civil(fromDays: days)
        return LocalTime(year: year, month: month, day: day, hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60,
                         second: secondOfDay % 60, weekday: Self.weekday(ofDay: days), dayNumber: days)
    }

    /// The instant showing the local date and time given. Out-of-range parts carry over as in `Calendar`
    /// (month 13 is January of the next year, day 0 the last day of the previous month); a time shown twice gives
    /// the first instant, a skipped time is read with the offset before the change.
    public func date(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0,
                     fraction: TimeInterval = 0) -> Date {
        let months = year * 12 + (month - 1)
        let normalYear = Int(Self.floorDivide(Int64(months), 12))
        let days = ISODate.daysFromCivil(normalYear, months - normalYear * 12 + 1, 1) + day - 1
        let local = Int64(days) * 86_400 + Int64(hour) * 3600 + Int64(minute) * 60 + Int64(second)
        return Date(timeIntervalSince1970: Double(timeZone.instant(ofLocal: local)) + fraction)
    }

    /// The first instant of the local day containing `date`.
    public func startOfDay(for date: Date) -> Date {
        midnight(ofDay: localTime(of: date).dayNumber)
    }

    /// The first instant of the day, week (from ``firstWeekday``), month or year containing `date`.
    public func start(of period: Period, for date: Date) -> Date {
        let local = localTime(of: date)
        switch period {
        case .day: return midnight(ofDay: local.dayNumber)
        case .week: return midnight(ofDay: local.dayNumber - (local.weekday - firstWeekday + 7) % 7)
        case .month: return midnight(ofDay: ISODate.daysFromCivil(local.year, local.month, 1))
        case .year: return midnight(ofDay: ISODate.daysFromCivil(local.year, 1, 1))
        }
    }

    /// `date` moved by whole days, weeks, months or years, keeping its local time of day (so a day across a
    /// daylight-saving change lasts 23 or 25 hours); a month or year step ending past the end of a month ends on
    /// its last day (January 31 plus one month is February 29 or 28).
    ///
    /// The answers are those of Foundation's `Calendar.date(byAdding:value:to:)`, edge cases included: days and
    /// weeks are taken in elapsed time and then corrected by the change of offset when the time of day moved; months
    /// and years are counted on the local date. A time shown twice is the first of the two when moving forward and
    /// the second when moving back; a skipped time moves forward.
    public func adding(_ value: Int, _ step: Step, to date: Date) -> Date {
        guard value != 0 else { return date }
        let seconds = Self.wholeSeconds(date)
        let fraction = date.timeIntervalSince1970 - Double(seconds)
        var result: Int64
        switch step {
        case .days, .weeks:
            let moved = seconds + Int64(value * (step == .weeks ? 7 : 1)) * 86_400
            result = moved
            let timeOfDay = secondOfDay(at: seconds)
            let movedOffset = timeZone.offset(at: moved), sourceOffset = timeZone.offset(at: seconds)
            if secondOfDay(at: moved) != timeOfDay && movedOffset != sourceOffset {
                result = moved + Int64(sourceOffset - movedOffset)
                if secondOfDay(at: result) != timeOfDay && sourceOffset < movedOffset { result = moved }
            }
        case .months, .years:
            let local = localTime(of: date)
            let months = local.year * 12 + (local.month - 1) + value * (step == .years ? 12 : 1)
            let year = Int(Self.floorDivide(Int64(months), 12))
            let month = months - year * 12 + 1
            let days = ISODate.daysFromCivil(year, month, min(local.day, ISODate.daysInMonth(year: year, month: month)))
            let wall = Int64(days) * 86_400 + Int64(local.hour * 3600 + local.minute * 60 + local.second)
            result = timeZone.instant(ofLocal: wall, repeated: .second)
        }
        if value > 0, let repeated = repeatedSpan(containing: result) { result -= repeated }
        return Date(timeIntervalSince1970: Double(result) + fraction)
    }

    /// The weekday of `date`: 1 = Sunday … 7 = Saturday.
    public func weekday(of date: Date) -> Int { localTime(of: date).weekday }

    /// Whether two instants fall on the same local day.
    public func isDate(_ first: Date, inSameDayAs second: Date) -> Bool {
        localTime(of: first).dayNumber == localTime(of: second).dayNumber
    }

    /// The first instant of a local day given as days since 1970-01-01.
    func midnight(ofDay days: Int) -> Date {
        Date(timeIntervalSince1970: Double(timeZone.instant(ofLocal: Int64(days) * 86_400)))
    }

    /// Seconds since local midnight at `seconds` since 1970.
    private func secondOfDay(at seconds: Int64) -> Int64 {
        let local = seconds + Int64(timeZone.offset(at: seconds))
        return local - Self.floorDivide(local, 86_400) * 86_400
    }

    /// When `seconds` lies in the second showing of an hour repeated by a backward change less than 48 hours
    /// earlier, the length of that repeat (how far back its first showing is).
    private func repeatedSpan(containing seconds: Int64) -> Int64? {
        guard let change = timeZone.nextTransition(after: seconds - 48 * 3600), change <= seconds else { return nil }
        let span = Int64(timeZone.offset(at: change - 1) - timeZone.offset(at: change + 1))
        return span > 0 && seconds < change + span ? span : nil
    }

    /// 1 = Sunday … 7 = Saturday for a day number (1970-01-01 was a Thursday).
    static func weekday(ofDay days: Int) -> Int {
        let sinceSunday = Int64(days) + 4
        return Int(sinceSunday - floorDivide(sinceSunday, 7) * 7) + 1
    }

    private static func wholeSeconds(_ date: Date) -> Int64 {
        Int64(date.timeIntervalSince1970.rounded(.down))
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : (a - b + 1) / b
    }
}
