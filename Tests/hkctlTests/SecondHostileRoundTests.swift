import Foundation
import Testing
import TestKit
import TextSupport

/// Runs `script` with `/bin/sh -c`, with `$HKCTL` naming the binary and the runner's store, zone and clock set
/// as ``CLIRunner/run(_:stdin:environment:)`` sets them.
func runShell(_ script: String, _ cli: CLIRunner, environment extra: [String: String] = [:]) throws -> CLIResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", script]
    var env = ["PATH": "/usr/bin:/bin", "HKCTL_STORE": cli.storePath, "TZ": "UTC", "HKCTL_NOW": "2024-06-01T12:00:00Z",
               "HOME": NSTemporaryDirectory(), "HKCTL": CLIRunner.binaryURL.path]
    env.merge(extra) { $1 }
    process.environment = env
    return try CLIRunner.collect(process)
}

/// Issue 20, item 9: a suggested command quotes every value, so pasting it runs nothing else.
struct SuggestedCommandQuotingTests {
    /// The command a message suggests: the text after "with the command: " up to " (or:" or the line's end.
    private func suggestedCommand(_ stderr: String) throws -> String {
        let line = try #require(stderr.split(separator: "\n").first { $0.contains("with the command: ") })
        var command = String(line[line.range(of: "with the command: ")!.upperBound...])
        if let or = command.range(of: " (or: ") { command = String(command[..<or.lowerBound]) }
        return command
    }

    /// Pastes `command` into a shell where `hkctl` only prints its arguments; returns them.
    private func pasted(_ command: String, _ cli: CLIRunner, marker: String) throws -> [String] {
        let result = try runShell("hkctl() { printf '%s\\n' \"$@\"; }\n" + command, cli)
        expectEqual(result.status, 0, "\(command): \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: marker), "pasting \(command) ran the payload")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test func thePermissionHintQuotesAHostileSourceName() throws {
        try CLIRunner.withTemporaryStore { cli in
            let marker = TestSupport.scratchRoot + "hkctl-pwned-" + UUID().uuidString
            let source = "x; touch \(marker) #"
            let undecided = try cli.run(["add", "weight", "72kg", "--source", source])
            expectEqual(undecided.status, 77)
            try expectEqual(pasted(suggestedCommand(undecided.stderr), cli, marker: marker), ["auth", "grant", source, "--share", "weight"])
            try expectEqual(cli.run(["auth", "deny", source, "--share", "weight"]).status, 0)
            let denied = try cli.run(["add", "weight", "72kg", "--source", source])
            expectEqual(denied.status, 77)
            try expectEqual(pasted(suggestedCommand(denied.stderr), cli, marker: marker), ["auth", "grant", source, "--share", "weight"])
            let quote = "it's $(touch \(marker))"
            let request = try cli.run(["auth", "request", "--share", "weight,water", "--read", "steps"], environment: ["HKCTL_SOURCE": quote])
            expectEqual(request.status, 77)
            try expectEqual(pasted(suggestedCommand(request.stderr), cli, marker: marker), ["auth", "grant", quote, "--share", "weight,water", "--read", "steps"])
            // The suggested command, run for real, grants exactly that source.
            let grant = try runShell(suggestedCommand(undecided.stderr).replacingOccurrences(of: "hkctl ", with: "\"$HKCTL\" "), cli)
            expectEqual(grant.status, 0, "\(grant.stderr)")
            #expect(!FileManager.default.fileExists(atPath: marker))
            try expectEqual(cli.run(["add", "weight", "72kg", "--source", source]).status, 0)
        }
    }
}

/// `count` step samples a minute apart from 2024-05-01T00:00Z, as hkctl jsonl export lines.
func bulkStepLines(_ count: Int) -> String {
    (0..<count).map { index in
        let time = String(format: "2024-05-01T%02d:%02d:00+00:00", index / 60 % 24, index % 60)
        let day = String(format: "%02d", 1 + index / 1440)
        let start = time.replacingOccurrences(of: "2024-05-01", with: "2024-05-" + day)
        return "{\"uuid\":\"00000000-0000-4000-8000-\(String(format: "%012d", index))\",\"type\":\"HKQuantityTypeIdentifierStepCount\","
            + "\"start\":\"\(start)\",\"end\":\"\(start)\",\"value\":10,\"unit\":\"count\",\"source\":\"hkctl\","
            + "\"created\":\"2024-05-01T00:00:00+00:00\"}"
    }.joined(separator: "\n") + "\n"
}

/// Issue 20, item 11: output that cannot be written fails the command (exit 74); a reader that goes away does not.
struct OutputWriteErrorTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: outputWriteErrorTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// Commands that print to standard output, each run with it sent to /dev/full.
    static let commands: [String] = [
        "changes --format json", "changes --format jsonl", "changes", "list steps --from 2024-05-01 --to 2024-05-03 --format json",
        "list steps --from 2024-05-01 --to 2024-05-03", "list steps --from 2024-05-01 --to 2024-05-03 --format csv",
        "stats steps --from 2024-05-01 --to 2024-05-03 --by day --format csv", "stats steps --from 2024-05-01 --to 2024-05-03 --format json",
        "export", "export --format json", "export --format csv", "export --format healthxml", "export --out /dev/full",
        "types", "sources", "today", "goal", "doctor", "--help", "--version", "help list", "units water",
        "trend steps --from 2024-05-01 --to 2024-05-03", "chart steps --from 2024-05-01 --to 2024-05-03",
        "add water 1L --at 2024-05-02T08:00", "completions bash", "man",
    ]

