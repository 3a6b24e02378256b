/// The statistics engine's question: HealthKit's `HKStatisticsQuery` or, with buckets,
/// `HKStatisticsCollectionQuery`, with the engine's extras (source priority, explanations, any bucket length). Library
/// clients usually ask through ``StatisticsQueryDescriptor`` or ``StatisticsCollectionQueryDescriptor``.
///
/// Samples are chosen by the ``interval`` and the ``predicate``. Cumulative types are summed with sources merged by
/// ``priority`` (see docs/STATISTICS.md): where several sources cover the same time, only the highest one's
/// samples count there. Discrete types use every reading. Sleep merges overlapping samples so no second counts
/// twice.
public struct StatisticsRequest: Sendable {
    /// The type to summarise.
    public var type: SampleType
    /// The range; samples are chosen with HealthKit's overlap predicate unless ``predicate`` says otherwise.
    public var interval: DateInterval
    /// Group into calendar buckets of this size, or nil for one total (``bucketInterval`` takes precedence).
    public var bucketUnit: BucketUnit?
    /// The unit for quantity figures; nil means the type's display unit.
    public var unit: HealthUnit?
    /// The figures to compute; nil means ``StatisticsOptions/defaults(for:)``.
    public var options: StatisticsOptions?
    /// Date rule, sources and metadata that samples must match.
    public var predicate: SamplePredicate
    /// Buckets of any length (`15m`, `6h`, `2w`); overrides ``bucketUnit``.
    public var bucketInterval: BucketInterval?
    /// A bucket boundary; nil means local midnight, the start of the week, month or year (see
    /// ``BucketInterval/defaultAnchor(for:calendar:)``).
    public var anchor: Date?
    /// The order in which sources count.
    public var priority: SourcePriority
    /// Whether cumulative sums (and sleep stages) merge sources by ``priority``; false gives the plain sum.
    public var mergesSources: Bool
    /// Whether to record, per bucket, how every sample counted (``Statistics/contributions``).
    public var explains: Bool

    /// Creates a query.
    ///
    /// - Parameters:
    ///   - type: The type to summarise.
    ///   - interval: The range `[start, end)`; ``DateRange/distantStart`` or ``DateRange/distantEnd`` leave an end
    ///     open (it then follows the data).
    ///   - bucketUnit: Calendar buckets, or nil.
    ///   - unit: The output unit, or nil for the type's display unit.
    ///   - options: The figures, or nil for the defaults of the type.
    ///   - predicate: Further conditions on samples.
    ///   - bucketInterval: Buckets of any length; overrides `bucketUnit`.
    ///   - anchor: A bucket boundary fixing the grid's phase.
    ///   - priority: Source order for merging.
    ///   - mergesSources: False to add every source up (the plain sum).
    ///   - explains: True to record per-sample contributions.
    public init(type: SampleType, interval: DateInterval, bucketUnit: BucketUnit? = nil, unit: HealthUnit? = nil,
                options: StatisticsOptions? = nil, predicate: SamplePredicate = SamplePredicate(),
                bucketInterval: BucketInterval? = nil, anchor: Date? = nil, priority: SourcePriority = .automatic,
                mergesSources: Bool = true, explains: Bool = false) {
        self.type = type
        self.interval = interval
        self.bucketUnit = bucketUnit
        self.unit = unit
        self.options = options
        self.predicate = predicate
        self.bucketInterval = bucketInterval
        self.anchor = anchor
        self.priority = priority
        self.mergesSources = mergesSources
        self.explains = explains
    }

    /// The bucket length in effect, if any.
    public var effectiveBucketInterval: BucketInterval? { bucketInterval ?? bucketUnit.map(BucketInterval.init) }

    /// Runs the query.
    ///
    /// Cumulative samples that straddle a boundary are split in proportion to the time on each side (an
    /// instantaneous sample counts wholly where it lies), so bucket sums add up to the total. Discrete readings
    /// count in the bucket where they start. Sleep figures merge overlapping samples. Every bucket is listed,
    /// empty ones included.
    ///
    /// - Parameters:
    ///   - store: Where to read samples.
    ///   - calendar: The calendar (zone and first weekday) that buckets follow.
    /// - Returns: Figures for the range and for every bucket.
    /// - Throws: ``UnitError`` for a unit that does not fit the type, ``StatisticsError`` for an option that does
    ///   not apply or too many buckets, ``OverflowError`` when a figure overflows (naming the samples outside the
    ///   type's valid range), or store errors.
    public func run(on store: SampleStore, calendar: GregorianCalendar) throws -> StatisticsResult {
        let result = try runUnchecked(on: store, calendar: calendar)
        // A figure that overflowed (values near the largest Double) is never returned: no output can show it.
        try OverflowCheck.check(result, interval: interval, store: store)
        return result
    }

