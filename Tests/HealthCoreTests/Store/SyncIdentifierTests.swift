import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Issue 30 §1: HealthKit's sync identifiers on save (healthkit-facts §4.5) in both stores, and the replace write
/// they use: one atomic, recorded write of tombstones and new lines that `changes` reports and `undo` takes back.
struct SyncIdentifierTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: syncIdentifierTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit
    private typealias Ops = OperationTestKit

    /// Water at `hour` with a sync identifier and version (nil: that key left out).
    private static func synced(_ millilitres: Double, hour: Int = 8, id: String? = "day-1", version: Double? = 1,
                               source: String = "hkctl") -> Sample {
        var sample = Ops.water(millilitres, hour: hour, source: source)
        if let id { sample.metadata[MetadataKeySyncIdentifier] = .string(id) }
        if let version { sample.metadata[MetadataKeySyncVersion] = .number(version) }
        return sample
    }

    // MARK: JSONFileStore

    func aGreaterVersionReplacesAndAnEqualOrLowerOneChangesNothing() throws {
        try Ops.withStore { store, path in
            let first = Self.synced(100, version: 1)
            let inserted = try store.saveReporting([first])
            expectEqual(inserted, SaveOutcome(saved: [first.uuid]))
            let same = Self.synced(150, version: 1)
            let sameVersion = try store.saveReporting([same])
            expectEqual(sameVersion, SaveOutcome(saved: [], unchanged: [same.uuid]))
            let newer = Self.synced(200, version: 2)
            let greater = try store.saveReporting([newer])
            expectEqual(greater, SaveOutcome(saved: [newer.uuid], replaced: [first.uuid]))
            let before = Ops.tree(path)
            let older = Self.synced(300, version: 1)
            let lower = try store.saveReporting([older])
            expectEqual(lower, SaveOutcome(saved: [], unchanged: [older.uuid]))
            expectEqual(Ops.tree(path), before, "an unchanged save writes nothing")
            try expectEqual(Ops.visible(store).map(\.uuid), [newer.uuid])
        }
    }

    func anotherSourceOrTypeWithTheSameIdentifierIsNotMatched() throws {
        try Ops.withStore { store, _ in
            try store.save([Self.synced(100, version: 1, source: "app-a")])
            try store.save([Self.synced(200, version: 1, source: "app-b")])
            var steps = Kit.steps(10, Kit.utc(2024, 6, 1, 8))
            steps.metadata = [MetadataKeySyncIdentifier: "day-1", MetadataKeySyncVersion: 1]
            try store.save([steps])
            try expectEqual(Ops.visible(store).count, 2)
            try expectEqual(Ops.visible(store, .steps).count, 1)
        }
    }

    func oneKeyWithoutTheOtherIsRefusedAndNothingIsWritten() throws {
        try Ops.withStore { store, path in
            try store.save([Ops.water(1, hour: 6)])
            let before = Ops.tree(path)
            #expect(throws: SampleError.syncVersionWithoutIdentifier) { try store.save([Self.synced(1, id: nil, version: 2)]) }
            #expect(throws: SampleError.syncIdentifierWithoutVersion("day-1")) { try store.save([Self.synced(1, version: nil)]) }
            var fraction = Self.synced(1)
            fraction.metadata[MetadataKeySyncVersion] = .string("two")
            #expect(throws: SampleError.syncVersionNotWhole("two")) { try store.save([fraction]) }
            expectEqual(Ops.tree(path), before)
        }
    }

    func aReplacementIsADeletionPlusAnAdditionInOneRecordedOperationThatUndoTakesBack() throws {
        try Ops.withStore { store, path in
            let old = Self.synced(100, version: 1)
            try store.save([old])
            let anchor = try store.currentAnchor()
            let newer = Self.synced(200, version: 2)
            try Ops.recording(store, .add).save([newer])
            let changes = try store.changes(since: anchor)
            #expect(changes.deleted.map(\.uuid) == [old.uuid] && changes.added.map(\.uuid) == [newer.uuid])
            let records = try Ops.records(path)
            #expect(records.count == 1 && records[0].kind == .replace && records[0].replaced == 1)
            expectEqual(records[0].changes, anchor.sequence + 1...anchor.sequence + 2, "change numbers reserved once")

            let plan = try store.undo(source: "hkctl", now: Ops.undoneAt)
            #expect(plan.kind == .replace && plan.total == 2 && plan.restored == 1)
            let back = try Ops.visible(store)
            #expect(back.map(\.value) == [old.value] && back.map(\.uuid) == [JSONFileStore.restoredUUID(old.uuid, undoingDelete: plan.operation)])
            let undoChanges = try store.changes(since: ChangeAnchor(sequence: anchor.sequence + 2))
            #expect(undoChanges.deleted.map(\.uuid) == [newer.uuid] && undoChanges.added.count == 1)
            try expectNil(store.undoPlan(source: "hkctl"), "the first save was not recorded")
        }
    }

    func aCorrelationIsReplacedWholeWithItsMembers() throws {
        try Ops.withStore { store, _ in
            func reading(_ systolic: Double, version: Double) throws -> [Sample] {
                let members = try [(QuantityTypeIdentifier.bloodPressureSystolic, systolic), (.bloodPressureDiastolic, 80)].map {
                    Sample(typeIdentifier: $0.0.rawValue, start: Ops.madeAt, end: Ops.madeAt,
                           value: .quantity(Quantity($0.1, try HealthUnit(parsing: "mmHg"))), source: "hkctl", created: Ops.madeAt)
                }
                var correlation = Correlation.sample(of: .bloodPressure, members: members, start: Ops.madeAt, end: Ops.madeAt,
                                                     source: "hkctl", created: Ops.madeAt)
                correlation.metadata = [MetadataKeySyncIdentifier: "bp", MetadataKeySyncVersion: .number(version)]
                return members + [correlation]
            }
            try store.save(try reading(120, version: 1))
            let unchanged = try reading(130, version: 1)
            try expectEqual(store.saveReporting(unchanged).unchanged.count, 3, "the members stay out with it")
            let outcome = try store.saveReporting(try reading(140, version: 2))
            #expect(outcome.replaced.count == 3 && outcome.saved.count == 3)
            let systolic = try store.samples(ofType: QuantityTypeIdentifier.bloodPressureSystolic.rawValue, overlapping: Ops.everything)
            expectEqual(systolic.count, 1)
            try expectEqual(store.samples(ofType: CorrelationTypeIdentifier.bloodPressure.rawValue, overlapping: Ops.everything).count, 1)
        }
    }

    func aReplaceBatchKilledMidwayIsFinishedByTheNextWriter() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let path = folder + "/store"
            let store = JSONFileStore(path: path, timeZone: .gmt, lockTimeout: 2)
            let old = Self.synced(100, version: 1)
            try store.save([old])
            store.afterPartitionWrite = { _ in throw StoreError.writeFailed("test", reason: "killed") }
            let newer = Self.synced(200, version: 2)
            #expect(throws: StoreError.self) { try store.save([newer]) }
            // Whatever the kill left, readers see the store before or after the whole replacement, never half of it.
            let fresh = JSONFileStore(path: path, timeZone: .gmt, lockTimeout: 2)
            let seen = try Ops.visible(fresh).map(\.uuid)
            #expect(seen == [old.uuid] || seen == [newer.uuid])
            try fresh.save([Ops.water(5, hour: 3)])
            let after = try Ops.visible(fresh).map(\.uuid)
            #expect(after.contains(old.uuid) != after.contains(newer.uuid), "exactly one of the two is visible")
        }
    }

    func replaceByUUIDIsOneUndoableOperation() throws {
        try Ops.withStore { store, path in
            let old = Ops.water(100, hour: 8)
            try store.save([old])
            var corrected = old
            corrected.uuid = UUID()
            corrected.value = Ops.water(150, hour: 8).value
            try Ops.recording(store, .add).replace([old.uuid], with: [corrected], now: Ops.madeAt)
            try expectEqual(Ops.visible(store).map(\.uuid), [corrected.uuid])
            try expectEqual(Ops.records(path).map(\.kind), [.replace])
            let before = Ops.tree(path)
            #expect(throws: ChangeError.notFoundToReplace([old.uuid])) {
                try store.replace([old.uuid], with: [Ops.water(1, hour: 9)], now: Ops.madeAt)
            }
            expectEqual(Ops.tree(path), before)
            try store.undo(source: "hkctl", now: Ops.undoneAt)
            try expectEqual(Ops.visible(store).map(\.value), [old.value])
        }
    }

    func concurrentSavesOfOneIdentifierKeepOneSample() async throws {
        try await TestSupport.withTemporaryDirectory { (folder: String) async throws in
            let path = folder + "/store"
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<8 {
                    group.addTask {
                        let store = JSONFileStore(path: path, timeZone: .gmt, lockTimeout: 20)
                        _ = try? store.save([Self.synced(Double(100 + index), version: Double(index % 3 + 1))])
                    }
                }
            }
            let store = JSONFileStore(path: path, timeZone: .gmt)
            let left = try Ops.visible(store)
            expectEqual(left.count, 1)
            expectEqual(left.first?.metadata[MetadataKeySyncVersion], .number(3))
        }
    }

    // MARK: InMemorySampleStore

    func theMemoryStoreFollowsTheSameRule() throws {
        let store = InMemorySampleStore()
        let first = Self.synced(100, version: 1)
        try store.save([first])
        let equal = try store.saveReporting([Self.synced(150, version: 1)])
        #expect(equal.saved.isEmpty)
        let newer = Self.synced(200, version: 3)
        let greater = try store.saveReporting([newer])
        expectEqual(greater.replaced, [first.uuid])
        try store.save([Self.synced(1, version: 1, source: "other")])
        #expect(store.allSamples.map(\.uuid).contains(newer.uuid) && store.allSamples.count == 2)
        #expect(throws: SampleError.syncVersionWithoutIdentifier) { try store.save([Self.synced(1, id: nil, version: 2)]) }
        expectEqual(store.allSamples.count, 2)
    }
}

