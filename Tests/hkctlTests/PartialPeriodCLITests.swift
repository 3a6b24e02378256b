import Foundation
import Testing
import TestKit

/// Issue 31, what remained: partial periods are marked and left out of averages a period, whole days show as dates,
/// `--by-source` headers keep the source's spelling and `sources` shows its times with one precision.
/// Now is Saturday 2024-06-01 12:00 UTC; weeks start on Monday.
struct PartialPeriodCLITests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: partialPeriodCLITestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// 7,000 steps in the week cut by `--from 2024-05-01` (Wed), in two whole weeks, none in a third, 1,000 this week.
    private static func withSteps<T>(_ body: (CLIRunner) throws -> T) throws -> T {
        try CLIRunner.withTemporaryStore(adding: "steps", [("7000", "2024-05-02T10:00:05"), ("7000", "2024-05-07T10:00"),
                                                            ("7000", "2024-05-14T10:00"), ("1000", "2024-05-30T10:00")], body)
    }

    func chartLeavesPartialWeeksOutOfTheAverageAndSaysSo() throws {
        try Self.withSteps { cli in
            let chart = try cli.run(["chart", "steps", "--from", "2024-05-01", "--to", "2024-06-01", "--by", "week", "--width", "70"])
            expectEqual(chart.status, 0, "\(chart.stderr)")
            // (7,000 + 7,000) / 2 whole weeks, not (7,000 × 3 + 1,000) / 4.
            #expect(chart.stdout.contains("average 7,000 steps a week (* left out)"), "\(chart.stdout)")
            #expect(chart.stdout.contains("total 22,000 steps"), "\(chart.stdout)")
            #expect(chart.stdout.contains("wk 1 May*") && chart.stdout.contains("wk 27 May*"), "\(chart.stdout)")
            #expect(chart.stdout.hasSuffix("* weeks only partly in the range or not over yet\n"), "\(chart.stdout)")
            // Only partial weeks with data: their average, and the line says they are in it.
            let partOnly = try cli.run(["chart", "steps", "--from", "2024-05-30", "--to", "2024-06-01", "--by", "week", "--width", "70"])
            #expect(partOnly.stdout.contains("average 1,000 steps a week (* included)"), "\(partOnly.stdout)")
        }
    }

    func statsTablesMarkPartialPeriodsAndShowWholeDaysAsDates() throws {
        try Self.withSteps { cli in
            let weeks = try cli.run(["stats", "steps", "--from", "2024-05-01", "--to", "2024-06-01", "--by", "week"])
            expectEqual(weeks.status, 0, "\(weeks.stderr)")
            let rows = weeks.stdout.split(separator: "\n").filter { $0.hasPrefix("2024-") }
            expectEqual(rows.map { $0.split(separator: " ").dropFirst().first?.hasSuffix("*") == true }, [true, false, false, false, true],
                        "\(weeks.stdout)")
            #expect(weeks.stdout.hasSuffix("* weeks only partly in the range or not over yet\n"), "\(weeks.stdout)")
            // --by day from midnight to midnight: the day alone (table), the dates alone (CSV); today is not over.
            let days = try cli.run(["stats", "steps", "--from", "2024-05-30", "--to", "2024-06-01", "--by", "day"])
            #expect(days.stdout.contains("\nDAY ") && days.stdout.contains("\n2024-05-30   1,000 ") && days.stdout.contains("\n2024-06-01* "),
                    "\(days.stdout)")
            #expect(days.stdout.hasSuffix("* day not over yet\n"), "\(days.stdout)")
            let csv = try cli.run(["stats", "steps", "--from", "2024-05-30", "--to", "2024-06-01", "--by", "day", "--format", "csv"])
            expectEqual(csv.stdout, "start,end,sum,count,unit\n2024-05-30,2024-05-31,1000,1,count\n2024-05-31,2024-06-01,0,0,count\n"
                + "2024-06-01,2024-06-02,0,0,count\n", "\(csv.stdout)")
            // Days cut by the range keep their times (and are marked); JSON keeps timestamps.
            let cut = try cli.run(["stats", "steps", "--from", "2024-05-30T08:00", "--to", "2024-05-31", "--by", "day"])
            #expect(cut.stdout.contains("\n2024-05-30 08:00*  2024-05-31 00:00 "), "\(cut.stdout)")
            let json = try cli.run(["stats", "steps", "--from", "2024-05-30", "--to", "2024-06-01", "--by", "day", "--format", "json"])
            #expect(json.stdout.contains("\"start\":\"2024-05-30T00:00:00+00:00\""), "\(json.stdout)")
        }
    }

    func sourceColumnsKeepTheSpellingAndSourcesOnePrecision() throws {
        try Self.withSteps { cli in
            let phone = "José’s iPhone"
            try expectEqual(cli.run(["auth", "grant", phone, "--share", "steps", "-q"]).status, 0)
            try expectEqual(cli.run(["add", "steps", "500", "--at", "2024-05-30T11:00", "--source", phone, "-q"]).status, 0)
            let table = try cli.run(["stats", "steps", "--from", "2024-05-30", "--to", "2024-05-30", "--by", "day", "--by-source"])
            #expect(table.stdout.contains("José’s iPhone") && !table.stdout.contains("JOSÉ"), "\(table.stdout)")
            // The first sample has seconds (10:00:05): every time in FIRST and LAST has them.
            let sources = try cli.run(["sources", "steps"])
            #expect(sources.stdout.contains("2024-05-02 10:00:05  2024-05-30 10:00:00")
                    && sources.stdout.contains("2024-05-30 11:00:00  2024-05-30 11:00:00"), "\(sources.stdout)")
        }
    }
}

/// The checks ``PartialPeriodCLITests/checks(_:)`` runs.
private let partialPeriodCLITestsChecks: [Check<PartialPeriodCLITests>] = [
    Check("chartLeavesPartialWeeksOutOfTheAverageAndSaysSo",
          PartialPeriodCLITests.chartLeavesPartialWeeksOutOfTheAverageAndSaysSo),
    Check("statsTablesMarkPartialPeriodsAndShowWholeDaysAsDates",
          PartialPeriodCLITests.statsTablesMarkPartialPeriodsAndShowWholeDaysAsDates),
    Check("sourceColumnsKeepTheSpellingAndSourcesOnePrecision",
          PartialPeriodCLITests.sourceColumnsKeepTheSpellingAndSourcesOnePrecision),
]
