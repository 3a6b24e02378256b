import Foundation
import Testing
import TestKit

/// Where `bench/run` and what it needs are.
enum BenchmarkSmoke {
    static let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let hasGenerator = FileManager.default.fileExists(
        atPath: package.appendingPathComponent("../shared/bench/gen_export.py").standardizedFileURL.path)
    static let hasSQLite = (try? SystemPackages.shell("command -v sqlite3 && command -v python3"))?.status == 0

    /// Every scenario's row label in the results table.
    static let scenarios = [
        "0. start-up floor", "1. add water 250mL into the full store", "1b. the same add into an empty store",
        "2. steps per day, last week", "3. steps per month, all history", "4. heart rate per day, --month",
        "5. latest 20 water samples", "6. import", "7. cold cache: start-up floor", "7. cold cache: 2.",
        "7. cold cache: 3.", "7. cold cache: 4.", "7. cold cache: 5.",
    ]

    /// Runs `bench/run ARGS` in smoke mode on a 10-day export in a new work folder, with the hkctl the tests
    /// built (a debug build: this checks the script, not timings), and that same build as the baseline binary given
    /// by path (so nothing is built; the default baseline is a git revision built in release mode).
    static func run(binary: String = CLIRunner.binaryURL.path,
                    _ body: (_ work: String, _ result: (status: Int32, out: String, err: String)) throws -> Void)
        throws {
        let work = TestSupport.scratchRoot + "hkctl-bench-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let command = "cd '\(package.path)' && bench/run --days 10 --runs 1 --no-peer --no-cold --work '\(work)' "
            + "--binary '\(binary)' --baseline '\(CLIRunner.binaryURL.path)' --json '\(work)/results.json'"
        try body(work, try SystemPackages.shell(command))
    }
}

/// `bench/run` in the smoke mode CI runs (`--days 10 --runs 1 --no-peer --no-cold`): the suite's script cannot rot.
/// No timing is asserted; the smoke run uses the debug binary, so its numbers mean nothing.
@Suite(.enabled(if: BenchmarkSmoke.hasGenerator,
                "../shared/bench/gen_export.py is not next to the repository, so the benchmark smoke test is skipped"),
       .enabled(if: BenchmarkSmoke.hasSQLite,
                "sqlite3 or python3 is not installed, so the benchmark smoke test is skipped"))
struct BenchmarkSmokeTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: benchmarkSmokeTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    func smokeRunChecksAndReportsEveryScenario() throws {
        try BenchmarkSmoke.run { work, result in
            expectEqual(result.status, 0, "bench/run failed:\n\(result.err.suffix(2000))")
            for scenario in BenchmarkSmoke.scenarios {
                #expect(result.out.contains("| " + scenario), "the table has no row for '\(scenario)':\n\(result.out)")
            }
            #expect(result.out.contains("skipped: --no-cold"))
            #expect(result.out.contains("| ratio hkctl/baseline (range) | ratio hkctl/sqlite3 (range) |"),
                    "\(result.out)")
            #expect(result.out.contains("slower than the baseline"), "\(result.out)")
            let data = try #require(FileManager.default.contents(atPath: work + "/results.json"), "no --json file")
            let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            let checks = try #require(document["checks"] as? [String: String])
            expectEqual(Set(checks.keys), ["week", "history", "heart", "latest"])
            expectEqual(checks["latest"], "20 samples agree (start, value)")
            let measured = try #require(document["scenarios"] as? [String: Any])
            expectEqual(Set(measured.keys), ["import", "import-baseline", "floor", "add", "week", "history", "heart", "latest"])
            let week = try #require(measured["week"] as? [String: Any])
            let versus = try #require((week["hkctl"] as? [String: Any])?["vs_baseline"] as? [String: Double])
            #expect(Set(versus.keys) == ["median", "low", "high"] && week["baseline"] != nil)
        }
    }

    /// A step count that is off by 1,000 in one bucket must stop the suite before anything is timed.
    func disagreementBetweenHkctlAndSQLiteFails() throws {
        let folder = TestSupport.scratchRoot + "hkctl-bench-wrong-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let wrong = folder + "/hkctl"
        let script = """
            #!/bin/bash
            if [ "$1" = stats ] && [ "$2" = steps ]; then
              '\(CLIRunner.binaryURL.path)' "$@" | awk -F, -v OFS=, 'NR == 2 && $3 != "" { $3 = $3 + 1000 } { print }'
              exit "${PIPESTATUS[0]}"
            fi
            exec '\(CLIRunner.binaryURL.path)' "$@"

            """
        try script.write(toFile: wrong, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: wrong)
        try BenchmarkSmoke.run(binary: wrong) { _, result in
            expectEqual(result.status, 1, "expected exit 1, got \(result.status):\n\(result.err.suffix(2000))")
            #expect(result.err.contains("hkctl and sqlite3 disagree"), "\(result.err.suffix(2000))")
            #expect(!result.out.contains("| 2. steps per day"), "a table was printed despite the disagreement")
        }
    }

    /// Scenario 8 (`--deletions`, issue 29): a span of every type deleted and undone, then `changes --limit 100` and
    /// `export` against the store before and a baseline binary (here the same debug build), checks first.
    func deletionsScenarioChecksAndReportsBothCommands() throws {
        let work = TestSupport.scratchRoot + "hkctl-bench-deletions-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        let binary = CLIRunner.binaryURL.path
        let result = try SystemPackages.shell("cd '\(BenchmarkSmoke.package.path)' && bench/run --deletions --days 7 --runs 1 "
            + "--work '\(work)' --binary '\(binary)' --baseline '\(binary)' --json '\(work)/results.json'")
        expectEqual(result.status, 0, "bench/run --deletions failed:\n\(result.err.suffix(2000))")
        #expect(result.out.contains("| `changes --limit 100` |") && result.out.contains("| `export --format jsonl --out FILE` |"),
                "\(result.out)")
        #expect(result.out.contains("the same from both binaries") && result.out.contains("byte-identical from both binaries"))
        let data = try #require(FileManager.default.contents(atPath: work + "/results.json"), "no --json file")
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let scenario = try #require((document["scenarios"] as? [String: Any])?["deletions"] as? [String: Any])
        let store = try #require(scenario["store"] as? [String: Any])
        #expect((store["deleted"] as? Int ?? 0) > 0 && store["deleted"] as? Int == store["restored"] as? Int)
    }
}

/// The checks ``BenchmarkSmokeTests/checks(_:)`` runs.
private let benchmarkSmokeTestsChecks: [Check<BenchmarkSmokeTests>] = [
    Check("smokeRunChecksAndReportsEveryScenario", BenchmarkSmokeTests.smokeRunChecksAndReportsEveryScenario),
    Check("disagreementBetweenHkctlAndSQLiteFails", BenchmarkSmokeTests.disagreementBetweenHkctlAndSQLiteFails),
    Check("deletionsScenarioChecksAndReportsBothCommands",
          BenchmarkSmokeTests.deletionsScenarioChecksAndReportsBothCommands),
]