    func everyCommandExits74WhenStandardOutputIsFull() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["import", "-"], stdin: bulkStepLines(3000)).status, 0)
            for command in Self.commands {
                let result = try runShell("\"$HKCTL\" \(command) >/dev/full", cli)
                expectEqual(result.status, 74, "\(command): exit \(result.status), \(result.stderr)")
                #expect(result.stderr.contains("No space left on device"), "\(command): \(result.stderr)")
                #expect(!result.stderr.contains("Exported"), "\(command): \(result.stderr)")
            }
            // /dev/full is still the device, not a file an export renamed over it.
            var status = stat()
            #expect(stat("/dev/full", &status) == 0 && (status.st_mode & S_IFMT) == S_IFCHR)
        }
    }

    /// `hkctl ... | head -1`: the reader leaves early; hkctl stops quietly with exit 0 (no SIGPIPE death, no error).
    func aReaderThatLeavesEarlyIsNotAnError() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["import", "-"], stdin: bulkStepLines(3000)).status, 0)
            for command in ["list steps --from 2024-05-01 --to 2024-05-03 --format json", "list steps --from 2024-05-01 --to 2024-05-03",
                            "changes --format jsonl", "changes --format json", "export", "export --format csv"] {
                let result = try runShell("{ \"$HKCTL\" \(command); echo \"status=$?\" >&2; } | head -1 >/dev/null", cli)
                expectEqual(result.stderr, "status=0\n", "\(command): \(result.stderr)")
            }
        }
    }
}

