import Foundation
import Testing
import TestKit

/// Issue 31, "JSON without arithmetic noise in derived figures": every command that computes figures (`stats`,
/// `trend`, `today`) writes them rounded for their unit in JSON and CSV, while `list` prints what is stored.
/// 72.3 kg and 72.1 kg average to 72.19999999999999 and differ by -0.20000000000000284 in doubles.
struct DerivedFigureCLITests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: derivedFigureCLITestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// Two weights a day apart inside the last week, and one with more digits than a table shows, earlier.
    private static func withWeights<T>(_ body: (CLIRunner) throws -> T) throws -> T {
        try CLIRunner.withTemporaryStore(adding: "weight", [("72.123456kg", "2024-05-20T08:00"), ("72.3kg", "2024-05-30T08:00"),
                                                             ("72.1kg", "2024-05-31T08:00")], body)
    }

    func statsRoundsItsFiguresAndListKeepsTheStoredValue() throws {
        try Self.withWeights { cli in
            let json = try cli.run(["stats", "weight", "--from", "2024-05-30", "--to", "2024-05-31", "--by", "day", "--format", "json"])
            expectEqual(json.status, 0, "\(json.stderr)")
            #expect(json.stdout.contains("\"average\":72.2,"), "\(json.stdout)")
            #expect(!json.stdout.contains("72.19999"), "\(json.stdout)")
            let csv = try cli.run(["stats", "weight", "--from", "2024-05-30", "--to", "2024-05-31", "--format", "csv"])
            expectEqual(csv.stdout.split(separator: "\n").last?.split(separator: ",")[2], "72.2", "\(csv.stdout)")
            // Three decimals for kg (a table shows one): 72.123456 averages to 72.123; list prints what is stored.
            let precise = try cli.run(["stats", "weight", "--from", "2024-05-20", "--to", "2024-05-20", "--format", "json"])
            #expect(precise.stdout.contains("\"average\":72.123,"), "\(precise.stdout)")
            let list = try cli.run(["list", "weight", "--from", "2024-05-20", "--to", "2024-05-20", "--format", "json"])
            #expect(list.stdout.contains("\"value\":72.123456,"), "\(list.stdout)")
        }
    }

    func trendRoundsItsChangesAndAverages() throws {
        try Self.withWeights { cli in
            let json = try cli.run(["trend", "weight", "--week", "--format", "json"])
            expectEqual(json.status, 0, "\(json.stderr)")
            #expect(json.stdout.contains("\"absolute\":-0.2,"), "\(json.stdout)")
            #expect(json.stdout.contains("\"average\":72.2,"), "\(json.stdout)")
            #expect(!json.stdout.contains("0000000"), "\(json.stdout)")
            let csv = try cli.run(["trend", "weight", "--week", "--format", "csv"])
            #expect(csv.stdout.contains("2024-05-31,72.1,72.2,kg"), "\(csv.stdout)")
            #expect(!csv.stdout.contains("0000000"), "\(csv.stdout)")
        }
    }

    func todayRoundsTheWeightChange() throws {
        try Self.withWeights { cli in
            let json = try cli.run(["today", "--format", "json"])
            expectEqual(json.status, 0, "\(json.stderr)")
            #expect(json.stdout.contains("\"change\":-0.2}"), "\(json.stdout)")
        }
    }

    func workoutSummariesRoundTheirSumsInCSVAsInJSON() throws {
        try CLIRunner.withTemporaryStore { cli in
            // 100.1 + 200.2 is 300.29999999999995 in doubles.
            try expectEqual(cli.run(["add", "workout", "running", "30min", "--energy", "100.1kcal", "--at", "08:00", "-q"]).status, 0)
            try expectEqual(cli.run(["add", "workout", "running", "30min", "--energy", "200.2kcal", "--at", "09:00", "-q"]).status, 0)
            let csv = try cli.run(["stats", "workouts", "--format", "csv"])
            #expect(csv.status == 0 && csv.stdout.hasSuffix(",2,3600,1800,300.3,,\n"), "\(csv.stdout)")
            let json = try cli.run(["stats", "workouts", "--format", "json"])
            #expect(json.stdout.contains("\"energy\":300.3,"), "\(json.stdout)")
        }
    }
}

/// The checks ``DerivedFigureCLITests/checks(_:)`` runs.
private let derivedFigureCLITestsChecks: [Check<DerivedFigureCLITests>] = [
    Check("statsRoundsItsFiguresAndListKeepsTheStoredValue",
          DerivedFigureCLITests.statsRoundsItsFiguresAndListKeepsTheStoredValue),
    Check("trendRoundsItsChangesAndAverages", DerivedFigureCLITests.trendRoundsItsChangesAndAverages),
    Check("todayRoundsTheWeightChange", DerivedFigureCLITests.todayRoundsTheWeightChange),
    Check("workoutSummariesRoundTheirSumsInCSVAsInJSON",
          DerivedFigureCLITests.workoutSummariesRoundTheirSumsInCSVAsInJSON),
]
