import Foundation

/// A question like HealthKit's `HKStatisticsQuery` or, with ``bucketUnit``, `HKStatisticsCollectionQuery`.
public struct StatisticsQuery: Sendable {
    /// The type to summarise.
    public var type: SampleType
    /// The range; samples are chosen with HealthKit's overlap predicate.
    public var interval: DateInterval
    /// Group into calendar buckets of this size, or nil for one total.
    public var bucketUnit: BucketUnit?
    /// The unit for quantity figures; nil means the type's display unit.
    public var unit: HealthUnit?

    /// Creates a query.
    public init(type: SampleType, interval: DateInterval, bucketUnit: BucketUnit? = nil, unit: HealthUnit? = nil) {
        self.type = type
        self.interval = interval
        self.bucketUnit = bucketUnit
        self.unit = unit
    }

    /// Runs the query.
    ///
    /// Cumulative samples that straddle a boundary are split in proportion to the time on each side
    /// (an instantaneous sample counts wholly where it starts), so bucket sums add up to the total.
    /// Discrete readings count in the bucket where they start. Sleep figures merge overlapping samples.
    ///
    /// - Parameters:
    ///   - store: Where to read samples.
    ///   - calendar: The calendar (and zone) that bucket boundaries follow.
    /// - Throws: ``UnitError`` for a unit that does not fit the type, or store errors.
    public func run(on store: SampleStore, calendar: Calendar) throws -> StatisticsResult {
        let outputUnit = try resolvedUnit()
        let samples = try store.samples(ofType: type.identifier, overlapping: interval)
        var range = interval
        if range.start == DateRange.distantStart || range.end == DateRange.distantEnd {
            range = dataExtent(samples) ?? range
        }
        let boundaries = bucketUnit?.boundaries(covering: range, calendar: calendar) ?? [range.start, range.end]
        var buckets = zip(boundaries, boundaries.dropFirst()).map { Statistics(start: $0, end: $1) }
        var total = Statistics(start: range.start, end: range.end)
        if type.kind == .category {
            SleepTotals(samples: samples, type: type).fill(&buckets, total: &total)
        } else {
            let typed = samples.filter { $0.value.quantity != nil }
            let values = try typed.map { try $0.value.quantity!.value(in: outputUnit!) }
            if type.aggregation?.isCumulative ?? false {
                CumulativeTotals(samples: typed, values: values).fill(&buckets, total: &total)
            } else {
                DiscreteTotals(samples: typed, values: values).fill(&buckets, total: &total)
            }
        }
        return StatisticsResult(type: type, unit: type.kind == .category ? nil : outputUnit,
                                total: total, buckets: bucketUnit == nil ? [] : buckets)
    }

    private func resolvedUnit() throws -> HealthUnit? {
        guard let canonical = type.canonicalUnit else { return nil }
        let unit = self.unit ?? type.displayUnit ?? canonical
        guard unit.isCompatible(with: canonical) else {
            throw UnitError.wrongUnitForType(unit: unit.unitString, type: type.name, expected: type.examples)
        }
        return unit
    }

    /// When the range is open, the span of the data clipped to it.
    private func dataExtent(_ samples: [Sample]) -> DateInterval? {
        guard let first = samples.map(\.start).min(), let last = samples.map(\.end).max() else { return nil }
        let start = max(first, interval.start)
        let end = min(max(last, first.addingTimeInterval(0.001)), interval.end)
        return end > start ? DateInterval(start: start, end: end) : nil
    }
}

/// The index of the bucket containing `date`, by binary search over sorted bucket starts.
func bucketIndex(of date: Date, in buckets: [Statistics]) -> Int? {
    guard let first = buckets.first, let last = buckets.last, date >= first.start, date < last.end else { return nil }
    var low = 0, high = buckets.count - 1
    while low < high {
        let middle = (low + high + 1) / 2
        if buckets[middle].start <= date { low = middle } else { high = middle - 1 }
    }
    return low
}
