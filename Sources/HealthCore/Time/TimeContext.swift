/// "Now" and the calendar in which a command reads and shows times.
///
/// The library never reads the clock or the system zone itself: callers pass a context, so every relative
/// time (`--today`, `08:30`, `-2h`) is reproducible.
public struct TimeContext: Sendable {
    /// The instant that counts as now.
    public var now: Date
    /// A Gregorian calendar whose `timeZone` is the user's zone; weeks start on its `firstWeekday`.
    public var calendar: Calendar

    /// Creates a context in `zone`, with weeks starting on Monday.
    public init(now: Date, timeZone: TimeZone) {
        self.now = now
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.firstWeekday = 2
        calendar.minimumDaysInFirstWeek = 4
        self.calendar = calendar
    }

    /// The user's time zone.
    public var timeZone: TimeZone { calendar.timeZone }

    /// Midnight at the start of the day containing `date`.
    public func startOfDay(_ date: Date) -> Date { calendar.startOfDay(for: date) }

    /// `date` moved by whole calendar days (23 or 25 hours across a DST change).
    public func adding(days: Int, to date: Date) -> Date {
        calendar.date(byAdding: .day, value: days, to: date)!
    }

    /// The instant of a local wall-clock time in this zone.
    func date(_ parts: ISODate.Components) throws -> Date {
        if let offset = parts.offsetSeconds { return ISODate.instant(parts, offsetSeconds: offset) }
        let components = DateComponents(
            calendar: calendar, timeZone: calendar.timeZone, year: parts.year, month: parts.month, day: parts.day,
            hour: parts.hour, minute: parts.minute, second: parts.second, nanosecond: parts.millisecond * 1_000_000)
        guard let date = calendar.date(from: components) else {
            throw TimeInputError.impossible("\(parts.year)-\(parts.month)-\(parts.day)", reason: "the calendar has no such time")
        }
        return date
    }
}
