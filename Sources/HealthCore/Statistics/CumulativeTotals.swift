/// Sums (and most recent, duration) of a cumulative type, from merged samples, for the total and every bucket.
///
/// By default a sample's counted stretches are pro-rated into the intervals they overlap (an instantaneous sample
/// counts wholly where it lies), so bucket sums add up to the total. With a strict date option the counted part
/// of a sample goes wholly to the interval holding its start (or end).
struct CumulativeTotals {
    /// The samples that ``MergedSample/index`` refers to.
    let samples: [Sample]
    /// The samples after merging (each with the stretches that count).
    let merged: [MergedSample]
    /// Every sample counted whole, for ``Statistics/unmergedSum``, when merging cut something; nil when sources
    /// were not merged or merging changed nothing (the plain sum is then the sum).
    let unmerged: [MergedSample]?
    /// Whether sources were merged (so ``Statistics/unmergedSum`` is reported).
    let reportsUnmerged: Bool
    let assignment: SampleAssignment
    /// Whether to collect the covered time for ``Statistics/duration``.
    let needsDuration: Bool
    let explains: Bool

    func fill(_ intervals: inout [Statistics]) {
        for index in intervals.indices { intervals[index].sum = 0 }
        var latest = [Int?](repeating: nil, count: intervals.count)
        var spans = [[TimeSpan]](repeating: [], count: intervals.count)
        for (position, entry) in merged.enumerated() {
            for index in range(of: entry, in: intervals) {
                let (counted, seconds) = share(of: entry, from: intervals[index].start, to: intervals[index].end)
                if let counted {
                    intervals[index].sum! += counted
                    intervals[index].sampleCount += 1
                    if latest[index].map({ isLater(entry, than: merged[$0]) }) ?? true {
                        latest[index] = position
                    }
                    if needsDuration { spans[index] += entry.kept.filter { !$0.isInstant } }
                }
                if explains {
                    intervals[index].contributions.append(contribution(
                        of: entry, in: intervals[index], counted: counted ?? 0, secondsCounted: seconds))
                }
            }
        }
        if let unmerged {
            for index in intervals.indices { intervals[index].unmergedSum = 0 }
            for entry in unmerged {
                for index in range(of: entry, in: intervals) {
                    if let counted = share(of: entry, from: intervals[index].start, to: intervals[index].end).amount {
                        intervals[index].unmergedSum! += counted
                    }
                }
            }
        } else if reportsUnmerged {
            for index in intervals.indices { intervals[index].unmergedSum = intervals[index].sum }
        }
        for index in intervals.indices {
            if let position = latest[index] {
                intervals[index].mostRecent = merged[position].value
                intervals[index].mostRecentDate = merged[position].end
                intervals[index].mostRecentStart = merged[position].start
            }
            guard needsDuration else { continue }
            let union = TimeSpan.union(spans[index])
            intervals[index].durationSeconds = assignment == .prorated
                ? TimeSpan.covered(union, from: intervals[index].start, to: intervals[index].end)
                : union.reduce(0) { $0 + $1.seconds }
        }
    }

    /// The intervals a sample can count in.
    private func range(of sample: MergedSample, in intervals: [Statistics]) -> Range<Int> {
        if assignment == .prorated { return bucketRange(from: sample.start, to: sample.end, in: intervals) }
        guard let index = bucketIndex(of: assignment == .wholeAtEnd ? sample.end : sample.start, in: intervals) else {
            return 0..<0
        }
        return index..<(index + 1)
    }

    /// What of the sample counts in `[from, to)`: the amount (nil when nothing of it lies there or it was
    /// dropped there) and the seconds counted.
    private func share(of entry: MergedSample, from: Date, to: Date) -> (amount: Double?, seconds: TimeInterval) {
        let sample = entry
        if sample.start == sample.end {
            guard !entry.isDropped else { return (nil, 0) }
            if assignment != .prorated || TimeSpan.contains(sample.start, from, to) { return (entry.value, 0) }
            return (nil, 0)
        }
        if entry.cut == nil {
            let seconds = assignment != .prorated ? sample.duration
                : min(sample.end, to).timeIntervalSince(max(sample.start, from))
            return seconds > 0 ? (entry.amount(forSeconds: seconds), seconds) : (nil, 0)
        }
        if assignment != .prorated {
            let seconds = entry.kept.reduce(0) { $0 + $1.seconds }
            return seconds > 0 ? (entry.amount(forSeconds: seconds), seconds) : (nil, 0)
        }
        var seconds: TimeInterval = 0
        var amount = 0.0
        for piece in entry.kept {
            let overlap = piece.overlap(from, to)
            guard overlap > 0 else { continue }
            seconds += overlap
            amount += entry.amount(forSeconds: overlap)
        }
        return seconds > 0 ? (amount, seconds) : (nil, 0)
    }

    private func contribution(of entry: MergedSample, in interval: Statistics, counted: Double,
                              secondsCounted: TimeInterval) -> SampleContribution {
        let sample = samples[entry.index]
        let whole = assignment != .prorated
        let inside = whole ? sample.duration : TimeSpan(start: sample.start, end: sample.end).overlap(interval.start, interval.end)
        let overrides = entry.lost.compactMap { lost -> SampleContribution.Override? in
            if lost.span.isInstant { return .init(source: lost.source, seconds: 0) }
            let seconds = whole ? lost.span.seconds : lost.span.overlap(interval.start, interval.end)
            return seconds > 0 ? .init(source: lost.source, seconds: seconds) : nil
        }
        return SampleContribution(sample: sample, value: entry.value, counted: counted, secondsInInterval: inside,
                                  secondsCounted: secondsCounted, overrides: overrides)
    }

    /// Greatest end, then greatest start.
    private func isLater(_ a: MergedSample, than b: MergedSample) -> Bool {
        a.end != b.end ? a.end > b.end : a.start >= b.start
    }

    /// The part of `value` that falls in `[start, end)`, or nil when none of the sample does.
    static func share(of sample: Sample, value: Double, from start: Date, to end: Date) -> Double? {
        if sample.start == sample.end {
            return sample.start >= start && sample.start < end ? value : nil
        }
        let overlap = min(sample.end, end).timeIntervalSince(max(sample.start, start))
        guard overlap > 0 else { return nil }
        return value * overlap / sample.duration
    }
}
