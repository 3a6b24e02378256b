import Foundation
import Testing
import TestKit
@testable import HealthCore

/// An undo rewrites the workouts and correlations that name a sample it restores (docs/STORE.md, "Undo"): holders of
/// holders, an undo finished after its last write failed, and undos going on back past the rewrite.
struct UndoHolderTests {
    @Test(arguments: undoHolderTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Ops = OperationTestKit
    private typealias Kit = IndependentTestKit
    private typealias Holders = UndoHolderKit

    private struct Stop: Error {}

    /// A food entry of 300 kcal and 20 g of protein, saved (an add): its energy and the entry.
    private static func savedEntry(in store: JSONFileStore) throws -> (energy: Sample, entry: Sample) {
        let energy = try Holders.energy(300), protein = try Holders.protein(20)
        let entry = Holders.entry([energy, protein])
        try Ops.recording(store, .add).save([energy, protein, entry])
        return (energy, entry)
    }

    // MARK: Holders of holders, an undo finished later

    /// A workout associated with a food entry (`add(_:to:)` takes correlations), whose energy is deleted alone and the
    /// delete undone: the undo rewrites the entry as a copy with a new uuid, and the workout that names the entry with
    /// it, so the workout finds the entry's copy (a review of session 41 found it naming the tombstoned entry).
    func aWorkoutHoldingAnEntryWhoseMemberIsRestoredStillFindsTheEntry() throws {
        try Ops.withStore { store, _ in
            let (energy, entry) = try Self.savedEntry(in: store)
            try Ops.recording(store, .add).save([Holders.workout(naming: [entry.uuid])])
            try expectEqual(Holders.dangling(store, types: [Holders.foodType]), [], "the workout finds the entry")
            try Ops.recording(store, .delete).delete(uuids: [energy.uuid], now: Ops.madeAt)
            try expectEqual(Holders.dangling(store, types: [Holders.foodType]), [], "still, before the undo")
            let plan = try store.undo(source: "hkctl", now: Ops.undoneAt)
            expectEqual(plan.kind, .delete)
            try expectEqual(store.samples(ofType: Holders.foodType, overlapping: Ops.everything).count, 1)
            try expectEqual(Holders.dangling(store, types: [Holders.foodType]), [],
                            "the workout names the entry's copy")
        }
    }

    /// A correction of a food entry's energy (`replace`) rewrites the entry as a copy, and with it the workout that names
    /// the entry; undoing the correction brings the entry back as a copy and the workout's line naming that copy.
    func aWorkoutHoldingAnEntryFollowsItThroughACorrectionOfItsMemberAndItsUndo() throws {
        try Ops.withStore { store, _ in
            let (energy, entry) = try Self.savedEntry(in: store)
            let workout = Holders.workout(naming: [entry.uuid])
            try Ops.recording(store, .add).save([workout])
            var corrected = try Holders.energy(350)
            corrected.uuid = UUID()
            try Ops.recording(store, .replace).replace([energy.uuid], with: [corrected], now: Ops.madeAt)
            let entries = try store.samples(ofType: Holders.foodType, overlapping: Ops.everything)
            expectEqual(entries.count, 1)
            #expect(entries.first?.uuid != entry.uuid, "the entry is rewritten as a copy")
            try expectEqual(Holders.workouts(store).map { $0.detail?.workout?.associatedUUIDs ?? [] }, [entries.map(\.uuid)],
                            "the workout names the entry's copy")
            try expectEqual(Holders.workouts(store).map(\.uuid), [workout.uuid], "rewritten in place")
            expectEqual(try store.undo(source: "hkctl", now: Ops.undoneAt).kind, .replace)
            let back = try store.samples(ofType: Holders.foodType, overlapping: Ops.everything)
            expectEqual(back.count, 1)
            try expectEqual(Holders.dangling(store, types: [Holders.foodType]), [], "the workout names the entry restored")
            try expectEqual(store.samples(ofType: Holders.energyType, overlapping: Ops.everything).map(\.value), [energy.value])
        }
    }

    /// A delete undo of more than `undoBatchSize` samples whose last write fails (disk full; a kill between two batches
    /// does the same) keeps its first batch; undoing again finishes it, and the holders of the samples the first batch
    /// restored (here a workout associated with a heart rate), which are "back already" then, are rewritten all the
    /// same (a review of session 41 found the workout left naming a uuid not stored).
    func aDeleteUndoFinishedAfterAFailedLastWriteRewritesTheHoldersOfItsFirstBatch() throws {
        try Ops.withStore { store, path in
            let beat = try Holders.beat(150, minute: 10)
            try Ops.recording(store, .add).save([beat])
            try Ops.recording(store, .add).save([Holders.workout(naming: [beat.uuid])])
            let steps = (0...JSONFileStore.undoBatchSize).map { Kit.steps(1, Kit.utc(2024, 1, 1).addingTimeInterval(Double($0) * 60)) }
            try store.save(steps)
            try Ops.recording(store, .delete).delete(uuids: [beat.uuid] + steps.map(\.uuid), now: Ops.madeAt)
            // The heart rate comes first in the restorations (its type is the first the delete recorded).
            let failing = JSONFileStore(path: path, timeZone: .gmt, lockTimeout: 2)
            failing.afterPartitionWrite = { _ in
                // Fails the write that rewrites the workout (the undo's last one).
                let journal = (try? String(contentsOfFile: path + "/journal.jsonl", encoding: .utf8)) ?? ""
                if journal.contains(Workout.typeIdentifier) { throw Stop() }
            }
            #expect(throws: Stop.self) { try failing.undo(source: "hkctl", now: Ops.undoneAt) }
            try expectEqual(store.samples(ofType: Holders.heartRateType, overlapping: Ops.everything).count, 1, "the first batch (with the heart rate's copy) is kept")
            try expectEqual(Holders.dangling(store, types: [Holders.heartRateType]), [beat.uuid], "the workout not yet rewritten")
            let finished = try store.undo(source: "hkctl", now: Ops.undoneAt)
            expectEqual(finished.kind, .delete)
            try expectEqual(Ops.visible(store, .steps).count, steps.count, "every step back")
            try expectEqual(store.samples(ofType: Holders.heartRateType, overlapping: Ops.everything).count, 1)
            try expectEqual(Holders.dangling(store, types: [Holders.heartRateType]), [],
                            "the workout names the heart rate's copy")
        }
    }

    // MARK: Chains of undos, kills, one holder of two

    /// Two associated samples deleted by two deletes, both undone in turn, then the save undone: the workout names both
    /// copies, then goes.
    func twoDeletesOfAWorkoutsSamplesUndoneOneAfterTheOther() throws {
        try Ops.withStore { store, _ in
            let first = try Holders.beat(150, minute: 10), second = try Holders.beat(160, minute: 20)
            let workout = Holders.workout(naming: [first.uuid, second.uuid])
            try Ops.recording(store, .add).save([first, second, workout])
            try Ops.recording(store, .delete).delete(uuids: [first.uuid], now: Ops.madeAt)
            try Ops.recording(store, .delete).delete(uuids: [second.uuid], now: Ops.madeAt)
            _ = try store.undo(source: "hkctl", now: Ops.undoneAt)
            try expectEqual(Holders.dangling(store, types: [Holders.heartRateType]), [first.uuid])
            _ = try store.undo(source: "hkctl", now: Ops.undoneAt)
            try expectEqual(Holders.dangling(store, types: [Holders.heartRateType]), [])
            try expectEqual(Holders.workouts(store).map(\.uuid), [workout.uuid])
            try expectEqual(store.samples(ofType: Holders.heartRateType, overlapping: Ops.everything).count, 2)
            _ = try store.undo(source: "hkctl", now: Ops.undoneAt)
            try expectEqual(Holders.workouts(store), [])
            try expectEqual(store.samples(ofType: Holders.heartRateType, overlapping: Ops.everything), [])
            try expectNil(store.undoPlan(source: "hkctl"))
        }
    }

    /// A workout naming two samples deleted in one delete: one rewrite naming both copies; the plan shown equals the undo.
    func aWorkoutNamingTwoRestoredSamplesIsRewrittenOnce() throws {
        try Ops.withStore { store, path in
            let first = try Holders.beat(150, minute: 10), second = try Holders.beat(160, minute: 20)
            let workout = Holders.workout(naming: [first.uuid, second.uuid])
            try Ops.recording(store, .add).save([first, second, workout])
            try Ops.recording(store, .delete).delete(uuids: [first.uuid, second.uuid], now: Ops.madeAt)
            let shown = try #require(try store.undoPlan(source: "hkctl"))
            let done = try store.undo(source: "hkctl", expecting: shown.operation, now: Ops.undoneAt)
            expectEqual(done, shown)
            try expectEqual(Holders.dangling(store, types: [Holders.heartRateType]), [])
            try expectEqual(Holders.workouts(store).count, 1)
            try expectEqual(Ops.records(path).last?.kind, .undo)
        }
    }

    /// A delete undo that rewrites a workout, killed at each point of its last (journalled) batch, then run again: the
    /// journal's batch is finished with the workout's rewrite, and the outcome is the uninterrupted one.
    func aKilledDeleteUndoIsFinishedWithItsHolders() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let path = folder + "/store"
            let store = JSONFileStore(path: path, timeZone: .gmt, lockTimeout: 2)
            let beat = try Holders.beat(150, minute: 10)
            try Ops.recording(store, .add).save([beat, Holders.workout(naming: [beat.uuid])])
            try Ops.recording(store, .delete).delete(uuids: [beat.uuid], now: Ops.madeAt)
            let plan = try #require(try store.undoPlan(source: "hkctl"))
            var copies: [String] = []
            let killer = JSONFileStore(path: path, timeZone: .gmt, lockTimeout: 2)
            killer.afterPartitionWrite = { _ in
                let copy = folder + "/killed-\(copies.count)"
                try FileManager.default.copyItem(atPath: path, toPath: copy)
                copies.append(copy)
            }
            expectEqual(try killer.undo(source: "hkctl", expecting: plan.operation, now: Ops.undoneAt), plan)
            try expectEqual(Holders.dangling(store, types: [Holders.heartRateType]), [])
            #expect(copies.count >= 2)
            for copy in copies {
                let again = JSONFileStore(path: copy, timeZone: .gmt, lockTimeout: 2)
                let shown = try #require(try again.undoPlan(source: "hkctl"))
                expectEqual(shown, plan)
                expectEqual(try again.undo(source: "hkctl", expecting: shown.operation, now: Ops.undoneAt), plan)
                try expectEqual(Holders.dangling(again, types: [Holders.heartRateType]), [], "\(copy)")
                try expectEqual(Holders.workouts(again), try Holders.workouts(store))
                try expectEqual(again.samples(ofType: Holders.heartRateType, overlapping: Ops.everything).map(\.uuid),
                                store.samples(ofType: Holders.heartRateType, overlapping: Ops.everything).map(\.uuid))
            }
        }
    }

    /// Undo after undo. A workout associated with a heart rate (saved with it), then a second sample associated
    /// (`add(_:to:)`, a replace), then the first heart rate deleted. Undoing the delete rewrites the workout to name the
    /// heart rate's copy; undoing the association next puts back the workout's line from before the association, whose
    /// association with the deleted heart rate is mapped to the copy standing for it, as a restored correlation's
    /// members are (the heart rate's type found by its tombstone; a review of session 41 found the deleted uuid named).
    func undoingTheAssociationAfterTheDeleteUndoKeepsTheWorkoutOnTheCopy() throws {
        try Ops.withStore { store, _ in
            let first = try Holders.beat(150, minute: 10), second = try Holders.beat(160, minute: 20)
            let workout = Holders.workout(naming: [first.uuid])
            try Ops.recording(store, .add).save([first, workout])
            try Ops.recording(store, .replace).associate([second], unsaved: [second.uuid], with: try #require(Workout(sample: workout)),
                                                         source: nil, now: Ops.madeAt)
            try Ops.recording(store, .delete).delete(uuids: [first.uuid], now: Ops.madeAt)
            expectEqual(try store.undo(source: "hkctl", now: Ops.undoneAt).kind, .delete)
            try expectEqual(Holders.dangling(store, types: [Holders.heartRateType]), [], "the delete undone: the copy is named")
            expectEqual(try store.undo(source: "hkctl", now: Ops.undoneAt).kind, .replace)
            let beats = try store.samples(ofType: Holders.heartRateType, overlapping: Ops.everything)
            expectEqual(beats.map(\.value), [first.value], "the first heart rate's copy stays, the second goes")
            try expectEqual(Holders.workouts(store).map { $0.detail?.workout?.associatedUUIDs ?? [] }, [beats.map(\.uuid)],
                            "the workout as it was before the association names the copy standing for the heart rate")
        }
    }
}

