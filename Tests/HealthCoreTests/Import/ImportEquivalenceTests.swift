import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

extension ImportTests {
    /// The import's fast write path (lines encoded as bytes, three threads) against the plain one (`Sample`s saved
    /// through ``JSONFileStore/save(_:)`` and ``SampleLineCodec``): the stores must be the same byte for byte.
    @Suite(.enabled(if: ImportTestSupport.fixturesAvailable,
                    "shared/fixtures/apple-health is not next to the repository, so the import equivalence tests are skipped"))
    struct ImportEquivalenceTests {
        /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
        /// build a tenth of a `@Test` apiece (README.md, "Development").
        @Test(arguments: importEquivalenceTestsChecks)
        func checks(_ check: Check<Self>) async throws {
            try await check.run(on: Self())
        }

        /// A store that is not a ``JSONFileStore``, so the importer saves plain `Sample` arrays through it.
        final class PlainPathStore: SampleStore, ImportSyncSaving {
            let base: JSONFileStore
            init(_ base: JSONFileStore) { self.base = base }
            // As the importer saves into a file store: by its own checks, which keep what devices wrote.
            func save(_ samples: [Sample]) throws { try base.saveChecked(samples) }
            // Records with sync identifiers are saved by HealthKit's rule on both paths.
            func saveImportedSynced(_ samples: [Sample], dryRun: Bool, imported: SyncReplacement.ImportWrites) throws -> SyncReplacement.Plan {
                try base.saveImportedSynced(samples, dryRun: dryRun, imported: imported)
            }
            func forEachSample(ofType identifier: String, overlapping interval: DateInterval,
                               _ body: (Sample) throws -> Void) throws {
                try base.forEachSample(ofType: identifier, overlapping: interval, body)
            }
            func latestSamples(ofType identifier: String, overlapping interval: DateInterval, limit: Int) throws -> [Sample] {
                try base.latestSamples(ofType: identifier, overlapping: interval, limit: limit)
            }
        }

        static let zones = ["UTC", "America/Los_Angeles", "Asia/Kolkata"]

        /// Every file under `samples/` and the `sequence` counter, by path.
        static func storeFiles(_ root: String) throws -> [String: [UInt8]] {
            var files: [String: [UInt8]] = [:]
            let enumerator = FileManager.default.enumerator(atPath: root)
            while let relative = enumerator?.nextObject() as? String {
                guard relative.hasPrefix("samples/") || relative == "sequence" else { continue }
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isFolder), !isFolder.boolValue else { continue }
                files[relative] = Array(try Data(contentsOf: URL(fileURLWithPath: root + "/" + relative)))
            }
            return files
        }

        /// Imports `path` both ways (twice each, so the second run exercises duplicate detection against the store)
        /// and compares the stores and receipts.
        static func compareBothPaths(_ path: String, zone: String, batchSize: Int) throws {
            let timeZone = IndependentTestKit.zone(zone)
            try ImportTestSupport.withTemporaryDirectory { folder in
                let fast = JSONFileStore(path: folder + "/fast", timeZone: timeZone)
                let plain = JSONFileStore(path: folder + "/plain", timeZone: timeZone)
                for _ in 0..<2 {
                    let fastReceipt = try HealthImporter(store: fast, batchSize: batchSize).importFile(atPath: path)
                    let plainReceipt = try HealthImporter(store: PlainPathStore(plain), batchSize: batchSize).importFile(atPath: path)
                    expectEqual(fastReceipt.counts, plainReceipt.counts)
                    expectEqual(fastReceipt.problems.map(\.line), plainReceipt.problems.map(\.line))
                    expectEqual(fastReceipt.problems.map(\.reason), plainReceipt.problems.map(\.reason))
                    expectEqual(fastReceipt.complete, plainReceipt.complete)
                }
                let fastFiles = try storeFiles(fast.path)
                let plainFiles = try storeFiles(plain.path)
                expectEqual(fastFiles.keys.sorted(), plainFiles.keys.sorted())
                #expect(fastFiles.count > 1)
                for (name, bytes) in plainFiles {
                    expectEqual(fastFiles[name], bytes, "\(name) differs after importing \(path) in \(zone)")
                }
                try expectLinesReencode(fast)
            }
        }

        /// Every line of the store decodes, and `SampleLineCodec` writes it back byte for byte.
        static func expectLinesReencode(_ store: JSONFileStore) throws {
            var codec = SampleLineCodec(catalogue: .standard, timeZone: store.codec.timeZone)
            var checked = 0
            for (name, bytes) in try storeFiles(store.path) where name.hasSuffix(".jsonl") && !name.hasSuffix("tombstones.jsonl") {
                for line in bytes.split(separator: 0x0A) {
                    let sample = try Array(line).withUnsafeBufferPointer { try codec.decode($0) }
                    let again = codec.encode(sample, sequence: codec.lastSequence)
                    expectEqual(Array(again.utf8), Array(line), "\(name): \(String(decoding: line, as: UTF8.self))")
                    checked += 1
                }
            }
            #expect(checked > 0)
        }

