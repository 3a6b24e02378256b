/// "Now" and the calendar in which a command reads and shows times.
///
/// The library never reads the clock or the system zone itself: callers pass a context, so every relative
/// time (`--today`, `08:30`, `-2h`) is reproducible.
public struct TimeContext: Sendable {
    /// The instant that counts as now.
    public var now: Date
    /// A Gregorian calendar whose `timeZone` is the user's zone; weeks start on its `firstWeekday`.
    public var calendar: GregorianCalendar

    /// Creates a context in `zone`, with weeks starting on Monday.
    public init(now: Date, timeZone: ZoneRules) {
        self.now = now
        calendar = GregorianCalendar(timeZone: timeZone, firstWeekday: 2)
    }

    /// The user's time zone.
    public var timeZone: ZoneRules { calendar.timeZone }

    /// Midnight at the start of the day containing `date`.
    public func startOfDay(_ date: Date) -> Date { calendar.startOfDay(for: date) }

    /// `date` moved by whole calendar days (23 or 25 hours across a DST change).
    public func adding(days: Int, to date: Date) -> Date {
        calendar.adding(days, .days, to: date)
    }

    /// The instant of a local wall-clock time in this zone.
    func date(_ parts: ISODate.Components) -> Date {
        if let offset = parts.offsetSeconds { return ISODate.instant(parts, offsetSeconds: offset) }
        return calendar.date(year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute,
                             second: parts.second, fraction: Double(parts.millisecond) / 1000)
    }
}
