/// The bucket boundaries of a statistics collection: `anchor + k × interval` for every integer k, extending
/// forwards and backwards from the anchor (which only fixes the phase), clipped to the query range.
///
/// The first and last buckets are cut at the range's edges, so the buckets tile the range exactly and their sums
/// add up to the range's total.
public struct BucketGrid: Sendable {
    /// The most buckets one query computes.
    public static let maximumBucketCount = 200_000

    /// The length of one bucket.
    public var interval: BucketInterval
    /// A grid point; nil means ``BucketInterval/defaultAnchor(for:calendar:)`` of the range start.
    public var anchor: Date?

    /// Creates a grid.
    public init(interval: BucketInterval, anchor: Date? = nil) {
        self.interval = interval
        self.anchor = anchor
    }

    /// The boundaries covering `range`.
    ///
    /// - Parameters:
    ///   - range: The query range.
    ///   - calendar: The calendar (and zone) of calendar steps and of the default anchor.
    /// - Returns: `count + 1` increasing instants from `range.start` to `range.end`; bucket `i` is
    ///   `[result[i], result[i + 1])`.
    /// - Throws: ``StatisticsError/tooManyBuckets(_:limit:)`` when the range holds more than
    ///   ``maximumBucketCount`` buckets.
    public func boundaries(covering range: DateInterval, calendar: GregorianCalendar) throws -> [Date] {
        let estimate = range.duration / (Double(interval.count) * interval.unit.shortestSeconds)
        if estimate > Double(BucketGrid.maximumBucketCount) {
            throw StatisticsError.tooManyBuckets(Int(min(estimate, 1e15)), limit: BucketGrid.maximumBucketCount)
        }
        let anchor = self.anchor ?? interval.defaultAnchor(for: range.start, calendar: calendar)
        var step = firstStep(atOrBefore: range.start, anchor: anchor, calendar: calendar)
        var boundaries = [range.start]
        while true {
            step += 1
            let next = interval.point(step, from: anchor, calendar: calendar)
            guard next > boundaries.last! else { break }
            if next >= range.end { break }
            boundaries.append(next)
        }
        boundaries.append(range.end)
        return boundaries
    }

    /// The whole bucket of the grid that holds `date` (with no anchor, the default one of `date`'s own bucket).
    public func bucket(containing date: Date, calendar: GregorianCalendar) -> DateInterval {
        let anchor = self.anchor ?? interval.defaultAnchor(for: date, calendar: calendar)
        let step = firstStep(atOrBefore: date, anchor: anchor, calendar: calendar)
        let start = interval.point(step, from: anchor, calendar: calendar)
        return DateInterval(start: start, end: max(start, interval.point(step + 1, from: anchor, calendar: calendar)))
    }

    /// The largest k with `anchor + k × interval <= date`.
    private func firstStep(atOrBefore date: Date, anchor: Date, calendar: GregorianCalendar) -> Int {
        // Exact for minutes and hours; for calendar units, an estimate from the average unit length (off by a step
        // or two at most, even centuries from the anchor) that the two loops below correct.
        let stepSeconds = Double(interval.count) * interval.unit.averageSeconds
        var step = Int((date.timeIntervalSince(anchor) / stepSeconds).rounded(.down))
        while interval.point(step, from: anchor, calendar: calendar) > date { step -= 1 }
        while interval.point(step + 1, from: anchor, calendar: calendar) <= date { step += 1 }
        return step
    }
}
