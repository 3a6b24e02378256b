import Foundation

/// Sums of a cumulative type, pro-rated by time overlap.
struct CumulativeTotals {
    let samples: [Sample]
    /// Each sample's value in the output unit.
    let values: [Double]

    func fill(_ buckets: inout [Statistics], total: inout Statistics) {
        for index in buckets.indices { buckets[index].sum = 0 }
        total.sum = 0
        for (sample, value) in zip(samples, values) {
            if let share = CumulativeTotals.share(of: sample, value: value, from: total.start, to: total.end) {
                total.sum! += share
                total.sampleCount += 1
            }
            guard var index = bucketIndex(of: max(sample.start, total.start), in: buckets) else { continue }
            while index < buckets.count && buckets[index].start <= sample.end {
                if let share = CumulativeTotals.share(of: sample, value: value, from: buckets[index].start, to: buckets[index].end) {
                    buckets[index].sum! += share
                    buckets[index].sampleCount += 1
                }
                index += 1
            }
        }
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

/// Average, minimum, maximum and most recent of a discrete type, by the bucket each reading starts in.
struct DiscreteTotals {
    let samples: [Sample]
    let values: [Double]

    func fill(_ buckets: inout [Statistics], total: inout Statistics) {
        var sums = [Double](repeating: 0, count: buckets.count)
        var totalSum = 0.0
        for (sample, value) in zip(samples, values) {
            guard sample.start >= total.start && sample.start < total.end else { continue }
            DiscreteTotals.add(sample, value, to: &total)
            totalSum += value
            if let index = bucketIndex(of: sample.start, in: buckets) {
                DiscreteTotals.add(sample, value, to: &buckets[index])
                sums[index] += value
            }
        }
        if total.sampleCount > 0 { total.average = totalSum / Double(total.sampleCount) }
        for index in buckets.indices where buckets[index].sampleCount > 0 {
            buckets[index].average = sums[index] / Double(buckets[index].sampleCount)
        }
    }

    private static func add(_ sample: Sample, _ value: Double, to statistics: inout Statistics) {
        statistics.sampleCount += 1
        statistics.minimum = min(statistics.minimum ?? value, value)
        statistics.maximum = max(statistics.maximum ?? value, value)
        if statistics.mostRecentDate.map({ sample.end >= $0 }) ?? true {
            statistics.mostRecent = value
            statistics.mostRecentDate = sample.end
        }
    }
}

/// Category types: for sleep, time asleep and time in bed; for others, the time covered. Overlapping samples are
/// merged so no second counts twice.
struct SleepTotals {
    let samples: [Sample]
    let type: SampleType

    func fill(_ buckets: inout [Statistics], total: inout Statistics) {
        let asleep = SleepTotals.union(samples.filter { isAsleep($0) })
        let inBed = SleepTotals.union(samples.filter { $0.value.categoryRawValue == 0 })
        let all = SleepTotals.union(samples)
        func measure(_ statistics: inout Statistics) {
            if type.isSleepAnalysis {
                statistics.asleep = SleepTotals.covered(asleep, from: statistics.start, to: statistics.end)
                statistics.inBed = SleepTotals.covered(inBed, from: statistics.start, to: statistics.end)
            } else {
                statistics.duration = SleepTotals.covered(all, from: statistics.start, to: statistics.end)
            }
            statistics.sampleCount = samples.filter {
                ($0.end > statistics.start || $0.start == statistics.start) && $0.start < statistics.end
            }.count
        }
        measure(&total)
        for index in buckets.indices { measure(&buckets[index]) }
    }

    private func isAsleep(_ sample: Sample) -> Bool {
        guard let raw = sample.value.categoryRawValue else { return false }
        return type.categoryValue(raw: raw)?.countsAsAsleep ?? false
    }

    /// Disjoint, sorted intervals covering the samples.
    static func union(_ samples: [Sample]) -> [(start: Date, end: Date)] {
        var merged: [(start: Date, end: Date)] = []
        for sample in samples.sorted(by: { $0.start < $1.start }) where sample.end > sample.start {
            if let last = merged.last, sample.start <= last.end {
                merged[merged.count - 1].end = max(last.end, sample.end)
            } else {
                merged.append((sample.start, sample.end))
            }
        }
        return merged
    }

    /// Seconds of `intervals` inside `[start, end)`.
    static func covered(_ intervals: [(start: Date, end: Date)], from start: Date, to end: Date) -> TimeInterval {
        intervals.reduce(0) { sum, interval in
            sum + max(0, min(interval.end, end).timeIntervalSince(max(interval.start, start)))
        }
    }
}