    private func runUnchecked(on store: SampleStore, calendar: GregorianCalendar) throws -> StatisticsResult {
        let figures = try resolvedOptions()
        let outputUnit = try resolvedUnit()
        if let streaming = StreamingStatistics(self, figures: figures, unit: outputUnit),
           let readable = Self.quantityReadingSource(store) {
            do {
                if let result = try streaming.run(on: readable, calendar: calendar) { return result }
            } catch is StreamingStatistics.GiveUp {}
        }
        // Collected in store order (partitions are read month by month, so usually already chronological);
        // `compute` sorts only when needed.
        let samples = try store.samplesInStoreOrder(ofType: type.identifier, overlapping: interval)
        return try compute(samples, figures: figures, unit: outputUnit, calendar: calendar)
    }

    /// The store as a ``QuantityReadingSource``, when it is one. Cast to the concrete types that are: a cast to
    /// the protocol makes the Swift runtime search every protocol conformance in the program, which costs more
    /// start-up time than reading a week of steps.
    static func quantityReadingSource(_ store: SampleStore) -> QuantityReadingSource? {
        if let store = store as? HealthStore { return store }
        if let store = store as? JSONFileStore { return store }
        return nil
    }

    /// The statistics of `fetched` (samples of the type overlapping the interval, in any order).
    func compute(_ fetched: [Sample], figures: StatisticsOptions, unit outputUnit: HealthUnit?,
                 calendar: GregorianCalendar) throws -> StatisticsResult {
        // The store already applied the default predicate.
        var samples = predicate == SamplePredicate() ? fetched : fetched.filter { predicate.matches($0, in: interval) }
        samples.sortChronologically()
        let range = StatisticsRequest.resolvedRange(interval, samples: samples)
        let boundaries = try effectiveBucketInterval.map {
            try BucketGrid(interval: $0, anchor: anchor).boundaries(covering: range, calendar: calendar)
        } ?? [range.start, range.end]
        var buckets = zip(boundaries, boundaries.dropFirst()).map { Statistics(start: $0, end: $1) }
        var total = [Statistics(start: range.start, end: range.end)]
        let order = priority.ranked(sourcesOf: samples)
        let ranks = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })

        let fill = { (subset: [Sample], merging: Bool, explaining: Bool, intervals: inout [Statistics]) throws in
            try self.fill(&intervals, with: subset, ranks: ranks, merging: merging, explaining: explaining, unit: outputUnit,
                          figures: figures)
        }
        try fill(samples, mergesSources, explains, &total)
        if effectiveBucketInterval != nil { try fill(samples, mergesSources, explains, &buckets) }
        if figures.contains(.separateBySource) {
            for source in order {
                let own = samples.filter { $0.source == source }
                var sourceTotal = [Statistics(start: range.start, end: range.end)]
                try fill(own, false, false, &sourceTotal)
                total[0].sourceStatistics.append(SourceStatistics(source: source, statistics: keep(figures, sourceTotal[0])))
                guard effectiveBucketInterval != nil else { continue }
                var sourceBuckets = buckets.map { Statistics(start: $0.start, end: $0.end) }
                try fill(own, false, false, &sourceBuckets)
                for index in buckets.indices {
                    buckets[index].sourceStatistics.append(SourceStatistics(source: source, statistics: keep(figures, sourceBuckets[index])))
                }
            }
        }
        return StatisticsResult(
            type: type, unit: type.kind == .category ? nil : outputUnit, total: keep(figures, total[0]),
            buckets: effectiveBucketInterval == nil ? [] : buckets.map { keep(figures, $0) }, options: figures,
            mergedSources: mergesSources && (type.aggregation?.isCumulative ?? type.isSleepAnalysis), sourceOrder: order)
    }

    /// Fills the figures of `intervals` from `samples`.
    private func fill(_ intervals: inout [Statistics], with samples: [Sample], ranks: [String: Int], merging: Bool,
                      explaining: Bool, unit outputUnit: HealthUnit?, figures: StatisticsOptions) throws {
        let assignment = SampleAssignment(predicate.dateOptions)
        if type.kind == .category {
            CategoryTotals(samples: samples, type: type, ranks: ranks, mergesSources: merging, assignment: assignment,
                           explains: explaining).fill(&intervals)
            return
        }
        guard let outputUnit else { return }
        if type.aggregation?.isCumulative ?? false {
            var whole: [MergedSample] = []
            whole.reserveCapacity(samples.count)
            for (index, sample) in samples.enumerated() {
                guard let quantity = sample.value.quantity else { continue }
                whole.append(MergedSample(index: index, sample: sample, value: try quantity.value(in: outputUnit)))
            }
            let (merged, changed) = merging ? SourceMerger(ranks: ranks).merge(whole, keepingLost: explaining) : (whole, false)
            CumulativeTotals(samples: samples, merged: merged, unmerged: changed ? whole : nil, reportsUnmerged: merging,
                             assignment: assignment, needsDuration: figures.contains(.duration),
                             explains: explaining).fill(&intervals)
        } else {
            var typed: [Sample] = []
            var values: [Double] = []
            for sample in samples {
                guard let quantity = sample.value.quantity else { continue }
                typed.append(sample)
                values.append(try quantity.value(in: outputUnit))
            }
            DiscreteTotals(samples: typed, values: values, aggregation: type.aggregation ?? .discreteArithmetic,
                           assignment: assignment, explains: explaining).fill(&intervals)
        }
    }

    /// `statistics` with the figures that were not asked for removed.
    func keep(_ figures: StatisticsOptions, _ statistics: Statistics) -> Statistics {
        var kept = statistics
        if type.kind == .category && !type.isSleepAnalysis { return kept }
        if !figures.contains(.sum) { kept.sum = nil; kept.unmergedSum = nil }
        if !figures.contains(.average) { kept.average = nil }
        if !figures.contains(.minimum) { kept.minimum = nil }
        if !figures.contains(.maximum) { kept.maximum = nil }
        if !figures.contains(.mostRecent) { kept.mostRecent = nil; kept.mostRecentDate = nil; kept.mostRecentStart = nil }
        if !figures.contains(.duration) { kept.durationSeconds = nil }
        return kept
    }

    /// The options asked for (or the defaults), checked against the type.
    ///
    /// - Throws: ``StatisticsError/optionNotApplicable(_:type:allowed:)``.
    public func resolvedOptions() throws -> StatisticsOptions {
        var figures = options ?? StatisticsOptions.defaults(for: type)
        if figures.subtracting(.separateBySource).isEmpty { figures.formUnion(StatisticsOptions.defaults(for: type)) }
        try figures.validate(for: type)
        return figures
    }

    /// The output unit: ``unit``, else the type's display unit; nil for category types.
    ///
    /// - Throws: ``UnitError/wrongUnitForType(unit:type:expected:)`` when it does not measure the type.
    public func resolvedUnit() throws -> HealthUnit? {
        guard let canonical = type.canonicalUnit else { return nil }
        let unit = self.unit ?? type.displayUnit ?? canonical
        // Of the same dimension: sound levels in dB are averaged as levels (an energy average), which readings
        // converted to pressures first would not give; a level is asked for in dB and converted afterwards.
        guard unit.dimension == canonical.dimension else {
            throw UnitError.wrongUnitForType(unit: unit.unitString, type: type.name, expected: type.examples)
        }
        return unit
    }

    /// The range itself, or, when an end is open, the span of the data clipped to it. The end is moved one
    /// millisecond past an instantaneous sample that lies exactly on it, so that the latest reading counts.
    static func resolvedRange(_ interval: DateInterval, samples: [Sample]) -> DateInterval {
        guard interval.start == DateRange.distantStart || interval.end == DateRange.distantEnd else { return interval }
        guard let first = samples.map(\.start).min(), let last = samples.map(\.end).max() else { return interval }
        let start = interval.start == DateRange.distantStart ? max(first, interval.start) : interval.start
        var end = interval.end
        if interval.end == DateRange.distantEnd {
            end = last
            if samples.contains(where: { $0.start == last && $0.end == last }) || end <= start {
                end = max(last, start).addingTimeInterval(0.001)
            }
        }
        return end > start ? DateInterval(start: start, end: end) : interval
    }
}
