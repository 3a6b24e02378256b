#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Average, minimum, maximum, most recent and duration of a discrete type. A reading belongs wholly to the
/// interval where it starts (where it ends, with `strictEndDate` alone). Sources are not merged: every reading
/// counts, as HealthKit does for discrete types.
struct DiscreteTotals {
    let samples: [Sample]
    /// Each sample's value in the output unit.
    let values: [Double]
    let aggregation: AggregationStyle
    let assignment: SampleAssignment
    let explains: Bool

    func fill(_ intervals: inout [Statistics]) {
        var members = [[Int]](repeating: [], count: intervals.count)
        for index in samples.indices {
            if let interval = bucketIndex(of: assignment.instant(of: samples[index]), in: intervals) {
                members[interval].append(index)
            }
        }
        for interval in intervals.indices where !members[interval].isEmpty {
            fill(&intervals[interval], with: members[interval])
        }
    }

    private func fill(_ statistics: inout Statistics, with indices: [Int]) {
        let ordered = indices.sorted { Sample.chronological(samples[$0], samples[$1]) }
        let weights = aggregation == .discreteArithmetic
            ? nil : DiscreteTotals.temporalWeights(ordered.map { samples[$0] }, until: statistics.end)
        for (position, index) in ordered.enumerated() {
            let sample = samples[index], value = values[index]
            statistics.sampleCount += 1
            statistics.minimum = min(statistics.minimum ?? value, value)
            statistics.maximum = max(statistics.maximum ?? value, value)
            if statistics.mostRecentDate.map({ sample.end >= $0 }) ?? true {
                statistics.mostRecent = value
                statistics.mostRecentDate = sample.end
                statistics.mostRecentStart = sample.start
            }
            if explains {
                statistics.contributions.append(SampleContribution(
                    sample: sample, value: value, weight: weights?[position], secondsInInterval: sample.duration,
                    secondsCounted: sample.duration))
            }
        }
        let readings = ordered.map { values[$0] }
        statistics.average = DiscreteTotals.average(readings, weights: weights, style: aggregation)
        statistics.durationSeconds = TimeSpan.union(ordered.map { TimeSpan(start: samples[$0].start, end: samples[$0].end) })
            .reduce(0) { $0 + $1.seconds }
    }

    /// The mean of `values` for the aggregation style.
    ///
    /// - Arithmetic: `Σv / n`.
    /// - Temporally weighted: `Σ(v·w) / Σw`, with the weights of ``temporalWeights(_:until:)``.
    /// - Equivalent continuous level (dB): `10·log10(Σ(w·10^(v/10)) / Σw)`.
    ///
    /// When every weight is 0 the weights are ignored (each reading weighs the same).
    static func average(_ values: [Double], weights: [TimeInterval]?, style: AggregationStyle) -> Double? {
        guard !values.isEmpty else { return nil }
        var weights = weights ?? [TimeInterval](repeating: 1, count: values.count)
        if weights.reduce(0, +) <= 0 { weights = [TimeInterval](repeating: 1, count: values.count) }
        let totalWeight = weights.reduce(0, +)
        switch style {
        case .discreteEquivalentContinuousLevel:
            let energy = zip(values, weights).reduce(0.0) { $0 + $1.1 * pow(10, $1.0 / 10) }
            return 10 * log10(energy / totalWeight)
        case .discreteArithmetic, .cumulative:
            return values.reduce(0, +) / Double(values.count)
        case .discreteTemporallyWeighted:
            return zip(values, weights).reduce(0.0) { $0 + $1.0 * $1.1 } / totalWeight
        }
    }

    /// The longest an instantaneous reading holds its level (10 minutes): a watch reads the heart every few minutes, and
    /// a reading before a gap (the watch taken off, the last reading of the data, the rest of today) holds it no
    /// longer, so that empty time added to an interval does not change its average.
    static let longestHold: TimeInterval = 600

    /// How long each reading held its level, for time-weighted averages.
    ///
    /// A reading with a duration weighs its duration. An instantaneous reading holds until the next later reading
    /// starts, or until `end` (the end of the interval) for the last one, but never longer than ``longestHold``;
    /// readings at the same instant share that time equally.
    ///
    /// - Parameter samples: Readings in chronological order.
    static func temporalWeights<Reading: TimedReading>(_ samples: [Reading], until end: Date) -> [TimeInterval] {
        var weights = [TimeInterval](repeating: 0, count: samples.count)
        var index = 0
        while index < samples.count {
            let sample = samples[index]
            if sample.end > sample.start {
                weights[index] = sample.end.timeIntervalSince(sample.start)
                index += 1
                continue
            }
            var group = index
            while group + 1 < samples.count && samples[group + 1].start == sample.start && samples[group + 1].end == samples[group + 1].start {
                group += 1
            }
            let next = samples[(group + 1)...].first { $0.start > sample.start }?.start ?? max(end, sample.start)
            let hold = min(next.timeIntervalSince(sample.start), DiscreteTotals.longestHold) / Double(group - index + 1)
            for member in index...group { weights[member] = hold }
            index = group + 1
        }
        return weights
    }
}

/// Anything that spans `[start, end]`: a sample, or a reading taken from one.
protocol TimedReading {
    var start: Date { get }
    var end: Date { get }
}

extension Sample: TimedReading {}