/// The checks ``SyncIdentifierTests/checks(_:)`` runs.
private let syncIdentifierTestsChecks: [Check<SyncIdentifierTests>] = [
    Check("aGreaterVersionReplacesAndAnEqualOrLowerOneChangesNothing",
          SyncIdentifierTests.aGreaterVersionReplacesAndAnEqualOrLowerOneChangesNothing),
    Check("anotherSourceOrTypeWithTheSameIdentifierIsNotMatched",
          SyncIdentifierTests.anotherSourceOrTypeWithTheSameIdentifierIsNotMatched),
    Check("oneKeyWithoutTheOtherIsRefusedAndNothingIsWritten",
          SyncIdentifierTests.oneKeyWithoutTheOtherIsRefusedAndNothingIsWritten),
    Check("aReplacementIsADeletionPlusAnAdditionInOneRecordedOperationThatUndoTakesBack",
          SyncIdentifierTests.aReplacementIsADeletionPlusAnAdditionInOneRecordedOperationThatUndoTakesBack),
    Check("aCorrelationIsReplacedWholeWithItsMembers", SyncIdentifierTests.aCorrelationIsReplacedWholeWithItsMembers),
    Check("aReplaceBatchKilledMidwayIsFinishedByTheNextWriter",
          SyncIdentifierTests.aReplaceBatchKilledMidwayIsFinishedByTheNextWriter),
    Check("replaceByUUIDIsOneUndoableOperation", SyncIdentifierTests.replaceByUUIDIsOneUndoableOperation),
    Check("concurrentSavesOfOneIdentifierKeepOneSample",
          SyncIdentifierTests.concurrentSavesOfOneIdentifierKeepOneSample),
    Check("theMemoryStoreFollowsTheSameRule", SyncIdentifierTests.theMemoryStoreFollowsTheSameRule),
]
