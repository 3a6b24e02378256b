/// A calendar unit that statistics can be grouped by (one bucket per hour, day, week, ...). Buckets follow the calendar: a day across a DST
/// change lasts 23 or 25 hours and is still one bucket. For other lengths and anchors see ``BucketGrid``.
public enum BucketUnit: String, CaseIterable, Sendable {
    case hour, day, week, month, year

    /// The bucket boundaries covering `interval`: the calendar units that intersect it, clipped to it.
    ///
    /// - Returns: `count + 1` increasing instants; bucket `i` is `[result[i], result[i + 1])`. A range too long
    ///   for the unit (more than ``BucketGrid/maximumBucketCount`` buckets) gives one bucket.
    public func boundaries(covering interval: DateInterval, calendar: GregorianCalendar) -> [Date] {
        (try? BucketGrid(interval: BucketInterval(self)).boundaries(covering: interval, calendar: calendar))
            ?? [interval.start, interval.end]
    }
}
