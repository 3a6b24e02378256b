import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Merging checked against an independent slice-by-slice oracle (the algorithm of the fact sheet, §8.3) on random
/// multi-source samples.
struct MergePropertyTests {
    private typealias Kit = IndependentTestKit

    /// Cut the window at every sample start and end; in each slice take only the highest-ranked source with a
    /// sample covering it and add `value × slice / duration` of that source's covering samples. Instantaneous
    /// samples count unless a higher-ranked source covers their instant or has one at the same instant.
    private func oracle(_ samples: [Sample], ranks: [String: Int], from: Date, to: Date) -> Double {
        let intervals = samples.filter { $0.duration > 0 }
        var cuts = Set([from, to])
        for sample in intervals {
            if sample.start > from && sample.start < to { cuts.insert(sample.start) }
            if sample.end > from && sample.end < to { cuts.insert(sample.end) }
        }
        let sorted = cuts.sorted()
        var total = 0.0
        for (a, b) in zip(sorted, sorted.dropFirst()) {
            let covering = intervals.filter { $0.start <= a && $0.end >= b }
            guard let best = covering.map({ ranks[$0.source]! }).min() else { continue }
            for sample in covering where ranks[sample.source] == best {
                total += sample.value.quantity!.value * b.timeIntervalSince(a) / sample.duration
            }
        }
        for sample in samples where sample.duration == 0 && sample.start >= from && sample.start < to {
            let rank = ranks[sample.source]!
            let blocked = samples.contains { other in
                ranks[other.source]! < rank
                    && (other.duration > 0 ? other.start <= sample.start && sample.start < other.end : other.start == sample.start)
            }
            if !blocked { total += sample.value.quantity!.value }
        }
        return total
    }

    @Test(arguments: [UInt64(11), 12, 13, 14, 15, 16, 17, 18])
    func mergedTotalsMatchTheSliceOracle(seed: UInt64) throws {
        let start = Kit.utc(2024, 6, 1), end = Kit.utc(2024, 6, 3)
        let samples = CollectionTests.randomSamples(seed: seed, count: 120, start: start, span: Int(end.timeIntervalSince(start)))
        let query = StatisticsRequest(type: .steps, interval: DateInterval(start: start, end: end), bucketUnit: .day)
        let result = try query.run(on: InMemorySampleStore(samples), calendar: GregorianCalendar(timeZone: .gmt))
        let ranks = Dictionary(uniqueKeysWithValues: result.sourceOrder.enumerated().map { ($1, $0) })
        expectEqual(result.sourceOrder, ["Apple Watch", "iPhone", "hkctl"])
        let expected = oracle(samples, ranks: ranks, from: start, to: end)
        #expect(Kit.isClose(result.total.sum!, expected, relative: 1e-9), "merged \(result.total.sum!) vs oracle \(expected)")
        for bucket in result.buckets {
            let expectedBucket = oracle(samples, ranks: ranks, from: bucket.start, to: bucket.end)
            #expect(Kit.isClose(bucket.sum!, expectedBucket, relative: 1e-9, absolute: 1e-7))
        }
        // Merging never adds: the merged total is at most the plain sum, and at least the top source's own sum.
        #expect(result.total.sum! <= result.total.unmergedSum! * (1 + 1e-12))
        let top = try StatisticsRequest(type: .steps, interval: DateInterval(start: start, end: end),
                                      predicate: SamplePredicate(sources: ["Apple Watch"]))
            .run(on: InMemorySampleStore(samples), calendar: GregorianCalendar(timeZone: .gmt))
        #expect(result.total.sum! >= top.total.sum! * (1 - 1e-12))
    }
}
