import Foundation
import Testing
import TestKit
@testable import HealthCore

/// HealthKit's observer query: called once when started, after a write of its type, not after a write of another
/// type, and never after stop(); the AsyncSequence form likewise.
struct ObserverQueryTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: observerQueryTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    func firesOnStartAndOnItsTypeOnly() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let path = folder + "/store"
            let store = try HealthStore(directory: path)
            let writer = try HealthStore(directory: path)
            let calls = LiveTestSupport.Counter()
            let query = ObserverQuery(sampleType: QuantityType(.stepCount), predicate: nil) { _, completion, error in
                calls.bump(error)
                completion()
            }
            store.execute(query)
            #expect(await LiveTestSupport.eventually { calls.value == 1 })

            try writer.save([LiveTestSupport.weight(70, at: "2024-05-01T07:00:00Z")])
            try writer.save([LiveTestSupport.steps(100, at: "2024-05-01T08:00:00Z")])
            #expect(await LiveTestSupport.eventually { calls.value == 2 })
            // The weight did not call it: after a pause there is still one call for the one step write.
            try await Task.sleep(for: .milliseconds(300))
            expectEqual(calls.value, 2)

            store.stop(query)
            try writer.save([LiveTestSupport.steps(200, at: "2024-05-02T08:00:00Z")])
            try await Task.sleep(for: .milliseconds(500))
            expectEqual(calls.value, 2)
            expectEqual(calls.errorCount, 0)
        }
    }

    func runsWithoutAReferenceUntilStoppedFromItsHandler() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store")
            let calls = LiveTestSupport.Counter()
            // HealthKit's usual form: nothing keeps the query but the store; the handler stops it.
            store.execute(ObserverQuery(sampleType: QuantityType(.stepCount), predicate: nil) { query, _, _ in
                calls.bump()
                if calls.value == 2 { store.stop(query) }
            })
            #expect(await LiveTestSupport.eventually { calls.value == 1 })
            try store.save([LiveTestSupport.steps(100, at: "2024-05-01T08:00:00Z")])
            #expect(await LiveTestSupport.eventually { calls.value == 2 })
            try store.save([LiveTestSupport.steps(200, at: "2024-05-02T08:00:00Z")])
            try await Task.sleep(for: .milliseconds(300))
            expectEqual(calls.value, 2)
        }
    }

    func firesAfterADeletionOfItsType() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store")
            let sample = LiveTestSupport.steps(100, at: "2024-05-01T08:00:00Z")
            try store.save([sample])
            let calls = LiveTestSupport.Counter()
            let query = ObserverQuery(sampleType: QuantityType(.stepCount), predicate: nil) { _, _, error in calls.bump(error) }
            store.execute(query)
            defer { store.stop(query) }
            #expect(await LiveTestSupport.eventually { calls.value == 1 })
            try store.storage.delete(uuids: [sample.uuid], now: TestSupport.date("2024-05-02T00:00:00Z"))
            #expect(await LiveTestSupport.eventually { calls.value == 2 })
            expectEqual(calls.errorCount, 0)
        }
    }

    func predicateSelectsTheAdditionsThatCount() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store")
            let calls = LiveTestSupport.Counter()
            let query = ObserverQuery(sampleType: QuantityType(.stepCount), predicate: Query.predicateForObjects(from: "watch")) { _, _, _ in
                calls.bump()
            }
            store.execute(query)
            defer { store.stop(query) }
            #expect(await LiveTestSupport.eventually { calls.value == 1 })
            try store.save([LiveTestSupport.steps(100, at: "2024-05-01T08:00:00Z", source: "phone")])
            try store.save([LiveTestSupport.steps(100, at: "2024-05-01T09:00:00Z", source: "watch")])
            #expect(await LiveTestSupport.eventually { calls.value == 2 })
            try await Task.sleep(for: .milliseconds(300))
            expectEqual(calls.value, 2)
        }
    }

    func sequenceFormYieldsOnStartAndAfterAWrite() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let path = folder + "/store"
            let store = try HealthStore(directory: path)
            try await store.enableBackgroundDelivery(for: QuantityType(.stepCount), frequency: .immediate)
            try await LiveTestSupport.withTimeout(120) {
                var updates = ObserverQueryDescriptor(sampleType: QuantityType(.stepCount)).results(for: store).makeAsyncIterator()
                #expect(try await updates.next() != nil)
                try HealthStore(directory: path).save([LiveTestSupport.steps(100, at: "2024-05-01T08:00:00Z")])
                #expect(try await updates.next() != nil)
            }
        }
    }
}

/// The checks ``ObserverQueryTests/checks(_:)`` runs.
private let observerQueryTestsChecks: [Check<ObserverQueryTests>] = [
    Check("firesOnStartAndOnItsTypeOnly", ObserverQueryTests.firesOnStartAndOnItsTypeOnly),
    Check("runsWithoutAReferenceUntilStoppedFromItsHandler",
          ObserverQueryTests.runsWithoutAReferenceUntilStoppedFromItsHandler),
    Check("firesAfterADeletionOfItsType", ObserverQueryTests.firesAfterADeletionOfItsType),
    Check("predicateSelectsTheAdditionsThatCount", ObserverQueryTests.predicateSelectsTheAdditionsThatCount),
    Check("sequenceFormYieldsOnStartAndAfterAWrite", ObserverQueryTests.sequenceFormYieldsOnStartAndAfterAWrite),
]
