/// A quantity sample (by index, so the large ``Sample`` is not copied) with its value in the output unit and,
/// after merging, the parts of it that count.
struct MergedSample {
    /// Index into the samples the totals were given.
    let index: Int
    let start: Date
    let end: Date
    let source: String
    /// The whole value in the output unit.
    let value: Double
    /// When merging cut the sample: the stretches that count, disjoint and sorted (`[t, t]` for a counted
    /// instantaneous sample, empty when dropped). Nil while the whole sample counts (no allocation).
    var cut: [TimeSpan]?
    /// Stretches that a higher-priority source covered, with that source.
    var lost: [(span: TimeSpan, source: String)] = []
    /// Whether the sample is a Health Auto Export total over a period (a minute, hour, day or week): its span is the
    /// period, not the time its amount was measured.
    let isPeriodTotal: Bool

    /// Whether `text` names a period a Health Auto Export total can cover (its ``HAESampleBuilder/aggregationKey``'s
    /// value): as ``isPeriodTotal(_:)`` reads a decoded sample's.
    static func isPeriodName(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        ByteComparison.same(text, "minute") || ByteComparison.same(text, "hour") || ByteComparison.same(text, "day")
            || ByteComparison.same(text, "week")
    }

    /// A sample that counts whole.
    init(index: Int, sample: Sample, value: Double) {
        self.init(index: index, start: sample.start, end: sample.end, source: sample.source, value: value,
                  isPeriodTotal: Self.isPeriodTotal(sample))
    }

    /// A sample that counts whole, from its parts.
    init(index: Int, start: Date, end: Date, source: String, value: Double, isPeriodTotal: Bool) {
        self.index = index
        self.start = start
        self.end = end
        self.source = source
        self.value = value
        self.isPeriodTotal = isPeriodTotal
    }

    /// Whether `sample`'s metadata marks it a Health Auto Export period total.
    static func isPeriodTotal(_ sample: Sample) -> Bool {
        guard case var .string(form)? = sample.metadata[HAESampleBuilder.aggregationKey] else { return false }
        // The names are ASCII, which no other spelling equals: their bytes decide as `String` equality would.
        return form.withUTF8 { isPeriodName($0) }
    }

    var duration: TimeInterval { end.timeIntervalSince(start) }
    var isInstant: Bool { start == end }

    /// The stretches that count.
    var kept: [TimeSpan] { cut ?? [TimeSpan(start: start, end: end)] }

    /// Whether nothing of the sample counts.
    var isDropped: Bool { cut?.isEmpty ?? false }

    /// The amount of `value` that `seconds` of the sample carry (the whole value for the whole sample).
    func amount(forSeconds seconds: TimeInterval) -> Double {
        seconds == duration ? value : value * seconds / duration
    }
}

/// HealthKit-style merging of a cumulative type's sources (see docs/STATISTICS.md, "Merging sources").
///
/// Sources are taken highest priority first. A sample counts for the time that no higher-priority source
/// covers; the covered time is cut out and the sample's value is apportioned by the time that remains. Samples
/// of one source never cut each other. An instantaneous sample counts only if no higher-priority source has a
/// sample covering that instant (`start <= t < end`) or an instantaneous sample at the same instant.
///
/// A Health Auto Export period total (``MergedSample/isPeriodTotal``) does not cover what the store's owner typed in
/// (source `hkctl`): HAE's figures come from the phone's HealthKit and cannot hold it, and their span is the period,
/// not the time of the phone's samples (a glass added at 10:00 counts beside HAE's day total of water).
struct SourceMerger {
    /// Source → rank, 0 being the highest priority.
    let ranks: [String: Int]

    /// A stretch of covered time, tagged with the highest source covering it (its place in the merge's order).
    typealias Piece = (span: TimeSpan, source: Int)

