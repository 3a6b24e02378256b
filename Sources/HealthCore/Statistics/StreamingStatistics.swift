#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The common statistics queries computed while the store is read, without building a ``Sample`` per line.
///
/// It answers a quantity query over a closed range with the default predicate and no per-sample detail:
/// cumulative sums stream into the buckets (nothing is held per sample), discrete figures keep only start, end
/// and value. A cumulative query that merges sources stops its read as soon as a second source appears and reads
/// the lines again for merging (``MergingReadings``: times, value, source and period mark per sample, no ``Sample``
/// built); where that could answer otherwise than the general path, ``StatisticsRequest`` takes the general path.
/// The figures are the same as the general path's, to the last bit when the store is in time order (see
/// docs/STATISTICS.md).
struct StreamingStatistics {
    let query: StatisticsRequest
    let figures: StatisticsOptions
    let unit: HealthUnit

    /// A streaming computation of `query`, or nil when the query needs the general path.
    init?(_ query: StatisticsRequest, figures: StatisticsOptions, unit: HealthUnit?) {
        // Figures per source are read as merging reads (every sample kept), so only for cumulative types.
        guard let unit, query.type.kind == .quantity, query.predicate == SamplePredicate(), !query.explains,
              !figures.contains(.duration),
              !figures.contains(.separateBySource) || query.type.aggregation?.isCumulative == true,
              query.interval.start != DateRange.distantStart, query.interval.end != DateRange.distantEnd else { return nil }
        self.query = query
        self.figures = figures
        self.unit = unit
    }

    /// Reads the store and computes the result, or returns nil when the general path must answer after all.
    ///
    /// - Throws: ``GiveUp`` when the general path must answer after all; store and unit errors.
    func run(on store: QuantityReadingSource, calendar: GregorianCalendar) throws -> StatisticsResult? {
        let interval = query.interval
        let boundaries = try query.effectiveBucketInterval.map {
            try BucketGrid(interval: $0, anchor: query.anchor).boundaries(covering: interval, calendar: calendar)
        } ?? [interval.start, interval.end]
        var buckets = zip(boundaries, boundaries.dropFirst()).map { Statistics(start: $0, end: $1) }
        var total = [Statistics(start: interval.start, end: interval.end)]
        let bucketed = query.effectiveBucketInterval != nil
        let cumulative = query.type.aggregation?.isCumulative ?? false
        let names: ReadingNames
        let seen: [Int]
        if cumulative {
            if figures.contains(.separateBySource) { return try merging(on: store, total: total, buckets: buckets) }
            let tracksLatest = figures.contains(.mostRecent)
            // Summaries answer sums and counts; the most recent sample needs every line.
            let summaries = tracksLatest ? nil
                : SummaryUse(interval: interval, buckets: bucketed ? boundaries : [], unit: unit)
            var sums = CumulativeSums(total: [interval.start, interval.end], buckets: bucketed ? boundaries : [],
                                      unit: unit, givesUpOnSecondSource: query.mergesSources,
                                      tracksLatest: tracksLatest, summaries: summaries)
            do {
                names = try store.forEachQuantityReading(ofType: query.type.identifier, overlapping: interval, into: &sums)
            } catch is GiveUp where query.mergesSources {
                return try merging(on: store, total: total, buckets: buckets)
            }
            try sums.settleInexact(on: store, type: query.type.identifier, interval: interval)
            sums.total.fill(&total, reportsUnmerged: query.mergesSources)
            if bucketed { sums.buckets.fill(&buckets, reportsUnmerged: query.mergesSources) }
            seen = sums.converter.seenSources
        } else {
            var collector = DiscreteCollector(converter: UnitConverter(unit: unit))
            names = try store.forEachQuantityReading(ofType: query.type.identifier, overlapping: interval, into: &collector)
            // Readings come in store order, which is almost always time order already.
            var readings = collector.readings
            readings.sortNearlySorted()
            let aggregation = query.type.aggregation ?? .discreteArithmetic
            DiscreteReading.fill(&total, with: readings, aggregation: aggregation)
            if bucketed { DiscreteReading.fill(&buckets, with: readings, aggregation: aggregation) }
            seen = collector.converter.seenSources
        }
        if names.holdsEquivalentSources(seen) { throw GiveUp() }
        let order = query.priority.ranked(seen.map { (name: names.sources[$0], device: names.devices[$0]) })
        return StatisticsResult(
            type: query.type, unit: unit, total: query.keep(figures, total[0]),
            buckets: bucketed ? buckets.map { query.keep(figures, $0) } : [], options: figures,
            mergedSources: query.mergesSources && cumulative, sourceOrder: order)
    }

