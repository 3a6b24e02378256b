/// Category types. Sleep analysis: seconds asleep and in bed; other categories: the seconds covered. Overlapping
/// samples never count twice.
///
/// Sleep with merged sources reads asleep time off the ``SleepTimeline`` (highest-priority source wins, awake
/// beats asleep within a source); without merging, asleep time is the union of every asleep sample. In bed is the
/// union of `inBed` samples either way, and unknown (nil) where no `inBed` sample was recorded.
struct CategoryTotals {
    let samples: [Sample]
    let type: SampleType
    let ranks: [String: Int]
    let mergesSources: Bool
    let assignment: SampleAssignment
    let explains: Bool

    func fill(_ intervals: inout [Statistics]) {
        let entries = SleepEntry.entries(samples, ranks: ranks)
        let timeline = type.isSleepAnalysis && mergesSources ? SleepTimeline(entries: entries) : nil
        let asleepValues = Set(type.categoryValues.filter(\.countsAsAsleep).map(\.rawValue))
        let asleep = TimeSpan.union(entries.compactMap { asleepValues.contains($0.raw) ? $0.span : nil })
        let inBedEntries = entries.filter { $0.raw == SleepTimeline.inBedValue }
        let inBed = TimeSpan.union(inBedEntries.map(\.span))
        let all = TimeSpan.union(entries.map(\.span))
        for index in intervals.indices {
            let (from, to) = (intervals[index].start, intervals[index].end)
            if type.isSleepAnalysis {
                intervals[index].asleep = timeline?.seconds(of: SleepTimeline.asleepValues, from: from, to: to)
                    ?? TimeSpan.covered(asleep, from: from, to: to)
                // Unknown, not zero, when nothing recorded time in bed.
                let touched = inBedEntries.contains { ($0.end > from || $0.start == from) && $0.start < to }
                intervals[index].inBed = touched ? TimeSpan.covered(inBed, from: from, to: to) : nil
            } else {
                intervals[index].durationSeconds = TimeSpan.covered(all, from: from, to: to)
            }
        }
        for (position, entry) in entries.enumerated() {
            for index in range(of: entry, in: intervals) {
                intervals[index].sampleCount += 1
                if explains {
                    intervals[index].contributions.append(
                        contribution(position, timeline, intervals[index].start, intervals[index].end))
                }
            }
        }
    }

    private func span(_ sample: Sample) -> TimeSpan { TimeSpan(start: sample.start, end: sample.end) }

    /// The intervals a sample touches: those it overlaps (an instant: the one holding it), or with a strict date
    /// option the one holding its start (or end).
    private func range(of entry: SleepEntry, in intervals: [Statistics]) -> Range<Int> {
        if assignment == .prorated { return bucketRange(from: entry.start, to: entry.end, in: intervals) }
        guard let index = bucketIndex(of: assignment.instant(start: entry.start, end: entry.end), in: intervals)
        else { return 0..<0 }
        return index..<(index + 1)
    }

    private func contribution(_ index: Int, _ timeline: SleepTimeline?, _ from: Date, _ to: Date) -> SampleContribution {
        let sample = samples[index]
        let inside = span(sample).overlap(from, to)
        let stage = sample.value.categoryRawValue.flatMap { type.categoryValue(raw: $0)?.name }
        guard let timeline, SleepTimeline.specificity(of: sample.value.categoryRawValue ?? -1) != nil else {
            return SampleContribution(sample: sample, stage: stage, secondsInInterval: inside, secondsCounted: inside)
        }
        let overrides = timeline.losses[index].compactMap { loss -> SampleContribution.Override? in
            let seconds = loss.span.overlap(from, to)
            guard seconds > 0 else { return nil }
            let winner = samples[loss.winner]
            return .init(source: winner.source, stage: winner.value.categoryRawValue.flatMap { type.categoryValue(raw: $0)?.name },
                         seconds: seconds)
        }
        return SampleContribution(sample: sample, stage: stage, secondsInInterval: inside,
                                  secondsCounted: timeline.secondsWon(by: index, from: from, to: to), overrides: overrides)
    }
}
