import Foundation
import Testing
import TestKit
@testable import HealthCore

/// A folder of Health Auto Export files is not read again once an import of it stored nothing and neither its files
/// nor the store changed since (``FolderImportRecord``): reading every file would store nothing then either, and
/// every reason to read them all (a file changed, new or gone, a write to the store, other zone rules, no or a
/// damaged record, a dry run, another source, `rereadsUnchangedFiles`) must do so.
struct FolderImportRecordTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: folderImportRecordTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Batch = ImportTests.HAEBatchSizeTests
    private static let berlin = ZoneRules(secondsFromGMT: 7200)
    private static let unrelated: [String?] = ["Watch", "iPhone", "Strap"]

    /// A file store's samples as comparable lines (``Batch/contents(_:)``: type, times, value, source, sync version).
    private static func contents(_ store: JSONFileStore) throws -> [String] {
        let types = try FileManager.default.contentsOfDirectory(atPath: store.path + "/samples")
        let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
        return try Batch.contents(types.flatMap { try store.samples(ofType: $0, overlapping: everything) })
    }

    private static func importing(_ folder: String, into store: JSONFileStore, zone: ZoneRules = berlin,
                                  rereading: Bool = false, dryRun: Bool = false) throws -> ImportReceipt {
        try HealthImporter(store: store, dryRun: dryRun, zoneRules: zone, rereadsUnchangedFiles: rereading).importFile(atPath: folder)
    }

    private static func write(_ text: String, _ path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    private static func copy(_ from: String, _ to: String) throws {
        try FileManager.default.copyItem(atPath: from, toPath: to)
    }

    /// Random folders of three to six files re-sending the same times (some from related sources, which a new
    /// import replays): imported again and again, an import reads nothing only after one that stored nothing, and
    /// then reading every file (from a copy of the store) stores nothing either: the store's files stay byte for
    /// byte. Any change to a file, a new file, or a write to the store in between reads every file again.
    func unchangedFoldersAreNotReadAgain() throws {
        var random = IndependentTestKit.SeededGenerator(seed: 71)
        try ImportTestSupport.withTemporaryDirectory { directory in
            for trial in 0..<12 {
                let root = directory + "/\(trial)"
                let folder = root + "/in"
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                // Times no later file's minute crosses, and unrelated sources: a folder an import of which can store
                // nothing (crossed readings and related sources are replayed by every import: never skipped).
                let times = Array(Batch.pick(Batch.timeSets, &random).prefix(2))
                let count = 3 + Int(random.next() % 4)
                for number in 0..<count {
                    try Self.write(Batch.randomPayload(&random, times: times, sources: Self.unrelated), folder + "/\(number)0.json")
                }
                let store = JSONFileStore(path: root + "/store", lockTimeout: 2)
                expectEqual(try Self.importing(folder, into: store).unreadFiles, 0, "trial \(trial): a first import reads every file")
                try Self.settle(folder, store, "trial \(trial)")
                try Self.copy(root + "/store", root + "/every")
                let lines = try Self.lines(root + "/store")
                let again = try Self.importing(folder, into: store)
                expectEqual(again.unreadFiles, count, "trial \(trial): nothing changed")
                expectEqual(again.totals.total, 0, "trial \(trial)")
                expectEqual(try Self.lines(root + "/store"), lines, "trial \(trial): nothing written")
                // Reading every file from the same store stores nothing either.
                let every = JSONFileStore(path: root + "/every", lockTimeout: 2)
                let read = try Self.importing(folder, into: every, rereading: true)
                expectEqual(read.unreadFiles, 0)
                expectEqual(read.totals.added + read.totals.replaced, 0, "trial \(trial)")
                expectEqual(try Self.lines(root + "/every"), lines, "trial \(trial): reading every file wrote nothing")

                // A change: one file written again (its bytes, or new ones of the same size), a new file, or a
                // sample saved meanwhile.
                switch trial % 4 {
                case 0:
                    let name = folder + "/\(Int(random.next() % UInt64(count)))0.json"
                    try Self.write(try String(contentsOfFile: name, encoding: .utf8), name)
                    expectEqual(try Self.importing(folder, into: store).unreadFiles, count, "trial \(trial): the same bytes")
                    continue
                case 1:
                    let name = folder + "/\(Int(random.next() % UInt64(count)))0.json"
                    let text = try String(contentsOfFile: name, encoding: .utf8)
                    try Self.write(text.replacingOccurrences(of: "\"qty\":1", with: "\"qty\":2"), name)
                case 2:
                    try Self.write(Batch.randomPayload(&random, times: times, sources: Self.unrelated), folder + "/\(count - 1)5.json")
                default:
                    try store.save([IndependentTestKit.steps(5, IndependentTestKit.utc(2024, 1, 1))])
                }
                expectEqual(try Self.importing(folder, into: store).unreadFiles, 0, "trial \(trial): changed, read again")
                try Self.settle(folder, store, "trial \(trial), after the change")
            }
        }
    }

    /// Imports `folder` until an import reads nothing (at most four times): each import before it must have read
    /// every file, and the one just before it stored nothing.
    private static func settle(_ folder: String, _ store: JSONFileStore, _ note: String) throws {
        for _ in 0..<4 {
            let before = try store.sampleFilesFingerprint()
            let receipt = try importing(folder, into: store)
            if receipt.unreadFiles > 0 { return }
            if try store.sampleFilesFingerprint() == before {
                // It stored nothing: the next import reads nothing.
                let count = try FileManager.default.contentsOfDirectory(atPath: folder).count
                expectEqual(try importing(folder, into: store).unreadFiles, count, "\(note)")
                return
            }
        }
        Issue.record(Comment(rawValue: "\(note): four imports in a row stored something"))
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
    /// records), a zone with the same name and other rules, a damaged or missing record, a dry run (which keeps no
    /// record either), a file gone or new, a repair that takes a line out without a change number, another source
    /// importing, and `rereadsUnchangedFiles`.
    func everyReasonToReadAgainReadsEveryFile() throws {
        try ImportTestSupport.withTemporaryDirectory { directory in
            let folder = directory + "/in"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            var random = IndependentTestKit.SeededGenerator(seed: 5)
            for number in 0..<3 {
                try Self.write(Batch.randomPayload(&random, times: Array(Batch.timeSets[0].prefix(2)), sources: Self.unrelated),
                               folder + "/\(number).json")
            }
            let store = JSONFileStore(path: directory + "/store", lockTimeout: 2)
            expectEqual(try Self.importing(folder, into: store).unreadFiles, 0)
            expectEqual(try Self.importing(folder, into: store).unreadFiles, 0, "the first import stored samples: no record")
            expectEqual(try Self.importing(folder, into: store).unreadFiles, 3, "the second stored nothing")
            let stored = try Self.contents(store)

            // A deletion changes the store: every file is read, and the deleted point comes back.
            let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
            let victim = try #require(try store.samples(ofType: "HKQuantityTypeIdentifierStepCount", overlapping: everything).first)
            _ = try store.delete(uuids: [victim.uuid], now: Date())
            let afterDelete = try Self.importing(folder, into: store)
            expectEqual(afterDelete.unreadFiles, 0)
            #expect(afterDelete.totals.added >= 1, "the deleted point is stored again")
            expectEqual(try Self.contents(store).count, stored.count)
            try Self.settle(folder, store, "after a deletion")

            // A zone of the same name with other rules (a zone file replaced) reads every file.
            let other = ZoneRules(identifier: Self.berlin.identifier, fixedOffset: 3600)
            expectEqual(try Self.importing(folder, into: store, zone: other).unreadFiles, 0)
            try Self.settle(folder, store, "another zone")

            // Asked to read every file.
            expectEqual(try Self.importing(folder, into: store, rereading: true).unreadFiles, 0)

            // A dry run reads every file and keeps no record.
            let record = directory + "/store/" + FolderImportRecords.file
            let kept = try Data(contentsOf: URL(fileURLWithPath: record))
            expectEqual(try Self.importing(folder, into: store, dryRun: true).unreadFiles, 0)
            try FileManager.default.removeItem(atPath: record)
            expectEqual(try Self.importing(folder, into: store, dryRun: true).unreadFiles, 0)
            #expect(!FileManager.default.fileExists(atPath: record), "a dry run keeps no record")

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
            try Self.settle(folder, store, "a file back")
            expectEqual(Self.withoutVersions(try Self.contents(store)), Self.withoutVersions(stored))

            // A sample file rewritten without a change number (as `doctor --repair` quarantines a line) reads every file.
            let month = try #require(try store.partitions(ofType: "HKQuantityTypeIdentifierStepCount", overlapping: everything).first)
            let visible = try #require(try store.samples(ofType: "HKQuantityTypeIdentifierStepCount", overlapping: everything).first)
            let lines = try String(contentsOfFile: store.path + "/" + month, encoding: .utf8).split(separator: "\n")
                .filter { !$0.contains(visible.uuid.uuidString.lowercased()) }
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: store.path + "/" + month))
            let afterRepair = try Self.importing(folder, into: store)
            expectEqual(afterRepair.unreadFiles, 0)
            #expect(afterRepair.totals.added >= 1, "the line taken out is stored again")

            // Another source than the owner keeps no record (its permissions can change).
            let health = try HealthStore(storage: store, source: "Shortcuts")
            try HealthStore(storage: store, source: AuthorizationState.ownerSource)
                .decideAuthorization(for: "Shortcuts", allow: true, share: [.steps, try #require(ObjectType.quantityType(forIdentifier: .heartRate))], read: [])
            for _ in 0..<3 {
                expectEqual(try HealthImporter(store: health, zoneRules: Self.berlin).importFile(atPath: folder).unreadFiles, 0)
            }
        }
    }

    /// The record file keeps any name exactly, and reads back only when whole; a file's digest is of its bytes.
    func recordsReadBackWhole() throws {
        var records = FolderImportRecords()
        let names = ["plain.json", "with space.json", "quote\"and\\slash.json", "new\nline.json", "ünï😀.json"]
        for number in 0..<20 {
            records.keep(FolderImportRecord(
                folder: "/data/folder \(number % 17)", options: "zone=Europe/Berlin#1f", store: UInt64.max - UInt64(number),
                files: names.enumerated().map { index, name in
                    FolderImportRecord.File(name: name, size: Int64(index), digest: UInt64.max - UInt64(index))
                }))
        }
        expectEqual(records.folders.count, FolderImportRecords.limit, "at most the limit, the newest kept")
        expectEqual(records.folders.first?.folder, "/data/folder 2")
        expectEqual(Set(records.folders.map(\.folder)).count, records.folders.count, "one record a folder")
        let bytes = records.bytes
        expectEqual(FolderImportRecords(bytes: bytes), records)
        expectNil(FolderImportRecords(bytes: Array(bytes.dropLast(4))), "cut short")
        expectNil(FolderImportRecords(bytes: Array("hkctl-folder-imports 1\nend\n".utf8)), "another version")
        expectNil(FolderImportRecords(bytes: Array("hkctl-folder-imports 2\nfile \"a\" 1 2\nend\n".utf8)),
                  "a file before its folder")
        expectEqual(FolderImportRecords(bytes: Array("hkctl-folder-imports 2\nend\n".utf8))?.folders, [])

        let record = try #require(records.folders.first)
        let now = record.files.map { Optional($0) }
        #expect(record.holdsUnchanged(now))
        var changed = now
        changed[2]?.digest ^= 1
        #expect(!record.holdsUnchanged(changed), "a file written again")
        changed = now
        changed[1] = nil
        #expect(!record.holdsUnchanged(changed), "a file that cannot be read now")
        #expect(!record.holdsUnchanged(Array(now.dropLast())), "a file gone")
        changed = now
        changed.insert(FolderImportRecord.File(name: "new.json", size: 1, digest: 1), at: 3)
        #expect(!record.holdsUnchanged(changed), "a new file")

        try ImportTestSupport.withTemporaryDirectory { directory in
            let path = directory + "/f"
            try Self.write("abc", path)
            let file = try #require(FolderImportRecord.File(name: "f", path: path))
            expectEqual(file.size, 3)
            expectEqual(file.digest, 0xe71fa2190541574b, "FNV-1a of abc")
            try Self.write("abd", path)
            #expect(FolderImportRecord.File(name: "f", path: path) != file, "the same size, other bytes")
            expectNil(FolderImportRecord.File(name: "g", path: directory + "/g"))
        }
        // The zone's rules, not just its name.
        #expect(FolderImportRecord.options(zone: ZoneRules(identifier: "X", fixedOffset: 3600))
                != FolderImportRecord.options(zone: ZoneRules(identifier: "X", fixedOffset: 7200)))
        expectEqual(FolderImportRecord.options(zone: ZoneRules(identifier: "X", fixedOffset: 3600)),
                    FolderImportRecord.options(zone: ZoneRules(identifier: "X", fixedOffset: 3600)))
    }
}

/// The checks ``FolderImportRecordTests/checks(_:)`` runs.
private let folderImportRecordTestsChecks: [Check<FolderImportRecordTests>] = [
    Check("unchangedFoldersAreNotReadAgain", FolderImportRecordTests.unchangedFoldersAreNotReadAgain),
    Check("everyReasonToReadAgainReadsEveryFile", FolderImportRecordTests.everyReasonToReadAgainReadsEveryFile),
    Check("recordsReadBackWhole", FolderImportRecordTests.recordsReadBackWhole),
]
