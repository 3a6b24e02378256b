import Foundation
import Testing
import TestKit
import TextSupport

/// A way of asking for help and the usage line the page must show.
struct HelpRequest: Sendable, CustomTestStringConvertible {
    let arguments: [String]
    let usageLine: String
    var testDescription: String { "hkctl " + arguments.joined(separator: " ") }
}

struct HelpTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: helpTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    static let requests: [HelpRequest] = [
        HelpRequest(arguments: ["--help"], usageLine: "USAGE: hkctl [--store <dir>] [--format <format>] <subcommand> ..."),
        HelpRequest(arguments: ["-h"], usageLine: "USAGE: hkctl [--store <dir>] [--format <format>] <subcommand> ..."),
        HelpRequest(arguments: ["help"], usageLine: "USAGE: hkctl [--store <dir>] [--format <format>] <subcommand> ..."),
        HelpRequest(arguments: ["help", "add"], usageLine: "USAGE: hkctl add <type> <value>"),
        HelpRequest(arguments: ["add", "--help"], usageLine: "USAGE: hkctl add <type> <value>"),
        HelpRequest(arguments: ["add", "-h"], usageLine: "USAGE: hkctl add <type> <value>"),
        HelpRequest(arguments: ["add", "water", "5kg", "--help"], usageLine: "USAGE: hkctl add <type> <value>"),
        HelpRequest(arguments: ["help", "list"], usageLine: "USAGE: hkctl list <type>"),
        HelpRequest(arguments: ["list", "--help"], usageLine: "USAGE: hkctl list <type>"),
        HelpRequest(arguments: ["help", "stats"], usageLine: "USAGE: hkctl stats <type>"),
        HelpRequest(arguments: ["stats", "--help"], usageLine: "USAGE: hkctl stats <type>"),
        HelpRequest(arguments: ["help", "types"], usageLine: "USAGE: hkctl types"),
        HelpRequest(arguments: ["types", "--help"], usageLine: "USAGE: hkctl types"),
        HelpRequest(arguments: ["--store", "/nonexistent/x", "--help"],
                    usageLine: "USAGE: hkctl [--store <dir>] [--format <format>] <subcommand> ..."),
    ]

    @Test(arguments: HelpTests.requests)
    func helpGoesToStandardOutput(_ request: HelpRequest) throws {
        try CLIRunner.withTemporaryStore { cli in
            let result = try cli.run(request.arguments)
            expectEqual(result.status, 0, "\(result.stderr)")
            #expect(result.stderr.isEmpty, "stderr: \(result.stderr)")
            #expect(result.stdout.hasPrefix("OVERVIEW: "))
            for heading in ["OVERVIEW:", "USAGE:", "OPTIONS:"] {
                #expect(result.stdout.contains(heading), "no \(heading) in \(result.stdout)")
            }
            #expect(result.stdout.contains(request.usageLine), "\(result.stdout)")
            #expect(result.stdout.contains("-h, --help"))
            #expect(result.stdout.hasSuffix("\n") && !result.stdout.hasSuffix("\n\n"))
            // Help never touches the store.
            #expect(cli.snapshot().isEmpty)
        }
    }

    func rootHelpListsEverySubcommandAndGlobalOption() throws {
        try CLIRunner.withTemporaryStore { cli in
            let result = try cli.run(["--help"])
            #expect(result.stdout.contains("SUBCOMMANDS:"))
            for name in ["add", "list", "stats", "types", "help"] {
                #expect(result.stdout.contains("\n  \(name) "), "subcommand \(name) missing")
            }
            for option in ["--store <dir>", "--format <format>", "--source <name>", "--tz <zone>", "--now <time>", "--version"] {
                #expect(result.stdout.contains(option), "option \(option) missing")
            }
        }
    }

    func commandHelpListsItsOwnAndTheGlobalOptions() throws {
        try CLIRunner.withTemporaryStore { cli in
            let add = try cli.run(["help", "add"])
            for option in ["--at <time>", "--from <time>", "--to <time>", "--stage <stage>", "--meta <key=value>",
                           "--store <dir>", "--format <format>"] {
                #expect(add.stdout.contains(option), "add help lacks \(option)")
            }
            #expect(add.stdout.contains("ARGUMENTS:"))
            #expect(add.stdout == (try cli.run(["add", "--help"])).stdout)

            let list = try cli.run(["help", "list"])
            for option in ["--today", "--yesterday", "--week", "--month", "--year", "--limit <n>", "--unit <unit>"] {
                #expect(list.stdout.contains(option), "list help lacks \(option)")
            }
            let stats = try cli.run(["help", "stats"])
            #expect(stats.stdout.contains("--by <period>"))
        }
    }

    func version() throws {
        try CLIRunner.withTemporaryStore { cli in
            let result = try cli.run(["--version"])
            expectEqual(result.status, 0)
            #expect(result.stderr.isEmpty)
            let line = result.stdout.trimmingCharacters(in: .newlines)
            expectEqual(result.stdout, line + "\n")
            let parts = line.split(separator: " ")
            #expect(parts.count == 2 && parts.first == "hkctl", "\(result.stdout)")
            let numbers = parts.last?.split(separator: ".") ?? []
            #expect(numbers.count == 3 && numbers.allSatisfy { Int($0) != nil }, "\(result.stdout)")
            #expect(cli.snapshot().isEmpty)
        }
    }

    /// No subcommand is today's dashboard on standard output (see TerminalCLITests), not help.
    func noArgumentsShowsTodayNotHelp() throws {
        try CLIRunner.withTemporaryStore { cli in
            let result = try cli.run([])
            expectEqual(result.status, 0)
            #expect(result.stdout.hasPrefix("Today · "), "\(result.stdout)")
            #expect(result.stderr.isEmpty)
            #expect(cli.snapshot().isEmpty)
        }
    }

    /// Help of every command in the registry, at 80 columns, as snapshots.
    func helpSnapshotsOfTheTerminalCommands() throws {
        try CLIRunner.withTemporaryStore { cli in
            for name in ["today", "chart", "goal", "completions", "man"] {
                let result = try cli.run(["help", name])
                expectEqual(result.status, 0)
                #expect(result.stdout.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(name) help is wider than 80")
                let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .appendingPathComponent("Snapshots/help-\(name).txt")
                if ProcessInfo.processInfo.environment["HKCTL_RECORD_SNAPSHOTS"] == "1" {
                    try result.stdout.write(to: url, atomically: true, encoding: .utf8)
                }
                let expected = try? String(contentsOf: url, encoding: .utf8)
                expectEqual(result.stdout, expected, "help \(name) differs from Tests/Snapshots/help-\(name).txt (HKCTL_RECORD_SNAPSHOTS=1 rewrites it)")
            }
        }
    }
}

/// The checks ``HelpTests/checks(_:)`` runs.
private let helpTestsChecks: [Check<HelpTests>] = [
    Check("rootHelpListsEverySubcommandAndGlobalOption", HelpTests.rootHelpListsEverySubcommandAndGlobalOption),
    Check("commandHelpListsItsOwnAndTheGlobalOptions", HelpTests.commandHelpListsItsOwnAndTheGlobalOptions),
    Check("version", HelpTests.version),
    Check("noArgumentsShowsTodayNotHelp", HelpTests.noArgumentsShowsTodayNotHelp),
    Check("helpSnapshotsOfTheTerminalCommands", HelpTests.helpSnapshotsOfTheTerminalCommands),
]
