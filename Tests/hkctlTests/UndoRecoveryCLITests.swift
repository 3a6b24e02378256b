#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
@testable import HealthCore
import Testing
import TestKit

/// Issue 29, items 14 and 15, with the `hkctl` binary.
struct UndoRecoveryCLITests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: undoRecoveryCLITestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private func undoJSON(_ cli: CLIRunner) throws -> (status: Int32, object: [String: Any], stderr: String) {
        let result = try cli.run(["undo", "--yes", "--format", "json"])
        let object = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any]
        return (result.status, object ?? [:], result.stderr)
    }

    /// Item 14: `hkctl undo` killed while its last batch was written (the journal left behind) and run again finishes
    /// that undo and says so, exit 0, instead of "nothing was undone" (exit 75).
    func undoRunAgainAfterAKillInItsLastBatchReportsTheUndoDone() throws {
        try CLIRunner.withTemporaryStore { cli in
            for (amount, time) in [("500mL", "08:00"), ("250mL", "09:00"), ("330mL", "10:00")] {
                try expectEqual(cli.run(["add", "water", amount, "--at", time]).status, 0)
            }
            try expectEqual(cli.run(["delete", "water", "--today", "--yes"]).status, 0)
            // Every state a SIGKILL during the undo's batch can leave: a copy of the store after each partition it
            // appended, its journal still there.
            let store = JSONFileStore(path: cli.storePath, timeZone: .gmt, lockTimeout: 2)
            var copies: [String] = []
            store.afterPartitionWrite = { _ in
                let copy = cli.storePath + "-killed-\(copies.count)"
                try FileManager.default.copyItem(atPath: cli.storePath, toPath: copy)
                copies.append(copy)
            }
            try expectEqual(store.undo(source: "hkctl", now: Date()).total, 3)
            expectEqual(copies.count, 2, "the water partition, then operations.jsonl")
            for copy in copies {
                let again = CLIRunner(storePath: copy)
                #expect(FileManager.default.fileExists(atPath: copy + "/journal.jsonl"))
                let (status, object, stderr) = try undoJSON(again)
                expectEqual(status, 0, "\(stderr)")
                #expect(object["undo"] as? String == "delete" && object["count"] as? Int == 3 && object["done"] as? Bool == true,
                        "\(object)")
                let rows = try again.run(["list", "water", "--today", "--format", "csv"]).stdout.split(separator: "\n")
                expectEqual(rows.count, 4, "three restored samples under a header, once")
                let next = try again.run(["undo", "--dry-run"])
                #expect(next.stdout.hasPrefix("Undo add of 1 water sample"), "the delete is undone; the last add is next: \(next.stdout)")
                try FileManager.default.removeItem(atPath: copy)
            }
        }
    }

    /// Item 14 with real kills: `hkctl undo --yes` killed with SIGKILL at random moments, then run again, always
    /// exits 0 and undoes the delete once: the run again reports the undo of the delete, unless the killed run had
    /// finished it (then it undoes the add before, as it should).
    func undoKilledAtRandomMomentsThenRunAgainFinishesItOnce() throws {
        try CLIRunner.withTemporaryStore { cli in
            for (amount, time) in [("500mL", "08:00"), ("250mL", "09:00"), ("330mL", "10:00")] {
                try expectEqual(cli.run(["add", "water", amount, "--at", time]).status, 0)
            }
            try expectEqual(cli.run(["delete", "water", "--today", "--yes"]).status, 0)
            var random = SystemRandomNumberGenerator()
            // Kills land anywhere in a run: up to as long as one whole undo takes on this machine now.
            let timed = cli.storePath + "-timed"
            try FileManager.default.copyItem(atPath: cli.storePath, toPath: timed)
            let started = Date()
            try expectEqual(CLIRunner(storePath: timed).run(["undo", "--yes"]).status, 0)
            let span = max(5_000, Int(Date().timeIntervalSince(started) * 1_000_000))
            var outcomes: [String: Int] = [:]
            for round in 0..<12 {
                let copy = cli.storePath + "-kill-\(round)"
                try FileManager.default.copyItem(atPath: cli.storePath, toPath: copy)
                defer { try? FileManager.default.removeItem(atPath: copy) }
                let again = CLIRunner(storePath: copy)
                let spawned = try Spawned.start(["undo", "--yes"], cli: again, outputFolder: (copy as NSString).deletingLastPathComponent,
                                                label: "undo-kill-\(round)")
                usleep(useconds_t(Int.random(in: 0..<span, using: &random)))
                spawned.killNow()
                let killed = spawned.wait().killed
                let journal = FileManager.default.fileExists(atPath: copy + "/journal.jsonl")
                let recorded = try String(contentsOfFile: copy + "/operations.jsonl", encoding: .utf8).contains("\"op\":\"undo\"")
                let finished = !journal && recorded
                let state = !killed ? "completed" : finished ? "killed after finishing" : journal ? "killed in its batch" : "killed before writing"
                outcomes[state, default: 0] += 1
                let (status, object, stderr) = try undoJSON(again)
                expectEqual(status, 0, "\(state): \(stderr)")
                expectEqual(object["undo"] as? String, (finished || !killed ? "add" : "delete"), "\(state): \(object)")
                let operations = try String(contentsOfFile: copy + "/operations.jsonl", encoding: .utf8)
                expectEqual(operations.components(separatedBy: "\"op\":\"undo\"").count - 1, (finished || !killed ? 2 : 1),
                            "the delete undone once: \(state)")
                #expect(!FileManager.default.fileExists(atPath: copy + "/journal.jsonl"))
                let doctor = try again.run(["doctor"])
                expectEqual(doctor.status, 0, "\(state): \(doctor.stdout)\(doctor.stderr)")
            }
            print("undo kills: \(outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))")
        }
    }

    /// Item 15: after `compact --retention 0` dropped the delete's tombstone and the sample's line, the undo says the
    /// sample was removed from disk.
    func undoOfADeleteAfterCompactionWithNoRetentionCountsTheSampleCompactedAway() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "water", "500mL", "--at", "08:00"]).status, 0)
            try expectEqual(cli.run(["delete", "water", "--today", "--yes"]).status, 0)
            let compact = try cli.run(["compact", "--retention", "0"], environment: ["HKCTL_NOW": "2024-06-02T12:00:00Z"])
            expectEqual(compact.status, 0, "\(compact.stderr)")
            let (status, object, stderr) = try undoJSON(cli)
            expectEqual(status, 0, "\(stderr)")
            #expect(object["compactedAway"] as? Int == 1 && object["count"] as? Int == 0, "\(object)")
        }
    }
}

/// The checks ``UndoRecoveryCLITests/checks(_:)`` runs.
private let undoRecoveryCLITestsChecks: [Check<UndoRecoveryCLITests>] = [
    Check("undoRunAgainAfterAKillInItsLastBatchReportsTheUndoDone",
          UndoRecoveryCLITests.undoRunAgainAfterAKillInItsLastBatchReportsTheUndoDone),
    Check("undoKilledAtRandomMomentsThenRunAgainFinishesItOnce",
          UndoRecoveryCLITests.undoKilledAtRandomMomentsThenRunAgainFinishesItOnce),
    Check("undoOfADeleteAfterCompactionWithNoRetentionCountsTheSampleCompactedAway",
          UndoRecoveryCLITests.undoOfADeleteAfterCompactionWithNoRetentionCountsTheSampleCompactedAway),
]
