import Foundation
import Testing
import TestKit
@testable import HealthCore

extension ImportTests {
    /// Imports follow HealthKit's sync-version rule (healthkit-facts §4.5), as `save` does: of the records of one
    /// type, source and `HKMetadataKeySyncIdentifier`, only the greatest `HKMetadataKeySyncVersion` is kept, in the
    /// input and against the store; a version without an identifier is refused.
    @Suite struct ImportSyncVersionTests {
        /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
        /// build a tenth of a `@Test` apiece (README.md, "Development").
        @Test(arguments: importSyncVersionTestsChecks)
        func checks(_ check: Check<Self>) async throws {
            try await check.run(on: Self())
        }

        private typealias Support = ImportTestSupport

        /// A step record with sync identifier `id` and version `version` (the value tells the versions apart).
        static func steps(_ value: String, id: String? = "walk-1", version: String? = nil, source: String = "Jane’s iPhone",
                          start: String = "2024-05-01 08:00:00 -0700") -> String {
            var metadata: [(String, String)] = []
            if let id { metadata.append(("HKMetadataKeySyncIdentifier", id)) }
            if let version { metadata.append(("HKMetadataKeySyncVersion", version)) }
            return Support.record(value: value, source: source, start: start, end: "2024-05-01 08:10:00 -0700", metadata: metadata)
        }

        static func export(_ records: String...) -> String { Support.export(records.joined(separator: "\n")) }

        /// A file store that records its writes as one import (for `undo`), at `path`.
        static func importing(_ path: String) -> JSONFileStore {
            JSONFileStore(path: path, timeZone: .gmt, lockTimeout: 2,
                          recording: OperationRecording(kind: .import, source: "hkctl", date: Date(timeIntervalSince1970: 1_717_200_000)))
        }

        static func stepValues(_ store: SampleStore) throws -> [Double] {
            try store.samples(ofType: "HKQuantityTypeIdentifierStepCount", overlapping: OperationTestKit.everything)
                .compactMap { $0.value.quantity?.doubleValue(for: .count()) }.sorted()
        }

        static let steps = "HKQuantityTypeIdentifierStepCount"

        @Test(arguments: [["1", "2"], ["2", "1"]])
        func anExportWithTwoVersionsKeepsTheGreaterInEitherOrder(_ versions: [String]) throws {
            let text = Self.export(Self.steps("10" + versions[0], version: versions[0]), Self.steps("10" + versions[1], version: versions[1]))
            let memory = InMemorySampleStore()
            let inMemory = try Support.importXML(text, into: memory)
            try expectEqual(Self.stepValues(memory), [102])
            expectEqual(inMemory.counts[Self.steps]?.added, 1)
            expectEqual(inMemory.counts[Self.steps]?.alreadyPresent, 1)
            expectEqual(inMemory.counts[Self.steps]?.replaced, 0)
            try Support.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store")
                let receipt = try Support.importXML(text, into: store)
                try expectEqual(Self.stepValues(store), [102])
                expectEqual(receipt.counts[Self.steps]?.added, 1)
                // The same file again changes nothing.
                let again = try Support.importXML(text, into: store)
                expectEqual(again.counts[Self.steps]?.alreadyPresent, 2)
                expectEqual(again.counts[Self.steps]?.added, 0)
                try expectEqual(Self.stepValues(store), [102])
            }
        }

