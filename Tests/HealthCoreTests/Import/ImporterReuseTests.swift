import Foundation
import Testing
@testable import HealthCore
import TextSupport
import TestKit

extension ImportTests {
    /// One `HealthImporter` run more than once: each run starts afresh, so the second import of the same export adds
    /// nothing. (A run used to remember the records it met, and the next run took them for second occurrences of
    /// themselves and stored every record again.)
    struct ImporterReuseTests {
        /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
        /// build a tenth of a `@Test` apiece (README.md, "Development").
        @Test(arguments: importerReuseTestsChecks)
        func checks(_ check: Check<Self>) async throws {
            try await check.run(on: Self())
        }

        private typealias Support = ImportTestSupport
        private static let all = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
        private static let steps = "HKQuantityTypeIdentifierStepCount"

        /// Twelve step records over two months, two of them identical twins (both kept, as the Health app has them).
        private static let export = Support.export(((0..<10).map { day in
            Support.record(value: "\(100 + day)", start: "2024-0\(5 + day / 6)-0\(1 + day % 6) 08:00:00 -0700",
                           end: "2024-0\(5 + day / 6)-0\(1 + day % 6) 08:10:00 -0700")
        } + [Support.record(value: "7"), Support.record(value: "7")]).joined(separator: "\n"))

        /// ``export`` imported into a fresh store in `folder`, and that store's jsonl export (a backup).
        private static func backup(in folder: String) throws -> (source: JSONFileStore, jsonl: String) {
            let source = JSONFileStore(path: folder + "/source")
            _ = try HealthImporter(store: source).importFile(atPath: try Support.write(export, in: folder))
            let jsonl = folder + "/backup.jsonl"
            _ = try SampleExporter(store: source).export(types: nil, interval: all, format: .jsonl,
                                                         exportDate: Date(timeIntervalSince1970: 1_717_243_200),
                                                         to: FileDestination(path: jsonl))
            return (source, jsonl)
        }

        func runningTheSameImporterTwiceOnAnExportAddsNothingTheSecondTime() throws {
            try Support.withTemporaryDirectory { folder in
                let path = try Support.write(Self.export, in: folder)
                let store = JSONFileStore(path: folder + "/store")
                let importer = HealthImporter(store: store)
                let first = try importer.importFile(atPath: path)
                let second = try importer.importFile(atPath: path)
                expectEqual(first.counts[Self.steps]?.added, 12)
                expectEqual(second.counts[Self.steps]?.added, 0)
                expectEqual(second.counts[Self.steps]?.alreadyPresent, 12)
                try expectEqual(store.samples(ofType: Self.steps, overlapping: Self.all).count, 12)
            }
        }

        func runningTheSameImporterOnItsOwnJSONLinesExportAddsNothing() throws {
            try Support.withTemporaryDirectory { folder in
                let jsonl = try Self.backup(in: folder).jsonl
                let target = JSONFileStore(path: folder + "/target")
                let importer = HealthImporter(store: target)
                let first = try importer.importFile(atPath: jsonl)
                expectEqual(first.counts[Self.steps]?.added, 12, "\(first)")
                try expectEqual(importer.importFile(atPath: jsonl).counts[Self.steps]?.added, 0)
                try expectEqual(target.samples(ofType: Self.steps, overlapping: Self.all).count, 12)
            }
        }

