import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Issue 22: `undo` takes a source's operations back newest first: adds and imports with tombstones, deletes as copies
/// with new uuids; what is gone or back already is skipped and counted.
struct UndoTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: undoTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit
    private typealias Ops = OperationTestKit

    // MARK: Undo

    func undoingAnAddDeletesItWithATombstoneThatChangesReports() throws {
        try Ops.withStore { store, _ in
            try Ops.recording(store, .add).save([Ops.water(250, hour: 8)])
            let anchor = try store.currentAnchor()
            let plan = try #require(try store.undoPlan(source: "hkctl"))
            #expect(plan.kind == .add && plan.recorded == 1 && plan.total == 1 && plan.date == Ops.madeAt)
            let done = try store.undo(source: "hkctl", expecting: plan.operation, now: Ops.undoneAt)
            expectEqual(done, plan)
            #expect(try Ops.visible(store).isEmpty)
            let changes = try store.changes(since: anchor)
            #expect(changes.added.isEmpty && changes.deleted.count == 1)
            expectEqual(changes.deleted.first?.deletedAt, Ops.undoneAt, "the injected clock dates the tombstone")
            try expectNil(store.undoPlan(source: "hkctl"))
            #expect(throws: UndoError.nothingToUndo(source: "hkctl")) { try store.undo(source: "hkctl", now: Ops.undoneAt) }
        }
    }

    func undoingAnImportDeletesEveryBatchAndOnlyThem() throws {
        try Ops.withStore { store, _ in
            try store.save([Kit.steps(1, Kit.utc(2024, 1, 5, 8))])
            let importer = Ops.recording(store, .import)
            var writer = SampleLineWriter(catalogue: .standard, timeZone: .gmt)
            for month in [1, 2] {
                var batch = EncodedSampleBatch()
                for day in 1...3 { batch.append(Kit.steps(Double(day * 100), Kit.utc(2024, month, day, 8)), writer: &writer) }
                try importer.save(batch)
                try store.save([Ops.water(Double(month), hour: month)])  // another writer between the batches
            }
            let plan = try store.undo(source: "hkctl", now: Ops.undoneAt)
            #expect(plan.kind == .import && plan.recorded == 6 && plan.changes == [SampleType.steps.identifier: 6])
            try expectEqual(Ops.visible(store, .steps).map(\.value), [Kit.steps(1, Kit.utc(2024, 1, 5, 8)).value])
            try expectEqual(Ops.visible(store).count, 2, "the other writer's samples stay")
        }
    }

    func undoingADeleteRestoresCopiesWithNewUUIDs() throws {
        try Ops.withStore { store, _ in
            try store.save([Ops.water(100, hour: 7), Ops.water(200, hour: 8)])
            let originals = try Ops.visible(store)
            try Ops.recording(store, .delete).delete(uuids: originals.map(\.uuid), now: Ops.madeAt)
            let anchor = try store.currentAnchor()
            let plan = try store.undo(source: "hkctl", now: Ops.undoneAt)
            #expect(plan.kind == .delete && plan.total == 2)
            let restored = try Ops.visible(store)
            expectEqual(restored.map(\.value), originals.map(\.value))
            expectEqual(restored.map(\.created), originals.map(\.created))
            #expect(Set(restored.map(\.uuid)).isDisjoint(with: originals.map(\.uuid)))
            expectEqual(Set(restored.map(\.uuid)), Set(originals.map { JSONFileStore.restoredUUID($0.uuid, undoingDelete: 3) }))
            let changes = try store.changes(since: anchor)
            #expect(changes.added.count == 2 && changes.deleted.isEmpty)
        }
    }

    func aRestoredCorrelationNamesItsMembersCopies() throws {
        try Ops.withStore { store, _ in
            func member(_ type: QuantityTypeIdentifier, _ mmHg: Double) throws -> Sample {
                Sample(typeIdentifier: type.rawValue, start: Ops.madeAt, end: Ops.madeAt,
                       value: .quantity(Quantity(mmHg, try HealthUnit(parsing: "mmHg"))), source: "hkctl", created: Ops.madeAt)
            }
            let members = [try member(.bloodPressureSystolic, 120), try member(.bloodPressureDiastolic, 80)]
            let reading = members + [Correlation.sample(of: .bloodPressure, members: members, start: Ops.madeAt, end: Ops.madeAt,
                                                        source: "hkctl", created: Ops.madeAt)]
            try store.save(reading)
            let correlation = try #require(reading.first { $0.detail?.correlation != nil })
            try Ops.recording(store, .delete).delete(uuids: [correlation.uuid], now: Ops.madeAt)
            let plan = try store.undo(source: "hkctl", now: Ops.undoneAt)
            expectEqual(plan.total, 3)
            let copy = try #require(try store.samples(ofType: correlation.typeIdentifier, overlapping: Ops.everything).first)
            for member in copy.detail?.correlation?.members ?? [] {
                let found = try store.samples(ofType: member.typeIdentifier, overlapping: Ops.everything)
                expectEqual(found.map(\.uuid), [member.uuid], "the copy names a member that exists")
            }
        }
    }

    func undoIsAStackPerSource() throws {
        try Ops.withStore { store, _ in
            try Ops.recording(store, .add).save([Ops.water(100, hour: 7)])
            try Ops.recording(store, .add, source: "scale").save([Ops.water(150, hour: 8, source: "scale")])
            try Ops.recording(store, .add).save([Ops.water(200, hour: 9)])
            try expectEqual(store.undo(source: "hkctl", now: Ops.undoneAt).operation, 3)
            try expectEqual(store.undo(source: "hkctl", now: Ops.undoneAt).operation, 1)
            try expectNil(store.undoPlan(source: "hkctl"))
            try expectEqual(Ops.visible(store).map(\.source), ["scale"], "another source's operation is its own to undo")
            try expectEqual(store.undo(source: "scale", now: Ops.undoneAt).operation, 2)
        }
    }

    func samplesGoneSinceAreSkippedAndCounted() throws {
        try Ops.withStore { store, _ in
            try Ops.recording(store, .add).save([Ops.water(100, hour: 7), Ops.water(200, hour: 8)])
            try store.delete(uuids: [try Ops.visible(store)[0].uuid], now: Ops.madeAt)  // not recorded: the owner's API
            let plan = try #require(try store.undoPlan(source: "hkctl"))
            #expect(plan.total == 1 && plan.alreadyDeleted == 1 && plan.recorded == 2)
            try store.undo(source: "hkctl", now: Ops.undoneAt)
            #expect(try Ops.visible(store).isEmpty)
        }
    }

    func undoingAnAddAfterUndoingItsDeleteRemovesTheRestoredCopy() throws {
        try Ops.withStore { store, _ in
            try Ops.recording(store, .add).save([Ops.water(100, hour: 7)])
            try Ops.recording(store, .delete).delete(uuids: [try Ops.visible(store)[0].uuid], now: Ops.madeAt)
            try expectEqual(store.undo(source: "hkctl", now: Ops.undoneAt).kind, .delete)
            try expectEqual(Ops.visible(store).count, 1)
            let plan = try store.undo(source: "hkctl", now: Ops.undoneAt)
            #expect(plan.kind == .add && plan.total == 1 && plan.alreadyDeleted == 0)
            #expect(try Ops.visible(store).isEmpty)
        }
    }

    func deletedSamplesThatCompactionRemovedCannotBeRestored() throws {
        try Ops.withStore { store, _ in
            try store.save([Ops.water(100, hour: 7)])
            try Ops.recording(store, .delete).delete(uuids: [try Ops.visible(store)[0].uuid], now: Ops.madeAt)
            _ = try store.compact(now: Ops.madeAt)
            let plan = try store.undo(source: "hkctl", now: Ops.undoneAt)
            #expect(plan.total == 0 && plan.compactedAway == 1)
            #expect(try Ops.visible(store).isEmpty)
            try expectNil(store.undoPlan(source: "hkctl"), "the undo is recorded even with nothing to restore")
        }
    }

    func samplesBackAlreadyAreNotRestoredTwice() throws {
        try Ops.withStore { store, _ in
            let sample = Ops.water(100, hour: 7)
            try store.save([sample])
            try Ops.recording(store, .delete).delete(uuids: [sample.uuid], now: Ops.madeAt)
            try store.saveChecked([sample])  // an import of an old export brings it back under its uuid
            let plan = try store.undo(source: "hkctl", now: Ops.undoneAt)
            #expect(plan.total == 0 && plan.alreadyPresent == 1)
            try expectEqual(Ops.visible(store).map(\.uuid), [sample.uuid])
        }
    }

    func anUndoOfAnotherOperationThanTheOneShownChangesNothing() throws {
        try Ops.withStore { store, path in
            try Ops.recording(store, .add).save([Ops.water(100, hour: 7)])
            let shown = try #require(try store.undoPlan(source: "hkctl"))
            try Ops.recording(store, .add).save([Ops.water(200, hour: 8)])  // another hkctl, meanwhile
            let before = Ops.tree(path)
            #expect(throws: UndoError.changedMeanwhile(shown: shown.operation)) {
                try store.undo(source: "hkctl", expecting: shown.operation, now: Ops.undoneAt)
            }
            expectEqual(Ops.tree(path), before)
        }
    }

    func aLargeUndoIsWrittenInBatchesAndRecordedOnce() throws {
        try Ops.withStore { store, path in
            let count = JSONFileStore.undoBatchSize + 5
            let samples = (0..<count).map { Kit.steps(1, Kit.utc(2024, 1, 1).addingTimeInterval(Double($0) * 60)) }
            try Ops.recording(store, .add).save(samples)
            let plan = try store.undo(source: "hkctl", now: Ops.undoneAt)
            expectEqual(plan.total, count)
            #expect(try Ops.visible(store, .steps).isEmpty)
            let undo = try #require(try Ops.records(path).last)
            #expect(undo.kind == .undo && undo.changes?.count == 5, "the last batch carries the record")
        }
    }
}

