import Foundation
import Testing
import TestKit

/// `hkctl today`, bare `hkctl`, `goal` and `chart`, run as the built binary on a copy of the demo store.
struct TerminalCLITests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: terminalCLITestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    static let demoStore = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("seeds/demo-store").path
    static let demoEnvironment = ["HKCTL_NOW": "2024-06-01T21:00+02:00", "TZ": "Europe/Paris"]

    /// A runner on a fresh copy of the demo store, pinned to the demo's evening.
    static func withDemo<T>(_ body: (CLIRunner) throws -> T) throws -> T {
        try CLIRunner.withTemporaryStore { cli in
            try FileManager.default.copyItem(atPath: demoStore, toPath: cli.storePath)
            var demo = cli
            demo.environment = demoEnvironment
            return try body(demo)
        }
    }

    func bareHkctlShowsTodayAndHelpStaysHelp() throws {
        try Self.withDemo { cli in
            let bare = try cli.run([])
            expectEqual(bare.status, 0, "\(bare.stderr)")
            let today = try cli.run(["today"])
            expectEqual(bare.stdout, today.stdout)
            for row in ["Today · Saturday 1 June 2024", "Water ", "Steps ", "Weight ", "Sleep "] {
                #expect(bare.stdout.contains(row), "no '\(row)' in \(bare.stdout)")
            }
            #expect(!bare.stdout.contains("\u{1B}"), "colour while piped")
            let help = try cli.run(["--help"])
            #expect(help.status == 0 && help.stdout.hasPrefix("OVERVIEW: "))
        }
    }

    /// The README's dashboard sample is what `hkctl` prints for the demo store at the quick tour's time and zone.
    func readmeDashboardSampleIsTheDemoStoresRealOutput() throws {
        let readmePath = URL(fileURLWithPath: Self.demoStore).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("README.md").path
        let readme = try String(contentsOfFile: readmePath, encoding: .utf8)
        let intro = try #require(readme.range(of: "`hkctl` with no command shows today"), "the README lost its dashboard sample")
        let open = try #require(readme.range(of: "```\n", range: intro.upperBound..<readme.endIndex))
        let close = try #require(readme.range(of: "\n```", range: open.upperBound..<readme.endIndex))
        let sample = String(readme[open.upperBound..<close.lowerBound]) + "\n"
        try Self.withDemo { cli in
            let today = try cli.run([])
            expectEqual(today.status, 0, "\(today.stderr)")
            expectEqual(today.stdout, sample, "README.md's dashboard sample differs from the real output; paste:\n\(today.stdout)")
        }
    }

    func todayOnAMissingStoreShowsZerosAndCreatesNothing() throws {
        try CLIRunner.withTemporaryStore { cli in
            let result = try cli.run([])
            expectEqual(result.status, 0, "\(result.stderr)")
            #expect(result.stdout.contains("no weight recorded yet"))
            #expect(!FileManager.default.fileExists(atPath: cli.storePath))
        }
    }

    func todayAsJSONHasPlainNumbers() throws {
        try Self.withDemo { cli in
            let result = try cli.run(["today", "--format", "json"])
            expectEqual(result.status, 0, "\(result.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let steps = try #require(object["steps"] as? [String: Any])
            #expect(steps["total"] as? Double == 11_594 && steps["goal"] as? Double == 10_000)
            #expect(!result.stdout.contains("11,594"))
            let weight = try #require(object["weight"] as? [String: Any])
            expectEqual((weight["days"] as? [Any])?.count, 7)
        }
    }

    func goalsAreSetListedUnsetAndCheckedWithoutChangingTheStore() throws {
        try Self.withDemo { cli in
            try expectEqual(cli.run(["goal", "water", "2.5L"]).status, 0)
            try expectEqual(cli.run(["goal", "steps", "8000"]).status, 0)
            let list = try cli.run(["goal"])
            #expect(list.stdout.contains("water") && list.stdout.contains("2.5 L") && list.stdout.contains("8,000 steps"), "\(list.stdout)")
            #expect(list.stdout.contains("(default)"))  // sleep
            let today = try cli.run(["today"])
            #expect(today.stdout.contains("of 2,500 mL") && today.stdout.contains("of 8,000 steps"), "\(today.stdout)")
            let csv = try cli.run(["goal", "--format", "csv"])
            #expect(csv.stdout.contains("steps,8000,count,false"), "\(csv.stdout)")
            let before = cli.snapshot()
            let weight = try cli.run(["goal", "weight", "70kg"])
            #expect(weight.status == 64 && weight.stderr.hasPrefix("Error: A goal is a daily total"), "\(weight.stderr)")
            try expectEqual(cli.run(["goal", "water", "0L"]).status, 65)
            try expectEqual(cli.run(["goal", "water", "5kg"]).status, 65)
            try expectEqual(cli.run(["goal", "water", "1L"], environment: ["HKCTL_SOURCE": "script"]).status, 77)
            expectEqual(cli.snapshot(), before)
            try expectEqual(cli.run(["goal", "steps", "--unset"]).status, 0)
            #expect(try cli.run(["goal", "steps"]).stdout.contains("10,000 steps"))
        }
    }

    func chartsFitTheWidthFromColumnsAndOption() throws {
        try Self.withDemo { cli in
            for (arguments, width) in [(["chart", "steps"], 80), (["chart", "weight", "--month"], 80), (["chart", "sleep"], 80)] {
                for columns in [40, 100] {
                    let result = try cli.run(arguments, environment: ["COLUMNS": String(columns)])
                    expectEqual(result.status, 0, "\(result.stderr)")
                    let widest = result.stdout.split(separator: "\n").map(\.count).max() ?? 0
                    #expect(widest <= columns && widest > columns - 12, "\(arguments) at \(columns): \(widest)")
                }
                let fixed = try cli.run(arguments + ["--width", "60"], environment: ["COLUMNS": "100"])
                #expect((fixed.stdout.split(separator: "\n").map(\.count).max() ?? 0) <= 60)
                _ = width
            }
        }
    }

    func asciiAndColourOptions() throws {
        try Self.withDemo { cli in
            let ascii = try cli.run(["chart", "steps", "--ascii"])
            #expect(ascii.stdout.unicodeScalars.allSatisfy { $0.isASCII }, "\(ascii.stdout)")
            #expect(ascii.stdout.contains("#"))
            let always = try cli.run(["chart", "steps", "--color", "always"])
            #expect(always.stdout.contains("\u{1B}["))
            let alwaysDespiteNoColor = try cli.run(["chart", "steps", "--color", "always"], environment: ["NO_COLOR": "1"])
            #expect(alwaysDespiteNoColor.stdout.contains("\u{1B}["))
            let never = try cli.run(["chart", "steps", "--color", "never"])
            let piped = try cli.run(["chart", "steps"])
            #expect(!never.stdout.contains("\u{1B}") && never.stdout == piped.stdout)
            let bad = try cli.run(["chart", "steps", "--color", "sometimes"])
            #expect(bad.status == 64 && bad.stderr.contains("auto, always or never"))
        }
    }

    /// On a terminal colour is on by default, and `NO_COLOR` turns it off.
    func colourFollowsTheTerminalAndNoColor() throws {
        try Self.withDemo { cli in
            func onTerminal(_ extra: String) throws -> String {
                let script = """
                    import os, pty, sys
                    pid, fd = pty.fork()
                    if pid == 0:
                        os.execv(sys.argv[1], sys.argv[1:])
                    out = b""
                    try:
                        while True:
                            chunk = os.read(fd, 4096)
                            if not chunk: break
                            out += chunk
                    except OSError:
                        pass
                    os.waitpid(pid, 0)
                    sys.stdout.write(out.decode())
                    """
                let command = "\(extra) HKCTL_STORE='\(cli.storePath)' HKCTL_NOW=2024-06-01T21:00+02:00 TZ=Europe/Paris COLUMNS=80 "
                    + "python3 -c '\(script.replacingOccurrences(of: "'", with: "'\\''"))' '\(CLIRunner.binaryURL.path)' chart steps"
                return try SystemPackages.shell(command).out
            }
            let coloured = try onTerminal("env -u NO_COLOR")
            #expect(coloured.contains("\u{1B}["), "\(coloured)")
            let plain = try onTerminal("NO_COLOR=1")
            #expect(plain.contains("Steps per day") && !plain.contains("\u{1B}["), "\(plain)")
        }
    }

    func svgIsWrittenWellFormedAndBadPathsFail() throws {
        try Self.withDemo { cli in
            let folder = TestSupport.scratchRoot + "hkctl-svg-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            for type in ["steps", "weight", "sleep"] {
                let path = folder + "/\(type).svg"
                let result = try cli.run(["chart", type, "--month", "--svg", path])
                #expect(result.status == 0 && result.stdout.isEmpty, "\(result.stderr)")
                let check = try SystemPackages.shell(
                    "python3 -c 'import sys, xml.dom.minidom as m; d = m.parse(sys.argv[1]); print(d.documentElement.tagName, len(d.getElementsByTagName(\"text\")))' '\(path)'")
                #expect(check.status == 0 && check.out.hasPrefix("svg "), "\(check.err)")
            }
            let stdout = try cli.run(["chart", "steps", "--svg", "-"])
            #expect(stdout.stdout.hasPrefix("<?xml") && stdout.stdout.contains("</svg>"))
            let bad = try cli.run(["chart", "steps", "--svg", folder + "/missing/x.svg"])
            #expect(bad.status == 73 && bad.stderr.hasPrefix("Error: Cannot create"), "\(bad.stderr)")
        }
    }

    func chartUsageErrors() throws {
        try Self.withDemo { cli in
            try expectEqual(cli.run(["chart"]).status, 64)
            #expect(try cli.run(["chart", "sleep", "--by", "week"]).stderr.contains("per night"))
            try expectEqual(cli.run(["chart", "steps", "--by", "fortnight"]).status, 64)
            let typo = try cli.run(["chrat", "steps"])
            #expect(typo.status == 64 && typo.stderr.contains("did you mean 'chart'?"))
            #expect(try cli.run(["stast"]).stderr.contains("did you mean 'stats'?"))
        }
    }
}

