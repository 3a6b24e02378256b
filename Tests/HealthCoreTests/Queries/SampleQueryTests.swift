import Foundation
import Testing
import TestKit
@testable import HealthCore

/// HealthKit's sample query: limit, sort descriptors, `ObjectQueryNoLimit`, a predicate, and other types left out.
struct SampleQueryTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: sampleQueryTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Answer = (samples: [HealthSample]?, error: Error?)

    private func answer(_ store: HealthStore, predicate: SamplePredicate? = nil, limit: Int,
                        sortDescriptors: [SampleSortDescriptor<HealthSample>]?) async throws -> Answer {
        let calls = QueryTestSupport.Recorder<Answer>()
        store.execute(SampleQuery(sampleType: QuantityType(.stepCount), predicate: predicate, limit: limit,
                                  sortDescriptors: sortDescriptors) { _, samples, error in calls.record((samples, error)) })
        return try await calls.call(0)
    }

    /// Steps of 100, 200, ... 500 on May 1 to 5, and a weight on May 6.
    private func seed(_ store: HealthStore) throws -> [Sample] {
        let samples = (1...5).map { QueryTestSupport.steps(Double($0 * 100), at: "2024-05-0\($0)T08:00:00Z") }
        try store.save(samples + [QueryTestSupport.weight(70, at: "2024-05-06T07:00:00Z")])
        return samples
    }

    func limitAndReverseSortGiveTheLatest() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store")
            let samples = try seed(store)
            // Newest first, two of them: May 5 (500), May 4 (400).
            let (latest, error) = try await answer(store, limit: 2,
                                                   sortDescriptors: [SampleSortDescriptor(\.startDate, order: .reverse)])
            expectNil(error)
            expectEqual(latest?.map(\.uuid), [samples[4].uuid, samples[3].uuid])
            expectEqual((latest as? [QuantitySample])?.map { $0.quantity.doubleValue(for: .count()) }, [500, 400])
        }
    }

    func noLimitGivesEverySampleOfTheTypeOldestFirst() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store")
            let samples = try seed(store)
            // All five steps (not the weight), oldest first without sort descriptors.
            let (all, error) = try await answer(store, limit: ObjectQueryNoLimit, sortDescriptors: nil)
            expectNil(error)
            expectEqual(all?.map(\.uuid), samples.map(\.uuid))
            // By end date, newest first: the same samples backwards.
            let byValue = try await answer(store, limit: ObjectQueryNoLimit,
                                           sortDescriptors: [SampleSortDescriptor(\.endDate, order: .reverse)])
            expectEqual(byValue.samples?.map(\.uuid), samples.reversed().map(\.uuid))
        }
    }

    func predicateSelectsTheSamples() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store")
            let samples = try seed(store)
            // May 2 to May 4 (end excluded): 200 and 300.
            let (found, _) = try await answer(store, predicate: QueryTestSupport.range("2024-05-02T00:00:00Z", "2024-05-04T00:00:00Z"),
                                              limit: ObjectQueryNoLimit, sortDescriptors: [])
            expectEqual(found?.map(\.uuid), [samples[1].uuid, samples[2].uuid])
        }
    }
}

/// The checks ``SampleQueryTests/checks(_:)`` runs.
private let sampleQueryTestsChecks: [Check<SampleQueryTests>] = [
    Check("limitAndReverseSortGiveTheLatest", SampleQueryTests.limitAndReverseSortGiveTheLatest),
    Check("noLimitGivesEverySampleOfTheTypeOldestFirst", SampleQueryTests.noLimitGivesEverySampleOfTheTypeOldestFirst),
    Check("predicateSelectsTheSamples", SampleQueryTests.predicateSelectsTheSamples),
]