/// Issue 20, item 15: a wall-clock time skipped when clocks go forward is refused; a repeated one is the earlier.
struct ClockChangeTimeTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: clockChangeTimeTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    func aTimeInTheSpringForwardGapIsRefusedWithTheValidTimesAround() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "water", "1L", "--at", "2024-03-09T08:00"]).status, 0)
            let before = cli.snapshot()
            for at in ["2024-03-10T02:30", "2024-03-10T02:00", "2024-03-10T02:59:59"] {
                let result = try cli.run(["add", "water", "1L", "--at", at, "--tz", "America/New_York"])
                expectEqual(result.status, 65, "\(at): \(result.stdout)")
                #expect(result.stderr.contains("does not exist") && result.stderr.contains("2024-03-10T01:59")
                        && result.stderr.contains("2024-03-10T03:00"), "\(result.stderr)")
                expectEqual(result.stderr.split(separator: "\n").count, 1)
            }
            // Europe/Paris skips 02:00-03:00 on 2024-03-31; a time of day on today is checked too.
            let paris = try cli.run(["add", "water", "1L", "--at", "02:15", "--tz", "Europe/Paris"],
                                    environment: ["HKCTL_NOW": "2024-03-31T12:00:00Z"])
            #expect(paris.status == 65 && paris.stderr.contains("2024-03-31T01:59") && paris.stderr.contains("2024-03-31T03:00"), "\(paris.stderr)")
            expectEqual(cli.snapshot(), before)
            // The times on either side, and the gap's time with an explicit offset, are accepted.
            for at in ["2024-03-10T01:59", "2024-03-10T03:00", "2024-03-10T02:30-05:00"] {
                let result = try cli.run(["add", "water", "1L", "--at", at, "--tz", "America/New_York"])
                expectEqual(result.status, 0, "\(at): \(result.stderr)")
            }
        }
    }

    func aRepeatedFallBackTimeIsTheEarlierInstantUnlessAnOffsetIsGiven() throws {
        try CLIRunner.withTemporaryStore { cli in
            let plain = try cli.run(["add", "water", "1L", "--at", "2023-11-05T01:30", "--tz", "America/New_York", "--format", "json"])
            expectEqual(plain.status, 0, "\(plain.stderr)")
            #expect(plain.stdout.contains("\"start\":\"2023-11-05T01:30:00-04:00\""), "\(plain.stdout)")
            let later = try cli.run(["add", "water", "1L", "--at", "2023-11-05T01:30-05:00", "--tz", "America/New_York", "--format", "json"])
            #expect(later.stdout.contains("\"start\":\"2023-11-05T01:30:00-05:00\""), "\(later.stdout)")
            let export = try cli.run(["export"])
            #expect(export.stdout.contains("2023-11-05T05:30:00+00:00") && export.stdout.contains("2023-11-05T06:30:00+00:00"))
        }
    }
}

