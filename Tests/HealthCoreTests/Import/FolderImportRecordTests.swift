import Foundation
import Testing
import TestKit
@testable import HealthCore

/// A folder of Health Auto Export files imported again into a store that has not changed since is not read
/// (``FolderImportRecord``): the store must be as reading every file leaves it, and every reason to read them all
/// (a file changed, new or gone, a write to the store, other options, no or a damaged record, a dry run, another
/// source, `rereadsUnchangedFiles`) must do so.
struct FolderImportRecordTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: folderImportRecordTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Batch = ImportTests.HAEBatchSizeTests
    private static let berlin = ZoneRules(secondsFromGMT: 7200)

    /// A file store's samples as comparable lines (``Batch/contents(_:)``: type, times, value, source, sync version).
    private static func contents(_ store: JSONFileStore) throws -> [String] {
        let types = try FileManager.default.contentsOfDirectory(atPath: store.path + "/samples")
        let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
        return try Batch.contents(types.flatMap { try store.samples(ofType: $0, overlapping: everything) })
    }

    private static func importing(_ folder: String, into store: JSONFileStore, zone: ZoneRules = berlin,
                                  rereading: Bool = false, dryRun: Bool = false) throws -> ImportReceipt {
        let importer = HealthImporter(store: store, dryRun: dryRun, zoneRules: zone)
        importer.rereadsUnchangedFiles = rereading
        return try importer.importFile(atPath: folder)
    }

    private static func write(_ text: String, _ path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    private static func copy(_ from: String, _ to: String) throws {
        try FileManager.default.copyItem(atPath: from, toPath: to)
    }

    /// Random folders of three to six files re-sending the same times (some from related sources, which a new
    /// import of the same files replays): imported again into the store the import left, nothing is read or written
    /// (the store's lines stay byte for byte), and what reading every file would store is what is there, versions
    /// aside. Any change to a file, a new file, or a write to the store in between reads every file again.
    func unchangedFoldersAreNotReadAgain() throws {
        var random = IndependentTestKit.SeededGenerator(seed: 71)
        try ImportTestSupport.withTemporaryDirectory { directory in
            for trial in 0..<12 {
                let root = directory + "/\(trial)"
                let folder = root + "/in"
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                let times = Batch.pick(Batch.timeSets, &random)
                let count = 3 + Int(random.next() % 4)
                for number in 0..<count {
                    try Self.write(Batch.randomPayload(&random, times: times), folder + "/\(number)0.json")
                }
                let store = JSONFileStore(path: root + "/store", lockTimeout: 2)
                expectEqual(try Self.importing(folder, into: store).unreadFiles, 0, "trial \(trial): a first import reads every file")
                let lines = try Self.lines(root + "/store")
                try Self.copy(root + "/store", root + "/every")
                let again = try Self.importing(folder, into: store)
                expectEqual(again.unreadFiles, count, "trial \(trial): nothing changed")
                expectEqual(again.totals.total, 0, "trial \(trial)")
                expectEqual(try Self.lines(root + "/store"), lines, "trial \(trial): nothing written")
                let every = JSONFileStore(path: root + "/every", lockTimeout: 2)
                expectEqual(try Self.importing(folder, into: every, rereading: true).unreadFiles, 0)
                expectEqual(Self.withoutVersions(try Self.contents(store)), Self.withoutVersions(try Self.contents(every)),
                            "trial \(trial): reading every file stores the same samples")

                // A change: one file written again (its bytes, or new ones), a new file, or a sample saved meanwhile.
                switch trial % 4 {
                case 0:
                    let name = folder + "/\(Int(random.next() % UInt64(count)))0.json"
                    try Self.write(try String(contentsOfFile: name, encoding: .utf8), name)
                case 1:
                    try Self.write(Batch.randomPayload(&random, times: times), folder + "/\(Int(random.next() % UInt64(count)))0.json")
                case 2:
                    try Self.write(Batch.randomPayload(&random, times: times), folder + "/\(count - 1)5.json")
                default:
                    try store.save([IndependentTestKit.steps(5, IndependentTestKit.utc(2024, 1, 1))])
                }
                expectEqual(try Self.importing(folder, into: store).unreadFiles, 0, "trial \(trial): changed, read again")
                #expect(try Self.importing(folder, into: store).unreadFiles > 0, "trial \(trial): recorded again")
            }
        }
    }

    /// The store's sample files, by path, byte for byte.
    private static func lines(_ store: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let samples = store + "/samples"
        for type in try FileManager.default.contentsOfDirectory(atPath: samples) {
            for name in try FileManager.default.contentsOfDirectory(atPath: samples + "/" + type) {
                files[type + "/" + name] = try Data(contentsOf: URL(fileURLWithPath: samples + "/" + type + "/" + name))
            }
        }
        return files
    }

    private static func withoutVersions(_ lines: [String]) -> [String] {
        lines.map { $0.replacing(#/\sv[0-9.]+$/#, with: "") }.sorted()
    }

    /// Every reason to read every file again does so: a sample deleted since (its point is stored again, as before
    /// records), other options, a damaged or missing record, a dry run (which keeps no record either), a file gone or
    /// new, another source importing, and `rereadsUnchangedFiles`.
    func everyReasonToReadAgainReadsEveryFile() throws {
        try ImportTestSupport.withTemporaryDirectory { directory in
            let folder = directory + "/in"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            var random = IndependentTestKit.SeededGenerator(seed: 5)
            for number in 0..<3 {
                try Self.write(Batch.randomPayload(&random, sources: ["Watch"]), folder + "/\(number).json")
            }
            let store = JSONFileStore(path: directory + "/store", lockTimeout: 2)
            _ = try Self.importing(folder, into: store)
            let stored = try Self.contents(store)
            expectEqual(try Self.importing(folder, into: store).unreadFiles, 3)

            // A deletion changes the store: every file is read, and the deleted point comes back.
            let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
            let victim = try #require(try store.samples(ofType: "HKQuantityTypeIdentifierStepCount", overlapping: everything).first)
            _ = try store.delete(uuids: [victim.uuid], now: Date())
            let afterDelete = try Self.importing(folder, into: store)
            expectEqual(afterDelete.unreadFiles, 0)
            #expect(afterDelete.totals.added >= 1, "the deleted point is stored again")
            expectEqual(try Self.contents(store).count, stored.count)
            expectEqual(try Self.importing(folder, into: store).unreadFiles, 3, "recorded again")

            // Other options (another zone) read every file.
            expectEqual(try Self.importing(folder, into: store, zone: ZoneRules(secondsFromGMT: 3600)).unreadFiles, 0)
            expectEqual(try Self.importing(folder, into: store).unreadFiles, 0, "the record is the other zone's now")
            expectEqual(try Self.importing(folder, into: store).unreadFiles, 3)

            // Asked to read every file.
            expectEqual(try Self.importing(folder, into: store, rereading: true).unreadFiles, 0)

            // A dry run reads every file and keeps no record.
            let record = directory + "/store/" + FolderImportRecords.file
            let kept = try Data(contentsOf: URL(fileURLWithPath: record))
            expectEqual(try Self.importing(folder, into: store, dryRun: true).unreadFiles, 0)
            expectEqual(try Data(contentsOf: URL(fileURLWithPath: record)), kept)
            try FileManager.default.removeItem(atPath: record)
            expectEqual(try Self.importing(folder, into: store, dryRun: true).unreadFiles, 0)
            #expect(!FileManager.default.fileExists(atPath: record), "a dry run keeps no record")
            try kept.write(to: URL(fileURLWithPath: record))

            // A record cut short, or none, is no record.
            try kept.prefix(kept.count - 4).write(to: URL(fileURLWithPath: record))
            expectEqual(try Self.importing(folder, into: store).unreadFiles, 0)
            try FileManager.default.removeItem(atPath: record)
            expectEqual(try Self.importing(folder, into: store).unreadFiles, 0)
            expectEqual(try Self.importing(folder, into: store).unreadFiles, 3)

            // A file gone, or a new one: every file is read.
            try FileManager.default.moveItem(atPath: folder + "/2.json", toPath: directory + "/2.json")
            expectEqual(try Self.importing(folder, into: store).unreadFiles, 0)
            try FileManager.default.moveItem(atPath: directory + "/2.json", toPath: folder + "/2.json")
            expectEqual(try Self.importing(folder, into: store).unreadFiles, 0)
            expectEqual(try Self.importing(folder, into: store).unreadFiles, 3)
            expectEqual(try Self.contents(store), stored)

            // Another source than the owner keeps no record (its permissions can change).
            let health = try HealthStore(storage: store, source: "Shortcuts")
            try HealthStore(storage: store, source: AuthorizationState.ownerSource)
                .decideAuthorization(for: "Shortcuts", allow: true, share: [.steps, try #require(ObjectType.quantityType(forIdentifier: .heartRate))], read: [])
            expectEqual(try HealthImporter(store: health, zoneRules: Self.berlin).importFile(atPath: folder).unreadFiles, 0)
            expectEqual(try HealthImporter(store: health, zoneRules: Self.berlin).importFile(atPath: folder).unreadFiles, 0)
        }
    }

    /// The record file keeps any name exactly, and reads back only when whole.
    func recordsReadBackWhole() throws {
        var records = FolderImportRecords()
        let names = ["plain.json", "with space.json", "quote\"and\\slash.json", "new\nline.json", "ünï😀.json"]
        for number in 0..<20 {
            records.keep(FolderImportRecord(
                folder: "/data/folder \(number % 17)", options: "zone=Europe/Berlin;source=",
                changeNumber: UInt64(number) << 40,
                files: names.enumerated().map { index, name in
                    FolderImportRecord.File(name: name, device: UInt64.max - UInt64(index), inode: UInt64(index), size: 10,
                                            modified: [Int64(number), 5], changed: [6, 7])
                }))
        }
        expectEqual(records.folders.count, FolderImportRecords.limit, "at most the limit, the newest kept")
        expectEqual(records.folders.first?.folder, "/data/folder 2")
        expectEqual(Set(records.folders.map(\.folder)).count, records.folders.count, "one record a folder")
        let bytes = records.bytes
        expectEqual(FolderImportRecords(bytes: bytes), records)
        expectNil(FolderImportRecords(bytes: Array(bytes.dropLast(4))), "cut short")
        expectNil(FolderImportRecords(bytes: Array("hkctl-folder-imports 2\nend\n".utf8)), "another version")
        expectNil(FolderImportRecords(bytes: Array("hkctl-folder-imports 1\nfile \"a\" 1 2 3 4 5 6 7\nend\n".utf8)),
                  "a file before its folder")
        expectEqual(FolderImportRecords(bytes: Array("hkctl-folder-imports 1\nend\n".utf8))?.folders, [])

        let record = try #require(records.folders.first)
        let now = record.files.map { Optional($0) }
        #expect(record.holdsUnchanged(now))
        var changed = now
        changed[2]?.changed = [6, 8]
        #expect(!record.holdsUnchanged(changed), "a file written again")
        changed = now
        changed[1] = nil
        #expect(!record.holdsUnchanged(changed), "a file that cannot be read now")
        #expect(!record.holdsUnchanged(Array(now.dropLast())), "a file gone")
        changed = now
        changed.insert(FolderImportRecord.File(name: "new.json", device: 1, inode: 1, size: 1, modified: [0, 0], changed: [0, 0]),
                       at: 3)
        #expect(!record.holdsUnchanged(changed), "a new file")
    }
}

/// The checks ``FolderImportRecordTests/checks(_:)`` runs.
private let folderImportRecordTestsChecks: [Check<FolderImportRecordTests>] = [
    Check("unchangedFoldersAreNotReadAgain", FolderImportRecordTests.unchangedFoldersAreNotReadAgain),
    Check("everyReasonToReadAgainReadsEveryFile", FolderImportRecordTests.everyReasonToReadAgainReadsEveryFile),
    Check("recordsReadBackWhole", FolderImportRecordTests.recordsReadBackWhole),
]
