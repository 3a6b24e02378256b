import Foundation
import Testing
import TestKit
@testable import HealthCore

/// An undo's rewrite of the workouts and correlations that name what it restores, met by further operations: a workout
/// restored in the same undo, an undo by type past a workout added since, chains of undos back to an empty store, an
/// import with sync versions rewriting a workout in several batches and its undo, a restored workout's deleted
/// associations with many undone deletes in the store's history, a keyed entry replaced by its greater version.
struct UndoHolderChainTests {
    @Test(arguments: undoHolderChainTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Ops = OperationTestKit
    private typealias Kit = IndependentTestKit
    private typealias Support = ImportTestSupport
    private typealias Holders = UndoHolderKit

    /// A food entry (300 kcal, 20 g of protein) saved, its energy corrected to 350 kcal (`replace`: the entry rewritten
    /// as a copy), and a workout saved naming the entry's copy: the protein and the copy.
    private static func correctedEntryNamedByAWorkout(in store: JSONFileStore) throws -> (protein: Sample, copy: Sample) {
        let energy = try Holders.energy(300), protein = try Holders.protein(20)
        try Ops.recording(store, .add).save([energy, protein, Holders.entry([energy, protein])])
        var corrected = try Holders.energy(350)
        corrected.uuid = UUID()
        try Ops.recording(store, .replace).replace([energy.uuid], with: [corrected], now: Ops.madeAt)
        let copy = try #require(try store.samples(ofType: Holders.foodType, overlapping: Ops.everything).first)
        try Ops.recording(store, .add).save([Holders.workout(naming: [copy.uuid])])
        return (protein, copy)
    }

    // MARK: A workout restored in the same undo that rewrites the entry it names

    /// A food entry (energy, protein) and a workout associated with it, saved; the energy and the workout deleted in
    /// one delete; the delete undone. The undo rewrites the entry as a copy (it names the energy's copy) and restores the
    /// workout as a copy: the restored workout must name the entry's copy, not the entry the undo tombstones.
    func aWorkoutRestoredBesideAnEntryRewriteNamesTheEntrysCopy() throws {
        try Ops.withStore { store, _ in
            let energy = try Holders.energy(300), protein = try Holders.protein(20)
            let entry = Holders.entry([energy, protein])
            let workout = Holders.workout(naming: [entry.uuid])
            try Ops.recording(store, .add).save([energy, protein, entry, workout])
            try Ops.recording(store, .delete).delete(uuids: [energy.uuid, workout.uuid], now: Ops.madeAt)
            _ = try store.undo(source: "hkctl", now: Ops.undoneAt)
            try expectEqual(store.samples(ofType: Holders.foodType, overlapping: Ops.everything).count, 1)
            try expectEqual(Holders.workouts(store).count, 1)
            try expectEqual(Holders.dangling(store, types: [Holders.foodType]), [], "the restored workout names the entry's copy")
        }
    }

    // MARK: Undo by type of a correction past a workout associated with the corrected entry

    /// A food entry's energy corrected (`replace`: the entry rewritten as a copy), then a workout saved naming the
    /// entry's copy, then the correction undone by type (past the workout's add): the entry's copy goes, the entry comes
    /// back as a copy; the workout (same source) must follow, as it does for a corrected plain sample (pairing).
    func undoByTypeOfACorrectionPastAWorkoutNamingTheEntrysCopy() throws {
        try Ops.withStore { store, _ in
            _ = try Self.correctedEntryNamedByAWorkout(in: store)
            let plan = try store.undo(source: "hkctl", touching: Holders.energyType, now: Ops.undoneAt)
            expectEqual(plan.kind, .replace)
            try expectEqual(store.samples(ofType: Holders.foodType, overlapping: Ops.everything).count, 1)
            try expectEqual(Holders.dangling(store, types: [Holders.foodType]), [], "the workout names the entry restored")
        }
    }

    // MARK: Chains back to an empty store

    func aChainWithAnEntryHolderGoesBackToAnEmptyStore() throws {
        try Ops.withStore { store, _ in
            let energy = try Holders.energy(300), protein = try Holders.protein(20)
            let entry = Holders.entry([energy, protein])
            try Ops.recording(store, .add).save([energy, protein, entry])
            try Ops.recording(store, .add).save([Holders.workout(naming: [entry.uuid])])
            try Ops.recording(store, .delete).delete(uuids: [energy.uuid], now: Ops.madeAt)
            for _ in 0..<3 { _ = try store.undo(source: "hkctl", now: Ops.undoneAt) }
            for type in [Holders.foodType, Holders.energyType, Holders.proteinType, Workout.typeIdentifier] {
                try expectEqual(store.samples(ofType: type, overlapping: Ops.everything).count, 0, "\(type)")
            }
            try expectNil(store.undoPlan(source: "hkctl"))
        }
    }

    // MARK: Imports with sync versions: a workout following an entry in two batches

    private static func record(_ type: String, _ value: String, _ unit: String, _ id: String, _ version: String) -> String {
        Support.record(type, value: value, unit: unit, source: "MyFitnessPal", start: "2024-03-12 13:00:00 +0100",
                       end: "2024-03-12 13:00:00 +0100",
                       metadata: [(MetadataKeySyncIdentifier, id), (MetadataKeySyncVersion, version)],
                       created: "2024-03-12 21:05:00 +0100")
    }

    private static func records(_ version: String, kcal: String, grams: String) -> [String] {
        [record(Holders.energyType, kcal, "kcal", "meal-1", version), record(Holders.proteinType, grams, "g", "meal-1-protein", version)]
    }

    private static func importedEntry(_ version: String, kcal: String, grams: String) -> String {
        """
         <Correlation type="HKCorrelationTypeIdentifierFood" sourceName="MyFitnessPal" creationDate="2024-03-12 21:05:00 +0100" startDate="2024-03-12 13:00:00 +0100" endDate="2024-03-12 13:00:00 +0100">
          <MetadataEntry key="HKFoodType" value="Banana"/>
        \(records(version, kcal: kcal, grams: grams).joined(separator: "\n"))
         </Correlation>
        """
    }

    /// An export's entry (energy and protein, keyed) imported; a workout of the entry's source associated with it; a
    /// later export with greater versions of both records, imported in batches of one (each batch rewrites the entry
    /// and the workout follows); then that import undone.
    func anImportInBatchesRewritingAWorkoutTwiceIsUndoneOnce() throws {
        for batch in [20_000, 1] {
            try Support.withTemporaryDirectory { folder in
                let path = folder + "/store"
                var recorded: JSONFileStore {
                    JSONFileStore(path: path, timeZone: .gmt, recording: OperationRecording(kind: .import, source: "hkctl", date: Ops.madeAt))
                }
                let store = JSONFileStore(path: path, timeZone: .gmt)
                let first = Support.export((Self.records("1", kcal: "300", grams: "20") + [Self.importedEntry("1", kcal: "300", grams: "20")])
                    .joined(separator: "\n"))
                _ = try Support.importXML(first, into: recorded, batchSize: batch)
                let entry = try #require(try store.samples(ofType: Holders.foodType, overlapping: Ops.everything).first)
                let workout = Holders.workout(naming: [entry.uuid], source: "MyFitnessPal")
                try Ops.recording(store, .add).save([workout])
                let later = Support.export(Self.records("2", kcal: "350", grams: "25").joined(separator: "\n"))
                let planned = try Support.importXML(later, into: store, dryRun: true, batchSize: batch)
                let receipt = try Support.importXML(later, into: recorded, batchSize: batch)
                expectEqual(planned.counts, receipt.counts, "batch \(batch)")
                try expectEqual(Holders.workouts(store).map(\.uuid), [workout.uuid], "batch \(batch)")
                try expectEqual(Holders.dangling(store, types: [Holders.foodType]), [], "batch \(batch)")
                let shown = try #require(try store.undoPlan(source: "hkctl"))
                let done = try store.undo(source: "hkctl", expecting: shown.operation, now: Ops.undoneAt)
                expectEqual(done, shown, "batch \(batch)")
                expectEqual(done.changes[Workout.typeIdentifier], 2, "batch \(batch): the workout's line goes and its old line comes back")
                try expectEqual(Holders.workouts(store).map(\.uuid), [workout.uuid], "batch \(batch): one workout, under its uuid")
                try expectEqual(Holders.dangling(store, types: [Holders.foodType]), [], "batch \(batch)")
                try expectEqual(store.samples(ofType: Holders.energyType, overlapping: Ops.everything).map { "\($0.value)" },
                                ["quantity(300 kcal)"], "batch \(batch)")
                try expectEqual(store.samples(ofType: Holders.foodType, overlapping: Ops.everything).count, 1, "batch \(batch)")
            }
        }
    }
    /// The same with the workout associated with the two keyed records directly (no entry): the doubling is in the
    /// undo's restore of a workout an operation rewrote in place twice (two of its tombstones in the operation).
    func anImportInBatchesRewritingAWorkoutNamingTwoRecordsIsUndoneOnce() throws {
        try Support.withTemporaryDirectory { folder in
            let path = folder + "/store"
            var recorded: JSONFileStore {
                JSONFileStore(path: path, timeZone: .gmt, recording: OperationRecording(kind: .import, source: "hkctl", date: Ops.madeAt))
            }
            let store = JSONFileStore(path: path, timeZone: .gmt)
            _ = try Support.importXML(Support.export(Self.records("1", kcal: "300", grams: "20").joined(separator: "\n")), into: recorded)
            let named = try [Holders.energyType, Holders.proteinType].flatMap { try store.samples(ofType: $0, overlapping: Ops.everything).map(\.uuid) }
            let workout = Holders.workout(naming: named, source: "MyFitnessPal")
            try Ops.recording(store, .add).save([workout])
            _ = try Support.importXML(Support.export(Self.records("2", kcal: "350", grams: "25").joined(separator: "\n")),
                                      into: recorded, batchSize: 1)
            try expectEqual(Holders.dangling(store, types: [Holders.energyType, Holders.proteinType]), [])
            _ = try store.undo(source: "hkctl", now: Ops.undoneAt)
            try expectEqual(Holders.workouts(store).map(\.uuid), [workout.uuid], "one workout, under its uuid")
        }
    }

    // MARK: A restored workout's deleted associations, many undone deletes in the history

    /// 400 heart rates associated with one workout, deleted for good, then the workout deleted, with 8 deletes undone
    /// before in the store's history: undoing the workout's delete restores it naming the deleted heart rates (no copy
    /// stands for them) and its plan is what it does. The copies that could stand for an association are followed by
    /// the tombstones of undone deletes (before, every undone delete was tried four undos deep: 7 s here, BENCHMARKS.md).
    func aWorkoutsDeletedAssociationsAreLookedForAmongUndoneDeletes() throws {
        try Ops.withStore { store, _ in
            for hour in 0..<8 {
                let water = Ops.water(100, hour: hour)
                try Ops.recording(store, .add).save([water])
                try Ops.recording(store, .delete).delete(uuids: [water.uuid], now: Ops.madeAt)
                _ = try store.undo(source: "hkctl", now: Ops.undoneAt)
            }
            let beats = try (0..<400).map { index -> Sample in
                let at = Ops.madeAt.addingTimeInterval(Double(index) - 1700)
                return Sample(typeIdentifier: Holders.heartRateType, start: at, end: at,
                              value: .quantity(Quantity(120, try HealthUnit(parsing: "count/min"))), source: "hkctl", created: Ops.madeAt)
            }
            let workout = Holders.workout(naming: beats.map(\.uuid))
            try Ops.recording(store, .add).save(beats + [workout])
            try Ops.recording(store, .delete).delete(uuids: beats.map(\.uuid), now: Ops.madeAt)
            try Ops.recording(store, .delete).delete(uuids: [workout.uuid], now: Ops.madeAt)
            let shown = try #require(try store.undoPlan(source: "hkctl"))
            expectEqual(try store.undo(source: "hkctl", expecting: shown.operation, now: Ops.undoneAt), shown)
            let restored = try #require(try Holders.workouts(store).first)
            expectEqual(restored.detail?.workout?.associatedUUIDs, beats.map(\.uuid), "the deleted heart rates, named as before")
        }
    }

    // MARK: A keyed food entry replaced by its own greater version

    /// A food entry with sync keys (a MyFitnessPal-like client) and a workout associated with it; a greater version of
    /// the entry saved: the entry is replaced by the new version (new uuid), and the workout names the new one.
    func aWorkoutNamingAKeyedEntryReplacedByAGreaterVersion() throws {
        func check(_ store: SampleStore) throws {
            let energy = try Holders.energy(300)
            var entry = Holders.entry([energy])
            entry.metadata[MetadataKeySyncIdentifier] = "entry-1"
            entry.metadata[MetadataKeySyncVersion] = 1
            try store.save([energy, entry, Holders.workout(naming: [entry.uuid])])
            let newer = try Holders.energy(350)
            var next = Holders.entry([newer])
            next.metadata[MetadataKeySyncIdentifier] = "entry-1"
            next.metadata[MetadataKeySyncVersion] = 2
            _ = try store.saveReporting([newer, next])
            try expectEqual(store.samples(ofType: Holders.foodType, overlapping: Ops.everything).map(\.uuid), [next.uuid])
            try expectEqual(Holders.dangling(store, types: [Holders.foodType]), [], "\(type(of: store)): the workout names the new version")
        }
        try check(InMemorySampleStore())
        try Ops.withStore { store, _ in try check(store) }
    }

    // MARK: One uuid tombstoned twice by one delete, for two different lines

    /// The same uuid saved in June and (as a fetched sample saved again with moved dates, docs/LIBRARY.md) in July: two
    /// samples, both count. `delete(ofType:overlapping:)` writes one tombstone per line, so two tombstones of one uuid
    /// in one delete. Undoing the delete brings both back, and every tombstone is counted in the plan (a third review
    /// found one lost and counted nowhere).
    func twoLinesOfOneUUIDDeletedTogetherBothComeBack() throws {
        try Ops.withStore { store, _ in
            let june = Ops.water(100, hour: 8)
            var july = Ops.water(200, hour: 8)
            july.uuid = june.uuid
            july.start = Kit.utc(2024, 7, 1, 8)
            july.end = july.start
            try Ops.recording(store, .add).save([june])
            try Ops.recording(store, .add).save([july])
            try expectEqual(Ops.visible(store).count, 2)
            try Ops.recording(store, .delete).delete(ofType: SampleType.water.identifier, overlapping: Ops.everything, now: Ops.madeAt)
            try expectEqual(Ops.visible(store).count, 0)
            let shown = try #require(try store.undoPlan(source: "hkctl"))
            expectEqual(shown.recorded, 2)
            let accounted = shown.total + shown.alreadyPresent + shown.compactedAway + shown.undoneSince + shown.replacedWithin
            expectEqual(accounted, shown.recorded, "every tombstone of the delete is accounted for: \(shown)")
            let done = try store.undo(source: "hkctl", expecting: shown.operation, now: Ops.undoneAt)
            expectEqual(done, shown)
            try expectEqual(Ops.visible(store).map { "\($0.value)" }.sorted(), ["quantity(100 mL)", "quantity(200 mL)"],
                            "both samples the delete deleted come back")
        }
    }

    // MARK: The copies standing for a member after a compaction: a chain of two undone deletes

    /// A food entry of another source ("Diary") holding hkctl's energy and protein (a change never rewrites another
    /// source's holder). The energy deleted long ago (D1) and that undone (copy M1); M1 deleted recently (D2) and that
    /// undone (copy M2); `compact` with 30 days' retention drops D1's tombstone (not D2's). The entry deleted (with its
    /// protein) and the delete undone: the restored entry names M2, the copy standing for the energy now, as it does
    /// without the compaction (checked first): from the member whose tombstone is gone, each undone operation's copy
    /// starts a chain followed by the tombstones that are left (a third review found the energy itself named).
    func aCompactedMembersCopyChainIsFollowedPastTheFirstCopy() throws {
        for compacting in [false, true] {
            try Ops.withStore { store, _ in
                let energy = try Holders.energy(300), protein = try Holders.protein(20)
                let entry = Holders.entry([energy, protein], source: "Diary")
                try store.save([energy, protein, entry])
                try Ops.recording(store, .delete).delete(uuids: [energy.uuid], now: Ops.madeAt.addingTimeInterval(-60 * 86_400))
                _ = try store.undo(source: "hkctl", now: Ops.undoneAt)
                let first = try #require(try store.samples(ofType: Holders.energyType, overlapping: Ops.everything).first)
                try Ops.recording(store, .delete).delete(uuids: [first.uuid], now: Ops.madeAt)
                _ = try store.undo(source: "hkctl", now: Ops.undoneAt)
                let second = try #require(try store.samples(ofType: Holders.energyType, overlapping: Ops.everything).first)
                if compacting { _ = try store.compact(now: Ops.undoneAt, retention: 30 * 86_400) }
                try Ops.recording(store, .delete).delete(uuids: [entry.uuid], now: Ops.undoneAt)
                _ = try store.undo(source: "hkctl", now: Ops.undoneAt)
                let restored = try #require(try store.samples(ofType: Holders.foodType, overlapping: Ops.everything).first)
                let members = restored.detail?.correlation?.members.map(\.uuid) ?? []
                expectEqual(members.contains(second.uuid), true, "compacting \(compacting): the entry names the energy's copy")
                expectEqual(members.contains(energy.uuid), false, "compacting \(compacting): not the energy, which is not stored")
            }
        }
    }

    // MARK: A corrected member held by two entries

    /// An energy held by two food entries of its source; the energy corrected (both entries rewritten as copies E', F');
    /// a workout saved naming E'; the correction undone by type (past the workout's add): E' and F' go, E and F come back
    /// as copies. Each copy pairs with the entry it was rewritten from (its uuid derives from the entry's and its
    /// members'), so the workout names the entry restored (a third review found it naming E', which the undo deletes).
    func aWorkoutNamingOneOfTwoRewrittenEntriesFollowsTheUndo() throws {
        try Ops.withStore { store, _ in
            let energy = try Holders.energy(300), protein = try Holders.protein(20)
            let entry = Holders.entry([energy, protein])
            try Ops.recording(store, .add).save([energy, protein, entry])
            let other = Holders.entry([energy])
            try Ops.recording(store, .add).save([other])
            var corrected = try Holders.energy(350)
            corrected.uuid = UUID()
            try Ops.recording(store, .replace).replace([energy.uuid], with: [corrected], now: Ops.madeAt)
            let copies = try store.samples(ofType: Holders.foodType, overlapping: Ops.everything)
            try #require(copies.count == 2)
            let copy = try #require(copies.first { $0.detail?.correlation?.members.count == 2 })
            try Ops.recording(store, .add).save([Holders.workout(naming: [copy.uuid])])
            try Self.undoByType(Holders.energyType, in: store, leaving: 2, checkingPlan: true)
        }
    }

    // MARK: A fourth review: edits undone past holders rewritten since, chains of rewrites

    /// A food entry's energy corrected (the entry rewritten as a copy), a workout naming the copy, the copy deleted and
    /// the delete undone (the workout follows the copy's copy), then the correction undone by type: the workout names the
    /// entry restored (the copy's uuid no longer derives from the entry's, so one entry going and one coming back pair).
    func aWorkoutOnTheRestoredCopyOfTheEditedEntryFollowsTheEditsUndo() throws {
        try Self.undoCorrectionAfterDeleteUndone(deleting: { $0.copy.uuid }, "precondition: the workout follows F1's copy",
                                                 checkingPlan: true)
    }

    /// The same with the entry's protein deleted alone and the delete undone after the workout was saved (the entry
    /// rewritten for it, the workout following): undoing the correction by type leaves the workout on the entry restored.
    func aWorkoutOnAnEntryRewrittenForAnotherMemberFollowsTheEditsUndo() throws {
        try Self.undoCorrectionAfterDeleteUndone(deleting: { $0.protein.uuid }, "precondition", checkingPlan: false)
    }

    /// A corrected entry named by a workout (``correctedEntryNamedByAWorkout(in:)``), the sample `deleting` picks
    /// deleted and the delete undone (the workout still finds the entry: `precondition`), then the correction undone by
    /// type: one entry, and the workout names it (`checkingPlan`: the plan shown is the undo done).
    private static func undoCorrectionAfterDeleteUndone(deleting: ((protein: Sample, copy: Sample)) -> UUID,
                                                        _ precondition: Comment, checkingPlan: Bool) throws {
        try Ops.withStore { store, _ in
            let saved = try correctedEntryNamedByAWorkout(in: store)
            try Ops.recording(store, .delete).delete(uuids: [deleting(saved)], now: Ops.madeAt)
            _ = try store.undo(source: "hkctl", now: Ops.undoneAt)
            try expectEqual(Holders.dangling(store, types: [Holders.foodType]), [], precondition)
            try undoByType(Holders.energyType, in: store, leaving: 1, checkingPlan: checkingPlan)
        }
    }

    /// Undoes the latest operation touching `type`: `leaving` food entries afterwards, and the workout naming one of
    /// them (`checkingPlan`: the plan shown beforehand is the undo done).
    private static func undoByType(_ type: String, in store: JSONFileStore, leaving entries: Int, checkingPlan: Bool) throws {
        let shown = checkingPlan ? try store.undoPlan(source: "hkctl", touching: type) : nil
        let done = try store.undo(source: "hkctl", touching: type, now: Ops.undoneAt)
        if checkingPlan { expectEqual(done, try #require(shown)) }
        try expectEqual(store.samples(ofType: Holders.foodType, overlapping: Ops.everything).count, entries)
        try expectEqual(Holders.dangling(store, types: [Holders.foodType]), [], "the workout names the entry restored: \(done)")
    }

    /// An entry replaced whole by an edit (`replace` of the entry with a new entry and members), a workout naming the new
    /// entry, the edit undone by type: the workout names the entry restored (one going, one coming back).
    func aWorkoutOnAnEntryReplacedWholeFollowsTheEditsUndo() throws {
        try Ops.withStore { store, _ in
            let energy = try Holders.energy(300), protein = try Holders.protein(20)
            let entry = Holders.entry([energy, protein])
            try Ops.recording(store, .add).save([energy, protein, entry])
            let energy2 = try Holders.energy(350), protein2 = try Holders.protein(25)
            let entry2 = Holders.entry([energy2, protein2])
            try Ops.recording(store, .replace).replace([entry.uuid], with: [energy2, protein2, entry2], now: Ops.madeAt)
            try Ops.recording(store, .add).save([Holders.workout(naming: [entry2.uuid])])
            try Self.undoByType(Holders.foodType, in: store, leaving: 1, checkingPlan: true)
        }
    }

    /// A workout rewritten in place twice by older operations (two `add(_:to:)`), then deleted, comes back once as its
    /// newest line.
    func aWorkoutAssociatedTwiceThenDeletedComesBackOnceAsItsNewestLine() throws {
        try Ops.withStore { store, _ in
            let workout = Holders.workout(naming: [])
            let a = try Holders.beat(120, minute: 10), b = try Holders.beat(130, minute: 20)
            try Ops.recording(store, .add).save([workout, a, b])
            let stored = try #require(try Holders.workouts(store).first)
            let w = try #require(Workout(sample: stored))
            try Ops.recording(store, .add).associate([a], unsaved: [], with: w, source: "hkctl", now: Ops.madeAt)
            try Ops.recording(store, .add).associate([b], unsaved: [], with: w, source: "hkctl", now: Ops.madeAt)
            try Ops.recording(store, .delete).delete(uuids: [workout.uuid], now: Ops.madeAt)
            let shown = try #require(try store.undoPlan(source: "hkctl"))
            let done = try store.undo(source: "hkctl", now: Ops.undoneAt)
            expectEqual(done, shown)
            expectEqual(done.restored, 1)
            expectEqual(done.total, 1)
            let back = try Holders.workouts(store)
            expectEqual(back.count, 1)
            expectEqual(Set(back.first?.detail?.workout?.associatedUUIDs ?? []), [a.uuid, b.uuid])
            // Further back: the second association, then the first.
            _ = try store.undo(source: "hkctl", now: Ops.undoneAt)
            try expectEqual(Holders.workouts(store).map { Set($0.detail?.workout?.associatedUUIDs ?? []) }, [[a.uuid]])
            _ = try store.undo(source: "hkctl", now: Ops.undoneAt)
            try expectEqual(Holders.workouts(store).map { $0.detail?.workout?.associatedUUIDs ?? [] }, [[]])
        }
    }

    /// An edit chain E -> E' -> E'' undone twice gives back E (as a copy), once.
    func anEditChainUndoneTwiceGivesBackTheFirstValueOnce() throws {
        try Ops.withStore { store, _ in
            let e = try Holders.energy(300)
            try Ops.recording(store, .add).save([e])
            var e1 = try Holders.energy(350)
            e1.uuid = UUID()
            try Ops.recording(store, .replace).replace([e.uuid], with: [e1], now: Ops.madeAt)
            var e2 = try Holders.energy(400)
            e2.uuid = UUID()
            try Ops.recording(store, .replace).replace([e1.uuid], with: [e2], now: Ops.madeAt)
            for expected in ["350", "300"] {
                let shown = try #require(try store.undoPlan(source: "hkctl"))
                let done = try store.undo(source: "hkctl", now: Ops.undoneAt)
                expectEqual(done, shown)
                expectEqual(done.restored, 1)
                let values = try store.samples(ofType: Holders.energyType, overlapping: Ops.everything).map { "\($0.value)" }
                expectEqual(values.count, 1)
                expectEqual(values.first?.contains(expected), true, "\(values)")
            }
        }
    }
}

private let undoHolderChainTestsChecks: [Check<UndoHolderChainTests>] = [
    Check("aWorkoutOnTheRestoredCopyOfTheEditedEntryFollowsTheEditsUndo", UndoHolderChainTests.aWorkoutOnTheRestoredCopyOfTheEditedEntryFollowsTheEditsUndo),
    Check("aWorkoutOnAnEntryRewrittenForAnotherMemberFollowsTheEditsUndo", UndoHolderChainTests.aWorkoutOnAnEntryRewrittenForAnotherMemberFollowsTheEditsUndo),
    Check("aWorkoutOnAnEntryReplacedWholeFollowsTheEditsUndo", UndoHolderChainTests.aWorkoutOnAnEntryReplacedWholeFollowsTheEditsUndo),
    Check("aWorkoutAssociatedTwiceThenDeletedComesBackOnceAsItsNewestLine", UndoHolderChainTests.aWorkoutAssociatedTwiceThenDeletedComesBackOnceAsItsNewestLine),
    Check("anEditChainUndoneTwiceGivesBackTheFirstValueOnce", UndoHolderChainTests.anEditChainUndoneTwiceGivesBackTheFirstValueOnce),
    Check("twoLinesOfOneUUIDDeletedTogetherBothComeBack", UndoHolderChainTests.twoLinesOfOneUUIDDeletedTogetherBothComeBack),
    Check("aCompactedMembersCopyChainIsFollowedPastTheFirstCopy", UndoHolderChainTests.aCompactedMembersCopyChainIsFollowedPastTheFirstCopy),
    Check("aWorkoutNamingOneOfTwoRewrittenEntriesFollowsTheUndo", UndoHolderChainTests.aWorkoutNamingOneOfTwoRewrittenEntriesFollowsTheUndo),
    Check("aWorkoutRestoredBesideAnEntryRewriteNamesTheEntrysCopy",
          UndoHolderChainTests.aWorkoutRestoredBesideAnEntryRewriteNamesTheEntrysCopy),
    Check("undoByTypeOfACorrectionPastAWorkoutNamingTheEntrysCopy",
          UndoHolderChainTests.undoByTypeOfACorrectionPastAWorkoutNamingTheEntrysCopy),
    Check("aChainWithAnEntryHolderGoesBackToAnEmptyStore",
          UndoHolderChainTests.aChainWithAnEntryHolderGoesBackToAnEmptyStore),
    Check("anImportInBatchesRewritingAWorkoutTwiceIsUndoneOnce",
          UndoHolderChainTests.anImportInBatchesRewritingAWorkoutTwiceIsUndoneOnce),
    Check("anImportInBatchesRewritingAWorkoutNamingTwoRecordsIsUndoneOnce",
          UndoHolderChainTests.anImportInBatchesRewritingAWorkoutNamingTwoRecordsIsUndoneOnce),
    Check("aWorkoutsDeletedAssociationsAreLookedForAmongUndoneDeletes",
          UndoHolderChainTests.aWorkoutsDeletedAssociationsAreLookedForAmongUndoneDeletes),
    Check("aWorkoutNamingAKeyedEntryReplacedByAGreaterVersion",
          UndoHolderChainTests.aWorkoutNamingAKeyedEntryReplacedByAGreaterVersion),
]
