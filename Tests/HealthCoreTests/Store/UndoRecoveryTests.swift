import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Issue 29, items 14 and 15: an undo that a kill interrupted is reported as done when the next undo finishes it, and
/// an undo of a delete whose tombstones compaction dropped counts every sample it can no longer restore.
struct UndoRecoveryTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: undoRecoveryTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit
    private typealias Ops = OperationTestKit

    /// Copies of the store at every moment a SIGKILL could stop the undo's journalled batch (after each partition it
    /// appends, the journal still there): exactly what a killed `hkctl undo` leaves behind.
    private static func killedStates(of path: String, in folder: String, running undo: (JSONFileStore) throws -> Void) throws -> [String] {
        let store = JSONFileStore(path: path, timeZone: .gmt, lockTimeout: 2)
        var copies: [String] = []
        store.afterPartitionWrite = { _ in
            let copy = folder + "/killed-\(copies.count)"
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            copies.append(copy)
        }
        try undo(store)
        return copies
    }

    @Test(arguments: [OperationRecord.Kind.delete, .add])
    func runningUndoAgainAfterAKillInItsLastBatchReportsTheUndoItFinished(kind: OperationRecord.Kind) throws {
        try TestSupport.withTemporaryDirectory { folder in
            let path = folder + "/store"
            let store = JSONFileStore(path: path, timeZone: .gmt, lockTimeout: 2)
            let samples = [Ops.water(100, hour: 7), Ops.water(200, hour: 8), Kit.steps(30, Kit.utc(2024, 6, 1, 9))]
            try store.save([Ops.water(5, hour: 6)])
            try Ops.recording(store, .add).save(samples)
            if kind == .delete { try Ops.recording(store, .delete).delete(uuids: samples.map(\.uuid), now: Ops.madeAt) }
            let plan = try #require(try store.undoPlan(source: "hkctl"))
            #expect(plan.kind == kind && plan.total == 3)
            let killed = try Self.killedStates(of: path, in: folder) { store in
                let done = try store.undo(source: "hkctl", expecting: plan.operation, now: Ops.undoneAt)
                expectEqual(done, plan)
            }
            #expect(killed.count >= 2, "the batch writes its partitions and operations.jsonl")
            for copy in killed {
                let again = JSONFileStore(path: copy, timeZone: .gmt, lockTimeout: 2)
                #expect(FileManager.default.fileExists(atPath: copy + "/journal.jsonl"))
                // What `hkctl undo` does: shows the plan (read under the shared lock), then undoes what it showed.
                let shown = try #require(try again.undoPlan(source: "hkctl"), "\(copy)")
                expectEqual(shown, plan)
                let done = try again.undo(source: "hkctl", expecting: shown.operation, now: Ops.undoneAt)
                expectEqual(done, plan, "the undo the journal finished is reported, not 'changed meanwhile'")
                try expectEqual(Ops.visible(again).map(\.value), (try Ops.visible(store)).map(\.value))
                try expectEqual(Ops.visible(again, .steps).count, (try Ops.visible(store, .steps)).count)
                #expect(try again.undoPlan(source: "hkctl")?.operation != plan.operation, "undone once")
                try expectEqual(Ops.records(copy).filter { $0.kind == .undo }.count, 1)
            }
        }
    }

    func aLibraryUndoWithoutAnExpectedOperationFinishesTheInterruptedOneAndNoMore() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let path = folder + "/store"
            let store = JSONFileStore(path: path, timeZone: .gmt, lockTimeout: 2)
            try Ops.recording(store, .add).save([Ops.water(5, hour: 6)])
            let samples = [Ops.water(100, hour: 7), Ops.water(200, hour: 8)]
            try Ops.recording(store, .add).save(samples)
            let killed = try Self.killedStates(of: path, in: folder) { store in
                let done = try store.undo(source: "hkctl", now: Ops.undoneAt)
                expectEqual(done.total, 2)
            }
            for copy in killed {
                let again = JSONFileStore(path: copy, timeZone: .gmt, lockTimeout: 2)
                let done = try again.undo(source: "hkctl", now: Ops.undoneAt)
                #expect(done.total == 2 && done.kind == .add)
                try expectEqual(Ops.visible(again).map(\.quantity?.value), [5], "the first add is still there")
                try expectEqual(again.undoPlan(source: "hkctl")?.total, 1)
            }
        }
    }

    /// Item 15: `compact --retention 0` drops the delete's tombstones with its samples' lines; the undo counts them.
    func anUndoOfADeleteWhoseTombstonesCompactionDroppedCountsThemAsCompactedAway() throws {
        try Ops.withStore { store, _ in
            try store.save([Ops.water(100, hour: 7), Ops.water(200, hour: 8), Kit.steps(30, Kit.utc(2024, 6, 1, 9))])
            let doomed = try Ops.visible(store).map(\.uuid) + Ops.visible(store, .steps).map(\.uuid)
            try Ops.recording(store, .delete).delete(uuids: doomed, now: Ops.madeAt)
            _ = try store.compact(now: Ops.undoneAt, retention: 0)
            let plan = try #require(try store.undoPlan(source: "hkctl"))
            #expect(plan.kind == .delete && plan.total == 0 && plan.compactedAway == 3, "\(plan)")
            let done = try store.undo(source: "hkctl", now: Ops.undoneAt)
            expectEqual(done.compactedAway, 3)
            #expect(try Ops.visible(store).isEmpty)
            try expectNil(store.undoPlan(source: "hkctl"))
        }
    }

    /// Item 15 with one sample's tombstone kept: only the samples that are gone for good are counted.
    func anUndoAfterCompactionRestoresWhatItCanAndCountsTheRest() throws {
        try Ops.withStore { store, _ in
            try store.save([Ops.water(100, hour: 7), Ops.water(200, hour: 8)])
            let doomed = try Ops.visible(store).map(\.uuid)
            try Ops.recording(store, .delete).delete(uuids: [doomed[0]], now: Ops.madeAt)
            _ = try store.compact(now: Ops.undoneAt, retention: 0)
            try Ops.recording(store, .delete).delete(uuids: [doomed[1]], now: Ops.undoneAt)
            let second = try store.undo(source: "hkctl", now: Ops.undoneAt)
            #expect(second.total == 1 && second.compactedAway == 0)
            let first = try store.undo(source: "hkctl", now: Ops.undoneAt)
            #expect(first.total == 0 && first.compactedAway == 1, "\(first)")
        }
    }
}

/// The checks ``UndoRecoveryTests/checks(_:)`` runs.
private let undoRecoveryTestsChecks: [Check<UndoRecoveryTests>] = [
    Check("aLibraryUndoWithoutAnExpectedOperationFinishesTheInterruptedOneAndNoMore",
          UndoRecoveryTests.aLibraryUndoWithoutAnExpectedOperationFinishesTheInterruptedOneAndNoMore),
    Check("anUndoOfADeleteWhoseTombstonesCompactionDroppedCountsThemAsCompactedAway",
          UndoRecoveryTests.anUndoOfADeleteWhoseTombstonesCompactionDroppedCountsThemAsCompactedAway),
    Check("anUndoAfterCompactionRestoresWhatItCanAndCountsTheRest",
          UndoRecoveryTests.anUndoAfterCompactionRestoresWhatItCanAndCountsTheRest),
]