/// Issue 20, item 10: invisible and control characters in source names and metadata are refused on the command line
/// and in imports; ordinary non-ASCII names from real exports are kept.
struct InvisibleCharacterTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: invisibleCharacterTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    func theCommandLineRefusesThemWithOneLineAndWritesNothing() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "water", "1L", "--at", "08:00"]).status, 0)
            let before = cli.snapshot()
            let cases: [([String], [String: String], String)] = [
                (["auth", "grant", "", "--share", "water"], [:], "empty"),
                (["auth", "grant", "hkctl\u{200B}", "--share", "water"], [:], "U+200B"),
                (["auth", "deny", "scale\u{202E}", "--share", "water"], [:], "U+202E"),
                (["add", "water", "1L", "--source", "hkctl\u{200B}"], [:], "U+200B"),
                (["add", "water", "1L", "--source", "a\u{85}b"], [:], "U+0085"),
                (["add", "water", "1L", "--source", "a\u{2028}b"], [:], "U+2028"),
                (["add", "water", "1L", "--source", "a\u{FEFF}"], [:], "U+FEFF"),
                (["add", "water", "1L", "--source", "a\u{061C}"], [:], "U+061C"),
                (["add", "water", "1L", "--source", String(repeating: "s", count: 201)], [:], "at most 200"),
                (["add", "water", "1L"], ["HKCTL_SOURCE": "hkctl\u{2060}"], "U+2060"),
                (["add", "water", "1L", "--meta", "note=\u{202E}txt.exe"], [:], "U+202E"),
                (["add", "water", "1L", "--meta", "no\u{200D}te=x"], [:], "U+200D"),
                (["sources", "priority", "water", "Watch", "Phone\u{200C}"], [:], "U+200C"),
                (["auth", "request", "--share", "water"], ["HKCTL_SOURCE": "scale\u{2066}"], "U+2066"),
            ]
            for (arguments, environment, fragment) in cases {
                let result = try cli.run(arguments, environment: environment)
                expectEqual(result.status, 64, "\(arguments): \(result.status) \(result.stderr)")
                #expect(result.stderr.contains(fragment), "\(arguments): \(result.stderr)")
                expectEqual(result.stderr.split(separator: "\n").first.map { !$0.unicodeScalars.contains { [0x200B, 0x202E, 0x85, 0x2028, 0xFEFF].contains($0.value) } }, true)
                #expect(result.stdout.isEmpty)
            }
            expectEqual(cli.snapshot(), before)
            // Ordinary names with non-ASCII letters, a no-break space or a typographic apostrophe are fine.
            for source in ["José’s iPhone", "Jose\u{00A0}iPhone", String(repeating: "s", count: 200), "Alex’s iPhone 🏳️\u{200D}🌈"] {
                try expectEqual(cli.run(["auth", "grant", source, "--share", "water"]).status, 0)
                let added = try cli.run(["add", "water", "1L", "--at", "09:00", "--source", source])
                expectEqual(added.status, 0, "\(source): \(added.stderr)")
            }
        }
    }

    private func record(_ source: String, _ minute: Int, metadata: String = "") -> String {
        let time = String(format: "2024-05-01 08:%02d:00 +0000", minute)
        let close = metadata.isEmpty ? "/>" : ">\n  \(metadata)\n </Record>"
        return " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"\(source)\" unit=\"count\" "
            + "creationDate=\"\(time)\" startDate=\"\(time)\" endDate=\"\(time)\" value=\"\(10 + minute)\"\(close)"
    }

    /// An export's records whose source or metadata holds a refused character are rejected with their line and
    /// the character named (exit 65, like any unreadable record); the rest are imported, real names included.
    func anImportRejectsTheRecordsThatHoldThemAndKeepsTheRest() throws {
        try CLIRunner.withTemporaryStore { cli in
            let records = [
                record("José’s iPhone", 1), record("Jose&#xA0;Watch", 2), record("hkctl\u{200B}", 3), record("hkctl&#x200B;", 4),
                record("Phone&#x202E;", 5), record("Scale\u{85}", 6), record(String(repeating: "s", count: 300), 7),
                record("José’s iPhone", 8, metadata: "<MetadataEntry key=\"note\" value=\"a&#x2028;b\"/>"),
                record("José’s iPhone", 9, metadata: "<MetadataEntry key=\"note\" value=\"plain – “quoted”\"/>"),
                record("Jane’s iPhone", 10),
                // An emoji sequence's joiner, and a value of two lines, are what phones write.
                record("Alex’s iPhone 🏳️\u{200D}🌈", 11),
                record("José’s iPhone", 12, metadata: "<MetadataEntry key=\"HKFoodType\" value=\"Pasta&#10;with pesto\"/>"),
            ]
            let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n <ExportDate value=\"2024-05-02 08:00:00 +0000\"/>\n"
                + records.joined(separator: "\n") + "\n</HealthData>\n"
            let file = TestSupport.scratchRoot + "hkctl-invisible-\(UUID().uuidString).xml"
            try Data(xml.utf8).write(to: URL(fileURLWithPath: file))
            defer { try? FileManager.default.removeItem(atPath: file) }
            let result = try cli.run(["import", file])
            expectEqual(result.status, 65, "\(result.stderr)")
            for fragment in ["U+200B", "U+202E", "U+0085", "300 characters", "U+2028", "line 6:", "line 7:", "line 8:"] {
                #expect(result.stderr.contains(fragment), "\(fragment): \(result.stderr)")
            }
            #expect(result.stderr.contains("6 records were rejected"), "\(result.stderr)")
            let sources = try cli.run(["list", "steps", "--from", "2024-05-01", "--to", "2024-05-01", "--format", "json"])
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(sources.stdout.utf8)) as? [[String: Any]])
            expectEqual(Set(rows.compactMap { $0["source"] as? String }),
                        ["José’s iPhone", "Jose\u{00A0}Watch", "Jane’s iPhone", "Alex’s iPhone 🏳️\u{200D}🌈"])
            expectEqual(rows.count, 6)
            let food = rows.compactMap { ($0["metadata"] as? [String: Any])?["HKFoodType"] as? String }
            expectEqual(food, ["Pasta\nwith pesto"])
            // Imported again: the same records, nothing added.
            let again = try cli.run(["import", file, "--format", "json"])
            #expect(again.stdout.contains("\"totals\":{\"added\":0,"), "\(again.stdout)")
            // The same through an hkctl jsonl export.
            let lines = ["José’s iPhone", "hkctl\u{200B}", "x\u{2029}"].enumerated().map { index, source in
                "{\"uuid\":\"00000000-0000-4000-8000-00000000000\(index)\",\"type\":\"HKQuantityTypeIdentifierStepCount\","
                    + "\"start\":\"2024-05-03T08:0\(index):00+00:00\",\"end\":\"2024-05-03T08:0\(index):00+00:00\",\"value\":5,"
                    + "\"unit\":\"count\",\"source\":\(String(decoding: try! JSONSerialization.data(withJSONObject: source, options: .fragmentsAllowed), as: UTF8.self)),"
                    + "\"created\":\"2024-05-03T09:00:00+00:00\"}"
            }
            let jsonl = try cli.run(["import", "-"], stdin: lines.joined(separator: "\n") + "\n")
            #expect(jsonl.status == 65 && jsonl.stderr.contains("U+200B") && jsonl.stderr.contains("U+2029"), "\(jsonl.stderr)")
        }
    }
}

