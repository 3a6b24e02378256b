import Foundation
import Testing
import TestKit
@testable import HealthCore

/// HealthKit's anchored object query: adds and deletes with anchors that page through, predicates, and the live
/// sequence that answers again after another store's or another process's write and ends when cancelled.
struct AnchoredObjectQueryTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: anchoredObjectQueryTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private let steps = QuantityType(.stepCount)

    func addsAndDeletesWithAnchors() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store")
            let first = LiveTestSupport.steps(100, at: "2024-05-01T08:00:00Z")
            let second = LiveTestSupport.steps(200, at: "2024-05-02T08:00:00Z")
            try store.save([first, second, LiveTestSupport.weight(70, at: "2024-05-01T07:00:00Z")])
            let descriptor = AnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: steps)], anchor: nil)
            let all = try await descriptor.result(for: store)
            // Only steps: the weight is another type. Change numbers 1, 2, 3 (steps, steps, weight).
            expectEqual(all.addedSamples.map(\.uuid), [first.uuid, second.uuid])
            #expect(all.deletedObjects.isEmpty)
            expectEqual(all.newAnchor.changeAnchor.sequence, 2)

            try store.storage.delete(uuids: [first.uuid], now: TestSupport.date("2024-05-03T00:00:00Z"))   // 4
            let third = LiveTestSupport.steps(300, at: "2024-05-03T08:00:00Z")                                  // 5
            try store.save([third])
            let next = try await AnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: steps)],
                                                               anchor: all.newAnchor).result(for: store)
            expectEqual(next.addedSamples.map(\.uuid), [third.uuid])
            expectEqual(next.deletedObjects.map(\.uuid), [first.uuid])
            expectEqual(next.deletedObjects.first?.typeIdentifier, steps.identifier)
            expectEqual(next.newAnchor.changeAnchor.sequence, 5)

            let nothing = try await AnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: steps)],
                                                                  anchor: next.newAnchor).result(for: store)
            #expect(nothing.addedSamples.isEmpty && nothing.deletedObjects.isEmpty)
            expectEqual(nothing.newAnchor, next.newAnchor)

            // From the beginning again: the deleted sample is gone from the added ones, its tombstone is reported.
            let again = try await descriptor.result(for: store)
            expectEqual(again.addedSamples.map(\.uuid), [second.uuid, third.uuid])
            expectEqual(again.deletedObjects.map(\.uuid), [first.uuid])
        }
    }

    func predicateConditionsAndLimitPageThrough() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store")
            let samples = (1...5).map { LiveTestSupport.steps(Double($0 * 100), at: "2024-05-0\($0)T08:00:00Z") }
            try store.save(samples)
            // From May 3: samples 3, 4, 5.
            let fromMay3 = Query.predicateForSamples(withStart: TestSupport.date("2024-05-03T00:00:00Z"), end: nil,
                                                     options: .strictStartDate)
            var anchor: QueryAnchor?
            var pages: [[UUID]] = []
            repeat {
                let page = try await AnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: steps, predicate: fromMay3)],
                                                                   anchor: anchor, limit: 2).result(for: store)
                anchor = page.newAnchor
                pages.append(page.addedSamples.map(\.uuid))
            } while pages.last?.isEmpty == false
            // Two matching per page although the first two changes do not match; then the last one; then nothing.
            expectEqual(pages, [[samples[2].uuid, samples[3].uuid], [samples[4].uuid], []])
            expectEqual(anchor?.changeAnchor.sequence, 5)
        }
    }

    /// A source that may write steps but not read them sees only its own; a page with a limit holds that many of its
    /// own changes (the owner's before and between them do not make a page look complete), and paging on delivers each
    /// once: a review found the first page empty with the anchor moved past the source's samples.
    func aSourceThatCannotReadPagesThroughItsOwnChanges() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let owner = try HealthStore(directory: folder + "/store")
            try owner.decideAuthorization(for: "app", allow: true, share: [steps], read: [])
            let app = try HealthStore(directory: folder + "/store", source: "app")
            try owner.save([LiveTestSupport.steps(4, at: "2024-05-01T08:00:00Z"), LiveTestSupport.steps(5, at: "2024-05-01T09:00:00Z")])
            let own = (1...5).map { LiveTestSupport.steps(Double($0), at: "2024-05-02T0\($0):00:00Z", source: "app") }
            try app.save([own[0], own[1]])
            try owner.save([LiveTestSupport.steps(6, at: "2024-05-03T08:00:00Z")])
            try app.save([own[2]])
            try owner.save([LiveTestSupport.steps(7, at: "2024-05-03T09:00:00Z"), LiveTestSupport.steps(8, at: "2024-05-03T10:00:00Z")])
            try app.save([own[3], own[4]])
            try owner.storage.delete(uuids: [own[1].uuid], now: TestSupport.date("2024-05-04T00:00:00Z"))
            var anchor: QueryAnchor?
            var pages: [[UUID]] = []
            while pages.count < 10 {
                let page = try await AnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: steps)], anchor: anchor,
                                                                   limit: 2).result(for: app)
                anchor = page.newAnchor
                pages.append(page.addedSamples.map(\.uuid) + page.deletedObjects.map(\.uuid))
                if pages.last!.isEmpty { break }
            }
            // Its own samples, two to a page (the second, deleted since, is reported as a deletion, at its place
            // after the others), then an empty page.
            expectEqual(pages, [[own[0].uuid, own[2].uuid], [own[3].uuid, own[4].uuid], [own[1].uuid], []])
            // Without a limit: the same, in one answer.
            let whole = try await AnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: steps)], anchor: nil).result(for: app)
            expectEqual(whole.addedSamples.map(\.uuid), [own[0].uuid, own[2].uuid, own[3].uuid, own[4].uuid])
        }
    }

    /// A source's anchor passes the changes it may not see once it has every change it may (a review found it stuck at
    /// its own last change: a compaction dropping a deletion the source never saw then expired it).
    func aSourcesAnchorPassesWhatItMayNotSee() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let owner = try HealthStore(directory: folder + "/store")
            try owner.decideAuthorization(for: "app", allow: true, share: [steps], read: [])
            let app = try HealthStore(directory: folder + "/store", source: "app")
            try app.save([LiveTestSupport.steps(1, at: "2024-05-02T01:00:00Z", source: "app")])
            let first = try app.changes(since: .beginning)
            expectEqual(first.added.count, 1)
            let other = LiveTestSupport.steps(5, at: "2024-05-03T08:00:00Z")
            try owner.save([other])
            try owner.storage.delete(uuids: [other.uuid], now: TestSupport.date("2024-05-04T00:00:00Z"))
            let ownerAnchor = try owner.changes(since: first.anchor).anchor
            for limit in [nil, 1, 5] as [Int?] {
                let next = try app.changes(since: first.anchor, limit: limit)
                #expect(next.added.isEmpty && next.deleted.isEmpty, "\(String(describing: limit))")
                expectEqual(next.anchor, ownerAnchor, "limit \(String(describing: limit)): past what it may not see")
            }
            let passed = try app.changes(since: first.anchor).anchor
            _ = try owner.storage.compact(now: TestSupport.date("2025-01-01T00:00:00Z"))
            let after = try app.changes(since: passed)
            #expect(after.added.isEmpty && after.deleted.isEmpty)
            // A page cut by its limit still stops at its last change: the rest comes next.
            try app.save([LiveTestSupport.steps(2, at: "2024-05-05T01:00:00Z", source: "app"),
                          LiveTestSupport.steps(3, at: "2024-05-05T02:00:00Z", source: "app")])
            try owner.save([LiveTestSupport.steps(9, at: "2024-05-05T03:00:00Z")])
            let cut = try app.changes(since: after.anchor, limit: 1)
            expectEqual(cut.added.map(\.quantity?.value), [2])
            let rest = try app.changes(since: cut.anchor, limit: 1)
            expectEqual(rest.added.map(\.quantity?.value), [3])
        }
    }

    func sequenceAnswersAgainAfterAnotherStoresWrite() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let path = folder + "/store"
            let reader = try HealthStore(directory: path)
            let writer = try HealthStore(directory: path)
            try writer.save([LiveTestSupport.steps(100, at: "2024-05-01T08:00:00Z")])
            let later = LiveTestSupport.steps(200, at: "2024-05-02T08:00:00Z")
            let steps = self.steps
            try await LiveTestSupport.withTimeout(120) {
                var results = AnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: steps)], anchor: nil)
                    .results(for: reader).makeAsyncIterator()
                let first = try #require(try await results.next())
                expectEqual(first.addedSamples.count, 1)
                // A weight is not a step: no answer for it; the steps after it are the next answer.
                try writer.save([LiveTestSupport.weight(70, at: "2024-05-01T07:00:00Z")])
                try writer.save([later])
                let second = try #require(try await results.next())
                expectEqual(second.addedSamples.map(\.uuid), [later.uuid])
                expectEqual(second.newAnchor.changeAnchor.sequence, 3)
            }
        }
    }

    @Test(.enabled(if: LiveTestSupport.hkctl != nil, "needs the built hkctl"))
    func sequenceAnswersAgainAfterAnotherProcesssWrite() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let path = folder + "/store"
            let binary = try #require(LiveTestSupport.hkctl)
            let reader = try HealthStore(directory: path)
            let steps = self.steps
            try await LiveTestSupport.withTimeout(120) {
                var results = AnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: steps)], anchor: nil)
                    .results(for: reader).makeAsyncIterator()
                let first = try #require(try await results.next())
                #expect(first.addedSamples.isEmpty)   // the store does not exist yet
                try expectEqual(LiveTestSupport.runHkctl(binary, ["add", "steps", "1234", "--at", "08:00"], store: path), 0)
                let second = try #require(try await results.next())
                expectEqual(second.addedSamples.first?.quantity.doubleValue(for: .count()), 1234)
            }
        }
    }

    func cancellingEndsTheSequencePromptly() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store")
            try store.save([LiveTestSupport.steps(100, at: "2024-05-01T08:00:00Z")])
            let received = LiveTestSupport.Counter()
            let steps = self.steps
            let task = Task {
                for try await _ in AnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: steps)], anchor: nil)
                    .results(for: store) { received.bump() }
            }
            #expect(await LiveTestSupport.eventually { received.value == 1 })
            task.cancel()
            // The sequence must end without a next change (none comes, so one that waited for it would time out). The
            // limit is generous for a loaded machine; on a quiet one it ends in milliseconds.
            try await LiveTestSupport.withTimeout(120) { _ = try await task.value }
            try store.save([LiveTestSupport.steps(200, at: "2024-05-02T08:00:00Z")])
            try await Task.sleep(for: .milliseconds(200))
            expectEqual(received.value, 1)
        }
    }
}

/// The checks ``AnchoredObjectQueryTests/checks(_:)`` runs.
private let anchoredObjectQueryTestsChecks: [Check<AnchoredObjectQueryTests>] = [
    Check("addsAndDeletesWithAnchors", AnchoredObjectQueryTests.addsAndDeletesWithAnchors),
    Check("predicateConditionsAndLimitPageThrough", AnchoredObjectQueryTests.predicateConditionsAndLimitPageThrough),
    Check("aSourceThatCannotReadPagesThroughItsOwnChanges", AnchoredObjectQueryTests.aSourceThatCannotReadPagesThroughItsOwnChanges),
    Check("aSourcesAnchorPassesWhatItMayNotSee", AnchoredObjectQueryTests.aSourcesAnchorPassesWhatItMayNotSee),
    Check("sequenceAnswersAgainAfterAnotherStoresWrite",
          AnchoredObjectQueryTests.sequenceAnswersAgainAfterAnotherStoresWrite),
    Check("cancellingEndsTheSequencePromptly", AnchoredObjectQueryTests.cancellingEndsTheSequencePromptly),
]
