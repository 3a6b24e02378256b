import Foundation
import Testing
import TestKit
@testable import HealthCore

/// HealthKit's statistics collection query: daily sums at first, an update after another store's write, no update
/// for another type or after stop, a one-shot query without an update handler; and the descriptor's live sequence.
struct StatisticsCollectionQueryTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: statisticsCollectionQueryTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Initial = (collection: StatisticsCollection?, error: Error?)
    private typealias Update = (statistics: Statistics?, collection: StatisticsCollection?, error: Error?)

    private let steps = QuantityType(.stepCount)
    /// May 1 to 4, 2024: three day buckets.
    private let days = QueryTestSupport.range("2024-05-01T00:00:00Z", "2024-05-04T00:00:00Z")

    private func query() -> StatisticsCollectionQuery {
        StatisticsCollectionQuery(quantityType: steps, quantitySamplePredicate: days, options: .cumulativeSum,
                                  anchorDate: TestSupport.date("2024-05-01T00:00:00Z"),
                                  intervalComponents: DateComponents(day: 1))
    }

    private func sum(_ collection: StatisticsCollection?, on day: String) -> Double? {
        collection?.statistics(for: TestSupport.date(day + "T12:00:00Z"))?.sumQuantity()?.doubleValue(for: .count())
    }

    /// May 1: 100 + 250 = 350; May 2: 400; May 3: nothing.
    private func seed(_ store: HealthStore) throws {
        try store.save([QueryTestSupport.steps(100, at: "2024-05-01T08:00:00Z"),
                        QueryTestSupport.steps(250, at: "2024-05-01T12:00:00Z"),
                        QueryTestSupport.steps(400, at: "2024-05-02T08:00:00Z")])
    }

    func initialResultsThenAnUpdateAfterAnotherStoresWrite() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let path = folder + "/store"
            let store = try HealthStore(directory: path)
            let writer = try HealthStore(directory: path)
            try seed(writer)
            let initial = QueryTestSupport.Recorder<Initial>()
            let updates = QueryTestSupport.Recorder<Update>()
            let query = query()
            query.initialResultsHandler = { _, collection, error in initial.record((collection, error)) }
            query.statisticsUpdateHandler = { _, statistics, collection, error in updates.record((statistics, collection, error)) }
            store.execute(query)
            defer { store.stop(query) }

            let first = try await initial.call(0)
            expectNil(first.error)
            expectEqual(sum(first.collection, on: "2024-05-01"), 350)
            expectEqual(sum(first.collection, on: "2024-05-02"), 400)
            // May 3 is a bucket of the range without data: there, with a nil sum.
            #expect(first.collection?.statistics(for: TestSupport.date("2024-05-03T12:00:00Z")) != nil)
            expectNil(sum(first.collection, on: "2024-05-03"))
            expectEqual(first.collection?.statistics().count, 2)

            // A weight is not a step: no update. Then 50 steps on May 3 from the other store: one update.
            try writer.save([QueryTestSupport.weight(70, at: "2024-05-03T07:00:00Z")])
            try writer.save([QueryTestSupport.steps(50, at: "2024-05-03T09:00:00Z")])
            let update = try await updates.call(0)
            expectNil(update.error)
            // The interval the new sample falls in: May 3, now 50.
            expectEqual(update.statistics?.startDate, TestSupport.date("2024-05-03T00:00:00Z"))
            expectEqual(update.statistics?.sumQuantity()?.doubleValue(for: .count()), 50)
            // The whole collection again: 350, 400, 50.
            expectEqual(sum(update.collection, on: "2024-05-01"), 350)
            expectEqual(sum(update.collection, on: "2024-05-02"), 400)
            expectEqual(sum(update.collection, on: "2024-05-03"), 50)
            expectEqual(update.collection?.statistics().count, 3)
            try await QueryTestSupport.pause()
            expectEqual(updates.count, 1)
            expectEqual(initial.count, 1)
        }
    }

    func stopEndsUpdates() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store")
            try seed(store)
            let initial = QueryTestSupport.Recorder<Initial>()
            let updates = QueryTestSupport.Recorder<Update>()
            let query = query()
            query.initialResultsHandler = { _, collection, error in initial.record((collection, error)) }
            query.statisticsUpdateHandler = { _, statistics, collection, error in updates.record((statistics, collection, error)) }
            store.execute(query)
            _ = try await initial.call(0)
            try store.save([QueryTestSupport.steps(10, at: "2024-05-02T09:00:00Z")])
            // May 2: 400 + 10 = 410.
            let update = try await updates.call(0)
            expectEqual(update.statistics?.sumQuantity()?.doubleValue(for: .count()), 410)

            store.stop(query)
            try store.save([QueryTestSupport.steps(20, at: "2024-05-02T10:00:00Z")])
            try await QueryTestSupport.pause()
            expectEqual(updates.count, 1)
        }
    }

    func withoutAnUpdateHandlerItAnswersOnce() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store")
            try seed(store)
            let initial = QueryTestSupport.Recorder<Initial>()
            let query = query()
            query.initialResultsHandler = { _, collection, error in initial.record((collection, error)) }
            store.execute(query)
            #expect(sum(try await initial.call(0).collection, on: "2024-05-01") == 350)
            try store.save([QueryTestSupport.steps(50, at: "2024-05-03T09:00:00Z")])
            try await QueryTestSupport.pause()
            expectEqual(initial.count, 1)
        }
    }

    func badIntervalComponentsReachTheInitialHandler() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store")
            let initial = QueryTestSupport.Recorder<Initial>()
            let updates = QueryTestSupport.Recorder<Update>()
            // A day and an hour is not one calendar step.
            let query = StatisticsCollectionQuery(quantityType: steps, quantitySamplePredicate: nil, options: .cumulativeSum,
                                                  anchorDate: TestSupport.date("2024-05-01T00:00:00Z"),
                                                  intervalComponents: DateComponents(day: 1, hour: 1))
            query.initialResultsHandler = { _, collection, error in initial.record((collection, error)) }
            query.statisticsUpdateHandler = { _, statistics, collection, error in updates.record((statistics, collection, error)) }
            store.execute(query)
            let first = try await initial.call(0)
            expectNil(first.collection)
            #expect((first.error as? HealthError)?.underlyingError is StatisticsError)
            // The query stopped: a write calls nothing.
            try store.save([QueryTestSupport.steps(50, at: "2024-05-03T09:00:00Z")])
            try await QueryTestSupport.pause()
            expectEqual(updates.count, 0)
        }
    }

    func descriptorResultsYieldTheCollectionThenOneAfterEachWrite() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let path = folder + "/store"
            let store = try HealthStore(directory: path)
            try seed(store)
            let descriptor = StatisticsCollectionQueryDescriptor(
                predicate: .quantitySample(type: steps, predicate: days), options: .cumulativeSum,
                anchorDate: TestSupport.date("2024-05-01T00:00:00Z"), intervalComponents: DateComponents(day: 1))
            try await LiveTestSupport.withTimeout(120) {
                var results = descriptor.results(for: store).makeAsyncIterator()
                let first = try #require(try await results.next())
                expectEqual(first.statistics().map { $0.sumQuantity()?.doubleValue(for: .count()) }, [350, 400])
                // May 1: 350 + 5 = 355, written by another store on the folder.
                try HealthStore(directory: path).save([QueryTestSupport.steps(5, at: "2024-05-01T20:00:00Z")])
                let second = try #require(try await results.next())
                expectEqual(second.statistics().map { $0.sumQuantity()?.doubleValue(for: .count()) }, [355, 400])
            }
        }
    }

    func cancellingEndsTheDescriptorsSequence() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store")
            try seed(store)
            let received = LiveTestSupport.Counter()
            let descriptor = StatisticsCollectionQueryDescriptor(
                predicate: .quantitySample(type: steps, predicate: days), options: .cumulativeSum,
                anchorDate: TestSupport.date("2024-05-01T00:00:00Z"), intervalComponents: DateComponents(day: 1))
            let task = Task {
                for try await _ in descriptor.results(for: store) { received.bump() }
            }
            #expect(await LiveTestSupport.eventually { received.value == 1 })
            task.cancel()
            // Ends without a further change (none comes).
            try await LiveTestSupport.withTimeout(120) { _ = try await task.value }
            try store.save([QueryTestSupport.steps(50, at: "2024-05-03T09:00:00Z")])
            try await QueryTestSupport.pause()
            expectEqual(received.value, 1)
        }
    }
}

/// The checks ``StatisticsCollectionQueryTests/checks(_:)`` runs.
private let statisticsCollectionQueryTestsChecks: [Check<StatisticsCollectionQueryTests>] = [
    Check("initialResultsThenAnUpdateAfterAnotherStoresWrite",
          StatisticsCollectionQueryTests.initialResultsThenAnUpdateAfterAnotherStoresWrite),
    Check("stopEndsUpdates", StatisticsCollectionQueryTests.stopEndsUpdates),
    Check("withoutAnUpdateHandlerItAnswersOnce", StatisticsCollectionQueryTests.withoutAnUpdateHandlerItAnswersOnce),
    Check("badIntervalComponentsReachTheInitialHandler",
          StatisticsCollectionQueryTests.badIntervalComponentsReachTheInitialHandler),
    Check("descriptorResultsYieldTheCollectionThenOneAfterEachWrite",
          StatisticsCollectionQueryTests.descriptorResultsYieldTheCollectionThenOneAfterEachWrite),
    Check("cancellingEndsTheDescriptorsSequence", StatisticsCollectionQueryTests.cancellingEndsTheDescriptorsSequence),
]