        /// A restore stopped after the first of two identical twins (or into a store that got only one of them from
        /// an export) adds the second when it runs again, and doubles nothing.
        func aRestoreIntoAStoreHoldingOneTwinAddsTheOther() throws {
            try Support.withTemporaryDirectory { folder in
                let (source, jsonl) = try Self.backup(in: folder)
                let target = JSONFileStore(path: folder + "/target")
                let one = Support.export(Support.record(value: "7"))
                _ = try HealthImporter(store: target).importFile(atPath: try Support.write(one, named: "one.xml", in: folder))
                try expectEqual(target.samples(ofType: Self.steps, overlapping: Self.all).count, 1)
                let receipt = try HealthImporter(store: target).importFile(atPath: jsonl)
                expectEqual(receipt.counts[Self.steps]?.added, 11)
                expectEqual(receipt.counts[Self.steps]?.alreadyPresent, 1)
                let stored = try target.samples(ofType: Self.steps, overlapping: Self.all)
                expectEqual(stored.count, 12)
                expectEqual(stored.filter { $0.quantity?.value == 7 }.count, 2)
                #expect(Set(stored.map(\.uuid)) == Set(try source.samples(ofType: Self.steps, overlapping: Self.all).map(\.uuid)))
            }
        }

        func aDryRunImporterCountsTheSameEachTime() throws {
            try Support.withTemporaryDirectory { folder in
                let path = try Support.write(Self.export, in: folder)
                let importer = HealthImporter(store: JSONFileStore(path: folder + "/store"), dryRun: true)
                let first = try importer.importFile(atPath: path)
                let second = try importer.importFile(atPath: path)
                expectEqual(first.counts[Self.steps]?.added, 12)
                expectEqual(second.counts, first.counts)
            }
        }
    }

    /// A real export imported, written out as hkctl's jsonl (a backup) and imported into a fresh store comes back
    /// whole: every sample, identical twins included, under the same uuids.
    @Suite(.enabled(if: ImportTestSupport.fixturesAvailable,
                    "shared/fixtures/apple-health is not next to the repository, so the real-export tests are skipped"))
    struct JSONLinesRestoreTests {
        private typealias Support = ImportTestSupport
        private static let all = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)

        /// Every stored sample as a jsonl line, sorted.
        private static func lines(_ store: JSONFileStore, in folder: String) throws -> (path: String, lines: [String]) {
            let path = folder + "/backup-\(UUID().uuidString).jsonl"
            _ = try SampleExporter(store: store).export(types: nil, interval: all, format: .jsonl,
                                                        exportDate: Date(timeIntervalSince1970: 1_717_243_200),
                                                        to: FileDestination(path: path))
            let text = try String(contentsOfFile: path, encoding: .utf8)
            return (path, text.split(separator: "\n").map(String.init).sorted())
        }

        @Test(arguments: ImportTestSupport.xmlFixtures)
        func aBackupRestoresEverySample(name: String) throws {
            try Support.withTemporaryDirectory { folder in
                let original = JSONFileStore(path: folder + "/original")
                _ = try HealthImporter(store: original).importFile(atPath: Support.fixture(name))
                let backup = try Self.lines(original, in: folder)
                #expect(backup.lines.count > 10)
                let restored = JSONFileStore(path: folder + "/restored")
                let receipt = try HealthImporter(store: restored).importFile(atPath: backup.path)
                expectEqual(receipt.counts.values.map(\.alreadyPresent).sum, 0, "\(receipt.counts)")
                try expectEqual(Self.lines(restored, in: folder).lines, backup.lines)
            }
        }
    }
}

/// The checks ``ImportTests.ImporterReuseTests/checks(_:)`` runs.
private let importerReuseTestsChecks: [Check<ImportTests.ImporterReuseTests>] = [
    Check("runningTheSameImporterTwiceOnAnExportAddsNothingTheSecondTime",
          ImportTests.ImporterReuseTests.runningTheSameImporterTwiceOnAnExportAddsNothingTheSecondTime),
    Check("runningTheSameImporterOnItsOwnJSONLinesExportAddsNothing",
          ImportTests.ImporterReuseTests.runningTheSameImporterOnItsOwnJSONLinesExportAddsNothing),
    Check("aRestoreIntoAStoreHoldingOneTwinAddsTheOther",
          ImportTests.ImporterReuseTests.aRestoreIntoAStoreHoldingOneTwinAddsTheOther),
    Check("aDryRunImporterCountsTheSameEachTime", ImportTests.ImporterReuseTests.aDryRunImporterCountsTheSameEachTime),
]
