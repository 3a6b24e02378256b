#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TestKit

/// Session 19's review of stored readings (`derived/readings/<type>/<month>.readings`) through the built binary:
/// discrete statistics (average, minimum, maximum, latest; by hour, day and month; ranges on month edges and inside
/// seconds) must print the same with the readings being built, kept and with `derived/` removed, after every kind of
/// change to the month: an add, a delete, an undo, an import, a torn tail, a readings file damaged, cut short, moved
/// to another month or taken from another store.
struct S19ReviewReadingsCLITests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: s19ReviewReadingsCLITestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    static let queries: [[String]] = [
        ["stats", "heart-rate", "--from", "2024-04-30", "--to", "2024-05-03", "--by", "day", "--average", "--min", "--max", "--latest"],
        ["stats", "heart-rate", "--from", "2024-05-01 10:17:31", "--to", "2024-05-02 03:41:07", "--by", "hour", "--average", "--min", "--max"],
        ["stats", "heart-rate", "--from", "2024-04-01", "--to", "2024-06-30", "--by", "month", "--average", "--min", "--max", "--latest"],
        ["stats", "heart-rate", "--from", "2024-05-02 23:59:59", "--to", "2024-06-01 00:00:01", "--every", "7h", "--average", "--min"],
    ]

    /// Every query's output (status, stdout, stderr).
    static func answers(_ cli: CLIRunner) throws -> [String] {
        try queries.map { arguments in
            let result = try cli.run(arguments + ["--format", "json"])
            return "\(result.status)\n\(result.stdout)\n\(result.stderr)"
        }
    }

    static func derived(_ cli: CLIRunner) -> String { cli.storePath + "/derived" }

    /// The answers built (first read), kept (second read) and without `derived/` must be equal; returns them.
    @discardableResult
    static func checkAgree(_ cli: CLIRunner, _ step: String) throws -> [String] {
        let built = try answers(cli)
        let kept = try answers(cli)
        let stash = cli.storePath + "-derived-\(UUID().uuidString)"
        if FileManager.default.fileExists(atPath: derived(cli)) { try FileManager.default.moveItem(atPath: derived(cli), toPath: stash) }
        let plain = try answers(cli)
        try? FileManager.default.removeItem(atPath: derived(cli))
        if FileManager.default.fileExists(atPath: stash) { try FileManager.default.moveItem(atPath: stash, toPath: derived(cli)) }
        expectEqual(built, plain, "\(step): built")
        expectEqual(kept, plain, "\(step): kept")
        return plain
    }

    static func readingsFiles(_ cli: CLIRunner) -> [String] {
        let root = derived(cli) + "/readings"
        let names = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String]) ?? []
        return names.filter { $0.hasSuffix(".readings") }.map { root + "/" + $0 }.sorted()
    }

    static func partition(_ cli: CLIRunner, month: String) throws -> String {
        let samples = cli.storePath + "/samples"
        let names = (FileManager.default.enumerator(atPath: samples)?.allObjects as? [String]) ?? []
        let found = names.first { $0.contains("HeartRate") && $0.hasSuffix(month + ".jsonl") }
        return samples + "/" + (try #require(found))
    }

    func statisticsAgreeWithAndWithoutReadingsAfterEveryChange() throws {
        try CLIRunner.withTemporaryStore { cli in
            let folder = (cli.storePath as NSString).deletingLastPathComponent
            let payload = folder + "/days.json", grown = folder + "/grown.json"
            try S19ReviewHAECLITests.payload(hours: 48, seed: 21, shift: -43_200).write(toFile: payload, atomically: true, encoding: .utf8)
            // Other minutes of the same days (points 30 s later would be another form: replacing them costs seconds).
            try S19ReviewHAECLITests.payload(hours: 24, seed: 22, shift: 60).write(toFile: grown, atomically: true, encoding: .utf8)
            try expectEqual(cli.run(["import", payload, "-q"]).status, 0)
            let first = try Self.checkAgree(cli, "imported")
            #expect(!Self.readingsFiles(cli).isEmpty, "no readings were kept")
            // An add inside the range, then its delete, then the undo of the delete.
            let added = try cli.run(["add", "heart-rate", "151bpm", "--at", "2024-05-01 12:00:30", "-q"])
            expectEqual(added.status, 0, "\(added.stderr)")
            let withAdd = try Self.checkAgree(cli, "added")
            #expect(withAdd != first)
            try expectEqual(cli.run(["delete", "--last", "heart-rate", "--yes", "-q"]).status, 0)
            try expectEqual(Self.checkAgree(cli, "deleted"), first)
            try expectEqual(cli.run(["undo", "--yes", "-q"]).status, 0)
            try expectEqual(Self.checkAgree(cli, "undone"), withAdd)
            // Another import into the same months.
            try expectEqual(cli.run(["import", grown, "-q"]).status, 0)
            try Self.checkAgree(cli, "imported again")
            // A torn tail: half a line, no newline, appended by hand.
            let may = try Self.partition(cli, month: "2024-05")
            let handle = try #require(FileHandle(forWritingAtPath: may))
            handle.seekToEndOfFile()
            handle.write(Data("{\"uuid\":\"0A0B".utf8))
            handle.closeFile()
            try Self.checkAgree(cli, "torn tail")
        }
    }

    func damagedMovedAndForeignReadingsFilesChangeNoFigure() throws {
        try CLIRunner.withTemporaryStore { other in
            try CLIRunner.withTemporaryStore { cli in
                let folder = (cli.storePath as NSString).deletingLastPathComponent
                let payload = folder + "/days.json", otherPayload = folder + "/other.json"
                try S19ReviewHAECLITests.payload(hours: 48, seed: 31, shift: -43_200).write(toFile: payload, atomically: true, encoding: .utf8)
                try S19ReviewHAECLITests.payload(hours: 48, seed: 32, shift: -43_200).write(toFile: otherPayload, atomically: true, encoding: .utf8)
                try expectEqual(cli.run(["import", payload, "-q"]).status, 0)
                try expectEqual(other.run(["import", otherPayload, "-q"]).status, 0)
                let truth = try Self.checkAgree(cli, "imported")
                _ = try Self.answers(other)
                let files = Self.readingsFiles(cli)
                try #require(files.count >= 2, "\(files)")
                func restoreAndCheck(_ step: String, _ damage: (String) throws -> Void) throws {
                    _ = try Self.answers(cli)
                    for file in Self.readingsFiles(cli) { try damage(file) }
                    try expectEqual(Self.answers(cli), truth, "\(step): first read")
                    try expectEqual(Self.answers(cli), truth, "\(step): second read")
                }
                try restoreAndCheck("a byte flipped") { file in
                    var bytes = try Data(contentsOf: URL(fileURLWithPath: file))
                    bytes[bytes.count / 2] ^= 0x40
                    try bytes.write(to: URL(fileURLWithPath: file))
                }
                try restoreAndCheck("cut short") { file in
                    let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
                    try bytes.prefix(bytes.count - 44).write(to: URL(fileURLWithPath: file))
                }
                try restoreAndCheck("emptied") { file in try Data().write(to: URL(fileURLWithPath: file)) }
                // Each month's file given another month's bytes.
                _ = try Self.answers(cli)
                let months = Self.readingsFiles(cli)
                let saved = try months.map { try Data(contentsOf: URL(fileURLWithPath: $0)) }
                for (index, file) in months.enumerated() {
                    try saved[(index + 1) % saved.count].write(to: URL(fileURLWithPath: file))
                }
                try expectEqual(Self.answers(cli), truth, "months swapped")
                // The other store's readings in this store's place, each under the same name.
                _ = try Self.answers(cli)
                let foreign = Self.readingsFiles(other)
                for file in foreign {
                    let mine = file.replacingOccurrences(of: other.storePath, with: cli.storePath)
                    try? FileManager.default.removeItem(atPath: mine)
                    try FileManager.default.copyItem(atPath: file, toPath: mine)
                }
                try expectEqual(Self.answers(cli), truth, "another store's readings")
                try expectEqual(Self.answers(cli), truth, "another store's readings, again")
            }
        }
    }

    /// An edit in place that keeps the partition's size, with its modification time put back (`touch -d`): the
    /// identity stored readings are checked against (device, inode, size, time) cannot see it. docs/STORE.md names
    /// this ("What the identity cannot see"); the test shows what a statistic then says.
    @Test(.disabled("limitation (docs/STORE.md, Derived files): an edit in place that keeps size and modification time is not seen; stored readings then give the old figures"))
    func anEditInPlaceWithItsTimePutBackIsSeen() throws {
        try CLIRunner.withTemporaryStore { cli in
            let folder = (cli.storePath as NSString).deletingLastPathComponent
            let payload = folder + "/days.json"
            try S19ReviewHAECLITests.payload(hours: 48, seed: 41, shift: -43_200).write(toFile: payload, atomically: true, encoding: .utf8)
            try expectEqual(cli.run(["import", payload, "-q"]).status, 0)
            _ = try Self.answers(cli)
            let may = try Self.partition(cli, month: "2024-05")
            var info = stat()
            expectEqual(stat(may, &info), 0)
            var text = try String(contentsOfFile: may, encoding: .utf8)
            // Every heart rate of 60 to 69 becomes 90 to 99: same size.
            text = text.replacing(/"value":6([0-9]),/) { "\"value\":9\($0.output.1)," }
            let handle = try #require(FileHandle(forUpdatingAtPath: may))
            handle.write(Data(text.utf8))
            handle.closeFile()
            var times = [info.st_atim, info.st_mtim]
            expectEqual(utimensat(AT_FDCWD, may, &times, 0), 0)
            let stale = try Self.answers(cli)
            try FileManager.default.removeItem(atPath: Self.derived(cli))
            #expect(stale == (try Self.answers(cli)))
        }
    }
}

/// The checks ``S19ReviewReadingsCLITests/checks(_:)`` runs.
private let s19ReviewReadingsCLITestsChecks: [Check<S19ReviewReadingsCLITests>] = [
    Check("statisticsAgreeWithAndWithoutReadingsAfterEveryChange",
          S19ReviewReadingsCLITests.statisticsAgreeWithAndWithoutReadingsAfterEveryChange),
    Check("damagedMovedAndForeignReadingsFilesChangeNoFigure",
          S19ReviewReadingsCLITests.damagedMovedAndForeignReadingsFilesChangeNoFigure),
]
