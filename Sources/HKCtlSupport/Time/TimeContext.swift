import HealthCore

/// "Now" and the calendar in which a command reads and shows times.
///
/// The parsers never read the clock or the system zone themselves: callers pass a context, so every relative
/// time (today, `08:30`, `-2h`) is reproducible.
package struct TimeContext: Sendable {
    /// The instant that counts as now.
    package var now: Date
    /// A Gregorian calendar whose `timeZone` is the user's zone; weeks start on its `firstWeekday`.
    package var calendar: GregorianCalendar

    /// Creates a context in `zone`, with weeks starting on Monday.
    package init(now: Date, timeZone: ZoneRules) {
        self.now = now
        calendar = GregorianCalendar(timeZone: timeZone, firstWeekday: 2)
    }

    /// The user's time zone.
    package var timeZone: ZoneRules { calendar.timeZone }

    /// Midnight at the start of the day containing `date`.
    package func startOfDay(_ date: Date) -> Date { calendar.startOfDay(for: date) }

    /// The first instant of the local day after the one containing `date`: where a day ends, also when the zone
    /// skips the next day's midnight (the day then ends at its 01:00, where the next one starts).
    package func startOfNextDay(after date: Date) -> Date {
        calendar.startOfDay(for: calendar.adding(1, .days, to: calendar.startOfDay(for: date)))
    }

    /// `date` moved by whole calendar days (23 or 25 hours across a DST change).
    package func adding(days: Int, to date: Date) -> Date {
        calendar.adding(days, .days, to: date)
    }

    /// The instant of a local wall-clock time in this zone (``GregorianCalendar/date(from:text:)``).
    ///
    /// - Parameter text: The time as typed, for the error message.
    /// - Throws: ``TimeInputError/impossible(_:reason:)`` for a skipped time.
    func date(_ parts: ISODate.Components, text: String) throws -> Date {
        try calendar.date(from: parts, text: text)
    }
}
