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

    /// A sample that counts whole.
    init(index: Int, sample: Sample, value: Double) {
        self.index = index
        start = sample.start
        end = sample.end
        source = sample.source
        self.value = value
        if case let .string(form)? = sample.metadata[HAESampleBuilder.aggregationKey] {
            isPeriodTotal = form == "minute" || form == "hour" || form == "day" || form == "week"
        } else {
            isPeriodTotal = false
        }
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

    /// The samples with the stretches that count; `changed` is false when no sample lost anything.
    func merge(_ samples: [MergedSample]) -> (samples: [MergedSample], changed: Bool) {
        guard let first = samples.first?.source, samples.contains(where: { $0.source != first }) else {
            return (samples, false)
        }
        // Grouped run by run (store order keeps a source's samples together): one hash of a source's name per run,
        // not one per sample; each group's indices ascending, as `Dictionary(grouping:by:)` gives them.
        var bySource: [String: [Int]] = [:]
        var runStart = 0
        while runStart < samples.count {
            let source = samples[runStart].source
            var runEnd = runStart + 1
            while runEnd < samples.count && samples[runEnd].source == source { runEnd += 1 }
            bySource[source, default: []].append(contentsOf: runStart..<runEnd)
            runStart = runEnd
        }
        var changed = false
        let sources = bySource.keys.sorted { (ranks[$0] ?? Int.max, $0) < (ranks[$1] ?? Int.max, $1) }
        var result = samples
        /// Time covered by the sources done so far, disjoint and sorted, each piece tagged with the highest
        /// source covering it.
        var coveredAll: [(span: TimeSpan, source: String)] = []
        /// The same without Health Auto Export period totals: what covers the owner's own entries.
        var measured: [(span: TimeSpan, source: String)] = []
        var instants: [Date: String] = [:]
        let ownerPresent = bySource[AuthorizationState.ownerSource] != nil
        for source in sources {
            let indices = bySource[source]!
            let covered = source == AuthorizationState.ownerSource ? measured : coveredAll
            for index in indices {
                let sample = samples[index]
                if sample.start == sample.end {
                    if let winner = SourceMerger.coverer(of: sample.start, in: covered) ?? instants[sample.start] {
                        result[index].cut = []
                        result[index].lost = [(TimeSpan(start: sample.start, end: sample.start), winner)]
                        changed = true
                    }
                } else {
                    let (kept, lost) = SourceMerger.subtract(covered, from: TimeSpan(start: sample.start, end: sample.end))
                    if !lost.isEmpty {
                        result[index].cut = kept
                        result[index].lost = lost
                        changed = true
                    }
                }
            }
            let own = TimeSpan.union(indices.map { TimeSpan(start: samples[$0].start, end: samples[$0].end) })
            if ownerPresent {
                let ownMeasured = indices.allSatisfy { !samples[$0].isPeriodTotal } ? own
                    : TimeSpan.union(indices.filter { !samples[$0].isPeriodTotal }.map { TimeSpan(start: samples[$0].start, end: samples[$0].end) })
                measured = SourceMerger.adding(ownMeasured, tagged: source, to: measured)
            }
            coveredAll = SourceMerger.adding(own, tagged: source, to: coveredAll)
            for index in indices where samples[index].isInstant {
                let instant = samples[index].start
                if instants[instant] == nil { instants[instant] = source }
            }
        }
        return (result, changed)
    }

    /// The source of the covered piece containing `date`, if any.
    static func coverer(of date: Date, in covered: [(span: TimeSpan, source: String)]) -> String? {
        var low = 0, high = covered.count
        while low < high {
            let middle = (low + high) / 2
            if covered[middle].span.end <= date { low = middle + 1 } else { high = middle }
        }
        guard low < covered.count, covered[low].span.start <= date else { return nil }
        return covered[low].source
    }

    /// `span` minus the covered pieces: the stretches kept, and the stretches lost with their coverer.
    static func subtract(_ covered: [(span: TimeSpan, source: String)], from span: TimeSpan)
        -> (kept: [TimeSpan], lost: [(span: TimeSpan, source: String)]) {
        var kept: [TimeSpan] = []
        var lost: [(span: TimeSpan, source: String)] = []
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
            if to > from {
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
    static func adding(_ spans: [TimeSpan], tagged source: String, to covered: [(span: TimeSpan, source: String)])
        -> [(span: TimeSpan, source: String)] {
        var gaps: [(span: TimeSpan, source: String)] = []
        for span in spans {
            gaps += subtract(covered, from: span).kept.map { ($0, source) }
        }
        guard !gaps.isEmpty else { return covered }
        var merged: [(span: TimeSpan, source: String)] = []
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
