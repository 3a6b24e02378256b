import Foundation
import Testing
import TestKit
@testable import HealthCore

/// HealthKit's source query: the sources of a type's samples, selected by a predicate, and a source passed on to a
/// predicate.
struct SourceQueryTests {
    private typealias Answer = (sources: Set<Source>?, error: Error?)

    private func answer(_ store: HealthStore, _ type: SampleType, _ predicate: SamplePredicate?) async throws -> Answer {
        let calls = QueryTestSupport.Recorder<Answer>()
        store.execute(SourceQuery(sampleType: type, samplePredicate: predicate) { _, sources, error in
            calls.record((sources, error))
        })
        return try await calls.call(0)
    }

    @Test func findsTheSourcesOfATypesSamples() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store")
            try store.save([QueryTestSupport.steps(100, at: "2024-05-01T08:00:00Z", source: "Jane’s Apple Watch"),
                            QueryTestSupport.steps(120, at: "2024-05-01T08:00:00Z", source: "iPhone"),
                            QueryTestSupport.steps(300, at: "2024-05-03T08:00:00Z", source: "iPhone"),
                            QueryTestSupport.weight(70, at: "2024-05-01T07:00:00Z", source: "Scale")])
            // Steps: the watch and the phone (the scale wrote only a weight).
            let (sources, error) = try await answer(store, QuantityType(.stepCount), nil)
            expectNil(error)
            expectEqual(sources, [Source(name: "Jane’s Apple Watch"), Source(name: "iPhone")])
            expectEqual(sources?.map(\.bundleIdentifier).sorted(), ["Jane’s Apple Watch", "iPhone"])
            // From May 2: only the phone's 300.
            let later = try await answer(store, QuantityType(.stepCount),
                                         QueryTestSupport.range("2024-05-02T00:00:00Z", "2024-06-01T00:00:00Z"))
            expectEqual(later.sources, [Source(name: "iPhone")])
            // No sleep at all: an empty set, no error.
            let none = try await answer(store, CategoryType(.sleepAnalysis), nil)
            expectEqual(none.sources, [])
            expectNil(none.error)

            // A source found is a predicate: the phone's steps are 120 + 300 = 420.
            let phone = try await StatisticsQueryDescriptor(
                predicate: .quantitySample(type: QuantityType(.stepCount), predicate: Query.predicateForObjects(from: Source(name: "iPhone"))),
                options: .cumulativeSum).result(for: store)
            expectEqual(phone?.sumQuantity()?.doubleValue(for: .count()), 420)
        }
    }
}
