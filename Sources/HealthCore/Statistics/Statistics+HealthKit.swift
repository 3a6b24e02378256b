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
    /// Seconds covered by samples, overlaps counted once (the `.duration` option), or nil: HealthKit's `duration()`,
    /// renamed because ``duration`` is the figure in seconds.
    public func durationQuantity() -> Quantity? {
        guard sampleCount > 0, let duration else { return nil }
        return Quantity(duration, .second())
    }

    /// The figures of one source alone (with `.separateBySource`), or nil when it has none here.
    private func figures(of source: String) -> Statistics? {
        guard var own = sources.first(where: { $0.source == source })?.statistics else { return nil }
        own.unit = unit
        return own
    }

    /// `source`'s own total, as `sumQuantity(for:)`; needs `.separateBySource`.
    public func sumQuantity(for source: String) -> Quantity? { figures(of: source)?.sumQuantity() }
    /// `source`'s own average, as `averageQuantity(for:)`.
    public func averageQuantity(for source: String) -> Quantity? { figures(of: source)?.averageQuantity() }
    /// `source`'s own minimum, as `minimumQuantity(for:)`.
    public func minimumQuantity(for source: String) -> Quantity? { figures(of: source)?.minimumQuantity() }
    /// `source`'s own maximum, as `maximumQuantity(for:)`.
    public func maximumQuantity(for source: String) -> Quantity? { figures(of: source)?.maximumQuantity() }
    /// `source`'s own latest reading, as `mostRecentQuantity(for:)`.
    public func mostRecentQuantity(for source: String) -> Quantity? { figures(of: source)?.mostRecentQuantity() }
    /// The names of the sources with figures of their own (with `.separateBySource`).
    public var sourceNames: [String] { sources.map(\.source) }
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

    /// The sources with data in any bucket, as `sources()` (with `.separateBySource`).
    public func sources() -> [String] {
        var names: [String] = []
        for bucket in buckets { for name in bucket.sourceNames where !names.contains(name) { names.append(name) } }
        return names
    }
}