    /// A cumulative query whose read met a second source (or that asks for figures per source): the lines' readings
    /// merged as the general path merges the decoded samples (``SourceMerger``, ``CumulativeTotals``), so the figures
    /// are the same to the last bit.
    ///
    /// - Parameters:
    ///   - total: The range's statistics, not yet filled.
    ///   - buckets: The buckets' statistics, not yet filled.
    /// - Throws: ``GiveUp`` where the general path must answer (see ``MergingReadings``); store and unit errors.
    private func merging(on store: QuantityReadingSource, total: [Statistics], buckets: [Statistics]) throws
        -> StatisticsResult {
        var readings = MergingReadings(unit: unit)
        let names = try store.forEachQuantityReading(ofType: query.type.identifier, overlapping: query.interval,
                                                     into: &readings)
        var (samples, order) = try readings.mergedSamples(names: names, priority: query.priority)
        let bucketed = query.effectiveBucketInterval != nil
        /// `intervals` filled from `samples` as they stand (whole, or cut by merging).
        func counted(_ samples: [MergedSample], _ intervals: [Statistics]) -> [Statistics] {
            var intervals = intervals
            CumulativeTotals(samples: [], merged: samples, unmerged: nil, reportsUnmerged: false, assignment: .prorated,
                             needsDuration: false, explains: false).fill(&intervals)
            return intervals
        }
        // Every source's own figures, from its samples whole, as the general path gives them.
        var bySource: [(source: String, total: Statistics, buckets: [Statistics])] = []
        if figures.contains(.separateBySource) {
            for source in order {
                let own = samples.filter { $0.source == source }
                bySource.append((source, counted(own, total)[0], bucketed ? counted(own, buckets) : []))
            }
        }
        var filledTotal: [Statistics], filledBuckets: [Statistics]
        if query.mergesSources {
            // The plain sums first, from the samples whole; merging then cuts them in place. The plain sum of an
            // interval is what the general path reports (its pass over the uncut samples adds the same parts in the
            // same order).
            let plainTotal = counted(samples, total), plainBuckets = bucketed ? counted(samples, buckets) : []
            let ranks = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
            _ = SourceMerger(ranks: ranks).merge(&samples, keepingLost: false)
            filledTotal = counted(samples, total)
            filledBuckets = bucketed ? counted(samples, buckets) : []
            for index in filledTotal.indices { filledTotal[index].unmergedSum = plainTotal[index].sum }
            for index in filledBuckets.indices { filledBuckets[index].unmergedSum = plainBuckets[index].sum }
        } else {
            filledTotal = counted(samples, total)
            filledBuckets = bucketed ? counted(samples, buckets) : []
        }
        for own in bySource {
            filledTotal[0].sourceStatistics.append(SourceStatistics(source: own.source, statistics: query.keep(figures, own.total)))
            for index in own.buckets.indices {
                filledBuckets[index].sourceStatistics.append(
                    SourceStatistics(source: own.source, statistics: query.keep(figures, own.buckets[index])))
            }
        }
        return StatisticsResult(
            type: query.type, unit: unit, total: query.keep(figures, filledTotal[0]),
            buckets: bucketed ? filledBuckets.map { query.keep(figures, $0) } : [], options: figures,
            mergedSources: query.mergesSources, sourceOrder: order)
    }

    /// Thrown inside a read to stop it when the general path must answer.
    struct GiveUp: Error {}
}

/// Collects discrete readings in the output unit.
private struct DiscreteCollector: QuantityReadingConsumer {
    var converter: UnitConverter
    var readings: [DiscreteReading] = []

    /// Every reading is taken one by one, so a partition's stored readings can stand in for its lines.
    var readPlan: ReadPlan {
        var plan = ReadPlan()
        plan.takesReadings = true
        return plan
    }