        @Test(arguments: ImportTestSupport.xmlFixtures + [ImportTestSupport.zipFixture])
        func fixturesGiveTheSameStoreBothWays(name: String) throws {
            let path = ImportTestSupport.fixture(name)
            if name == ImportTestSupport.zipFixture {
                // The zip holds the large export below, byte for byte: what is its own is reading the zip, so once.
                try Self.compareBothPaths(path, zone: "Europe/Paris", batchSize: 211)
                return
            }
            // The export of thousands of records in a zone with DST in one batch, and in one half an hour off the hour
            // in batches of 211; the small ones in every zone and batches of 7: each way of the large one took the
            // suite's longest test a minute.
            let large = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0) > 50_000
            for zone in large ? ["America/Los_Angeles"] : Self.zones {
                try Self.compareBothPaths(path, zone: zone, batchSize: 20_000)
            }
            // Small batches: many journals, and partitions appended to by several batches.
            try Self.compareBothPaths(path, zone: large ? "Asia/Kolkata" : "Europe/Paris", batchSize: large ? 211 : 7)
        }

        /// Records sharing a sync identifier across a month boundary, one running into the next month and one
        /// longer than two days: whether the later one is a duplicate depends on which batches were saved when its
        /// month was first read, and the fast path must decide as the plain one does, for every batch size.
        func recordsAcrossMonthBoundariesAreMatchedAsBefore() throws {
            func sleep(_ start: String, _ end: String, sync: String) -> String {
                ImportTestSupport.record("HKCategoryTypeIdentifierSleepAnalysis", value: "HKCategoryValueSleepAnalysisInBed", unit: nil,
                                         start: start, end: end, metadata: [("HKMetadataKeySyncIdentifier", sync),
                                                                             ("HKMetadataKeySyncVersion", "1")])
            }
            // A type the catalogue does not know: kept generically, so no maximum duration refuses the long one.
            func reading(_ start: String, _ end: String, sync: String) -> String {
                ImportTestSupport.record("HKQuantityTypeIdentifierSomethingNew", value: "3", unit: "count", start: start, end: end,
                                         metadata: [("HKMetadataKeySyncIdentifier", sync), ("HKMetadataKeySyncVersion", "1")])
            }
            let body = [
                sleep("2024-01-31 22:00:00 -0000", "2024-02-01 06:00:00 -0000", sync: "night-1"),
                reading("2024-01-20 22:00:00 -0000", "2024-02-01 02:00:00 -0000", sync: "long-1"),
                sleep("2024-01-31 23:30:00 -0000", "2024-01-31 23:45:00 -0000", sync: "night-2"),
                ImportTestSupport.record(start: "2024-01-31 23:00:00 -0000", end: "2024-02-01 00:00:00 -0000"),
                sleep("2024-02-01 22:00:00 -0000", "2024-02-02 06:00:00 -0000", sync: "night-1"),
                reading("2024-02-03 22:00:00 -0000", "2024-02-04 06:00:00 -0000", sync: "long-1"),
                sleep("2024-02-05 22:00:00 -0000", "2024-02-06 06:00:00 -0000", sync: "night-2"),
                ImportTestSupport.record(start: "2024-02-10 08:00:00 -0000", end: "2024-02-10 08:10:00 -0000"),
                reading("2024-03-01 22:00:00 -0000", "2024-03-02 06:00:00 -0000", sync: "long-1"),
            ].joined(separator: "\n")
            try ImportTestSupport.withTemporaryDirectory { folder in
                let path = try ImportTestSupport.write(ImportTestSupport.export(body), in: folder)
                for batchSize in [1, 2, 3, 4, 100] {
                    try Self.compareBothPaths(path, zone: "UTC", batchSize: batchSize)
                }
            }
        }

        func aGeneratedExportGivesTheSameStoreBothWays() throws {
            let generator = ImportTestSupport.fixtures.appendingPathComponent("../../bench/gen_export.py").standardizedFileURL.path
            guard FileManager.default.fileExists(atPath: generator) else {
                print("shared/bench/gen_export.py is not next to the repository; the generated-export comparison is skipped")
                return
            }
            try ImportTestSupport.withTemporaryDirectory { folder in
                let export = folder + "/export.xml"
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
                process.arguments = ["python3", generator, "--days", "8", "--out", export]
                process.standardOutput = FileHandle.nullDevice
                try process.run()
                process.waitUntilExit()
                try #require(process.terminationStatus == 0, "gen_export.py failed")
                // Two batches in a zone with DST. One batch is the large fixture's case above, for the types it holds
                // (steps, distance, flights, sleep); the generated export's others are compared in these two batches.
                try Self.compareBothPaths(export, zone: "America/New_York", batchSize: 5_000)
            }
        }
    }
}

/// The checks ``ImportTests.ImportEquivalenceTests/checks(_:)`` runs.
private let importEquivalenceTestsChecks: [Check<ImportTests.ImportEquivalenceTests>] = [
    Check("recordsAcrossMonthBoundariesAreMatchedAsBefore",
          ImportTests.ImportEquivalenceTests.recordsAcrossMonthBoundariesAreMatchedAsBefore),
    Check("aGeneratedExportGivesTheSameStoreBothWays",
          ImportTests.ImportEquivalenceTests.aGeneratedExportGivesTheSameStoreBothWays),
]
