import Foundation
import Testing
import TestKit

/// Issue 22: `-q`/`--quiet` on every writing command prints nothing on success (for cron), still writes, and keeps
/// errors and real warnings on standard error.
struct QuietOptionTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: quietOptionTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// The commands that write (the store, or a file they name); each takes -q and shows it in its help.
    static let writingCommands = ["add", "import", "export", "delete", "undo", "compact", "doctor", "auth", "me", "config", "goal",
                                  "sources"]

    @Test(arguments: QuietOptionTests.writingCommands)
    func everyWritingCommandShowsQuietInItsHelp(command: String) throws {
        try CLIRunner.withTemporaryStore { cli in
            let help = try cli.run(["help", command])
            #expect(help.stdout.contains("  -q, --quiet "), "\(command): \(help.stdout)")
        }
    }

    func readingCommandsDoNotTakeIt() throws {
        try CLIRunner.withTemporaryStore { cli in
            let result = try cli.run(["list", "water", "-q"])
            #expect(result.status == 64 && result.stderr.contains("Unknown option '-q'"), "\(result.stderr)")
        }
    }

    func everyWritingCommandIsSilentAndStillWrites() throws {
        try CLIRunner.withTemporaryStore { cli in
            let folder = (cli.storePath as NSString).deletingLastPathComponent
            let input = folder + "/steps.jsonl"
            try ("{\"uuid\":\"7b0c7a53-4f5e-4c36-9d7e-2b8d2f1f1a01\",\"type\":\"HKQuantityTypeIdentifierStepCount\","
                + "\"start\":\"2024-05-30T10:00:00+00:00\",\"end\":\"2024-05-30T10:30:00+00:00\",\"value\":1200,"
                + "\"unit\":\"count\",\"source\":\"Phone\"}\n").write(toFile: input, atomically: true, encoding: .utf8)
            /// Runs a command with -q (and --format json where given, which must not bring output back).
            func quiet(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
                for form in ["-q", "--quiet"] {
                    let result = try cli.run(arguments + [form])
                    expectEqual(result.status, 0, "\(arguments): \(result.stderr)", sourceLocation: sourceLocation)
                    #expect(result.stdout.isEmpty, "\(arguments) printed: \(result.stdout)", sourceLocation: sourceLocation)
                    #expect(result.stderr.isEmpty, "\(arguments) said: \(result.stderr)", sourceLocation: sourceLocation)
                    if arguments.first == "add" || arguments.first == "delete" { break }  // once: they are not idempotent
                }
            }
            try quiet(["add", "water", "500mL", "--at", "08:00"])
            try quiet(["add", "water", "250mL", "--at", "09:00", "--format", "json"])
            try quiet(["add", "blood-pressure", "120/80", "--at", "07:00"])
            let water = try cli.run(["list", "water", "--format", "csv"])
            expectEqual(water.stdout.split(separator: "\n").count, 3, "two samples saved: \(water.stdout)")
            try expectEqual(cli.run(["list", "blood-pressure", "--format", "csv"]).stdout.split(separator: "\n").count, 2)

            try quiet(["import", input])
            #expect(try cli.run(["stats", "steps", "--week", "--format", "json"]).stdout.contains("\"sum\":1200"))

            try quiet(["export", "--out", folder + "/backup.jsonl"])
            #expect(FileManager.default.fileExists(atPath: folder + "/backup.jsonl"))

            try quiet(["goal", "water", "2.5L"])
            #expect(try cli.run(["goal", "water"]).stdout.contains("2.5"))
            try quiet(["config", "set", "unit.weight", "lb"])
            try expectEqual(cli.run(["config", "get", "unit.weight"]).stdout, "lb\n")
            try quiet(["me", "set", "biological-sex", "female"])
            #expect(try cli.run(["me"]).stdout.contains("female"))
            try quiet(["auth", "grant", "scale", "--share", "weight"])
            try expectEqual(cli.run(["add", "weight", "70kg", "--source", "scale"]).status, 0)
            try quiet(["sources", "priority", "steps", "Phone"])
            #expect(try cli.run(["sources", "priority", "steps", "--format", "json"]).stdout.contains("\"Phone\""))

            let uuid = try #require(water.stdout.split(separator: "\n")[1].split(separator: ",").first.map(String.init))
            try quiet(["delete", uuid])
            try quiet(["delete", "water", "--today", "--yes"])
            try expectEqual(cli.run(["list", "water", "--format", "csv"]).stdout.split(separator: "\n").count, 1)
            try quiet(["undo", "--yes"])
            try expectEqual(cli.run(["list", "water", "--format", "csv"]).stdout.split(separator: "\n").count, 3, "the delete is undone")
            try quiet(["compact", "--retention", "0"])
            try quiet(["doctor", "--repair"])
            try quiet(["goal", "water", "--unset"])
            try quiet(["config", "unset", "unit.weight"])
            try quiet(["me", "unset", "biological-sex"])
            try quiet(["auth", "revoke", "scale"])
            try expectEqual(cli.run(["add", "weight", "71kg", "--source", "scale"]).status, 77)
        }
    }

    func errorsAndWarningsStillGoToStandardError() throws {
        try CLIRunner.withTemporaryStore { cli in
            let bad = try cli.run(["add", "water", "5kg", "-q"])
            #expect(bad.status == 65 && bad.stdout.isEmpty && bad.stderr.hasPrefix("Error: "), "\(bad.stderr)")
            // (At the pinned 12:00 a bare 07:00-23:00 is still going on and refused; on a named day it is saved.)
            let daytime = try cli.run(["add", "sleep", "07:00-23:00", "--on", "2024-05-31", "-q"])
            #expect(daytime.status == 0 && daytime.stdout.isEmpty, "\(daytime.stderr)")
            #expect(daytime.stderr.hasPrefix("Warning: "), "a real warning is kept: \(daytime.stderr)")
            let refused = try cli.run(["delete", "sleep", "--week", "-q"])
            #expect(refused.status == 64 && refused.stderr.contains("add --yes"), "\(refused.stderr)")
        }
    }
}

/// The checks ``QuietOptionTests/checks(_:)`` runs.
private let quietOptionTestsChecks: [Check<QuietOptionTests>] = [
    Check("readingCommandsDoNotTakeIt", QuietOptionTests.readingCommandsDoNotTakeIt),
    Check("everyWritingCommandIsSilentAndStillWrites", QuietOptionTests.everyWritingCommandIsSilentAndStillWrites),
    Check("errorsAndWarningsStillGoToStandardError", QuietOptionTests.errorsAndWarningsStillGoToStandardError),
]
