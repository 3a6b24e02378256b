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
public struct StatisticsCollection: Sendable {
    /// Every bucket of the range, empty ones included, in order.
    private let buckets: [Statistics]

    init(buckets: [Statistics]) { self.buckets = buckets }

    /// The buckets that hold data, in order, as `statistics()`.
    public func statistics() -> [Statistics] { buckets.filter { $0.sampleCount > 0 } }

    /// The bucket that contains `date`, as `statistics(for:)`; nil when `date` is outside the range.
    public func statistics(for date: Date) -> Statistics? {
        buckets.first { $0.start <= date && date < $0.end }
    }

    /// Calls `block` for every bucket between `startDate` and `endDate`, empty ones included (their quantities are
    /// nil), as `enumerateStatistics(from:to:with:)`; setting the second argument to true stops.
    public func enumerateStatistics(from startDate: Date, to endDate: Date,
                                    with block: (Statistics, inout Bool) throws -> Void) rethrows {
        var stop = false
        for bucket in buckets where bucket.end > startDate && bucket.start <= endDate {
            try block(bucket, &stop)
            if stop { return }
        }
    }

    /// The sources with data in any bucket, as HealthKit's `sources()` (with `.separateBySource`).
    public func sources() -> Set<Source> {
        Set(buckets.flatMap { $0.sources ?? [] })
    }
}
