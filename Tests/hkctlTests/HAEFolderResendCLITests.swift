import Foundation
import Testing
import TestKit

/// A synced folder as Health Auto Export fills it, one file a run, each re-sending yesterday and today with today's
/// figures grown, imported through the built binary as cron does it, again and again: each day is stored once as its
/// last figure, and an import of the unchanged folder adds, replaces and writes nothing (`changes` since the first
/// import is empty), so the cron line can run every half hour.
struct HAEFolderResendCLITests {
    @Test(arguments: hAEFolderResendCLITestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    static let source = "Jane’s Apple Watch|Jane’s iPhone"

    /// Run `run` (0, 1, 2): yesterday's 8,000 steps and today's `(run + 1) * 1,000`; heart rate at 08:00 and 09:00
    /// (a run later sends 09:00 with grown figures); last night's summary, the same every run.
    static func file(run: Int) -> String {
        let steps = [("2024-05-09 00:00:00 +0200", 8_000), ("2024-05-10 00:00:00 +0200", (run + 1) * 1_000)]
            .map { "{\"date\":\"\($0.0)\",\"qty\":\($0.1),\"source\":\"\(source)\"}" }
        let heart = [("2024-05-09 08:00:00 +0200", 60, 70, 90), ("2024-05-10 08:00:00 +0200", 55, 66 + run, 80 + run)]
            .map { "{\"date\":\"\($0.0)\",\"Min\":\($0.1),\"Avg\":\($0.2),\"Max\":\($0.3),\"source\":\"\(source)\"}" }
        let night = "{\"date\":\"2024-05-10 00:00:00 +0200\",\"core\":3.5,\"deep\":1,\"rem\":1.5,\"awake\":0.25,\"totalSleep\":6,\"asleep\":0,"
            + "\"sleepStart\":\"2024-05-09 23:00:00 +0200\",\"sleepEnd\":\"2024-05-10 05:15:00 +0200\",\"source\":\"Jane’s Apple Watch\"}"
        return "{\"data\":{\"metrics\":["
            + "{\"name\":\"step_count\",\"units\":\"count\",\"data\":[\(steps.joined(separator: ","))]},"
            + "{\"name\":\"heart_rate\",\"units\":\"count/min\",\"data\":[\(heart.joined(separator: ","))]},"
            + "{\"name\":\"sleep_analysis\",\"units\":\"hr\",\"data\":[\(night)]}]}}"
    }

    func anUnchangedFolderImportedAgainWritesNothing() throws {
        try CLIRunner.withTemporaryStore { cli in
            let folder = S19ReviewHAECLITests.folder(of: cli) + "/HealthAutoExport"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for run in 0..<3 {
                try Self.file(run: run).write(toFile: folder + "/HealthAutoExport-2024-05-10-\(run).json", atomically: true, encoding: .utf8)
            }
            let dry = try cli.run(["import", folder, "--dry-run", "--format", "json"])
            let first = try cli.run(["import", folder, "--format", "json"])
            expectEqual(first.status, 0, "\(first.stderr)")
            try expectEqual(S19ReviewHAECLITests.counts(dry), S19ReviewHAECLITests.counts(first))
            // Per run: 2 step days, 2 heart-rate hours of 3 samples each (minimum, maximum and the rest), a night of
            // 4 stages. The first two runs' steps and heart rate are sent again by the third: unchanged (16, "sent
            // again"); their nights are the same as the third's (8 unchanged: sleep is left to the plan).
            let totals = try S19ReviewHAECLITests.totals(first)
            #expect(totals["added"] == 12 && totals["replaced"] == 0 && totals["alreadyPresent"] == 24 && totals["sentAgain"] == 16, "\(totals)")
            let table = try cli.run(["import", folder, "--dry-run"])
            #expect(table.stdout.contains("16 unchanged points are sent again later in the same input"), "\(table.stdout)")
            let day = try cli.run(["stats", "steps", "--by", "day", "--from", "2024-05-09", "--to", "2024-05-11", "--tz", "Europe/Berlin",
                                   "--format", "json"])
            #expect(day.stdout.contains("8000") && day.stdout.contains("3000") && !day.stdout.contains("2000"), "\(day.stdout)")
            let anchor = try #require(try Self.anchor(cli.run(["changes", "--format", "json"])))
            let store = try S19ReviewHAECLITests.contents(cli)
            // Read again (--all-files: the folder and the store are as the last import left them, which would read
            // nothing otherwise; HAEFolderUnchangedCLITests), then not read at all.
            for options in [["--all-files"], []] {
                let again = try cli.run(["import", folder, "--format", "json"] + options)
                let counts = try S19ReviewHAECLITests.totals(again)
                #expect(counts["added"] == 0 && counts["replaced"] == 0
                        && counts["alreadyPresent"] == (options.isEmpty ? 0 : 36), "\(counts)")
                let changes = try cli.run(["changes", "--since", anchor, "--format", "json"])
                #expect(changes.stdout.contains("\"added\":[]") && changes.stdout.contains("\"deleted\":[]"), "\(changes.stdout)")
                try expectEqual(S19ReviewHAECLITests.contents(cli), store)
            }
            // A fourth run with today grown again: only what grew is replaced (the steps, and the hour's rest and maximum;
            // its minimum is unchanged).
            try Self.file(run: 3).write(toFile: folder + "/HealthAutoExport-2024-05-10-3.json", atomically: true, encoding: .utf8)
            let grown = try S19ReviewHAECLITests.totals(cli.run(["import", folder, "--format", "json"]))
            #expect(grown["added"] == 0 && grown["replaced"] == 3 && grown["alreadyPresent"] == 45, "\(grown)")
        }
    }

    /// The anchor `changes --format json` printed.
    static func anchor(_ result: CLIResult) throws -> String? {
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return object?["anchor"] as? String
    }
}

/// The checks ``HAEFolderResendCLITests/checks(_:)`` runs.
private let hAEFolderResendCLITestsChecks: [Check<HAEFolderResendCLITests>] = [
    Check("anUnchangedFolderImportedAgainWritesNothing", HAEFolderResendCLITests.anUnchangedFolderImportedAgainWritesNothing),
]
