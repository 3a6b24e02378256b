extension GregorianCalendar {
    /// The instant of a local wall-clock time in this calendar's zone, as ``ISODate/components(_:)`` read it.
    ///
    /// Components with an offset name their instant whatever the zone. A time shown twice (when clocks go back) is the
    /// earlier instant; a time of day that never shows (skipped when clocks go forward) is refused, naming the valid
    /// times on either side. A date alone is the day's first instant, whatever the zone skipped.
    ///
    /// - Parameters:
    ///   - parts: The date and time, from ``ISODate/components(_:)``.
    ///   - text: The text they were read from, for the error message.
    /// - Throws: ``TimeInputError/impossible(_:reason:)`` for a skipped time.
    public func date(from parts: ISODate.Components, text: String) throws -> Date {
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
        return date(year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: parts.minute,
                    second: parts.second, fraction: Double(parts.millisecond) / 1000)
    }
}