    mutating func expect(_ count: Int) {
        // Room for the partition at once rather than doubling through it (each doubling copies the readings into
        // fresh, page-faulting memory); still at least doubling, so that many partitions cost linear time.
        let needed = readings.count + count
        if needed > readings.capacity { readings.reserveCapacity(max(needed, 2 * readings.capacity)) }
    }

    mutating func consume(_ reading: QuantityReading, names: ReadingNames) throws {
        readings.append(DiscreteReading(start: reading.start, end: reading.end,
                                        value: try converter.value(of: reading, names: names), uuid: reading.uuidKey()))
    }

    /// A record without a quantity counts in no figure, but its source is ranked, as the general path ranks it.
    mutating func consumeOther(_ sample: Sample, names: ReadingNames) throws {
        converter.noteSource(names.addSource(sample.source, device: sample.device))
    }
}

/// Streams a cumulative type's readings into running sums for the total and the buckets.
private struct CumulativeSums: QuantityReadingConsumer {
    var total: RunningSums
    var buckets: RunningSums
    var converter: UnitConverter
    let givesUpOnSecondSource: Bool
    private var firstSource: Int?
    /// Only the most recent sample per interval is chosen by uuid.
    var needsUUIDs: Bool { total.tracksLatest }

    /// When partitions' summaries may stand in for their lines.
    let summaries: SummaryUse?
    /// The partitions to read (see ``ReadPlan/only``).
    var only: Set<String>?
    /// The part of the range to take samples from (see ``ReadPlan/window``).
    var window: DateInterval?
    /// The partitions handed over so far, in order (kept while summaries may be used).
    private(set) var partitions: [String] = []

    /// Whether summaries are taken with their sequences, each sample added on its own in line order (exactly as
    /// the lines' read adds them) rather than by the hour.
    let replays: Bool

    init(total: [Date], buckets: [Date], unit: HealthUnit, givesUpOnSecondSource: Bool, tracksLatest: Bool,
         summaries: SummaryUse? = nil, replays: Bool = false, only: Set<String>? = nil) {
        self.replays = replays
        let tracksExactness = summaries != nil && !replays
        self.total = RunningSums(boundaries: total, tracksLatest: tracksLatest, tracksExactness: tracksExactness)
        self.buckets = RunningSums(boundaries: buckets, tracksLatest: tracksLatest, tracksExactness: tracksExactness)
        converter = UnitConverter(unit: unit)
        self.givesUpOnSecondSource = givesUpOnSecondSource
        self.summaries = summaries
        self.only = only
    }

    var readPlan: ReadPlan {
        var plan = ReadPlan(only: only, window: window)
        if let use = summaries {
            plan.accepts = { @Sendable summary in use.accepts(summary) }
            plan.needsSequences = replays
        }
        return plan
    }

    mutating func begin(partition file: String) {
        guard summaries != nil && !replays else { return }
        partitions.append(file)
        total.partition = partitions.count - 1
        buckets.partition = partitions.count - 1
    }

    /// A record without a quantity adds to no sum (nor is it a second source to merge), but its source is ranked, as
    /// the general path ranks it.
    mutating func consumeOther(_ sample: Sample, names: ReadingNames) throws {
        converter.noteSource(names.addSource(sample.source, device: sample.device))
    }

