/// HealthKit's `HKStatistics` accessors: quantities in the figures' unit, nil where there is no data.
extension Statistics {
    /// Start of the interval, as `startDate`.
    public var startDate: Date { start }
    /// End of the interval, as `endDate`.
    public var endDate: Date { end }

    private func quantity(_ value: Double?) -> Quantity? {
        guard sampleCount > 0, let value, let unit else { return nil }
        return Quantity(value, unit)
    }

    /// The total of a cumulative type, or nil when no sample counted.
    public func sumQuantity() -> Quantity? { quantity(sum) }
    /// The average of a discrete type, or nil.
    public func averageQuantity() -> Quantity? { quantity(average) }
    /// The smallest reading of a discrete type, or nil.
    public func minimumQuantity() -> Quantity? { quantity(minimum) }
    /// The largest reading of a discrete type, or nil.
    public func maximumQuantity() -> Quantity? { quantity(maximum) }
    /// The latest reading, or nil.
    public func mostRecentQuantity() -> Quantity? { quantity(mostRecent) }
    /// Seconds covered by samples, overlaps counted once (the `.duration` option), as a quantity in seconds, or nil:
    /// HealthKit's `duration()`. The figure in seconds is ``durationSeconds``.
    public func duration() -> Quantity? {
        guard sampleCount > 0, let durationSeconds else { return nil }
        return Quantity(durationSeconds, .second())
    }

    /// When the latest sample started and ended, as HealthKit's `mostRecentQuantityDateInterval()`, or nil when there
    /// is no most recent quantity (the `.mostRecent` option was not asked for, or no sample counted).
    public func mostRecentQuantityDateInterval() -> DateInterval? {
        guard sampleCount > 0, mostRecent != nil, let end = mostRecentDate else { return nil }
        let start = min(mostRecentStart ?? end, end)
        return DateInterval(start: start, end: end)
    }

    /// The sources with figures of their own, as HealthKit's `sources`: nil unless the statistics were asked for with
    /// ``StatisticsOptions/separateBySource`` (and any sample counted), highest priority first. Each source's figures
    /// are read with ``sumQuantity(for:)`` and its siblings; all of them at once with ``sourceStatistics``.
    public var sources: [Source]? {
        sourceStatistics.isEmpty ? nil : sourceStatistics.map { Source(name: $0.source) }
    }

    /// The figures of one source alone (with `.separateBySource`), or nil when it has none here.
    private func figures(of source: Source) -> Statistics? {
        guard var own = sourceStatistics.first(where: { $0.source == source.name })?.statistics else { return nil }
        own.unit = unit
        return own
    }

    /// `source`'s own total, as HealthKit's `sumQuantity(for:)`; needs `.separateBySource`.
    public func sumQuantity(for source: Source) -> Quantity? { figures(of: source)?.sumQuantity() }
    /// `source`'s own average, as `averageQuantity(for:)`.
    public func averageQuantity(for source: Source) -> Quantity? { figures(of: source)?.averageQuantity() }
    /// `source`'s own minimum, as `minimumQuantity(for:)`.
    public func minimumQuantity(for source: Source) -> Quantity? { figures(of: source)?.minimumQuantity() }
    /// `source`'s own maximum, as `maximumQuantity(for:)`.
    public func maximumQuantity(for source: Source) -> Quantity? { figures(of: source)?.maximumQuantity() }
    /// `source`'s own latest reading, as `mostRecentQuantity(for:)`.
    public func mostRecentQuantity(for source: Source) -> Quantity? { figures(of: source)?.mostRecentQuantity() }
    /// When `source`'s own latest reading started and ended, as `mostRecentQuantityDateInterval(for:)`.
    public func mostRecentQuantityDateInterval(for source: Source) -> DateInterval? {
        figures(of: source)?.mostRecentQuantityDateInterval()
    }
    /// The time `source`'s own samples cover, as `duration(for:)`.
    public func duration(for source: Source) -> Quantity? { figures(of: source)?.duration() }
}

/// The buckets of a ``StatisticsCollectionQueryDescriptor``: HealthKit's `HKStatisticsCollection`.
///
/// Its buckets are the grid's whole intervals, `anchor + k × interval` (a day bucket is 23 or 25 hours across a change
/// of summer time), whatever the predicate's dates: a bucket the predicate's range cuts holds only the samples the
/// predicate selects, but spans its whole interval, as in HealthKit. Every bucket of the grid can be asked for, those
/// without data included (their quantities are nil).
public struct StatisticsCollection: Sendable {
    /// The computed buckets, in order (a bucket of the range without data included).
    private let buckets: [Statistics]
    /// The grid, the calendar it steps in and the unit of the figures, to give any bucket outside the computed ones.
    private let grid: BucketGrid?
    private let calendar: GregorianCalendar
    private let unit: HealthUnit?

    init(buckets: [Statistics], grid: BucketGrid? = nil, calendar: GregorianCalendar = GregorianCalendar(timeZone: .gmt),
         unit: HealthUnit? = nil) {
        self.grid = grid
        self.calendar = calendar
        self.unit = unit
        // The first and last buckets span their whole intervals, not only the part inside the range.
        var whole = buckets
        if let grid, let first = whole.first, let last = whole.last {
            whole[0].start = grid.bucket(containing: first.start, calendar: calendar).start
            let lastBucket = grid.bucket(containing: last.end > last.start ? last.end.addingTimeInterval(-0.001) : last.start, calendar: calendar)
            whole[whole.count - 1].end = max(whole[whole.count - 1].end, lastBucket.end)
        }
        self.buckets = whole
    }

    /// The buckets that hold data, in order, as `statistics()`.
    public func statistics() -> [Statistics] { buckets.filter { $0.sampleCount > 0 } }

    /// The bucket that contains `date`, as `statistics(for:)`: with nil quantities when it holds no data (nil only
    /// for a collection made without a grid).
    public func statistics(for date: Date) -> Statistics? {
        if let bucket = buckets.first(where: { $0.start <= date && date < $0.end }) { return bucket }
        return grid.map { emptyBucket($0.bucket(containing: date, calendar: calendar)) }
    }

    /// Calls `block` for every bucket of the grid from the one holding `startDate` to the one holding `endDate`, empty
    /// ones included (their quantities are nil), as `enumerateStatistics(from:to:with:)`; setting the second argument to
    /// true stops. At most ``BucketGrid/maximumBucketCount`` buckets are visited.
    public func enumerateStatistics(from startDate: Date, to endDate: Date,
                                    with block: (Statistics, inout Bool) throws -> Void) rethrows {
        var stop = false
        guard let grid else {
            for bucket in buckets where bucket.end > startDate && bucket.start <= endDate {
                try block(bucket, &stop)
                if stop { return }
            }
            return
        }
        var cell = grid.bucket(containing: startDate, calendar: calendar)
        var visited = 0
        while cell.start <= endDate && visited < BucketGrid.maximumBucketCount {
            let bucket = buckets.first { $0.start <= cell.start && cell.start < $0.end } ?? emptyBucket(cell)
            try block(bucket, &stop)
            if stop { return }
            visited += 1
            guard bucket.end > cell.start else { return }
            cell = grid.bucket(containing: bucket.end, calendar: calendar)
        }
    }

    private func emptyBucket(_ interval: DateInterval) -> Statistics {
        var bucket = Statistics(start: interval.start, end: interval.end)
        bucket.unit = unit
        return bucket
    }

    /// The sources with data in any bucket, as HealthKit's `sources()` (with `.separateBySource`).
    public func sources() -> Set<Source> {
        Set(buckets.flatMap { $0.sources ?? [] })
    }
}