private let undoHolderTestsChecks: [Check<UndoHolderTests>] = [
    Check("aWorkoutHoldingAnEntryFollowsItThroughACorrectionOfItsMemberAndItsUndo",
          UndoHolderTests.aWorkoutHoldingAnEntryFollowsItThroughACorrectionOfItsMemberAndItsUndo),
    Check("aWorkoutHoldingAnEntryWhoseMemberIsRestoredStillFindsTheEntry",
          UndoHolderTests.aWorkoutHoldingAnEntryWhoseMemberIsRestoredStillFindsTheEntry),
    Check("aDeleteUndoFinishedAfterAFailedLastWriteRewritesTheHoldersOfItsFirstBatch",
          UndoHolderTests.aDeleteUndoFinishedAfterAFailedLastWriteRewritesTheHoldersOfItsFirstBatch),
    Check("twoDeletesOfAWorkoutsSamplesUndoneOneAfterTheOther",
          UndoHolderTests.twoDeletesOfAWorkoutsSamplesUndoneOneAfterTheOther),
    Check("undoingTheAssociationAfterTheDeleteUndoKeepsTheWorkoutOnTheCopy",
          UndoHolderTests.undoingTheAssociationAfterTheDeleteUndoKeepsTheWorkoutOnTheCopy),
    Check("aKilledDeleteUndoIsFinishedWithItsHolders", UndoHolderTests.aKilledDeleteUndoIsFinishedWithItsHolders),
    Check("aWorkoutNamingTwoRestoredSamplesIsRewrittenOnce", UndoHolderTests.aWorkoutNamingTwoRestoredSamplesIsRewrittenOnce),
]
