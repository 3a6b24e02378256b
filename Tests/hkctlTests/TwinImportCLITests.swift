import Foundation
import Testing
import TestKit

/// Issue 29, items 1 and 3, with the `hkctl` binary: identical twins of an export survive delete, undo and re-import
/// one for one, and a jsonl backup restores every twin.
struct TwinImportCLITests {
    /// An export of `count` identical step records.
    private static func export(twins count: Int) -> String {
        let record = " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Phone\" unit=\"count\" "
            + "creationDate=\"2024-05-01 09:00:00 -0700\" startDate=\"2024-05-01 08:00:00 -0700\" "
            + "endDate=\"2024-05-01 08:10:00 -0700\" value=\"7\"/>\n"
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
            + " <ExportDate value=\"2024-06-01 10:00:00 -0700\"/>\n" + String(repeating: record, count: count) + "</HealthData>\n"
    }

    private static func write(_ text: String, _ path: String) throws -> String {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The step samples' uuids, as `list` prints them.
    private static func uuids(_ cli: CLIRunner) throws -> [String] {
        let result = try cli.run(["list", "steps", "--from", "2024-05-01", "--to", "2024-05-02", "--format", "json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]], "\(result.stderr)")
        return rows.compactMap { $0["uuid"] as? String }
    }

    private static func added(_ cli: CLIRunner, _ path: String) throws -> Int? {
        let result = try cli.run(["import", path, "--format", "json"])
        expectEqual(result.status, 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return (object?["totals"] as? [String: Any])?["added"] as? Int
    }

    /// The example: two twins, the second deleted, `undo`, the same export again: `added 0`, two samples.
    /// And every other position, with three twins too, and all of them at once.
    @Test(arguments: [(2, [0]), (2, [1]), (2, [0, 1]), (3, [0]), (3, [1]), (3, [2]), (3, [0, 1, 2])])
    func deletingTwinsUndoingAndReimportingAddsNothing(twins: Int, positions: [Int]) throws {
        try CLIRunner.withTemporaryStore { cli in
            let export = try Self.write(Self.export(twins: twins), cli.storePath + "-export.xml")
            try expectEqual(Self.added(cli, export), twins)
            // Which uuid is which twin does not matter to the user: delete by the order `list` shows.
            let stored = try Self.uuids(cli)
            expectEqual(stored.count, twins)
            let delete = try cli.run(["delete"] + positions.map { stored[$0] } + ["--yes"])
            expectEqual(delete.status, 0, "\(delete.stderr)")
            try expectEqual(cli.run(["undo", "--yes"]).status, 0)
            try expectEqual(Self.uuids(cli).count, twins)
            try expectEqual(Self.added(cli, export), 0)
            try expectEqual(Self.uuids(cli).count, twins)
        }
    }

    /// Item 3: a jsonl backup of N twins restored into a store that already holds one of them gives N, for N past
    /// the eight a fixed limit kept.
    @Test(arguments: [9, 10, 12])
    func aBackupRestoresEveryTwinIntoAStoreHoldingOne(twins: Int) throws {
        try CLIRunner.withTemporaryStore { cli in
            let source = CLIRunner(storePath: cli.storePath + "-source")
            let many = try Self.write(Self.export(twins: twins), cli.storePath + "-many.xml")
            let one = try Self.write(Self.export(twins: 1), cli.storePath + "-one.xml")
            try expectEqual(Self.added(source, many), twins)
            let backup = cli.storePath + "-backup.jsonl"
            try expectEqual(source.run(["export", "--format", "jsonl", "--out", backup]).status, 0)
            try expectEqual(Self.added(cli, one), 1)
            try expectEqual(Self.added(cli, backup), twins - 1)
            #expect(Set(try Self.uuids(cli)) == Set(try Self.uuids(source)))
            try expectEqual(Self.added(cli, backup), 0)
            try? FileManager.default.removeItem(atPath: source.storePath)
        }
    }
}
