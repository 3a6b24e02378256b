import TextSupport

/// The local time of day at which one night ends and the next begins (default noon).
///
/// The night of date D runs from the cut-off on D − 1 to the cut-off on D, so it is named after the morning it
/// ends on: with the default, sleep from Friday 23:00 to Saturday 07:00 is Saturday's night, and a nap on
/// Saturday at 14:00 belongs to Sunday's night. A cut-off of 18:00 puts that nap in Saturday's night instead.
///
/// Invariant: `0 <= hour <= 23`, `0 <= minute <= 59`.
public struct NightCutoff: Hashable, Sendable, CustomStringConvertible {
    /// The hour, 0…23.
    public let hour: Int
    /// The minute, 0…59.
    public let minute: Int

    /// Noon.
    public static let noon = NightCutoff(uncheckedHour: 12, minute: 0)

    /// Creates a cut-off.
    ///
    /// - Throws: ``StatisticsError/invalidNightCutoff(_:)`` when the time does not exist.
    public init(hour: Int, minute: Int = 0) throws {
        guard (0...23).contains(hour), (0...59).contains(minute) else {
            throw StatisticsError.invalidNightCutoff(
                NumberFormatting.zeroPadded(hour, width: 2) + ":" + NumberFormatting.zeroPadded(minute, width: 2))
        }
        self.init(uncheckedHour: hour, minute: minute)
    }

    private init(uncheckedHour hour: Int, minute: Int) {
        self.hour = hour
        self.minute = minute
    }

    /// `12:00`.
    public var description: String { NumberFormatting.zeroPadded(hour, width: 2) + ":" + NumberFormatting.zeroPadded(minute, width: 2) }

    /// The night that `instant` falls in: from the cut-off before it to the next one (an instant at a cut-off starts
    /// the next night).
    ///
    /// - Parameters:
    ///   - instant: Any moment of the night, such as the middle of a sleep sample.
    ///   - calendar: The calendar (zone) of the cut-offs.
    public func night(containing instant: Date, calendar: GregorianCalendar) -> DateInterval {
        let today = self.instant(onDayOf: instant, calendar: calendar)
        if instant >= today {
            let next = self.instant(onDayOf: calendar.adding(1, .days, to: calendar.startOfDay(for: instant)), calendar: calendar)
            return DateInterval(start: today, end: next)
        }
        let previous = self.instant(onDayOf: calendar.adding(-1, .days, to: calendar.startOfDay(for: instant)), calendar: calendar)
        return DateInterval(start: previous, end: today)
    }

    /// The cut-off instant on the local day that contains `day` (the next existing time if a DST gap skips it).
    func instant(onDayOf day: Date, calendar: GregorianCalendar) -> Date {
        let local = calendar.localTime(of: day)
        return calendar.date(year: local.year, month: local.month, day: local.day, hour: hour, minute: minute)
    }
}