        func threeVersionsKeepTheGreatestAndEqualVersionsTheFirst() throws {
            let text = Self.export(Self.steps("102", version: "2"), Self.steps("103", version: "3"), Self.steps("101", version: "1"),
                                   Self.steps("999", version: "3"))
            try Support.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store")
                let receipt = try Support.importXML(text, into: store)
                try expectEqual(Self.stepValues(store), [103])
                expectEqual(receipt.counts[Self.steps]?.added, 1)
                expectEqual(receipt.counts[Self.steps]?.alreadyPresent, 3)
                expectEqual(receipt.counts[Self.steps]?.total, 4)
            }
        }

        /// Batches of one record: the rule's records are saved as they come, and a later greater version replaces the
        /// one saved before; the receipt counts that record superseded, not a stored sample replaced.
        func versionsSavedInSeparateBatchesEndAsTheGreatest() throws {
            let text = Self.export(Self.steps("101", version: "1"), Self.steps("103", version: "3"), Self.steps("102", version: "2"))
            try Support.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store")
                let receipt = try Support.importXML(text, into: store, batchSize: 1)
                try expectEqual(Self.stepValues(store), [103])
                expectEqual(receipt.counts[Self.steps]?.added, 1)
                expectEqual(receipt.counts[Self.steps]?.alreadyPresent, 2)
                expectEqual(receipt.counts[Self.steps]?.replaced, 0)
            }
        }

        func aGreaterVersionReplacesTheStoredOneAndALowerChangesNothing() throws {
            try Support.withTemporaryDirectory { folder in
                let path = folder + "/store"
                _ = try Support.importXML(Self.export(Self.steps("101", version: "1")), into: Self.importing(path))
                let plain = JSONFileStore(path: path, timeZone: .gmt)
                let before = try plain.currentAnchor()
                let receipt = try Support.importXML(Self.export(Self.steps("102", version: "2")), into: Self.importing(path))
                // The record that replaced the stored one counts as replaced, instead of added.
                expectEqual(receipt.counts[Self.steps]?.added, 0)
                expectEqual(receipt.counts[Self.steps]?.replaced, 1)
                expectEqual(receipt.totals.replaced, 1)
                try expectEqual(Self.stepValues(plain), [102])
                // A deletion and an addition, as anchored queries and `changes` see them.
                let changes = try plain.changes(since: before)
                expectEqual(changes.deleted.count, 1)
                expectEqual(changes.added.map { $0.value.quantity?.doubleValue(for: .count()) }, [102])
                // A lower version, and the same version again, change nothing.
                let lower = try Support.importXML(Self.export(Self.steps("101", version: "1"), Self.steps("555", version: "2")),
                                                  into: Self.importing(path))
                expectEqual(lower.counts[Self.steps]?.alreadyPresent, 2)
                expectEqual(lower.counts[Self.steps]?.added, 0)
                try expectEqual(Self.stepValues(plain), [102])
                // Undo takes the replacing import back: the new version goes, the old one comes back.
                let undone = try plain.undo(source: "hkctl", now: Date(timeIntervalSince1970: 1_717_300_000))
                expectEqual(undone.kind, .replace)
                try expectEqual(Self.stepValues(plain), [101])
            }
        }

        func aVersionSavedByAddIsReplacedByAGreaterImportedOne() throws {
            try Support.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
                var sample = IndependentTestKit.quantity(SampleTypeCatalogue.standard.type(identifier: Self.steps)!, 7, "count",
                                                         IndependentTestKit.utc(2024, 5, 1, 15), IndependentTestKit.utc(2024, 5, 1, 15, 10),
                                                         metadata: ["HKMetadataKeySyncIdentifier": "walk-1", "HKMetadataKeySyncVersion": 2])
                sample.source = "Jane’s iPhone"
                try store.save([sample])
                let lower = try Support.importXML(Self.export(Self.steps("101", version: "1")), into: store)
                expectEqual(lower.counts[Self.steps]?.alreadyPresent, 1)
                try expectEqual(Self.stepValues(store), [7])
                let greater = try Support.importXML(Self.export(Self.steps("103", version: "3")), into: store)
                expectEqual(greater.counts[Self.steps]?.replaced, 1)
                try expectEqual(Self.stepValues(store), [103])
            }
        }

        /// Through a ``HealthStore`` (what a source's import writes through), the rule is the file store's.
        func aHealthStoreImportFollowsTheRuleToo() throws {
            try Support.withTemporaryDirectory { folder in
                let health = try HealthStore(storage: JSONFileStore(path: folder + "/store"), source: AuthorizationState.ownerSource)
                _ = try Support.importXML(Self.export(Self.steps("101", version: "1")), into: health)
                let receipt = try Support.importXML(Self.export(Self.steps("102", version: "2"), Self.steps("100", version: "1")), into: health)
                expectEqual(receipt.counts[Self.steps]?.replaced, 1)
                expectEqual(receipt.counts[Self.steps]?.alreadyPresent, 1)
                try expectEqual(Self.stepValues(JSONFileStore(path: folder + "/store")), [102])
                let dry = try Support.importXML(Self.export(Self.steps("103", version: "3")), into: health, dryRun: true)
                expectEqual(dry.counts[Self.steps]?.replaced, 1)
                try expectEqual(Self.stepValues(JSONFileStore(path: folder + "/store")), [102])
            }
        }

        func otherSourcesAndTypesWithTheSameIdentifierAreIndependent() throws {
            let text = Self.export(Self.steps("101", version: "1"), Self.steps("202", version: "2", source: "Jane’s Watch"),
                                   Support.record("HKQuantityTypeIdentifierFlightsClimbed", value: "3", metadata: [
                                       ("HKMetadataKeySyncIdentifier", "walk-1"), ("HKMetadataKeySyncVersion", "5")]))
            let store = InMemorySampleStore()
            let receipt = try Support.importXML(text, into: store)
            try expectEqual(Self.stepValues(store), [101, 202])
            expectEqual(store.allSamples.count, 3)
            expectEqual(receipt.totals.added, 3)
            expectEqual(receipt.totals.alreadyPresent, 0)
        }

        func aVersionWithoutAnIdentifierIsRefusedWithItsReason() throws {
            let text = Self.export(Self.steps("101", id: nil, version: "2"), Self.steps("102", version: "x"),
                                   Self.steps("103", id: "walk-2", version: nil), Self.steps("5", id: nil))
            let store = InMemorySampleStore()
            let receipt = try Support.importXML(text, into: store)
            try expectEqual(Self.stepValues(store), [5])
            expectEqual(receipt.counts[Self.steps]?.rejected, 3)
            expectEqual(receipt.problems.count, 3)
            expectEqual(receipt.problems.first?.reason.contains("without HKMetadataKeySyncIdentifier"), true)
            expectEqual(receipt.problems.dropFirst().first?.reason.contains("not a whole number"), true)
        }

        func aDryRunSaysWhatWouldBeReplacedAndWritesNothing() throws {
            try Support.withTemporaryDirectory { folder in
                let path = folder + "/store"
                _ = try Support.importXML(Self.export(Self.steps("101", version: "1")), into: JSONFileStore(path: path))
                let before = OperationTestKit.tree(path)
                let receipt = try Support.importXML(Self.export(Self.steps("102", version: "2"), Self.steps("103", version: "3")),
                                                    into: JSONFileStore(path: path), dryRun: true, batchSize: 1)
                // Two records: 102 superseded by 103 (present), 103 replacing the stored 101 (replaced, not added).
                expectEqual(receipt.counts[Self.steps]?.replaced, 1)
                expectEqual(receipt.counts[Self.steps]?.added, 0)
                expectEqual(receipt.counts[Self.steps]?.alreadyPresent, 1)
                expectEqual(OperationTestKit.tree(path), before)
            }
        }

        /// hkctl's own jsonl export (a backup) keeps every sample's uuid; the rule holds there too.
        func aBackupFollowsTheRule() throws {
            try Support.withTemporaryDirectory { folder in
                func line(_ value: Int, version: Int, uuid: String) -> String {
                    "{\"uuid\":\"\(uuid)\",\"type\":\"\(Self.steps)\",\"start\":\"2024-05-01T15:00:00Z\",\"end\":\"2024-05-01T15:10:00Z\","
                        + "\"value\":\(value),\"unit\":\"count\",\"source\":\"app\",\"created\":\"2024-05-01T15:10:00Z\","
                        + "\"metadata\":{\"HKMetadataKeySyncIdentifier\":\"walk-1\",\"HKMetadataKeySyncVersion\":\(version)}}"
                }
                let path = try Support.write([line(2, version: 2, uuid: "00000000-0000-4000-8000-000000000002"),
                                              line(1, version: 1, uuid: "00000000-0000-4000-8000-000000000001")]
                                                .joined(separator: "\n") + "\n", named: "backup.jsonl", in: folder)
                let store = JSONFileStore(path: folder + "/store")
                let receipt = try HealthImporter(store: store).importFile(atPath: path)
                expectEqual(receipt.counts[Self.steps]?.added, 1, "\(receipt)")
                expectEqual(receipt.counts[Self.steps]?.alreadyPresent, 1)
                try expectEqual(Self.stepValues(store), [2])
                try expectEqual(store.samples(ofType: Self.steps, overlapping: OperationTestKit.everything).first?.uuid.lowercasedText, "00000000-0000-4000-8000-000000000002")
            }
        }
    }
}

