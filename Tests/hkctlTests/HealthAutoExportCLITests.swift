import Foundation
import Testing
import TextSupport
import TestKit

/// `hkctl import` of Health Auto Export JSON (Tests/Fixtures/hae, figures in its README), run as the built binary.
struct HealthAutoExportCLITests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: healthAutoExportCLITestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/hae").path
    static let berlin = ["TZ": "Europe/Berlin"]

    static func fixture(_ name: String) -> String { folder + "/" + name }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    /// A JSON number as a Double (JSONSerialization gives whole numbers as integers).
    static func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }
    /// Hours as seconds, typed (literal arithmetic beside an optional in `#expect` is slow to type-check).
    static func hours(_ value: Double) -> Double { value * 3600 }

    static func totals(_ result: CLIResult) throws -> [String: Int] {
        try #require(try object(result.stdout)["totals"] as? [String: Int])
    }

    /// The sums of `stats TYPE --by UNIT` (JSON), by bucket.
    static func sums(_ cli: CLIRunner, _ arguments: [String]) throws -> [Double] {
        let result = try cli.run(["stats"] + arguments + ["--format", "json"], environment: berlin)
        expectEqual(result.status, 0, "\(result.stderr)")
        let buckets = try #require(try object(result.stdout)["buckets"] as? [[String: Any]])
        return buckets.map { number($0["sum"]) ?? 0 }
    }

    /// The nights of `stats sleep --by night` (JSON).
    static func nights(_ cli: CLIRunner, from: String, to: String) throws -> [[String: Any]] {
        let result = try cli.run(["stats", "sleep", "--by", "night", "--from", from, "--to", to, "--format", "json"], environment: berlin)
        expectEqual(result.status, 0, "\(result.stderr)")
        return try #require(try object(result.stdout)["nights"] as? [[String: Any]])
    }

    /// Standard input is the payload from where it stands, also when it is a regular file read part-way already
    /// (`(head -c 5 >/dev/null; hkctl import -) < file`): a file is read a window at a time and read again whole when
    /// that fails, which for standard input would read the bytes before its position.
    func standardInputFromAFilePartWayThroughIsReadFromThere() throws {
        try CLIRunner.withTemporaryStore { cli in
            let path = cli.storePath + "-input.json"
            let payload = try Data(contentsOf: URL(fileURLWithPath: Self.fixture("day-steps.json")))
            try (Data("junk\n".utf8) + payload).write(to: URL(fileURLWithPath: path))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let input = try #require(FileHandle(forReadingAtPath: path))
            try input.seek(toOffset: 5)
            let process = Process()
            process.executableURL = CLIRunner.binaryURL
            process.arguments = ["import", "-", "--format", "json"]
            process.environment = ["PATH": "/usr/bin:/bin", "HKCTL_STORE": cli.storePath, "TZ": "Europe/Berlin",
                                   "HKCTL_NOW": "2024-06-01T12:00:00Z", "HOME": NSTemporaryDirectory()]
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            process.standardInput = input
            try process.run()
            let stdout = out.fileHandleForReading.readDataToEndOfFile()
            let stderr = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            expectEqual(process.terminationStatus, 0, "\(String(decoding: stderr, as: UTF8.self))")
            let result = CLIResult(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: "")
            try expectEqual(Self.totals(result)["added"], 6)
        }
    }

    func aFileAStdinReSendAndAFolderWithAGrownDay() throws {
        try CLIRunner.withTemporaryStore { cli in
            let first = try cli.run(["import", Self.fixture("day-steps.json"), "--format", "json"], environment: Self.berlin)
            expectEqual(first.status, 0, "\(first.stderr)")
            try expectEqual(Self.object(first.stdout)["input"] as? String, "hae")
            try expectEqual(Self.totals(first)["added"], 6)
            try expectEqual(Self.totals(first)["keptGenerically"], 1)
            // 2024-03-31 has 23 hours in Berlin: its 8,000 steps stay on it.
            try expectEqual(Self.sums(cli, ["steps", "--by", "day", "--from", "2024-03-30", "--to", "2024-04-01"]), [9000, 8000, 7000])
            let text = try String(contentsOfFile: Self.fixture("day-steps.json"), encoding: .utf8)
            let again = try cli.run(["import", "-", "--format", "json"], stdin: text, environment: Self.berlin)
            expectEqual(again.status, 0, "\(again.stderr)")
            let totals = try Self.totals(again)
            #expect(totals["added"] == 0 && totals["replaced"] == 0 && totals["keptGenerically"] == 0 && totals["alreadyPresent"] == 7)
            // A folder: every *.json in name order, the grown re-send last.
            let sync = cli.storePath + "-sync"
            try FileManager.default.createDirectory(atPath: sync, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: sync) }
            try FileManager.default.copyItem(atPath: Self.fixture("day-steps.json"), toPath: sync + "/HealthAutoExport-2024-04-01.json")
            try FileManager.default.copyItem(atPath: Self.fixture("day-steps-grown.json"), toPath: sync + "/HealthAutoExport-2024-04-02.json")
            try Data("not json".utf8).write(to: URL(fileURLWithPath: sync + "/notes.txt"))
            let table = try cli.run(["import", sync], environment: Self.berlin)
            expectEqual(table.status, 0, "\(table.stderr)")
            #expect(table.stdout.contains("REPLACED"), "\(table.stdout)")
            #expect(table.stdout.split(separator: "\n").contains { $0.hasPrefix("steps") && $0.split(separator: " ").map(String.init) == ["steps", "0", "1", "5", "0", "0"] },
                    "\(table.stdout)")
            try expectEqual(Self.sums(cli, ["steps", "--by", "day", "--from", "2024-04-01", "--to", "2024-04-01"]), [7500])
            // The replacement is an operation undo takes back.
            let undo = try cli.run(["undo", "--yes"], environment: Self.berlin)
            expectEqual(undo.status, 0, "\(undo.stderr)")
            try expectEqual(Self.sums(cli, ["steps", "--by", "day", "--from", "2024-04-01", "--to", "2024-04-01"]), [7000])
        }
    }

    func sleepPerStageAndPerNightGiveThePayloadsFigures() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["import", Self.fixture("sleep-stages.json")], environment: Self.berlin).status, 0)
            let night = try #require(try Self.nights(cli, from: "2024-05-10", to: "2024-05-10").first)
            expectEqual(Self.number(night["asleep"]), Self.hours(6.75))
            expectEqual(Self.number(night["asleepCore"]), Self.hours(4.75))
            #expect(Self.number(night["asleepDeep"]) == 3600 && Self.number(night["asleepREM"]) == 3600)
            expectEqual(Self.number(night["awake"]), 900)
            expectEqual(Self.number(night["inBed"]), Self.hours(7.0) + 1200)
        }
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["import", Self.fixture("sleep-nights.json")], environment: Self.berlin).status, 0)
            let nights = try Self.nights(cli, from: "2024-05-10", to: "2024-05-11")
            expectEqual(nights.count, 2)
            expectEqual(Self.number(nights.first?["asleep"]), Self.hours(7.25))
            expectEqual(Self.number(nights.first?["asleepCore"]), Self.hours(4.5))
            expectEqual(Self.number(nights.first?["asleepDeep"]), Self.hours(1.25))
            expectEqual(Self.number(nights.first?["asleepREM"]), Self.hours(1.5))
            expectEqual(Self.number(nights.first?["asleepUnspecified"]), 0)
            expectEqual(Self.number(nights.first?["awake"]), 900)
            expectEqual(Self.number(nights.first?["inBed"]), Self.hours(7.75))
            expectEqual(Self.number(nights.last?["asleep"]), Self.hours(7.0))
            expectEqual(Self.number(nights.last?["awake"]), 1800)
            expectEqual(Self.number(nights.last?["inBed"]), Self.hours(8.0))
            // The first night re-sent later with sleep starting 30 min earlier and 30 min more core: the core part is
            // replaced (deep, REM and awake still start at 03:30, 04:45 and 06:15, in bed is the same), not doubled.
            let text = try String(contentsOfFile: Self.fixture("sleep-nights.json"), encoding: .utf8)
                .replacingOccurrences(of: "\"totalSleep\":7.25,\"asleep\":0,\"core\":4.5", with: "\"totalSleep\":7.75,\"asleep\":0,\"core\":5")
                .replacingOccurrences(of: "\"sleepStart\":\"2024-05-09 23:00:00 +0200\"", with: "\"sleepStart\":\"2024-05-09 22:30:00 +0200\"")
            let resent = try cli.run(["import", "-", "--format", "json"], stdin: text, environment: Self.berlin)
            #expect(try Self.totals(resent)["replaced"] == 1 && Self.totals(resent)["alreadyPresent"] == 9, "\(resent.stdout)")
            let after = try Self.nights(cli, from: "2024-05-10", to: "2024-05-10")
            #expect(Self.number(after.first?["asleep"]) == Self.hours(7.75) && Self.number(after.first?["asleepCore"]) == Self.hours(5.0))
        }
    }

    func heartRateMinAvgMaxGiveTheDaysFigures() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["import", Self.fixture("heart-rate-minutes.json")], environment: Self.berlin).status, 0)
            let result = try cli.run(["stats", "heart-rate", "--from", "2024-05-10 08:00", "--to", "2024-05-10 08:03", "--format", "json"],
                                     environment: Self.berlin)
            expectEqual(result.status, 0, "\(result.stderr)")
            let stats = try Self.object(result.stdout)
            expectEqual(Self.number(stats["minimum"]), 50)
            expectEqual(Self.number(stats["maximum"]), 90)
            let average = try #require(Self.number(stats["average"]))
            // JSON keeps two decimals of a derived figure (the output rounding rule).
            #expect(abs(average - 200.0 / 3) < 0.005 + 1e-9, "\(result.stdout)")
        }
    }

    /// The same day's steps and night arriving as an Apple Health export and from HAE, in both orders: each step
    /// and the night count once, merged or not, by day and by hour.
    @Test(arguments: [false, true])
    func anExportAndHAEForTheSameDayCountOnce(haeFirst: Bool) throws {
        try CLIRunner.withTemporaryStore { cli in
            // The export as the phone makes it: export.zip holding apple_health_export/export.xml.
            let zip = cli.storePath + "-export.zip"
            defer { try? FileManager.default.removeItem(atPath: zip) }
            let made = try SystemPackages.shell("python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[2], \"w\", zipfile.ZIP_DEFLATED)"
                                                + ".write(sys.argv[1], \"apple_health_export/export.xml\")' '\(Self.fixture("overlap-export.xml"))' '\(zip)'")
            expectEqual(made.status, 0, "\(made.err)")
            let hae = Self.fixture("overlap-hae.json")
            for path in haeFirst ? [hae, zip] : [zip, hae] {
                let result = try cli.run(["import", path], environment: Self.berlin)
                expectEqual(result.status, 0, "\(path): \(result.stderr)")
            }
            for merge in [[], ["--no-merge"]] {
                try expectEqual(Self.sums(cli, ["steps", "--by", "day", "--from", "2024-05-10", "--to", "2024-05-10"] + merge), [4500])
                let hours = try Self.sums(cli, ["steps", "--by", "hour", "--from", "2024-05-10", "--to", "2024-05-10"] + merge)
                #expect(hours.count == 24 && hours[8] == 1000 && hours[12] == 3000 && hours[18] == 500 && hours.sum == 4500)
            }
            let night = try #require(try Self.nights(cli, from: "2024-05-10", to: "2024-05-10").first)
            expectEqual(Self.number(night["asleep"]), Self.hours(6.0))
            expectEqual(Self.number(night["inBed"]), Self.hours(7.0) + 1200)
            // A re-send afterwards changes nothing either.
            let again = try cli.run(["import", Self.fixture("overlap-hae.json"), "--format", "json"], environment: Self.berlin)
            try expectEqual(Self.totals(again)["added"], 0)
        }
    }

    /// Another source than the owner imports as the program the payload came through: it needs every type, and the
    /// samples keep the payload's sources.
    func anotherSourceNeedsEveryTypeAndKeepsThePayloadsSources() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "water", "1L", "--at", "2024-05-01 08:00"]).status, 0)
            let before = cli.snapshot()
            let refused = try cli.run(["import", Self.fixture("heart-rate-minutes.json"), "--source", "phone-sync"], environment: Self.berlin)
            expectEqual(refused.status, 77, "\(refused.stderr)")
            expectEqual(cli.snapshot(), before)
            try expectEqual(cli.run(["auth", "grant", "phone-sync", "--share", "heart-rate,steps"]).status, 0)
            let allowed = try cli.run(["import", Self.fixture("heart-rate-minutes.json"), "--source", "phone-sync"], environment: Self.berlin)
            expectEqual(allowed.status, 0, "\(allowed.stderr)")
            let listed = try cli.run(["list", "steps", "--from", "2024-05-10", "--to", "2024-05-10", "--format", "json"], environment: Self.berlin)
            #expect(listed.stdout.contains("Jane’s Apple Watch") && listed.stdout.contains("\"HAEReceivedThrough\":\"phone-sync\""),
                    "\(listed.stdout)")
        }
    }

    func unusableInputChangesNothingAndBadPointsAreListed() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["import", Self.fixture("day-steps.json")], environment: Self.berlin).status, 0)
            let before = cli.snapshot()
            let truncated = try cli.run(["import", Self.fixture("truncated.json")], environment: Self.berlin)
            expectEqual(truncated.status, 65)
            #expect(truncated.stderr.contains("truncated.json' is not a usable Health Auto Export payload"), "\(truncated.stderr)")
            #expect(truncated.stderr.contains("line 9"), "\(truncated.stderr)")
            expectEqual(truncated.stderr.split(separator: "\n").count, 1, "\(truncated.stderr)")
            // A folder with one unusable file stores none of them.
            let sync = cli.storePath + "-bad"
            try FileManager.default.createDirectory(atPath: sync, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: sync) }
            try FileManager.default.copyItem(atPath: Self.fixture("sleep-stages.json"), toPath: sync + "/a.json")
            try FileManager.default.copyItem(atPath: Self.fixture("truncated.json"), toPath: sync + "/b.json")
            try expectEqual(cli.run(["import", sync], environment: Self.berlin).status, 65)
            expectEqual(cli.snapshot(), before, "nothing written")
            let bad = try cli.run(["import", Self.fixture("bad-points.json")], environment: Self.berlin)
            expectEqual(bad.status, 65)
            #expect(bad.stderr.contains("line 2: HKQuantityTypeIdentifierStepCount: 'qty' is 'many', not a number"), "\(bad.stderr)")
            #expect(bad.stderr.contains("5 records were rejected"), "\(bad.stderr)")
            try expectEqual(Self.sums(cli, ["steps", "--by", "day", "--from", "2024-05-10", "--to", "2024-05-10"]), [100])
        }
    }
}

/// The checks ``HealthAutoExportCLITests/checks(_:)`` runs.
private let healthAutoExportCLITestsChecks: [Check<HealthAutoExportCLITests>] = [
    Check("standardInputFromAFilePartWayThroughIsReadFromThere",
          HealthAutoExportCLITests.standardInputFromAFilePartWayThroughIsReadFromThere),
    Check("aFileAStdinReSendAndAFolderWithAGrownDay",
          HealthAutoExportCLITests.aFileAStdinReSendAndAFolderWithAGrownDay),
    Check("sleepPerStageAndPerNightGiveThePayloadsFigures",
          HealthAutoExportCLITests.sleepPerStageAndPerNightGiveThePayloadsFigures),
    Check("heartRateMinAvgMaxGiveTheDaysFigures", HealthAutoExportCLITests.heartRateMinAvgMaxGiveTheDaysFigures),
    Check("anotherSourceNeedsEveryTypeAndKeepsThePayloadsSources",
          HealthAutoExportCLITests.anotherSourceNeedsEveryTypeAndKeepsThePayloadsSources),
    Check("unusableInputChangesNothingAndBadPointsAreListed",
          HealthAutoExportCLITests.unusableInputChangesNothingAndBadPointsAreListed),
]
