#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TestKit

/// Session 19's review of the HAE import's direct path through the built binary: a Health Auto Export import killed
/// with SIGKILL part-way and run again, and two imports running at once, must leave exactly the store one import into
/// an empty store leaves (the uuids of new samples aside); a dry run's receipt must be the real import's.
struct S19ReviewHAECLITests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: s19ReviewHAECLITestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// Points every two minutes over `hours` hours from 2024-05-01 UTC: steps, heart rate as Min/Avg/Max, active energy, a
    /// few 17-digit values; `shift` moves every point by that many seconds (another payload's own points).
    static func payload(hours: Int, seed: UInt64, shift: Int = 0) -> String {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let start = 1_714_521_600 + shift  // 2024-05-01T00:00:00Z
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        var steps: [String] = [], heart: [String] = [], energy: [String] = []
        for minute in stride(from: 0, to: hours * 60, by: 2) {
            let date = formatter.string(from: Date(timeIntervalSince1970: Double(start + minute * 60)))
            steps.append("{\"date\":\"\(date)\",\"qty\":\(1 + next(90)),\"source\":\"Jane’s Watch\"}")
            let avg = 55 + next(50), spread = next(3) * 3
            heart.append("{\"Min\":\(avg - spread),\"Avg\":\(avg),\"Max\":\(avg + spread),\"date\":\"\(date)\",\"source\":\"Jane’s Watch\"}")
            energy.append("{\"qty\":0.\(next(9))\(100_000_000_000_000 + next(899_999_999_999_999)),\"date\":\"\(date)\"}")
        }
        func metric(_ name: String, _ units: String, _ points: [String]) -> String {
            "{\"name\":\"\(name)\",\"units\":\"\(units)\",\"data\":[" + points.joined(separator: ",\n") + "]}"
        }
        return "{\"data\":{\"metrics\":[" + metric("step_count", "count", steps) + ",\n" + metric("heart_rate", "count/min", heart)
            + ",\n" + metric("active_energy", "kcal", energy) + "]}}"
    }

    /// The store's samples as `export --format jsonl` writes them, uuids blanked, lines sorted.
    static func contents(_ cli: CLIRunner) throws -> [String] {
        let exported = try cli.run(["export", "--format", "jsonl"])
        expectEqual(exported.status, 0, "\(exported.stderr)")
        let uuid = /[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}/
        return exported.stdout.split(separator: "\n").map { String($0.replacing(uuid, with: "U")) }.sorted()
    }

    /// `import PATH --format json`'s receipt without what says whether it was a dry run, keys sorted.
    static func counts(_ result: CLIResult) throws -> String {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        for key in object.keys where key.lowercased().contains("dry") { object[key] = nil }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return String(decoding: data, as: UTF8.self)
    }

    /// The receipt's totals.
    static func totals(_ result: CLIResult) throws -> [String: Int] {
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return (object?["totals"] as? [String: Int]) ?? [:]
    }

    static func folder(of cli: CLIRunner) -> String { (cli.storePath as NSString).deletingLastPathComponent }

    func anImportKilledPartWayAndRunAgainLeavesTheStoreOfOneImport() throws {
        try CLIRunner.withTemporaryStore { reference in
            let path = Self.folder(of: reference) + "/days.json"
            try Self.payload(hours: 24, seed: 3).write(toFile: path, atomically: true, encoding: .utf8)
            try expectEqual(reference.run(["import", path, "-q"]).status, 0)
            let expected = try Self.contents(reference)
            #expect(expected.count > 2500, "\(expected.count)")
            for delay in [30_000, 150_000] as [useconds_t] {
                try CLIRunner.withTemporaryStore { cli in
                    let spawned = try Spawned.start(["import", path, "--batch-size", "400", "-q"], cli: cli,
                                                    outputFolder: Self.folder(of: cli), label: "killed")
                    usleep(delay)
                    spawned.killNow()
                    _ = spawned.wait()
                    let again = try cli.run(["import", path, "-q"])
                    expectEqual(again.status, 0, "\(again.stderr)")
                    try expectEqual(Self.contents(cli), expected, "killed after \(delay) µs")
                    let third = try cli.run(["import", path, "--format", "json"])
                    expectEqual(third.status, 0)
                    let totals = try Self.totals(third)
                    #expect(totals["added"] == 0 && totals["replaced"] == 0 && (totals["alreadyPresent"] ?? 0) > 0, "\(totals)")
                    let doctor = try cli.run(["doctor"])
                    expectEqual(doctor.status, 0, "\(doctor.stdout)\(doctor.stderr)")
                }
            }
        }
    }

    func twoImportsAtOnceLeaveTheStoreOfOneAfterTheOther() throws {
        try CLIRunner.withTemporaryStore { reference in
            let one = Self.folder(of: reference) + "/one.json", two = Self.folder(of: reference) + "/two.json"
            // Half a day each, imported in batches of 500: four batches an import, the interleaving a day in batches of
            // 1,000 gave, at less than half the time (8.5 s → 3.8 s serially).
            try Self.payload(hours: 12, seed: 5).write(toFile: one, atomically: true, encoding: .utf8)
            // The same half day, each point a minute later: other points of the same types, months and form (points 30 s
            // later would be another form of the same minutes, which the later import replaces: then the order counts).
            try Self.payload(hours: 12, seed: 6, shift: 60).write(toFile: two, atomically: true, encoding: .utf8)
            try expectEqual(reference.run(["import", one, "-q"]).status, 0)
            let single = try Self.contents(reference)
            try expectEqual(reference.run(["import", two, "-q"]).status, 0)
            let both = try Self.contents(reference)
            try CLIRunner.withTemporaryStore { (backwards: CLIRunner) throws in
                try expectEqual(backwards.run(["import", two, "-q"]).status, 0)
                try expectEqual(backwards.run(["import", one, "-q"]).status, 0)
                try expectEqual(Self.contents(backwards), both)
            }
            for (first, second, expected) in [(one, one, single), (one, two, both)] {
                try CLIRunner.withTemporaryStore { cli in
                    let a = try Spawned.start(["import", first, "--batch-size", "500", "-q"], cli: cli, outputFolder: Self.folder(of: cli),
                                              label: "a", environment: ["HKCTL_LOCK_TIMEOUT": "60"])
                    let b = try Spawned.start(["import", second, "--batch-size", "500", "-q"], cli: cli, outputFolder: Self.folder(of: cli),
                                              label: "b", environment: ["HKCTL_LOCK_TIMEOUT": "60"])
                    let (ra, rb) = (a.wait().result, b.wait().result)
                    expectEqual(ra.status, 0, "\(ra.stderr)")
                    expectEqual(rb.status, 0, "\(rb.stderr)")
                    try expectEqual(Self.contents(cli), expected, "\(first) with \(second)")
                }
            }
        }
    }

    /// An import written straight from the points, then a grown re-send over it: `undo` takes back the re-send (the
    /// store of the first import again), then the first import (nothing left).
    func undoTakesBackImportsWrittenDirectly() throws {
        try CLIRunner.withTemporaryStore { cli in
            let one = Self.folder(of: cli) + "/one.json", other = Self.folder(of: cli) + "/other.json"
            try Self.payload(hours: 12, seed: 11).write(toFile: one, atomically: true, encoding: .utf8)
            try Self.payload(hours: 12, seed: 12, shift: 60).write(toFile: other, atomically: true, encoding: .utf8)
            try expectEqual(cli.run(["import", one, "-q"]).status, 0)
            let first = try Self.contents(cli)
            #expect(first.count > 1000)
            try expectEqual(cli.run(["import", other, "-q"]).status, 0)
            #expect(try Self.contents(cli).count > first.count)
            let undone = try cli.run(["undo", "--yes"])
            expectEqual(undone.status, 0, "\(undone.stderr)")
            try expectEqual(Self.contents(cli), first)
            try expectEqual(cli.run(["undo", "--yes"]).status, 0)
            #expect(try Self.contents(cli).isEmpty)
        }
    }

    func aDryRunSaysWhatTheImportThenDoes() throws {
        try CLIRunner.withTemporaryStore { cli in
            let one = Self.folder(of: cli) + "/one.json", grown = Self.folder(of: cli) + "/grown.json"
            try Self.payload(hours: 12, seed: 8).write(toFile: one, atomically: true, encoding: .utf8)
            try Self.payload(hours: 12, seed: 9).write(toFile: grown, atomically: true, encoding: .utf8)
            // An export whose steps cover some of the points' minutes (the import supersedes those points).
            let export = Self.folder(of: cli) + "/export.xml"
            try stepsExport(source: "Jane’s Watch", values: Array(100..<160), firstMinute: 30 * 1440 + 600)
                .write(toFile: export, atomically: true, encoding: .utf8)
            for path in [one, grown, export, one] {
                let dry = try cli.run(["import", path, "--dry-run", "--format", "json"])
                let real = try cli.run(["import", path, "--format", "json"])
                #expect(dry.status == 0 && real.status == 0, "\(dry.stderr)\(real.stderr)")
                try expectEqual(Self.counts(dry), Self.counts(real), "\(path)")
                #expect(try Self.counts(real) != "{}")
            }
        }
    }
}

/// The checks ``S19ReviewHAECLITests/checks(_:)`` runs.
private let s19ReviewHAECLITestsChecks: [Check<S19ReviewHAECLITests>] = [
    Check("anImportKilledPartWayAndRunAgainLeavesTheStoreOfOneImport",
          S19ReviewHAECLITests.anImportKilledPartWayAndRunAgainLeavesTheStoreOfOneImport),
    Check("twoImportsAtOnceLeaveTheStoreOfOneAfterTheOther",
          S19ReviewHAECLITests.twoImportsAtOnceLeaveTheStoreOfOneAfterTheOther),
    Check("undoTakesBackImportsWrittenDirectly", S19ReviewHAECLITests.undoTakesBackImportsWrittenDirectly),
    Check("aDryRunSaysWhatTheImportThenDoes", S19ReviewHAECLITests.aDryRunSaysWhatTheImportThenDoes),
]