/// The checks ``ImportTests.ImportSyncVersionTests/checks(_:)`` runs.
private let importSyncVersionTestsChecks: [Check<ImportTests.ImportSyncVersionTests>] = [
    Check("threeVersionsKeepTheGreatestAndEqualVersionsTheFirst",
          ImportTests.ImportSyncVersionTests.threeVersionsKeepTheGreatestAndEqualVersionsTheFirst),
    Check("versionsSavedInSeparateBatchesEndAsTheGreatest",
          ImportTests.ImportSyncVersionTests.versionsSavedInSeparateBatchesEndAsTheGreatest),
    Check("aGreaterVersionReplacesTheStoredOneAndALowerChangesNothing",
          ImportTests.ImportSyncVersionTests.aGreaterVersionReplacesTheStoredOneAndALowerChangesNothing),
    Check("aVersionSavedByAddIsReplacedByAGreaterImportedOne",
          ImportTests.ImportSyncVersionTests.aVersionSavedByAddIsReplacedByAGreaterImportedOne),
    Check("aHealthStoreImportFollowsTheRuleToo",
          ImportTests.ImportSyncVersionTests.aHealthStoreImportFollowsTheRuleToo),
    Check("otherSourcesAndTypesWithTheSameIdentifierAreIndependent",
          ImportTests.ImportSyncVersionTests.otherSourcesAndTypesWithTheSameIdentifierAreIndependent),
    Check("aVersionWithoutAnIdentifierIsRefusedWithItsReason",
          ImportTests.ImportSyncVersionTests.aVersionWithoutAnIdentifierIsRefusedWithItsReason),
    Check("aDryRunSaysWhatWouldBeReplacedAndWritesNothing",
          ImportTests.ImportSyncVersionTests.aDryRunSaysWhatWouldBeReplacedAndWritesNothing),
    Check("aBackupFollowsTheRule", ImportTests.ImportSyncVersionTests.aBackupFollowsTheRule),
]