    /// The samples with the stretches that count; `changed` is false when no sample lost anything.
    ///
    /// - Parameter keepingLost: Whether to note, per sample, the stretches other sources took
    ///   (``MergedSample/lost``, for explanations); the stretches that count are the same either way.
    func merge(_ samples: [MergedSample], keepingLost: Bool = true) -> (samples: [MergedSample], changed: Bool) {
        var result = samples
        let changed = merge(&result, keepingLost: keepingLost)
        return (result, changed)
    }

    /// Merges `samples` in place (each gets the stretches that count), as ``merge(_:keepingLost:)`` returns them;
    /// returns whether any sample lost anything.
    func merge(_ samples: inout [MergedSample], keepingLost: Bool = true) -> Bool {
        guard let first = samples.first?.source, samples.contains(where: { $0.source != first }) else {
            return false
        }
        // Grouped run by run (store order keeps a source's samples together): a source's name is looked up once a
        // run, among the few sources by comparison (a dictionary once there are many); each group's indices
        // ascending, as `Dictionary(grouping:by:)` gives them.
        var names: [String] = []
        var groups: [[Int]] = []
        var lookup: [String: Int] = [:]
        var runStart = 0
        while runStart < samples.count {
            let source = samples[runStart].source
            var runEnd = runStart + 1
            while runEnd < samples.count && samples[runEnd].source == source { runEnd += 1 }
            let group: Int
            if let found = names.count <= Self.fewSources ? names.firstIndex(of: source) : lookup[source] {
                group = found
            } else {
                group = names.count
                names.append(source)
                groups.append([])
                if names.count > Self.fewSources {
                    if lookup.isEmpty { for (index, name) in names.enumerated() { lookup[name] = index } }
                    lookup[source] = group
                }
            }
            groups[group].append(contentsOf: runStart..<runEnd)
            runStart = runEnd
        }
        var changed = false
        // The groups highest priority first; a covered piece names its source by its place in this order.
        let order = names.indices.sorted { (ranks[names[$0]] ?? Int.max, names[$0]) < (ranks[names[$1]] ?? Int.max, names[$1]) }
        let sources = order.map { names[$0] }
        /// Time covered by the sources done so far, disjoint and sorted, each piece tagged with the highest
        /// source covering it.
        var coveredAll: [Piece] = []
        /// The same without Health Auto Export period totals: what covers the owner's own entries.
        var measured: [Piece] = []
        var instants: [Date: Int] = [:]
        let ownerPresent = names.contains(AuthorizationState.ownerSource)
        for (place, group) in order.enumerated() {
            let indices = groups[group]
            let covered = sources[place] == AuthorizationState.ownerSource ? measured : coveredAll
            for index in indices {
                // A sample's times are read, its cut and lost stretches written: the one array serves both.
                let start = samples[index].start, end = samples[index].end
                if start == end {
                    if let winner = SourceMerger.coverer(of: start, in: covered) ?? instants[start] {
                        samples[index].cut = []
                        if keepingLost { samples[index].lost = [(TimeSpan(start: start, end: start), sources[winner])] }
                        changed = true
                    }
                } else {
                    let span = TimeSpan(start: start, end: end)
                    // Most samples meet no covered time: nothing to cut, and no arrays to build for it.
                    guard SourceMerger.overlapsCovered(covered, span) else { continue }
                    let (kept, lost) = SourceMerger.subtract(covered, from: span, keepingLost: keepingLost)
                    samples[index].cut = kept
                    if keepingLost { samples[index].lost = lost.map { ($0.span, sources[$0.source]) } }
                    changed = true
                }
            }
            let own = TimeSpan.union(indices.map { TimeSpan(start: samples[$0].start, end: samples[$0].end) })
            if ownerPresent {
                let ownMeasured = indices.allSatisfy { !samples[$0].isPeriodTotal } ? own
                    : TimeSpan.union(indices.filter { !samples[$0].isPeriodTotal }.map { TimeSpan(start: samples[$0].start, end: samples[$0].end) })
                measured = SourceMerger.adding(ownMeasured, tagged: place, to: measured)
            }
            coveredAll = SourceMerger.adding(own, tagged: place, to: coveredAll)
            for index in indices where samples[index].isInstant {
                let instant = samples[index].start
                if instants[instant] == nil { instants[instant] = place }
            }
        }
        return changed
    }

