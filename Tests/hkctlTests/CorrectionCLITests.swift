import Foundation
import Testing
import TestKit

/// Issue 31, "Corrections in one command": `delete --last TYPE` and `undo --type TYPE`.
struct CorrectionCLITests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: correctionCLITestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private func values(_ cli: CLIRunner, _ type: String) throws -> [String] {
        try cli.run(["list", type, "--format", "csv"]).stdout.split(separator: "\n").dropFirst()
            .map { String($0.split(separator: ",")[4]) }
    }

    func deleteLastRemovesTheSampleThisSourceSavedLast() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "weight", "72.3kg", "--at", "2024-06-01T07:00", "-q"]).status, 0)
            // Saved later, but about yesterday: still the last one saved.
            try expectEqual(cli.run(["add", "weight", "27.2kg", "--at", "2024-05-31T07:00", "-q"],
                                    environment: ["HKCTL_NOW": "2024-06-01T12:05:00Z"]).status, 0)
            try expectEqual(cli.run(["auth", "grant", "Scale", "--share", "weight", "-q"]).status, 0)
            try expectEqual(cli.run(["add", "weight", "71kg", "--at", "2024-06-01T08:00", "--source", "Scale", "-q"],
                                    environment: ["HKCTL_NOW": "2024-06-01T12:10:00Z"]).status, 0)
            let before = cli.snapshot()
            // From a script it needs --yes, as a range delete does; --dry-run shows the sample.
            let refused = try cli.run(["delete", "--last", "weight"])
            #expect(refused.status == 64 && refused.stderr.contains("--yes"))
            let dry = try cli.run(["delete", "--last", "weight", "--dry-run"])
            #expect(dry.status == 0 && dry.stdout.contains("27.2 kg") && !dry.stdout.contains("71.0 kg"))
            expectEqual(cli.snapshot(), before)
            try expectEqual(cli.run(["delete", "--last", "weight", "--yes", "-q"]).status, 0)
            try expectEqual(values(cli, "weight").sorted(), ["71", "72.3"])
            // Another source's last is its own.
            try expectEqual(cli.run(["delete", "--last", "weight", "--yes", "--source", "Scale", "-q"]).status, 0)
            try expectEqual(values(cli, "weight"), ["72.3"])
            // Nothing to delete is missing input (66), as a uuid that names no sample is; --dry-run too.
            let unchanged = cli.snapshot()
            for extra in [["--yes"], ["--dry-run"]] {
                let none = try cli.run(["delete", "--last", "water"] + extra)
                #expect(none.status == 66 && none.stdout.isEmpty, "\(none)")
                expectEqual(none.stderr, "Error: 'hkctl' has no water sample to delete; nothing was deleted (see hkctl list water).\n")
            }
            expectEqual(cli.snapshot(), unchanged)
            #expect(try cli.run(["delete", "--last", "weight", "--today", "--yes"]).stderr.contains("either --last or a range"))
        }
    }

    /// A dry run lists blood pressure and food with their members' values, as list does (it showed `-/- mmHg`).
    func deleteDryRunShowsCorrelationValues() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "blood-pressure", "120/80", "-q"]).status, 0)
            let dry = try cli.run(["delete", "--last", "blood-pressure", "--dry-run"])
            #expect(dry.status == 0 && dry.stdout.contains("120/80 mmHg") && !dry.stdout.contains("-/-"), "\(dry)")
        }
    }

    func undoTypeTakesBackTheNewestOperationOfThatType() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "weight", "72.3kg", "--at", "2024-06-01T07:00", "-q"]).status, 0)
            try expectEqual(cli.run(["add", "weight", "27.2kg", "--at", "2024-06-01T08:00", "-q"]).status, 0)
            try expectEqual(cli.run(["add", "water", "500mL", "-q"]).status, 0)
            try expectEqual(cli.run(["add", "water", "250mL", "-q"]).status, 0)
            let dry = try cli.run(["undo", "--type", "weight", "--dry-run"])
            #expect(dry.status == 0 && dry.stdout.contains("weight"), "\(dry.stdout)")
            try expectEqual(cli.run(["undo", "--type", "weight", "--yes", "-q"]).status, 0)
            try expectEqual(values(cli, "weight"), ["72.3"])
            try expectEqual(values(cli, "water").count, 2)
            // A plain undo still takes back the newest operation: the last water.
            try expectEqual(cli.run(["undo", "--yes", "-q"]).status, 0)
            try expectEqual(values(cli, "water"), ["500"])
            try expectEqual(cli.run(["undo", "--type", "weight", "--yes", "-q"]).status, 0)
            let nothing = try cli.run(["undo", "--type", "weight", "--yes"])
            expectEqual(nothing.status, 66)
            #expect(nothing.stderr.contains("Nothing to undo for weight"))
            try expectEqual(values(cli, "water"), ["500"])
        }
    }

    func undoOfAReplacementNeedsPermissionToWriteWhatItRestores() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["auth", "grant", "Scale", "--share", "weight", "-q"]).status, 0)
            let app = ["HKCTL_SOURCE": "Scale"]
            try expectEqual(cli.run(["add", "weight", "72kg", "--sync-id", "w1", "-q"], environment: app).status, 0)
            try expectEqual(cli.run(["add", "weight", "73kg", "--sync-id", "w1", "--sync-version", "2", "-q"], environment: app).status, 0)
            try expectEqual(cli.run(["auth", "deny", "Scale", "--share", "weight", "-q"]).status, 0)
            let before = cli.snapshot()
            let refused = try cli.run(["undo", "--yes"], environment: app)
            expectEqual(refused.status, 77, "\(refused.stderr)")
            expectEqual(cli.snapshot(), before)
            try expectEqual(values(cli, "weight"), ["73"])
        }
    }
}

/// The checks ``CorrectionCLITests/checks(_:)`` runs.
private let correctionCLITestsChecks: [Check<CorrectionCLITests>] = [
    Check("deleteLastRemovesTheSampleThisSourceSavedLast",
          CorrectionCLITests.deleteLastRemovesTheSampleThisSourceSavedLast),
    Check("deleteDryRunShowsCorrelationValues", CorrectionCLITests.deleteDryRunShowsCorrelationValues),
    Check("undoTypeTakesBackTheNewestOperationOfThatType",
          CorrectionCLITests.undoTypeTakesBackTheNewestOperationOfThatType),
    Check("undoOfAReplacementNeedsPermissionToWriteWhatItRestores",
          CorrectionCLITests.undoOfAReplacementNeedsPermissionToWriteWhatItRestores),
]
