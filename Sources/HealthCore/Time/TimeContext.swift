/// "Now" and the calendar in which a command reads and shows times.
///
/// The library never reads the clock or the system zone itself: callers pass a context, so every relative
/// time (today, `08:30`, `-2h`) is reproducible.
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

    /// The instant of a local wall-clock time in this zone. A time shown twice (when clocks go back) is the
    /// earlier instant; a time of day that never shows (skipped when clocks go forward) is refused, naming the
    /// valid times on either side. A date alone is the day's first instant, whatever the zone skipped.
    ///
    /// - Parameter text: The time as typed, for the error message.
    /// - Throws: ``TimeInputError/impossible(_:reason:)`` for a skipped time.
    func date(_ parts: ISODate.Components, text: String) throws -> Date {
        if let offset = parts.offsetSeconds { return ISODate.instant(parts, offsetSeconds: offset) }
        if parts.hasTime {
            let local = Int64(ISODate.daysFromCivil(parts.year, parts.month, parts.day)) * 86_400
                + Int64(parts.hour) * 3600 + Int64(parts.minute) * 60 + Int64(parts.second)
            if let skipped = timeZone.skippedSpan(containingLocal: local) {
                func shown(_ seconds: Int64) -> String {
                    String(ISODate.format(Date(timeIntervalSince1970: Double(seconds)), offsetSeconds: 0).prefix(16))
                }
                let offset = ISODate.format(Date(timeIntervalSince1970: 0), offsetSeconds: skipped.offsetBefore).suffix(6)
                throw TimeInputError.impossible(text, reason: "clocks in \(timeZone.identifier) went forward from "
                    + "\(shown(skipped.start).suffix(5)) straight to \(shown(skipped.end).suffix(5)) that night; "
                    + "the nearest valid times are \(shown(skipped.start - 60)) and \(shown(skipped.end)) "
                    + "(or give the offset meant, as in \(shown(local))\(offset))")
            }
        }
        return calendar.date(year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute,
                             second: parts.second, fraction: Double(parts.millisecond) / 1000)
    }
}
