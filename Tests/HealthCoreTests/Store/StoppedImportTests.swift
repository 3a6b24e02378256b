import Foundation
import Testing
import TestKit
@testable import HealthCore

/// An import of an Apple Health export stopped after its records were written and before its end (where a food entry
/// with sync keys is decided: killed, or failed) leaves a mark in `importing/` (``ImportMark``); the next import of an
/// export takes the records written since as its own, so an older export stopped and run again keeps nothing of the
/// older entry. Before, the second run found the stopped run's records stored before it and kept them: the day's energy
/// counted both versions (650 kcal for 350).
struct StoppedImportTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: stoppedImportTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Ops = OperationTestKit
    private typealias Support = ImportTestSupport
    private typealias Entries = KeyedCorrelationTests
    private static let now = Ops.undoneAt

    /// A store holding the entry's newer version (350 kcal), and the older export's file (300 kcal) beside it.
    private static func withNewerEntryStored(_ body: (_ path: String, _ older: String, _ store: JSONFileStore) throws -> Void) throws {
        try Support.withTemporaryDirectory { folder in
            let path = folder + "/store"
            _ = try Entries.importChecked(Entries.export("2", kcal: "350", layout: .recordsFirst), path: path, batch: 20_000, "newer")
            let older = try Support.write(Entries.export("1", kcal: "300", layout: .recordsFirst), in: folder)
            try body(path, older, JSONFileStore(path: path, timeZone: .gmt))
        }
    }

    /// Imports the file at `file` as the owner, stopping where a kill after its last write would.
    private static func importStopped(_ file: String, path: String, batch: Int = 1) throws {
        let recorded = JSONFileStore(path: path, timeZone: .gmt,
                                     recording: OperationRecording(kind: .import, source: "hkctl", date: Ops.madeAt))
        let stopped = HealthImporter(store: recorded, batchSize: batch)
        stopped.interruption = { throw StoreError.writeFailed(path, reason: "killed") }
        #expect(throws: StoreError.self) { try stopped.importFile(atPath: file) }
    }

    private static func importWhole(_ file: String, path: String, batch: Int = 20_000, _ what: String) throws {
        _ = try Entries.importChecked(String(contentsOfFile: file, encoding: .utf8), path: path, batch: batch, what)
    }

    /// A backup (`.jsonl`) in `folder` of a store holding one water sample.
    private static func backup(in folder: String) throws -> String {
        let other = JSONFileStore(path: folder + "/other", timeZone: .gmt)
        if try !other.isExistingStore() { try other.save([Ops.water(250, hour: 8)]) }
        let backup = folder + "/backup.jsonl"
        _ = try SampleExporter(store: other).export(types: nil, interval: Ops.everything, format: .jsonl,
                                                    exportDate: Ops.madeAt, to: FileDestination(path: backup))
        return backup
    }

    private static func energy(_ store: JSONFileStore) throws -> [String] { try Entries.values(store, Entries.energyType) }

    private static func doctorWarnsOfAStoppedImport(_ store: JSONFileStore) throws -> Bool {
        try StoreDoctor(store: store).check(now: now).findings.contains { $0.file == ImportMark.folder }
    }

    func anOlderExportStoppedAndRunAgainKeepsNothingOfIt() throws {
        try Self.withNewerEntryStored { path, older, store in
            try Self.importStopped(older, path: path)
            try expectEqual(Self.energy(store), ["quantity(300 kcal)", "quantity(350 kcal)"], "stopped")
            #expect(try Self.doctorWarnsOfAStoppedImport(store))
            try Self.importWhole(older, path: path, "again")
            try expectEqual(Self.energy(store), ["quantity(350 kcal)"])
            try expectEqual(Entries.values(store, Entries.proteinType), ["quantity(10 g)"])
            try expectEqual(Entries.entries(store), [["quantity(350 kcal)", "quantity(10 g)"]])
            // The run that settled it took the mark away.
            #expect(!POSIXFile.exists(path + "/" + ImportMark.folder))
            #expect(try !Self.doctorWarnsOfAStoppedImport(store))
            // Undoing the run again brings back what the stopped import left; undoing the stopped import too, the newer
            // entry alone, which the older export once more leaves as it is.
            _ = try store.undo(source: "hkctl", now: Self.now)
            try expectEqual(Self.energy(store), ["quantity(300 kcal)", "quantity(350 kcal)"], "undone")
            _ = try store.undo(source: "hkctl", now: Self.now)
            try expectEqual(Self.energy(store), ["quantity(350 kcal)"], "both undone")
            try Self.importWhole(older, path: path, batch: 1, "third")
            try expectEqual(Self.energy(store), ["quantity(350 kcal)"], "third")
            try expectEqual(Entries.entries(store), [["quantity(350 kcal)", "quantity(10 g)"]], "third")
        }
    }

    /// A Health Auto Export push and a backup's import between the stopped import and its next run take nothing over
    /// (they decide no entry), and a compaction that drops deletions made since the mark does not refuse the next run's
    /// read of what was written.
    func aPushABackupAndACompactionBetweenLeaveTheMarkToTheExportsNextRun() throws {
        try Self.withNewerEntryStored { path, older, store in
            try Self.importStopped(older, path: path, batch: 20_000)
            try Support.pushHAE(Support.haeSteps([(date: "2024-03-12 08:00:00", steps: 1_200)]), into: store)
            #expect(try Self.doctorWarnsOfAStoppedImport(store), "the push left the mark")
            let backup = try Self.backup(in: (path as NSString).deletingLastPathComponent)
            expectEqual(try HealthImporter(store: store).importFile(atPath: backup).counts.values.map(\.added).reduce(0, +), 1)
            #expect(try Self.doctorWarnsOfAStoppedImport(store), "the backup's import left the mark")
            let water = Ops.water(500, hour: 9)
            try store.save([water])
            try store.delete(uuids: [water.uuid], now: Self.now)
            let report = try store.compact(now: Self.now.addingTimeInterval(86_400), retention: 0)
            #expect(report.tombstonesDropped > 0, "the compaction dropped the deletion made after the mark")
            try Self.importWhole(older, path: path, "after the push and the compaction")
            try expectEqual(Self.energy(store), ["quantity(350 kcal)"])
            try expectEqual(Entries.entries(store), [["quantity(350 kcal)", "quantity(10 g)"]])
        }
    }

    /// A stopped import that wrote nothing (every record stored already) leaves the store as it was, mark and folder
    /// included; so does a dry run.
    func anImportThatWroteNothingLeavesNoMark() throws {
        try Self.withNewerEntryStored { path, _, store in
            let newer = try Support.write(Entries.export("2", kcal: "350", layout: .recordsFirst), named: "newer.xml",
                                          in: (path as NSString).deletingLastPathComponent)
            let before = Ops.tree(path)
            try Self.importStopped(newer, path: path)
            expectEqual(Ops.tree(path), before)
            _ = try Support.importXML(String(contentsOfFile: newer, encoding: .utf8), into: store, dryRun: true)
            expectEqual(Ops.tree(path), before)
        }
    }

    /// A mark whose import still runs (its lock held) is nobody else's to take over; once its process is gone (the
    /// lock with it) it is, with the change number it was left at, and while one import holds it taken over, no other
    /// import takes it too. A mark's start that a crash left without its number is removed once it is an hour old.
    func onlyAStoppedImportsMarkIsTakenOver() throws {
        try Self.withNewerEntryStored { path, _, store in
            let folder = path + "/" + ImportMark.folder
            var running: ImportMark? = try ImportMark(in: store, takingOver: StoppedImports(folder: folder))
            let number = try #require(running?.number)
            expectEqual(number, try store.currentSequence())
            let whileRunning = try store.unfinishedImports()
            expectEqual(whileRunning.marks.count, 0)
            expectEqual(whileRunning.since, nil)
            #expect(try !Self.doctorWarnsOfAStoppedImport(store))
            running = nil  // As a kill would: the file stays, its lock goes.
            var takenOver: StoppedImports? = try store.unfinishedImports()
            expectEqual(takenOver?.marks.count, 1)
            expectEqual(takenOver?.since, number)
            #expect(takenOver?.marks.allSatisfy { $0.path.hasPrefix(folder + "/") } == true)
            // Another import meanwhile finds nothing to take over.
            expectEqual(try store.unfinishedImports().marks.count, 0)
            takenOver = nil
            expectEqual(try store.unfinishedImports().marks.count, 1)
            // A start without its number: left alone while it is new, removed with the marks once an hour old.
            let fresh = folder + "/.fresh", old = folder + "/.old"
            for file in [fresh, old] { #expect(FileManager.default.createFile(atPath: file, contents: Data())) }
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-7_200)], ofItemAtPath: old)
            let found = try store.unfinishedImports()
            expectEqual(found.leftovers, [old])
            found.remove()
            expectEqual(try FileManager.default.contentsOfDirectory(atPath: folder), [".fresh"])
        }
    }

    /// Undoing the stopped import takes its records back and its mark with it: `doctor` no longer warns, and nothing
    /// is left for a next import to take over. An undo of an import that ended leaves another import's mark alone.
    func undoingAStoppedImportTakesItsMarkAway() throws {
        try Self.withNewerEntryStored { path, older, store in
            try Self.importStopped(older, path: path)
            #expect(try Self.doctorWarnsOfAStoppedImport(store))
            _ = try store.undo(source: "hkctl", now: Self.now)
            try expectEqual(Self.energy(store), ["quantity(350 kcal)"])
            #expect(try !Self.doctorWarnsOfAStoppedImport(store))
            #expect(!POSIXFile.exists(path + "/" + ImportMark.folder))
            // A stopped import, then a backup's import (which takes no mark over), undone: the stopped one's mark stays.
            try Self.importStopped(older, path: path)
            let backup = try Self.backup(in: (path as NSString).deletingLastPathComponent)
            let recorded = JSONFileStore(path: path, timeZone: .gmt,
                                         recording: OperationRecording(kind: .import, source: "hkctl", date: Ops.madeAt))
            _ = try HealthImporter(store: recorded).importFile(atPath: backup)
            let undone = try store.undo(source: "hkctl", now: Self.now)
            expectEqual(undone.kind, .import)
            try expectEqual(Ops.visible(store).count, 0, "the backup's water is taken back")
            #expect(try Self.doctorWarnsOfAStoppedImport(store))
        }
    }

    /// An import that stops having written nothing itself takes its mark away even when another process wrote while it
    /// ran (its recorded operation never got an id).
    func anImportThatWroteNothingBesideAnotherWriterLeavesNoMark() throws {
        try Self.withNewerEntryStored { path, _, store in
            let newer = try Support.write(Entries.export("2", kcal: "350", layout: .recordsFirst), named: "newer.xml",
                                          in: (path as NSString).deletingLastPathComponent)
            let recorded = JSONFileStore(path: path, timeZone: .gmt,
                                         recording: OperationRecording(kind: .import, source: "hkctl", date: Ops.madeAt))
            let stopped = HealthImporter(store: recorded, batchSize: 1)
            stopped.interruption = {
                try JSONFileStore(path: path, timeZone: .gmt).save([Ops.water(300, hour: 7)])
                throw StoreError.writeFailed(path, reason: "refused")
            }
            #expect(throws: StoreError.self) { try stopped.importFile(atPath: newer) }
            try expectEqual(Ops.visible(store).count, 1, "the other writer's sample")
            #expect(!POSIXFile.exists(path + "/" + ImportMark.folder))
        }
    }
}

private let stoppedImportTestsChecks: [Check<StoppedImportTests>] = [
    Check("anOlderExportStoppedAndRunAgainKeepsNothingOfIt", StoppedImportTests.anOlderExportStoppedAndRunAgainKeepsNothingOfIt),
    Check("aPushABackupAndACompactionBetweenLeaveTheMarkToTheExportsNextRun",
          StoppedImportTests.aPushABackupAndACompactionBetweenLeaveTheMarkToTheExportsNextRun),
    Check("anImportThatWroteNothingLeavesNoMark", StoppedImportTests.anImportThatWroteNothingLeavesNoMark),
    Check("onlyAStoppedImportsMarkIsTakenOver", StoppedImportTests.onlyAStoppedImportsMarkIsTakenOver),
    Check("undoingAStoppedImportTakesItsMarkAway", StoppedImportTests.undoingAStoppedImportTakesItsMarkAway),
    Check("anImportThatWroteNothingBesideAnotherWriterLeavesNoMark",
          StoppedImportTests.anImportThatWroteNothingBesideAnotherWriterLeavesNoMark),
]
