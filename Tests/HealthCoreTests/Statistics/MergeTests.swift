import Foundation
import Testing
@testable import HealthCore
import TestKit

/// Merging the sources of a cumulative type by priority, with totals worked out by hand.
struct MergeTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: mergeTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias F = MergeFixtures

    func wwdcExampleGives8002() throws {
        let result = try F.run(F.wwdcDay)
        // Watch 3,000 + 3,902 = 6,902; phone 07:10–07:40 lies inside the watch's 07:00–08:00: dropped;
        // phone 18:00–19:00 has no watch sample: kept. 6,902 + 1,100 = 8,002.
        expectEqual(result.total.sum, 8_002)
        expectEqual(result.total.unmergedSum, 8_902)
        expectEqual(result.total.sampleCount, 3)  // the dropped duplicate did not contribute
        expectEqual(result.sourceOrder, [F.watch, F.phone])
        #expect(result.mergedSources)
    }

    func noMergeGivesThePlainSum() throws {
        let result = try F.run(F.wwdcDay, merging: false)
        expectEqual(result.total.sum, 8_902)
        expectNil(result.total.unmergedSum)
        expectEqual(result.total.sampleCount, 4)
        #expect(!result.mergedSources)
    }

    func partlyCoveredSampleIsApportionedByTheUncoveredTime() throws {
        // Watch 10:00–10:30 1,000; phone 10:00–11:00 1,200. The phone's first half is covered, so it keeps
        // 10:30–11:00 = 1,200 × 30/60 = 600. Merged 1,000 + 600 = 1,600; plain 2,200.
        let samples = [F.steps(1_000, F.at(10), F.at(10, 30), F.watch), F.steps(1_200, F.at(10), F.at(11), F.phone)]
        let result = try F.run(samples)
        expectEqual(result.total.sum, 1_600)
        expectEqual(result.total.unmergedSum, 2_200)
    }

    func higherPrioritySampleInsideALongerOneCutsAHole() throws {
        // Phone 09:00–12:00 3,000 (1,000 an hour); watch 10:00–11:00 500. The phone keeps 09–10 and 11–12:
        // 2 × 1,000 = 2,000. Merged 2,500; plain 3,500.
        let samples = [F.steps(3_000, F.at(9), F.at(12), F.phone), F.steps(500, F.at(10), F.at(11), F.watch)]
        let result = try F.run(samples, explains: true)
        expectEqual(result.total.sum, 2_500)
        let phone = try #require(result.total.contributions.first { $0.sample.source == F.phone })
        expectEqual(phone.outcome, .cut)
        expectEqual(phone.counted, 2_000)
        expectEqual(phone.secondsCounted, 7_200)
        expectEqual(phone.overrides, [.init(source: F.watch, seconds: 3_600)])
    }

    func userPriorityOverridesTheDefaultOrder() throws {
        // Same samples as the partial-overlap test, phone ranked first: the watch's 10:00–10:30 lies inside the
        // phone's 10:00–11:00, so the watch is dropped: merged = 1,200.
        let samples = [F.steps(1_000, F.at(10), F.at(10, 30), F.watch), F.steps(1_200, F.at(10), F.at(11), F.phone)]
        let result = try F.run(samples, priority: try SourcePriority([F.phone]))
        expectEqual(result.total.sum, 1_200)
        expectEqual(result.sourceOrder, [F.phone, F.watch])
    }

    func threeSourcesFillEachOthersGaps() throws {
        // Watch 08:00–09:00 600. Phone 08:30–09:30 600 (10 a minute): keeps 09:00–09:30 = 300.
        // Manual (hkctl) 08:45–10:00 750 (10 a minute): 08:45–09:30 is covered (watch, then phone), keeps
        // 09:30–10:00 = 300. Merged 600 + 300 + 300 = 1,200; plain 1,950.
        let samples = [F.steps(600, F.at(8), F.at(9), F.watch), F.steps(600, F.at(8, 30), F.at(9, 30), F.phone),
                       F.steps(750, F.at(8, 45), F.at(10), F.manual)]
        let result = try F.run(samples, explains: true)
        expectEqual(result.total.sum, 1_200)
        expectEqual(result.total.unmergedSum, 1_950)
        let manual = try #require(result.total.contributions.first { $0.sample.source == F.manual })
        // Covered 08:45–09:00 by the watch (15 min) and 09:00–09:30 by the phone (30 min).
        expectEqual(manual.overrides, [.init(source: F.watch, seconds: 900), .init(source: F.phone, seconds: 1_800)])
        expectEqual(manual.counted, 300)
    }

    func instantaneousSamplesYieldToACoveringHigherSource() throws {
        // Manual 500 at 10:15 falls inside the watch's 10:00–10:30: dropped. Manual 250 at 20:00: nobody else,
        // counted. Phone 40 at 20:00 (instantaneous, same instant): the phone outranks manual, so the phone's 40
        // counts and the manual 250 is dropped. Merged: watch 100 + phone 40 = 140.
        let samples = [F.steps(100, F.at(10), F.at(10, 30), F.watch), F.steps(500, F.at(10, 15), nil, F.manual),
                       F.steps(250, F.at(20), nil, F.manual), F.steps(40, F.at(20), nil, F.phone)]
        let result = try F.run(samples, explains: true)
        expectEqual(result.total.sum, 140)
        expectEqual(result.total.unmergedSum, 890)
        let dropped = result.total.contributions.filter { $0.outcome == .dropped }.map(\.sample.source)
        expectEqual(dropped, [F.manual, F.manual])
    }

    func samplesOfOneSourceNeverCancelEachOther() throws {
        // Two overlapping watch samples both count (HealthKit does not deduplicate within a source): 300 + 200.
        let samples = [F.steps(300, F.at(10), F.at(11), F.watch), F.steps(200, F.at(10, 30), F.at(11, 30), F.watch)]
        try expectEqual(F.run(samples).total.sum, 500)
    }

    func identicalSamplesFromTwoSourcesCountOnce() throws {
        let samples = [F.steps(1_234, F.at(14), F.at(15), F.phone), F.steps(1_234, F.at(14), F.at(15), F.watch)]
        let result = try F.run(samples)
        expectEqual(result.total.sum, 1_234)
        expectEqual(result.total.unmergedSum, 2_468)
    }

    func mergedSamplesStraddlingMidnightSplitIntoDays() throws {
        // Phone 23:00–01:00 2,400 (20 a minute); watch 23:30–00:30 600 (10 a minute).
        // Phone keeps 23:00–23:30 (600) and 00:30–01:00 (600).
        // 06-01: phone 600 + watch 23:30–24:00 300 = 900. 06-02: watch 00:00–00:30 300 + phone 600 = 900.
        let samples = [F.steps(2_400, F.at(23), F.at(1, day: 2), F.phone), F.steps(600, F.at(23, 30), F.at(0, 30, day: 2), F.watch)]
        let interval = DateInterval(start: F.at(0), end: F.at(0, day: 3))
        let result = try F.run(samples, interval, by: BucketInterval(1, .day), explains: true)
        expectEqual(result.buckets.map(\.sum), [900, 900])
        expectEqual(result.total.sum, 1_800)
        expectEqual(result.buckets.map(\.unmergedSum), [1_500, 1_500])
        let phoneFirstDay = try #require(result.buckets[0].contributions.first { $0.sample.source == F.phone })
        expectEqual(phoneFirstDay.secondsInInterval, 3_600)  // 23:00–24:00 of the 2-hour sample
        expectEqual(phoneFirstDay.secondsCounted, 1_800)
        expectEqual(phoneFirstDay.counted, 600)
        expectEqual(phoneFirstDay.overrides, [.init(source: F.watch, seconds: 1_800)])
    }

    func separateBySourceGivesEachSourcesOwnSum() throws {
        let result = try F.run(F.wwdcDay, options: [.sum, .separateBySource])
        expectEqual(result.total.sum, 8_002)
        expectEqual(result.total.sourceStatistics.map(\.source), [F.watch, F.phone])
        expectEqual(result.total.sourceStatistics.map(\.statistics.sum), [6_902, 2_000])
        // The per-source sums add up to the plain sum, not to the merged one.
        expectEqual(result.total.sourceStatistics.compactMap(\.statistics.sum).sum, result.total.unmergedSum)
    }

    func explainListsEveryOutcome() throws {
        let result = try F.run(F.wwdcDay, explains: true)
        let outcomes = result.total.contributions.map { "\($0.sample.source):\($0.outcome.rawValue)" }
        expectEqual(outcomes, ["\(F.watch):counted", "\(F.phone):dropped", "\(F.watch):counted", "\(F.phone):counted"])
        let duplicate = result.total.contributions[1]
        expectEqual(duplicate.counted, 0)
        expectEqual(duplicate.overrides, [.init(source: F.watch, seconds: 1_800)])
    }

    func singleSourceResultsDoNotChange() throws {
        // With one source, merging must give exactly the plain pro-rated figures, bucket by bucket.
        var generator = IndependentTestKit.SeededGenerator(seed: 42)
        let start = F.at(0)
        let samples = (0..<300).map { _ -> Sample in
            let offset = Double(Int.random(in: -7_200...86_400, using: &generator))
            let length = Double(Int.random(in: 0...3, using: &generator) == 0 ? 0 : Int.random(in: 1...10_000, using: &generator))
            return F.steps(Double(Int.random(in: 0...900, using: &generator)), start.addingTimeInterval(offset),
                           start.addingTimeInterval(offset + length), F.phone)
        }
        let merged = try F.run(samples, by: BucketInterval(1, .hour))
        let plain = try F.run(samples, by: BucketInterval(1, .hour), merging: false)
        expectEqual(merged.total.sum, plain.total.sum)
        expectEqual(merged.buckets.map(\.sum), plain.buckets.map(\.sum))
        expectEqual(merged.buckets.map(\.sampleCount), plain.buckets.map(\.sampleCount))
    }
}