    /// Takes a partition's summary as the lines' read would take its samples: the hours inside the range whole, in
    /// their buckets (their sums are exact), the samples crossing an hour one by one.
    mutating func consume(_ summary: PartitionSummary, sequence: PartitionSummary.Sequence?, names: ReadingNames) throws {
        guard let use = summaries else { preconditionFailure("a summary reached a read that takes none") }
        if replays {
            guard let sequence else { preconditionFailure("a summary without its sequence reached a replaying read") }
            return try replay(summary, sequence: sequence, names: names, use: use)
        }
        let interval = DateInterval(start: Date(timeIntervalSinceReferenceDate: use.start),
                                    end: Date(timeIntervalSinceReferenceDate: use.end))
        func inside(_ slot: PartitionSummary.Slot) -> Bool { slot.start >= use.start && slot.end <= use.end }
        func taken(_ span: PartitionSummary.Span) -> Bool {
            QuantityReading.overlaps(start: Date(timeIntervalSinceReferenceDate: span.start),
                                     end: Date(timeIntervalSinceReferenceDate: span.end), interval)
        }
        // The sources whose samples the read takes (those ending where the range starts were refused by `accepts`).
        var seen: UInt64 = 0
        for slot in summary.slots where inside(slot) { seen |= slot.sources }
        for span in summary.spans where taken(span) { seen |= 1 << UInt64(span.source) }
        var sources = [Int](repeating: -1, count: summary.sources.count)
        for index in summary.sources.indices where seen & (1 << UInt64(index)) != 0 {
            let source = names.addSource(summary.sources[index].name, device: summary.sources[index].device)
            sources[index] = source
            if let firstSource {
                if source != firstSource && givesUpOnSecondSource { throw StreamingStatistics.GiveUp() }
            } else {
                firstSource = source
            }
            converter.noteSource(source)
        }
        total.summarising = true
        buckets.summarising = true
        defer {
            total.summarising = false
            buckets.summarising = false
        }
        for slot in summary.slots where inside(slot) {
            total.add(slot)
            buckets.add(slot)
        }
        guard !summary.spans.isEmpty else { return }
        let unit = names.unit(named: summary.unit)
        for span in summary.spans where taken(span) {
            let reading = QuantityReading(start: Date(timeIntervalSinceReferenceDate: span.start),
                                          end: Date(timeIntervalSinceReferenceDate: span.end), value: span.value,
                                          unit: unit, source: sources[span.source], uuid: nil, line: nil)
            let value = try converter.value(of: reading, names: names)
            total.add(reading, value: value)
            buckets.add(reading, value: value)
        }
    }

    /// Adds a summary's samples one by one in line order, as the lines' read adds them: a slot's sample wholly to
    /// the interval holding its hour (the summary was accepted, so no edge cuts the hour), a span split by time.
    /// Only sums and counts: a replaying read answers for intervals another read found inexact.
    private mutating func replay(_ summary: PartitionSummary, sequence: PartitionSummary.Sequence, names: ReadingNames,
                                 use: SummaryUse) throws {
        let interval = DateInterval(start: Date(timeIntervalSinceReferenceDate: use.start),
                                    end: Date(timeIntervalSinceReferenceDate: use.end))
        let unit = names.unit(named: summary.unit)
        for entry in sequence.entries {
            if entry.isSpan {
                let span = summary.spans[Int(entry.index)]
                let start = Date(timeIntervalSinceReferenceDate: span.start), end = Date(timeIntervalSinceReferenceDate: span.end)
                guard QuantityReading.overlaps(start: start, end: end, interval) else { continue }
                let reading = QuantityReading(start: start, end: end, value: span.value, unit: unit, source: 0, uuid: nil,
                                              line: nil)
                total.add(reading, value: span.value)
                buckets.add(reading, value: span.value)
            } else {
                let hourStart = Double(entry.index) * 3600
                guard hourStart >= use.start && hourStart + 3600 <= use.end else { continue }
                total.add(member: hourStart, value: entry.value)
                buckets.add(member: hourStart, value: entry.value)
            }
        }
    }

    /// Makes the figures exactly those of a read of every line: an interval whose sum a summary added to after a
    /// part that is not a whole number (a sample split at an edge), where the order of the additions could change
    /// the last bit, is read again from the lines of the partitions that gave it samples, in their order. The
    /// range's total is then read again whole.
    mutating func settleInexact(on store: QuantityReadingSource, type identifier: String, interval: DateInterval) throws {
        guard summaries != nil else { return }
        let tainted = buckets.taintedIntervals
        if total.taintedIntervals.isEmpty && tainted.isEmpty { return }
        // Summarised partitions are replayed from their sequences (a partition without one is read from its lines).
        var again = CumulativeSums(total: total.boundaries, buckets: buckets.boundaries, unit: converter.unit,
                                   givesUpOnSecondSource: false, tracksLatest: false, summaries: summaries, replays: true)
        if total.taintedIntervals.isEmpty {
            again.only = Set(tainted.flatMap { buckets.contributors(of: $0) }.map { partitions[$0] })
            // Only samples in those buckets (and in the range) count there: the rest of each file is skipped by date.
            let edges = buckets.boundaries
            let start = max(edges[tainted[0]], interval.start), end = min(edges[tainted[tainted.count - 1] + 1], interval.end)
            if start < end { again.window = DateInterval(start: start, end: end) }
        }
        _ = try store.forEachQuantityReading(ofType: identifier, overlapping: interval, into: &again)
        if !total.taintedIntervals.isEmpty { total.take([0], from: again.total) }
        buckets.take(again.only == nil ? Array(buckets.boundaries.indices.dropLast()) : tainted, from: again.buckets)
    }