/// The checks ``TerminalCLITests/checks(_:)`` runs.
private let terminalCLITestsChecks: [Check<TerminalCLITests>] = [
    Check("bareHkctlShowsTodayAndHelpStaysHelp", TerminalCLITests.bareHkctlShowsTodayAndHelpStaysHelp),
    Check("readmeDashboardSampleIsTheDemoStoresRealOutput",
          TerminalCLITests.readmeDashboardSampleIsTheDemoStoresRealOutput),
    Check("todayOnAMissingStoreShowsZerosAndCreatesNothing",
          TerminalCLITests.todayOnAMissingStoreShowsZerosAndCreatesNothing),
    Check("todayAsJSONHasPlainNumbers", TerminalCLITests.todayAsJSONHasPlainNumbers),
    Check("goalsAreSetListedUnsetAndCheckedWithoutChangingTheStore",
          TerminalCLITests.goalsAreSetListedUnsetAndCheckedWithoutChangingTheStore),
    Check("chartsFitTheWidthFromColumnsAndOption", TerminalCLITests.chartsFitTheWidthFromColumnsAndOption),
    Check("asciiAndColourOptions", TerminalCLITests.asciiAndColourOptions),
    Check("colourFollowsTheTerminalAndNoColor", TerminalCLITests.colourFollowsTheTerminalAndNoColor),
    Check("svgIsWrittenWellFormedAndBadPathsFail", TerminalCLITests.svgIsWrittenWellFormedAndBadPathsFail),
    Check("chartUsageErrors", TerminalCLITests.chartUsageErrors),
]