/// The checks ``MergeTests/checks(_:)`` runs.
private let mergeTestsChecks: [Check<MergeTests>] = [
    Check("wwdcExampleGives8002", MergeTests.wwdcExampleGives8002),
    Check("noMergeGivesThePlainSum", MergeTests.noMergeGivesThePlainSum),
    Check("partlyCoveredSampleIsApportionedByTheUncoveredTime",
          MergeTests.partlyCoveredSampleIsApportionedByTheUncoveredTime),
    Check("higherPrioritySampleInsideALongerOneCutsAHole", MergeTests.higherPrioritySampleInsideALongerOneCutsAHole),
    Check("userPriorityOverridesTheDefaultOrder", MergeTests.userPriorityOverridesTheDefaultOrder),
    Check("threeSourcesFillEachOthersGaps", MergeTests.threeSourcesFillEachOthersGaps),
    Check("instantaneousSamplesYieldToACoveringHigherSource",
          MergeTests.instantaneousSamplesYieldToACoveringHigherSource),
    Check("samplesOfOneSourceNeverCancelEachOther", MergeTests.samplesOfOneSourceNeverCancelEachOther),
    Check("identicalSamplesFromTwoSourcesCountOnce", MergeTests.identicalSamplesFromTwoSourcesCountOnce),
    Check("mergedSamplesStraddlingMidnightSplitIntoDays", MergeTests.mergedSamplesStraddlingMidnightSplitIntoDays),
    Check("separateBySourceGivesEachSourcesOwnSum", MergeTests.separateBySourceGivesEachSourcesOwnSum),
    Check("explainListsEveryOutcome", MergeTests.explainListsEveryOutcome),
    Check("singleSourceResultsDoNotChange", MergeTests.singleSourceResultsDoNotChange),
]