    /// Up to this many sources are told apart by comparing names; more by a dictionary.
    private static let fewSources = 16

    /// The source of the covered piece containing `date`, if any.
    static func coverer(of date: Date, in covered: [Piece]) -> Int? {
        var low = 0, high = covered.count
        while low < high {
            let middle = (low + high) / 2
            if covered[middle].span.end <= date { low = middle + 1 } else { high = middle }
        }
        guard low < covered.count, covered[low].span.start <= date else { return nil }
        return covered[low].source
    }

    /// Whether some covered piece shares time with `span` (which is not an instant): exactly when
    /// ``subtract(_:from:keepingLost:)`` loses something of it.
    static func overlapsCovered(_ covered: [Piece], _ span: TimeSpan) -> Bool {
        var low = 0, high = covered.count
        while low < high {
            let middle = (low + high) / 2
            if covered[middle].span.end <= span.start { low = middle + 1 } else { high = middle }
        }
        return low < covered.count && covered[low].span.start < span.end
    }

    /// `span` minus the covered pieces: the stretches kept, and (when `keepingLost`) the stretches lost with their
    /// coverer.
    static func subtract(_ covered: [Piece], from span: TimeSpan, keepingLost: Bool = true) -> (kept: [TimeSpan], lost: [Piece]) {
        var kept: [TimeSpan] = []
        var lost: [Piece] = []
        var cursor = span.start
        var low = 0, high = covered.count
        while low < high {
            let middle = (low + high) / 2
            if covered[middle].span.end <= span.start { low = middle + 1 } else { high = middle }
        }
        var index = low
        while index < covered.count && covered[index].span.start < span.end {
            let piece = covered[index]
            let from = max(piece.span.start, span.start), to = min(piece.span.end, span.end)
            if from > cursor { kept.append(TimeSpan(start: cursor, end: from)) }
            if keepingLost && to > from {
                if let last = lost.last, last.source == piece.source, last.span.end == from {
                    lost[lost.count - 1].span.end = to
                } else {
                    lost.append((TimeSpan(start: from, end: to), piece.source))
                }
            }
            cursor = max(cursor, to)
            index += 1
        }
        if cursor < span.end { kept.append(TimeSpan(start: cursor, end: span.end)) }
        return (kept, lost)
    }

    /// `covered` plus the parts of disjoint sorted `spans` it does not cover yet, tagged `source`.
    static func adding(_ spans: [TimeSpan], tagged source: Int, to covered: [Piece]) -> [Piece] {
        // The parts of each span no piece covers, as ``subtract(_:from:keepingLost:)`` keeps them, found in one
        // sweep: the spans follow each other, so the first piece that can meet the next one is never before this one's.
        var gaps: [Piece] = []
        var first = 0
        for span in spans {
            while first < covered.count && covered[first].span.end <= span.start { first += 1 }
            var cursor = span.start
            var index = first
            while index < covered.count && covered[index].span.start < span.end {
                let from = max(covered[index].span.start, span.start)
                if from > cursor { gaps.append((TimeSpan(start: cursor, end: from), source)) }
                cursor = max(cursor, min(covered[index].span.end, span.end))
                index += 1
            }
            if cursor < span.end { gaps.append((TimeSpan(start: cursor, end: span.end), source)) }
        }
        guard !gaps.isEmpty else { return covered }
        var merged: [Piece] = []
        merged.reserveCapacity(covered.count + gaps.count)
        var i = 0, j = 0
        while i < covered.count || j < gaps.count {
            if j == gaps.count || (i < covered.count && covered[i].span.start < gaps[j].span.start) {
                merged.append(covered[i]); i += 1
            } else {
                merged.append(gaps[j]); j += 1
            }
        }
        return merged
    }
}
