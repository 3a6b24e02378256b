import Foundation
import Testing
import TestKit
@testable import HealthCore

/// HealthKit's anchored object query class: pages with a limit, deletions, an update handler that sees another store's
/// additions and deletions, the rest of a cut-short answer delivered at once, and nothing after stop.
struct AnchoredObjectQueryHandlerTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: anchoredObjectQueryHandlerTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Answer = (added: [HealthSample]?, deleted: [DeletedObject]?, anchor: QueryAnchor?, error: Error?)

    private let steps = QuantityType(.stepCount)

    private func query(anchor: QueryAnchor?, limit: Int, predicate: SamplePredicate? = nil,
                       into calls: QueryTestSupport.Recorder<Answer>) -> AnchoredObjectQuery {
        AnchoredObjectQuery(type: steps, predicate: predicate, anchor: anchor, limit: limit) { _, added, deleted, anchor, error in
            calls.record((added, deleted, anchor, error))
        }
    }

    private func answer(_ store: HealthStore, anchor: QueryAnchor?, limit: Int) async throws -> Answer {
        let calls = QueryTestSupport.Recorder<Answer>()
        store.execute(query(anchor: anchor, limit: limit, into: calls))
        return try await calls.call(0)
    }

    func pagesThroughWithALimitThenReportsADeletion() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store")
            // Change numbers 1 to 5 for five steps, 6 for a weight (another type).
            let samples = (1...5).map { QueryTestSupport.steps(Double($0 * 100), at: "2024-05-0\($0)T08:00:00Z") }
            try store.save(samples + [QueryTestSupport.weight(70, at: "2024-05-06T07:00:00Z")])

            var anchor: QueryAnchor?
            var pages: [[UUID]] = []
            repeat {
                let page = try await answer(store, anchor: anchor, limit: 2)
                expectNil(page.error)
                anchor = page.anchor
                pages.append(page.added?.map(\.uuid) ?? [])
            } while pages.last?.isEmpty == false
            // Two, two, one, then nothing; the anchor ends after the fifth step (the weight is not looked at).
            expectEqual(pages, [[samples[0].uuid, samples[1].uuid], [samples[2].uuid, samples[3].uuid], [samples[4].uuid], []])
            expectEqual(anchor?.changeAnchor.sequence, 5)

            // Change 7 deletes the second sample: from the last anchor, one deletion and nothing added.
            try store.storage.delete(uuids: [samples[1].uuid], now: TestSupport.date("2024-05-07T00:00:00Z"))
            let after = try await answer(store, anchor: anchor, limit: ObjectQueryNoLimit)
            expectEqual(after.added?.isEmpty, true)
            expectEqual(after.deleted?.map(\.uuid), [samples[1].uuid])
            expectEqual(after.anchor?.changeAnchor.sequence, 7)
        }
    }

    func updateHandlerSeesAnotherStoresAdditionsAndDeletions() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let path = folder + "/store"
            let store = try HealthStore(directory: path)
            let writer = try HealthStore(directory: path)
            let first = QueryTestSupport.steps(100, at: "2024-05-01T08:00:00Z")
            try writer.save([first])                                                     // change 1
            let initial = QueryTestSupport.Recorder<Answer>()
            let updates = QueryTestSupport.Recorder<Answer>()
            let query = query(anchor: nil, limit: ObjectQueryNoLimit, into: initial)
            query.updateHandler = { _, added, deleted, anchor, error in updates.record((added, deleted, anchor, error)) }
            store.execute(query)
            defer { store.stop(query) }

            let start = try await initial.call(0)
            expectEqual(start.added?.map(\.uuid), [first.uuid])
            expectEqual(start.anchor?.changeAnchor.sequence, 1)

            // A weight (change 2) is not reported; the steps after it (change 3) are.
            let second = QueryTestSupport.steps(200, at: "2024-05-02T08:00:00Z")
            try writer.save([QueryTestSupport.weight(70, at: "2024-05-02T07:00:00Z")])
            try writer.save([second])
            let added = try await updates.call(0)
            expectNil(added.error)
            expectEqual(added.added?.map(\.uuid), [second.uuid])
            expectEqual(added.deleted?.isEmpty, true)
            expectEqual(added.anchor?.changeAnchor.sequence, 3)

            // Change 4 deletes the first steps.
            try writer.storage.delete(uuids: [first.uuid], now: TestSupport.date("2024-05-03T00:00:00Z"))
            let deleted = try await updates.call(1)
            expectEqual(deleted.added?.isEmpty, true)
            expectEqual(deleted.deleted?.map(\.uuid), [first.uuid])
            expectEqual(deleted.anchor?.changeAnchor.sequence, 4)
            try await QueryTestSupport.pause()
            expectEqual(updates.count, 2)
            expectEqual(initial.count, 1)
        }
    }

    func aCutShortAnswerContinuesAtOnceInTheUpdateHandler() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store")
            let samples = (1...3).map { QueryTestSupport.steps(Double($0 * 100), at: "2024-05-0\($0)T08:00:00Z") }
            try store.save(samples)
            let initial = QueryTestSupport.Recorder<Answer>()
            let updates = QueryTestSupport.Recorder<Answer>()
            let query = query(anchor: nil, limit: 2, into: initial)
            query.updateHandler = { _, added, deleted, anchor, error in updates.record((added, deleted, anchor, error)) }
            store.execute(query)
            defer { store.stop(query) }
            // Three samples, two per answer: the first two, then the third without any write.
            try await expectEqual(initial.call(0).added?.map(\.uuid), [samples[0].uuid, samples[1].uuid])
            let rest = try await updates.call(0)
            expectEqual(rest.added?.map(\.uuid), [samples[2].uuid])
            expectEqual(rest.anchor?.changeAnchor.sequence, 3)
        }
    }

    func stopEndsUpdates() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store")
            let initial = QueryTestSupport.Recorder<Answer>()
            let updates = QueryTestSupport.Recorder<Answer>()
            let query = query(anchor: nil, limit: ObjectQueryNoLimit, into: initial)
            query.updateHandler = { _, added, deleted, anchor, error in updates.record((added, deleted, anchor, error)) }
            store.execute(query)
            // An empty store: nothing added, nothing deleted, the anchor at the beginning.
            let start = try await initial.call(0)
            expectEqual(start.added?.isEmpty, true)
            expectEqual(start.anchor?.changeAnchor.sequence, 0)
            try store.save([QueryTestSupport.steps(100, at: "2024-05-01T08:00:00Z")])
            _ = try await updates.call(0)

            store.stop(query)
            try store.save([QueryTestSupport.steps(200, at: "2024-05-02T08:00:00Z")])
            try await QueryTestSupport.pause()
            expectEqual(updates.count, 1)
        }
    }
}

/// The checks ``AnchoredObjectQueryHandlerTests/checks(_:)`` runs.
private let anchoredObjectQueryHandlerTestsChecks: [Check<AnchoredObjectQueryHandlerTests>] = [
    Check("pagesThroughWithALimitThenReportsADeletion",
          AnchoredObjectQueryHandlerTests.pagesThroughWithALimitThenReportsADeletion),
    Check("updateHandlerSeesAnotherStoresAdditionsAndDeletions",
          AnchoredObjectQueryHandlerTests.updateHandlerSeesAnotherStoresAdditionsAndDeletions),
    Check("aCutShortAnswerContinuesAtOnceInTheUpdateHandler",
          AnchoredObjectQueryHandlerTests.aCutShortAnswerContinuesAtOnceInTheUpdateHandler),
    Check("stopEndsUpdates", AnchoredObjectQueryHandlerTests.stopEndsUpdates),
]