/// The checks ``UndoTests/checks(_:)`` runs.
private let undoTestsChecks: [Check<UndoTests>] = [
    Check("undoingAnAddDeletesItWithATombstoneThatChangesReports",
          UndoTests.undoingAnAddDeletesItWithATombstoneThatChangesReports),
    Check("undoingAnImportDeletesEveryBatchAndOnlyThem", UndoTests.undoingAnImportDeletesEveryBatchAndOnlyThem),
    Check("undoingADeleteRestoresCopiesWithNewUUIDs", UndoTests.undoingADeleteRestoresCopiesWithNewUUIDs),
    Check("aRestoredCorrelationNamesItsMembersCopies", UndoTests.aRestoredCorrelationNamesItsMembersCopies),
    Check("undoIsAStackPerSource", UndoTests.undoIsAStackPerSource),
    Check("samplesGoneSinceAreSkippedAndCounted", UndoTests.samplesGoneSinceAreSkippedAndCounted),
    Check("undoingAnAddAfterUndoingItsDeleteRemovesTheRestoredCopy",
          UndoTests.undoingAnAddAfterUndoingItsDeleteRemovesTheRestoredCopy),
    Check("deletedSamplesThatCompactionRemovedCannotBeRestored",
          UndoTests.deletedSamplesThatCompactionRemovedCannotBeRestored),
    Check("samplesBackAlreadyAreNotRestoredTwice", UndoTests.samplesBackAlreadyAreNotRestoredTwice),
    Check("anUndoOfAnotherOperationThanTheOneShownChangesNothing",
          UndoTests.anUndoOfAnotherOperationThanTheOneShownChangesNothing),
    Check("aLargeUndoIsWrittenInBatchesAndRecordedOnce", UndoTests.aLargeUndoIsWrittenInBatchesAndRecordedOnce),
]