/// Issue 20, items 12 and 13: values are range-checked on the way in, no stored value crashes a command, and no
/// output shows a number that is not finite (an overflowing figure fails with exit 65 naming the samples).
struct OutOfRangeValueTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: outOfRangeValueTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// Replaces `"value":<old>,` by `"value":<new>,` in every partition of the type's folder.
    private func edit(_ cli: CLIRunner, folder: String, _ old: String, _ new: String) throws {
        let path = cli.storePath + "/samples/" + folder
        for name in try FileManager.default.contentsOfDirectory(atPath: path) where name.hasSuffix(".jsonl") {
            let text = try String(contentsOfFile: path + "/" + name, encoding: .utf8)
            try Data(text.replacingOccurrences(of: old, with: new).utf8).write(to: URL(fileURLWithPath: path + "/" + name))
        }
    }

    private func uuid(_ result: CLIResult) throws -> String {
        String(try #require(result.stdout.firstMatch(of: /[0-9a-f]{8}-[0-9a-f-]{27}/)).output)
    }

    func goalsAndWorkoutTotalsAreRangeCheckedOnTheWayIn() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "water", "1L", "--at", "08:00"]).status, 0)
            let before = cli.snapshot()
            for arguments in [["goal", "sleep", "1e300h"], ["goal", "sleep", "25h"], ["goal", "water", "1e6L"], ["goal", "steps", "1e30"],
                              ["add", "workout", "running", "45min", "--distance", "1.7e308km", "--at", "07:00"],
                              ["add", "workout", "running", "45min", "--distance", "2001km", "--at", "07:00"],
                              ["add", "workout", "running", "45min", "--energy", "1e9kcal", "--at", "07:00"]] {
                let result = try cli.run(arguments)
                expectEqual(result.status, 65, "\(arguments): \(result.status) \(result.stderr)")
                expectEqual(result.stderr.split(separator: "\n").count, 1, "\(result.stderr)")
            }
            expectEqual(cli.snapshot(), before)
            try expectEqual(cli.run(["goal", "sleep", "24h"]).status, 0)
            try expectEqual(cli.run(["add", "workout", "running", "45min", "--distance", "42.2km", "--energy", "3000kcal", "--at", "07:00"]).status, 0)
        }
    }

    /// A goal and values written into the files by hand, as large as a Double goes: nothing crashes, nothing
    /// prints `inf`.
    func noStoredValueCrashesACommand() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["goal", "sleep", "8h"]).status, 0)
            try expectEqual(cli.run(["add", "water", "1L", "--at", "08:00"]).status, 0)
            try expectEqual(cli.run(["add", "steps", "7", "--at", "08:00"]).status, 0)
            try expectEqual(cli.run(["add", "workout", "running", "45min", "--distance", "5km", "--energy", "300kcal", "--at", "07:00"]).status, 0)
            let goals = cli.storePath + "/goals.json"
            let text = try String(contentsOfFile: goals, encoding: .utf8)
            try Data(text.replacingOccurrences(of: "\"value\" : 8", with: "\"value\" : 1e300").utf8).write(to: URL(fileURLWithPath: goals))
            try edit(cli, folder: "HKQuantityTypeIdentifierDietaryWater", "\"value\":1,", "\"value\":1e308,")
            try edit(cli, folder: "HKQuantityTypeIdentifierStepCount", "\"value\":7,", "\"value\":1.7976931348623157e308,")
            try edit(cli, folder: "HKWorkoutTypeIdentifier", "\"totalDistance\":{\"value\":5,", "\"totalDistance\":{\"value\":1.7e308,")
            for arguments in [["today"], ["today", "--format", "json"], ["goal"], ["goal", "sleep"], ["chart", "sleep"], ["chart", "water"],
                              ["chart", "steps", "--week"], ["chart", "water", "--svg", "-"], ["list", "water"], ["list", "water", "--format", "json"],
                              ["stats", "water", "--format", "json"], ["stats", "steps", "--by", "hour", "--format", "csv"],
                              ["trend", "water", "--week", "--format", "json"], ["stats", "workouts", "--format", "json"],
                              ["list", "workouts"], ["list", "workouts", "--format", "json"], ["export"], ["doctor"]] {
                let result = try cli.run(arguments)
                #expect(result.status == 0 || result.status == 65, "\(arguments): exit \(result.status) \(result.stderr.prefix(300))")
                #expect(!result.stdout.contains("inf") && !result.stdout.contains("nan"), "\(arguments): \(result.stdout.prefix(300))")
            }
        }
    }

    func aSumThatOverflowsFailsNamingTheSamplesAndDoctorReportsThem() throws {
        try CLIRunner.withTemporaryStore { cli in
            let first = try uuid(cli.run(["add", "water", "1L", "--at", "08:00", "--format", "json"]))
            let second = try uuid(cli.run(["add", "water", "1L", "--at", "09:00", "--format", "json"]))
            let fine = try uuid(cli.run(["add", "water", "2L", "--at", "10:00", "--format", "json"]))
            try edit(cli, folder: "HKQuantityTypeIdentifierDietaryWater", "\"value\":1,", "\"value\":1e308,")
            for arguments in [["stats", "water", "--format", "json"], ["stats", "water", "--format", "csv"], ["stats", "water"],
                              ["stats", "water", "--by", "hour", "--format", "json"], ["today", "--format", "json"]] {
                let result = try cli.run(arguments)
                expectEqual(result.status, 65, "\(arguments): \(result.status) \(result.stdout)")
                #expect(result.stdout.isEmpty, "\(arguments): \(result.stdout)")
                #expect(result.stderr.contains(first) && result.stderr.contains(second) && !result.stderr.contains(fine), "\(result.stderr)")
                #expect(result.stderr.contains("overflow"))
            }
            let doctor = try cli.run(["doctor"])
            expectEqual(doctor.status, 65)
            let errors = doctor.stdout.split(separator: "\n").filter { $0.hasPrefix("error: ") }
            for uuid in [first, second] {
                #expect(errors.contains { $0.contains(uuid) && $0.contains("outside the valid range") }, "\(doctor.stdout)")
            }
            #expect(!errors.contains { $0.contains(fine) })
            #expect(doctor.stderr.contains("a value out of range") && doctor.stderr.contains("fixed by hand"), "\(doctor.stderr)")
            // A workout distance written by hand: the workout totals overflow, and the workouts are named.
            let run = try uuid(cli.run(["add", "workout", "running", "45min", "--distance", "5km", "--at", "07:00", "--format", "json"]))
            let walk = try uuid(cli.run(["add", "workout", "walking", "30min", "--distance", "5km", "--at", "06:00", "--format", "json"]))
            try edit(cli, folder: "HKWorkoutTypeIdentifier", "\"totalDistance\":{\"value\":5,", "\"totalDistance\":{\"value\":1.7e308,")
            let workouts = try cli.run(["stats", "workouts", "--format", "json"])
            #expect(workouts.status == 65 && workouts.stdout.isEmpty, "\(workouts.stdout)")
            #expect(workouts.stderr.contains(run) && workouts.stderr.contains(walk), "\(workouts.stderr)")
            let again = try cli.run(["doctor"])
            #expect(again.stdout.contains(run) && again.stdout.contains("distance"), "\(again.stdout)")
        }
    }
}

