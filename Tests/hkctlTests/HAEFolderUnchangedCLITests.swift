import Foundation
import Testing
import TestKit

/// Through the binary: a folder of Health Auto Export files imported again, as cron does, reads nothing once an import
/// of it stored nothing and neither its files nor the store changed since, says so, and reads every file again after
/// any change to either, with `--all-files`, or in a dry run.
struct HAEFolderUnchangedCLITests {
    @Test(arguments: hAEFolderUnchangedCLITestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// The receipt's `unreadFiles` (0 when it has none) and its total of unchanged samples.
    private static func read(_ result: CLIResult) throws -> (unread: Int, unchanged: Int) {
        expectEqual(result.status, 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let totals = (object["totals"] as? [String: Int]) ?? [:]
        return ((object["unreadFiles"] as? Int) ?? 0, totals["alreadyPresent"] ?? -1)
    }

    func anUnchangedFolderIsReadOnlyAfterAChange() throws {
        try CLIRunner.withTemporaryStore { cli in
            let folder = S19ReviewHAECLITests.folder(of: cli) + "/HealthAutoExport"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for run in 0..<3 {
                try Data(HAEFolderResendCLITests.file(run: run).utf8)
                    .write(to: URL(fileURLWithPath: folder + "/HealthAutoExport-2024-05-10-\(run).json"))
            }
            let json = ["import", folder, "--format", "json"]
            expectEqual(try Self.read(cli.run(json)).unread, 0, "the first import reads every file")
            // It stored samples; the second reads every file again, stores nothing, and so keeps a record.
            #expect(try Self.read(cli.run(json)) == (0, 36))
            let store = try S19ReviewHAECLITests.contents(cli)
            let table = try cli.run(["import", folder])
            expectEqual(table.status, 0, "\(table.stderr)")
            #expect(table.stdout.contains("Nothing was read: the folder's last import stored nothing, and neither its 3 files nor the "
                                          + "store changed since (--all-files reads them)."), "\(table.stdout)")
            let skipped = try Self.read(cli.run(json))
            #expect(skipped.unread == 3 && skipped.unchanged == 0, "\(skipped)")
            try expectEqual(S19ReviewHAECLITests.contents(cli), store)

            // --all-files and a dry run read every file; neither changes the store, so the next import reads none.
            #expect(try Self.read(cli.run(json + ["--all-files"])) == (0, 36))
            #expect(try Self.read(cli.run(json + ["--dry-run"])) == (0, 36))
            expectEqual(try Self.read(cli.run(json)).unread, 3)

            // Anything saved to the store meanwhile reads every file; so does a file with other bytes, but not one
            // written again with the same bytes.
            expectEqual(try cli.run(["add", "water", "0.5L", "-q"]).status, 0)
            #expect(try Self.read(cli.run(json)) == (0, 36))
            expectEqual(try Self.read(cli.run(json)).unread, 3)
            let first = folder + "/HealthAutoExport-2024-05-10-0.json"
            let bytes = try Data(contentsOf: URL(fileURLWithPath: first))
            try bytes.write(to: URL(fileURLWithPath: first))
            expectEqual(try Self.read(cli.run(json)).unread, 3, "the same bytes")
            let last = folder + "/HealthAutoExport-2024-05-10-2.json"
            let text = try String(contentsOfFile: last, encoding: .utf8)
            try Data(text.replacingOccurrences(of: "\"qty\":3000", with: "\"qty\":3001").utf8).write(to: URL(fileURLWithPath: last))
            let changed = try cli.run(json)
            expectEqual(try Self.read(changed).unread, 0)
            #expect(try S19ReviewHAECLITests.totals(changed)["replaced"] == 1, "\(changed.stdout)")
            expectEqual(try Self.read(cli.run(json)).unread, 0, "the store changed")
            expectEqual(try Self.read(cli.run(json)).unread, 3)
        }
    }
}

/// The checks ``HAEFolderUnchangedCLITests/checks(_:)`` runs.
private let hAEFolderUnchangedCLITestsChecks: [Check<HAEFolderUnchangedCLITests>] = [
    Check("anUnchangedFolderIsReadOnlyAfterAChange", HAEFolderUnchangedCLITests.anUnchangedFolderIsReadOnlyAfterAChange),
]
