import Foundation
import Testing
import TestKit

/// Issue 31, "Periods as people say them": `-p`, `--from`/`--to` with periods, `--this-week` and friends, through the
/// binary.
struct PeriodCLITests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: periodCLITestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// Wednesday 2024-03-20 21:00 in Paris.
    private let paris = ["HKCTL_NOW": "2024-03-20T21:00:00+01:00", "TZ": "Europe/Paris"]

    private func range(_ cli: CLIRunner, _ arguments: [String]) throws -> (from: String, to: String, sum: Double) {
        let result = try cli.run(["stats", "steps"] + arguments + ["--format", "json"], environment: paris)
        expectEqual(result.status, 0, "\(arguments): \(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        return (object["from"] as! String, object["to"] as! String, object["sum"] as? Double ?? 0)
    }

    func periodsNameCalendarSpans() throws {
        try CLIRunner.withTemporaryStore { cli in
            for (day, steps) in [("2024-02-10", 100), ("2024-03-01", 1000), ("2024-03-18", 2000), ("2024-03-20", 4000)] {
                try expectEqual(cli.run(["add", "steps", "\(steps)", "--at", "\(day)T10:00", "-q"], environment: paris).status, 0)
            }
            #expect(try range(cli, ["-p", "2024-03"]) == ("2024-03-01T00:00:00+01:00", "2024-04-01T00:00:00+02:00", 7000))
            try expectEqual(range(cli, ["--period", "last month"]).sum, 100)
            try expectEqual(range(cli, ["-p", "2024-W12"]).sum, 6000)
            try expectEqual(range(cli, ["-p", "this week"]).sum, 6000)
            try expectEqual(range(cli, ["--this-week"]).sum, 6000)
            try expectEqual(range(cli, ["--this-month"]).sum, 7000)
            try expectEqual(range(cli, ["--this-year"]).sum, 7100)
            try expectEqual(range(cli, ["-p", "from 2024-03-01 to 2024-03-18"]).sum, 3000)
            try expectEqual(range(cli, ["-p", "last 7 days"]).sum, 6000)
            // --week is still the 7 days ending today, --month the 30.
            try expectEqual(range(cli, ["--week"]).from, "2024-03-14T00:00:00+01:00")
            try expectEqual(range(cli, ["--month"]).from, "2024-02-20T00:00:00+01:00")
            // Calendar weeks follow --week-start.
            try expectEqual(range(cli, ["--this-week", "--week-start", "sun"]).from, "2024-03-17T00:00:00+01:00")
            // --from and --to take periods: a month starts on its first day and ends after its last.
            try expectEqual(range(cli, ["--from", "2024-03", "--to", "2024-03"]).sum, 7000)
            try expectEqual(range(cli, ["--from", "2024-02", "--to", "2024-03-01"]).sum, 1100)
            try expectEqual(range(cli, ["--from", "last monday"]).from, "2024-03-18T00:00:00+01:00")
            let listed = try cli.run(["list", "steps", "-p", "2024-03-18", "--format", "csv"], environment: paris)
            expectEqual(listed.stdout.split(separator: "\n").count, 2)
        }
    }

    func relativeDaysKeepTheClockTimeAcrossADSTChange() throws {
        try CLIRunner.withTemporaryStore { cli in
            // 2024-04-03 21:00 Paris (UTC+2): two weeks back is 2024-03-20 21:00 (UTC+1), not 20:00.
            let after = ["HKCTL_NOW": "2024-04-03T21:00:00+02:00", "TZ": "Europe/Paris"]
            let result = try cli.run(["stats", "steps", "--from", "-2w", "--to", "now", "--format", "json"], environment: after)
            #expect(result.stdout.contains("\"from\":\"2024-03-20T21:00:00+01:00\""), "\(result.stdout)")
        }
    }

    func badPeriodsAreOneClearLineAndChangeNothing() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "steps", "10", "-q"], environment: paris).status, 0)
            let before = cli.snapshot()
            for arguments in [["-p", "fortnight"], ["-p", "2024-13"], ["-p", "2021-W53"], ["-p", "from 2024-03-15 to 2024-03-01"],
                              ["--from", "someday"]] {
                let result = try cli.run(["stats", "steps"] + arguments, environment: paris)
                expectEqual(result.status, 65, "\(arguments)")
                #expect(result.stdout.isEmpty)
                expectEqual(result.stderr.split(separator: "\n").count, 1, "\(arguments): \(result.stderr)")
            }
            let unknown = try cli.run(["stats", "steps", "-p", "fortnight"], environment: paris)
            #expect(unknown.stderr.contains("hkctl help periods"))
            let two = try cli.run(["stats", "steps", "-p", "2024-03", "--week"], environment: paris)
            expectEqual(two.status, 64)
            #expect(two.stderr.contains("Give one range"))
            expectEqual(cli.snapshot(), before)
        }
    }

    func helpExplainsPeriodsAndItself() throws {
        try CLIRunner.withTemporaryStore { cli in
            let periods = try cli.run(["help", "periods"])
            expectEqual(periods.status, 0)
            #expect(periods.stdout.contains("2024-W12") && periods.stdout.contains("last 7 days") && periods.stdout.contains("until B"))
            #expect(periods.stdout.split(separator: "\n").allSatisfy { $0.count <= 80 })
            let help = try cli.run(["help", "help"])
            expectEqual(help.status, 0)
            #expect(help.stdout.contains("hkctl help periods"))
            #expect(try cli.run(["stats", "--help"]).stdout.contains("-p, --period <period>"))
        }
    }
}

/// The checks ``PeriodCLITests/checks(_:)`` runs.
private let periodCLITestsChecks: [Check<PeriodCLITests>] = [
    Check("periodsNameCalendarSpans", PeriodCLITests.periodsNameCalendarSpans),
    Check("relativeDaysKeepTheClockTimeAcrossADSTChange", PeriodCLITests.relativeDaysKeepTheClockTimeAcrossADSTChange),
    Check("badPeriodsAreOneClearLineAndChangeNothing", PeriodCLITests.badPeriodsAreOneClearLineAndChangeNothing),
    Check("helpExplainsPeriodsAndItself", PeriodCLITests.helpExplainsPeriodsAndItself),
]