    mutating func consume(_ reading: QuantityReading, names: ReadingNames) throws {
        // Merging matters only where two sources meet.
        if let firstSource { if reading.source != firstSource && givesUpOnSecondSource { throw StreamingStatistics.GiveUp() } }
        else { firstSource = reading.source }
        let value = try converter.value(of: reading, names: names)
        total.add(reading, value: value)
        buckets.add(reading, value: value)
    }
}

/// Sums, counts and most recent samples over consecutive intervals, as ``CumulativeTotals`` computes them
/// unmerged: a sample is split across intervals in proportion to its time in each.
///
/// A class over fixed buffers: every reading of a read passes through ``add(_:value:)``, and plain buffers spare
/// it the copy-on-write checks and bounds checks of arrays kept in a struct.
///
/// When summaries may be used it also tracks exactness: a sum of whole numbers below 2^52 is the same in any order,
/// so a summary's hour sums can be added at once only to an interval whose every part so far was whole, and only
/// when the summary's own parts for it are whole. An interval where that fails is marked, and read again.
private final class RunningSums {
    let tracksExactness: Bool
    /// Whether what is added now comes from a summary.
    @exclusivity(unchecked) var summarising = false
    /// The number of the partition being read (in ``CumulativeSums/partitions``).
    @exclusivity(unchecked) var partition = -1
    /// Per interval (when tracked): the sum of the magnitudes added, the state (``wholeBit``: every part so far
    /// was whole and the sum below 2^52; ``taintedBit``: it must be summed again in line order), and the partition
    /// that added to it last.
    private let magnitudes: UnsafeMutableBufferPointer<Double>
    private let states: UnsafeMutableBufferPointer<UInt8>
    private let lastPartitions: UnsafeMutableBufferPointer<Int>
    /// Every (interval, partition) that added to it, each pair once, in the order the partitions came.
    @exclusivity(unchecked) private var contributions: [(interval: Int, partition: Int)] = []
    private static let wholeBit: UInt8 = 1, taintedBit: UInt8 = 2

    /// The intervals that must be summed again.
    var taintedIntervals: [Int] { states.indices.filter { states[$0] & Self.taintedBit != 0 } }

    /// The partitions that added to interval `index`.
    func contributors(of index: Int) -> [Int] { contributions.filter { $0.interval == index }.map(\.partition) }

    /// The intervals' edges.
    var boundaries: [Date] { edges.map { Date(timeIntervalSinceReferenceDate: $0) } }

    /// Notes that `part` was added to interval `index`.
    @inline(__always)
    private func track(_ part: Double, magnitude: Double, in index: Int) {
        if lastPartitions[index] != partition {
            lastPartitions[index] = partition
            contributions.append((index, partition))
        }
        magnitudes[index] += magnitude
        let exact = part == part.rounded(.towardZero) && magnitudes[index] < PartitionSummary.exactLimit
        if summarising {
            if states[index] & Self.wholeBit == 0 || !exact { states[index] = Self.taintedBit }
        } else if !exact {
            states[index] &= ~Self.wholeBit
        }
    }

    /// Adds a summary's hour, which lies inside one interval or outside them all.
    func add(_ slot: PartitionSummary.Slot) {
        guard let index = index(of: slot.start) else { return }
        precondition(slot.end <= edges[index + 1], "a summary's hour crosses an interval's edge")
        sums[index] += slot.sum
        counts[index] += Int(slot.count)
        track(slot.sum, magnitude: slot.sum, in: index)
    }

    /// Adds a sample of a summary's hour starting at `hourStart` (which lies inside one interval or outside them
    /// all), as ``add(_:value:)`` adds a sample wholly inside an interval.
    func add(member hourStart: Double, value: Double) {
        guard let index = index(of: hourStart) else { return }
        sums[index] += value
        counts[index] += 1
    }