/// The checks ``OutputWriteErrorTests/checks(_:)`` runs.
private let outputWriteErrorTestsChecks: [Check<OutputWriteErrorTests>] = [
    Check("everyCommandExits74WhenStandardOutputIsFull",
          OutputWriteErrorTests.everyCommandExits74WhenStandardOutputIsFull),
    Check("aReaderThatLeavesEarlyIsNotAnError", OutputWriteErrorTests.aReaderThatLeavesEarlyIsNotAnError),
]

/// The checks ``ClockChangeTimeTests/checks(_:)`` runs.
private let clockChangeTimeTestsChecks: [Check<ClockChangeTimeTests>] = [
    Check("aTimeInTheSpringForwardGapIsRefusedWithTheValidTimesAround",
          ClockChangeTimeTests.aTimeInTheSpringForwardGapIsRefusedWithTheValidTimesAround),
    Check("aRepeatedFallBackTimeIsTheEarlierInstantUnlessAnOffsetIsGiven",
          ClockChangeTimeTests.aRepeatedFallBackTimeIsTheEarlierInstantUnlessAnOffsetIsGiven),
]

/// The checks ``InvisibleCharacterTests/checks(_:)`` runs.
private let invisibleCharacterTestsChecks: [Check<InvisibleCharacterTests>] = [
    Check("theCommandLineRefusesThemWithOneLineAndWritesNothing",
          InvisibleCharacterTests.theCommandLineRefusesThemWithOneLineAndWritesNothing),
    Check("anImportRejectsTheRecordsThatHoldThemAndKeepsTheRest",
          InvisibleCharacterTests.anImportRejectsTheRecordsThatHoldThemAndKeepsTheRest),
]

/// The checks ``OutOfRangeValueTests/checks(_:)`` runs.
private let outOfRangeValueTestsChecks: [Check<OutOfRangeValueTests>] = [
    Check("goalsAndWorkoutTotalsAreRangeCheckedOnTheWayIn",
          OutOfRangeValueTests.goalsAndWorkoutTotalsAreRangeCheckedOnTheWayIn),
    Check("noStoredValueCrashesACommand", OutOfRangeValueTests.noStoredValueCrashesACommand),
    Check("aSumThatOverflowsFailsNamingTheSamplesAndDoctorReportsThem",
          OutOfRangeValueTests.aSumThatOverflowsFailsNamingTheSamplesAndDoctorReportsThem),
]
