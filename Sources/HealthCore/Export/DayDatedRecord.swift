/// Records an export dates by a day rather than an instant: an `ActivitySummary` (its `dateComponents`, the phone's
/// calendar day whose rings it holds), or a record whose only date is a day (`receivedDate`, `dateIssued`, `date`).
/// An import stores such a record, kept generically, at its day's midnight UTC, the only instant it can know; an export
/// of a range in a zone takes it by its day in that zone, so May 30's summary is May 30's in Los Angeles too (read by
/// its instant, a range of that day west of UTC took May 31's).
enum DayDatedRecord {
    /// The attributes whose day an import dates an element by when it has no start date, in the order it looks.
    static let attributes = ["dateComponents", "receivedDate", "dateIssued", "date"]

    /// The instant `sample`'s day starts in `zone`, when it is dated by a day: kept generically, an instant, and
    /// standing at the midnight UTC of the day one of ``attributes`` names; nil for any other sample.
    static func dayStart(of sample: Sample, in zone: ZoneRules) -> Date? {
        guard case .generic = sample.value, sample.start == sample.end, !sample.metadata.isEmpty else { return nil }
        for name in attributes {
            guard case let .string(text)? = sample.metadata["@" + name], let parts = try? ISODate.components(text),
                  !parts.hasTime, ISODate.instant(parts, offsetSeconds: 0) == sample.start else { continue }
            let local = Int64(sample.start.timeIntervalSince1970)
            return Date(timeIntervalSince1970: Double(zone.instant(ofLocal: local)))
        }
        return nil
    }

    /// The range to read for `interval` so that every day-dated record whose day starts within it, in any zone, is
    /// read: a day and a quarter each side (offsets lie within ±26 hours).
    static func widened(_ interval: DateInterval) -> DateInterval {
        let margin: TimeInterval = 30 * 3600
        let start = max(DateRange.distantStart, interval.start.addingTimeInterval(-margin))
        let end = min(DateRange.distantEnd, interval.end.addingTimeInterval(margin))
        return DateInterval(start: start, end: end)
    }

    /// Whether `sample` belongs in `interval` read in `zone`: a day-dated record when its day starts within it (as an
    /// instant at that moment would), any other by HealthKit's overlap predicate.
    static func belongs(_ sample: Sample, in interval: DateInterval, zone: ZoneRules) -> Bool {
        guard let start = dayStart(of: sample, in: zone) else { return sample.overlaps(interval) }
        return start >= interval.start && start < interval.end
    }
}