    /// Replaces the figures of `intervals` by those `other` (with the same edges) computed.
    func take(_ intervals: [Int], from other: RunningSums) {
        for index in intervals where index < sums.count {
            sums[index] = other.sums[index]
            counts[index] = other.counts[index]
            if index < states.count { states[index] &= ~Self.taintedBit }
        }
    }

    /// Interval edges in seconds since 2001 (as `Date` keeps them); interval `i` is `[edges[i], edges[i + 1])`.
    private let edges: UnsafeMutableBufferPointer<Double>
    private let sums: UnsafeMutableBufferPointer<Double>
    private let counts: UnsafeMutableBufferPointer<Int>
    /// The sample counted last in each interval: greatest end, then greatest start, then greatest uuid.
    private var latest: [Latest]
    /// Whether ``latest`` is kept (only `mostRecent` needs it).
    let tracksLatest: Bool
    /// The interval the last reading fell in, where the next one most likely falls too.
    @exclusivity(unchecked) private var hint = 0

    private struct Latest {
        var end = -Double.infinity
        var start = -Double.infinity
        var value = 0.0
        var uuid: UUIDKey?
        var text = UUIDText()

        func key() -> UUIDKey { uuid ?? text.key ?? UUIDKey(hi: 0, lo: 0) }
    }

    init(boundaries: [Date], tracksLatest: Bool, tracksExactness: Bool = false) {
        self.tracksLatest = tracksLatest
        self.tracksExactness = tracksExactness
        let count = max(boundaries.count - 1, 0)
        let tracked = tracksExactness ? count : 0
        magnitudes = .allocate(capacity: tracked)
        magnitudes.initialize(repeating: 0)
        states = .allocate(capacity: tracked)
        states.initialize(repeating: Self.wholeBit)
        lastPartitions = .allocate(capacity: tracked)
        lastPartitions.initialize(repeating: -1)
        edges = .allocate(capacity: boundaries.count)
        _ = edges.initialize(from: boundaries.lazy.map(\.timeIntervalSinceReferenceDate))
        sums = .allocate(capacity: count)
        sums.initialize(repeating: 0)
        counts = .allocate(capacity: count)
        counts.initialize(repeating: 0)
        latest = tracksLatest ? [Latest](repeating: Latest(), count: count) : []
    }

    deinit {
        edges.deallocate()
        sums.deallocate()
        counts.deallocate()
        magnitudes.deallocate()
        states.deallocate()
        lastPartitions.deallocate()
    }

    /// The interval holding `time`, or nil outside them all.
    private func index(of time: Double) -> Int? {
        guard sums.count > 0, time >= edges[0], time < edges[edges.count - 1] else { return nil }
        if time >= edges[hint] && time < edges[hint + 1] { return hint }
        var low = 0, high = edges.count - 2
        while low < high {
            let middle = (low + high + 1) / 2
            if edges[middle] <= time { low = middle } else { high = middle - 1 }
        }
        hint = low
        return low
    }

    @inline(__always)
    func add(_ reading: QuantityReading, value: Double) {
        guard sums.count > 0 else { return }
        let start = reading.start.timeIntervalSinceReferenceDate, end = reading.end.timeIntervalSinceReferenceDate
        // Most readings lie wholly inside the interval of the one before.
        if start >= edges[hint] && end <= edges[hint + 1] && (start < end || (start == end && end < edges[hint + 1])) {
            count(reading, start: start, end: end, counted: value, value: value, in: hint)
            return
        }
        addSplitting(reading, start: start, end: end, value: value)
    }

    private func addSplitting(_ reading: QuantityReading, start: Double, end: Double, value: Double) {
        if start == end {
            guard let index = index(of: start) else { return }
            count(reading, start: start, end: end, counted: value, value: value, in: index)
            return
        }
        guard end > edges[0], start < edges[edges.count - 1] else { return }
        var index = self.index(of: max(start, edges[0])) ?? 0
        let duration = end - start
        while index < sums.count && edges[index] < end {
            let seconds = min(end, edges[index + 1]) - max(start, edges[index])
            if seconds > 0 {
                count(reading, start: start, end: end, counted: seconds == duration ? value : value * seconds / duration,
                      value: value, in: index)
            }
            index += 1
        }
    }

