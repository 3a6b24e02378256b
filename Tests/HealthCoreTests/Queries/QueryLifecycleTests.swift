import Foundation
import Testing
import TestKit
@testable import HealthCore

/// What every handler-based query shares through `Query`: any of them runs through `execute(_:)`; executing twice
/// answers once; a query stopped before it is executed never answers; stopping twice or before executing is harmless.
struct QueryLifecycleTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: queryLifecycleTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    func everyKindRunsAsAQuery() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store")
            try store.save([QueryTestSupport.steps(100, at: "2024-05-01T08:00:00Z")])
            let calls = LiveTestSupport.Counter()
            let steps = QuantityType(.stepCount)
            let collection = StatisticsCollectionQuery(quantityType: steps, quantitySamplePredicate: nil, options: .cumulativeSum,
                                                       anchorDate: TestSupport.date("2024-05-01T00:00:00Z"),
                                                       intervalComponents: DateComponents(day: 1))
            collection.initialResultsHandler = { _, _, error in calls.bump(error) }
            let queries: [Query] = [
                SampleQuery(sampleType: steps, predicate: nil, limit: ObjectQueryNoLimit, sortDescriptors: nil) { _, _, error in
                    calls.bump(error)
                },
                StatisticsQuery(quantityType: steps, quantitySamplePredicate: nil, options: .cumulativeSum) { _, _, error in
                    calls.bump(error)
                },
                collection,
                AnchoredObjectQuery(type: steps, predicate: nil, anchor: nil, limit: ObjectQueryNoLimit) { _, _, _, _, error in
                    calls.bump(error)
                },
                SourceQuery(sampleType: steps, samplePredicate: nil) { _, _, error in calls.bump(error) },
                ObserverQuery(sampleType: steps, predicate: nil) { query, _, error in
                    calls.bump(error)
                    store.stop(query)
                },
            ]
            for query in queries {
                expectEqual(query.sampleType, steps)
                store.execute(query)
            }
            // One answer each, no error; executing them all again answers nothing more.
            #expect(await LiveTestSupport.eventually { calls.value == 6 })
            for query in queries { store.execute(query) }
            try await QueryTestSupport.pause()
            expectEqual(calls.value, 6)
            expectEqual(calls.errorCount, 0)
        }
    }

    func aQueryStoppedBeforeItRunsNeverAnswers() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store")
            let calls = LiveTestSupport.Counter()
            let query = SampleQuery(sampleType: QuantityType(.stepCount), predicate: nil, limit: ObjectQueryNoLimit,
                                    sortDescriptors: nil) { _, _, error in calls.bump(error) }
            store.stop(query)
            store.stop(query)
            // As in HealthKit, a stopped query cannot be restarted.
            store.execute(query)
            try await QueryTestSupport.pause()
            expectEqual(calls.value, 0)
        }
    }
}

/// The checks ``QueryLifecycleTests/checks(_:)`` runs.
private let queryLifecycleTestsChecks: [Check<QueryLifecycleTests>] = [
    Check("everyKindRunsAsAQuery", QueryLifecycleTests.everyKindRunsAsAQuery),
    Check("aQueryStoppedBeforeItRunsNeverAnswers", QueryLifecycleTests.aQueryStoppedBeforeItRunsNeverAnswers),
]
