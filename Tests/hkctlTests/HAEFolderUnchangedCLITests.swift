import Foundation
import Testing
import TestKit

/// Through the binary: a folder of Health Auto Export files imported again, as cron does, reads nothing while neither
/// the folder nor the store changed since its last import, says so, and reads every file again after any change to
/// either, with `--all-files`, or in a dry run.
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
            let store = try S19ReviewHAECLITests.contents(cli)
            let table = try cli.run(["import", folder])
            expectEqual(table.status, 0, "\(table.stderr)")
            #expect(table.stdout.contains("Nothing was read: the folder's 3 files are as its last import found them, and the "
                                          + "store has not changed since (--all-files reads them)."), "\(table.stdout)")
            let skipped = try Self.read(cli.run(json))
            #expect(skipped.unread == 3 && skipped.unchanged == 0, "\(skipped)")
            try expectEqual(S19ReviewHAECLITests.contents(cli), store)

            // --all-files and a dry run read every file; neither changes the store, so the next import reads none.
            #expect(try Self.read(cli.run(json + ["--all-files"])) == (0, 36))
            #expect(try Self.read(cli.run(json + ["--dry-run"])) == (0, 36))
            expectEqual(try Self.read(cli.run(json)).unread, 3)

            // Anything saved to the store meanwhile, or a file written again (even with the same bytes), reads every file.
            expectEqual(try cli.run(["add", "water", "0.5L", "-q"]).status, 0)
            #expect(try Self.read(cli.run(json)) == (0, 36))
            expectEqual(try Self.read(cli.run(json)).unread, 3)
            let first = folder + "/HealthAutoExport-2024-05-10-0.json"
            try Data(contentsOf: URL(fileURLWithPath: first)).write(to: URL(fileURLWithPath: first))
            #expect(try Self.read(cli.run(json)) == (0, 36))
            expectEqual(try Self.read(cli.run(json)).unread, 3)
            try expectEqual(S19ReviewHAECLITests.contents(cli).count, store.count + 1, "the water, and nothing else, added")
        }
    }
}

/// The checks ``HAEFolderUnchangedCLITests/checks(_:)`` runs.
private let hAEFolderUnchangedCLITestsChecks: [Check<HAEFolderUnchangedCLITests>] = [
    Check("anUnchangedFolderIsReadOnlyAfterAChange", HAEFolderUnchangedCLITests.anUnchangedFolderIsReadOnlyAfterAChange),
]