    @inline(__always)
    private func count(_ reading: QuantityReading, start: Double, end: Double, counted: Double, value: Double,
                       in index: Int) {
        sums[index] += counted
        counts[index] += 1
        if tracksExactness { track(counted, magnitude: abs(counted), in: index) }
        guard tracksLatest else { return }
        noteLatest(reading, start: start, end: end, value: value, in: index)
    }

    private func noteLatest(_ reading: QuantityReading, start: Double, end: Double, value: Double, in index: Int) {
        let current = latest[index]
        if end < current.end || (end == current.end && start < current.start) { return }
        if end == current.end && start == current.start && reading.uuidKey() < current.key() { return }
        latest[index].end = end
        latest[index].start = start
        latest[index].value = value
        latest[index].uuid = reading.uuid
        if reading.uuid == nil, let line = reading.line { latest[index].text = UUIDText(line: line) }
    }

    func fill(_ intervals: inout [Statistics], reportsUnmerged: Bool) {
        for index in intervals.indices where index < sums.count {
            intervals[index].sum = sums[index]
            intervals[index].sampleCount = counts[index]
            if reportsUnmerged { intervals[index].unmergedSum = sums[index] }
            if tracksLatest && latest[index].end > -Double.infinity {
                intervals[index].mostRecent = latest[index].value
                intervals[index].mostRecentDate = Date(timeIntervalSinceReferenceDate: latest[index].end)
                intervals[index].mostRecentStart = Date(timeIntervalSinceReferenceDate: latest[index].start)
            }
        }
    }
}

/// A line's 36 uuid characters, copied so they outlive the read buffer.
private struct UUIDText {
    private var bytes: (UInt64, UInt64, UInt64, UInt64, UInt32) = (0, 0, 0, 0, 0)
    private var filled = false

    init() {}

    init(line: UnsafeBufferPointer<UInt8>) {
        guard line.count >= QuantityLineParser.uuidOffset + 36, let base = line.baseAddress else { return }
        withUnsafeMutableBytes(of: &bytes) { _ = memcpy($0.baseAddress!, base + QuantityLineParser.uuidOffset, 36) }
        filled = true
    }

    var key: UUIDKey? {
        guard filled else { return nil }
        return withUnsafeBytes(of: bytes) { raw in
            SampleLineCodec.uuid(UnsafeBufferPointer(start: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), count: 36))
        }.map(UUIDKey.init)
    }
}

/// A discrete reading in the output unit, ordered as ``Sample/chronological(_:_:)`` orders samples.
private struct DiscreteReading: TimedReading, ChronologicallyOrdered {
    var start: Date
    var end: Date
    var value: Double
    var uuid: UUIDKey

    /// Fills average, minimum, maximum and most recent of every interval from chronologically sorted readings,
    /// each counted in the interval where it starts (as ``DiscreteTotals``).
    ///
    /// The intervals follow each other in time, so each one's readings are a run of the sorted readings.
    static func fill(_ intervals: inout [Statistics], with readings: [DiscreteReading], aggregation: AggregationStyle) {
        var runs = [Range<Int>?](repeating: nil, count: intervals.count)
        var current: Int?
        var runStart = 0
        for (position, reading) in readings.enumerated() {
            if let index = current, reading.start >= intervals[index].start, reading.start < intervals[index].end { continue }
            if let index = current { runs[index] = runStart..<position }
            current = bucketIndex(of: reading.start, in: intervals)
            runStart = position
        }
        if let index = current { runs[index] = runStart..<readings.count }
        for index in intervals.indices {
            guard let run = runs[index] else { continue }
            let ordered = Array(readings[run])
            let weights = aggregation == .discreteArithmetic
                ? nil : DiscreteTotals.temporalWeights(ordered, until: intervals[index].end)
            var statistics = intervals[index]
            for reading in ordered {
                statistics.sampleCount += 1
                statistics.minimum = min(statistics.minimum ?? reading.value, reading.value)
                statistics.maximum = max(statistics.maximum ?? reading.value, reading.value)
                if statistics.mostRecentDate.map({ reading.end >= $0 }) ?? true {
                    statistics.mostRecent = reading.value
                    statistics.mostRecentDate = reading.end
                    statistics.mostRecentStart = reading.start
                }
            }
            statistics.average = DiscreteTotals.average(ordered.map(\.value), weights: weights, style: aggregation)
            intervals[index] = statistics
        }
    }
}
