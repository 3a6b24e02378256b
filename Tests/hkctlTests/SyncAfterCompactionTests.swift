#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TestKit

/// Issue 29, items 12 and 17: a sync loop always progresses after compaction, and `watch` says so when its store goes.
struct SyncAfterCompactionTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: syncAfterCompactionTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not JSON: \(text)")
    }

    private func add(_ cli: CLIRunner, _ amount: String, at time: String) throws -> String {
        let result = try cli.run(["add", "water", amount, "--at", time, "--format", "json"])
        expectEqual(result.status, 0, "\(result.stderr)")
        return try json(result.stdout)["uuid"] as? String ?? ""
    }

    /// Pages through `changes --format jsonl` from the beginning (`limit` a page, nil: one call), then once more from
    /// the last anchor; every call must succeed. Returns the uuids added and deleted, and the number of calls.
    private func syncFromTheBeginning(_ cli: CLIRunner, limit: Int?, types: [String] = []) throws
        -> (added: [String], deleted: [String], calls: Int) {
        var anchor: String?
        var added: [String] = [], deleted: [String] = []
        var calls = 0
        while calls < 50 {
            var arguments = ["changes", "--format", "jsonl"] + types.flatMap { ["--type", $0] }
            if let limit { arguments += ["--limit", String(limit)] }
            if let anchor { arguments += ["--since", anchor] }
            let result = try cli.run(arguments)
            calls += 1
            expectEqual(result.status, 0, "call \(calls) (\(arguments.joined(separator: " "))): \(result.stderr)")
            guard result.status == 0 else { break }
            var changed = 0
            for line in result.stdout.split(separator: "\n") {
                let object = try json(String(line))
                if let sample = object["added"] as? [String: Any] {
                    added.append(sample["uuid"] as? String ?? "")
                    changed += 1
                } else if let tombstone = object["deleted"] as? [String: Any] {
                    deleted.append(tombstone["uuid"] as? String ?? "")
                    changed += 1
                } else {
                    anchor = try #require(object["anchor"] as? String)
                }
            }
            if changed == 0 { break }
        }
        return (added, deleted, calls)
    }

    /// The issue's case: the newest change is a deletion whose tombstone `compact --retention 0` dropped; the anchor of
    /// the full sync is then accepted by the next call, which finds nothing new.
    func theAnchorOfAFullSyncAfterCompactionIsAccepted() throws {
        try CLIRunner.withTemporaryStore { cli in
            let kept = try add(cli, "100mL", at: "07:00")
            let doomed = try add(cli, "200mL", at: "07:30")
            try expectEqual(cli.run(["delete", doomed, "--yes"]).status, 0)
            try expectEqual(cli.run(["compact", "--retention", "0", "--now", "2024-06-01T13:00:00Z"]).status, 0)
            let full = try json(try cli.run(["changes", "--format", "json"]).stdout)
            expectEqual((full["added"] as? [[String: Any]])?.map { $0["uuid"] as? String }, [kept])
            let anchor = try #require(full["anchor"] as? String)
            let next = try cli.run(["changes", "--since", anchor, "--format", "json"])
            expectEqual(next.status, 0, "\(next.stderr)")
            let nothing = try json(next.stdout)
            #expect((nothing["added"] as? [Any])?.isEmpty == true && (nothing["deleted"] as? [Any])?.isEmpty == true)
            // A later change still arrives from that anchor.
            let later = try add(cli, "300mL", at: "08:00")
            let after = try json(try cli.run(["changes", "--since", anchor, "--format", "json"]).stdout)
            expectEqual((after["added"] as? [[String: Any]])?.map { $0["uuid"] as? String }, [later])
        }
    }

    /// The same for a sync that pages with `--limit` and for one of a single type: every page's anchor is accepted,
    /// and the loop ends with exactly the samples that are left.
    @Test(arguments: [1, 2, 3, nil] as [Int?])
    func aPagedSyncAfterCompactionProgressesToTheEnd(limit: Int?) throws {
        try CLIRunner.withTemporaryStore { cli in
            var expected: [String] = []
            for (index, time) in ["06:00", "06:30", "07:00", "07:30", "08:00"].enumerated() {
                let uuid = try add(cli, "\(100 + index)mL", at: time)
                if index % 2 == 0 { expected.append(uuid) } else {
                    try expectEqual(cli.run(["delete", uuid, "--yes"]).status, 0)
                }
            }
            try expectEqual(cli.run(["add", "steps", "500", "--at", "09:00"]).status, 0)
            try expectEqual(cli.run(["compact", "--retention", "0", "--now", "2024-06-01T13:00:00Z"]).status, 0)
            let water = try syncFromTheBeginning(cli, limit: limit, types: ["water"])
            expectEqual(water.added, expected)
            #expect(water.deleted.isEmpty)
            let everything = try syncFromTheBeginning(cli, limit: limit)
            expectEqual(everything.added.count, expected.count + 1)
        }
    }

    /// A page taken before a compaction dropped tombstones after it is refused (its deletions are gone), so a client
    /// never misses a deletion by paging across a compaction.
    func aPageAnchorIsRefusedAfterALaterCompactionDropsDeletions() throws {
        try CLIRunner.withTemporaryStore { cli in
            let first = try add(cli, "100mL", at: "06:00")
            let second = try add(cli, "200mL", at: "06:30")
            try expectEqual(cli.run(["delete", second, "--yes"]).status, 0)
            try expectEqual(cli.run(["compact", "--retention", "0", "--now", "2024-06-01T13:00:00Z"]).status, 0)
            _ = try add(cli, "300mL", at: "07:00")
            let page = try json(try cli.run(["changes", "--limit", "1", "--format", "json"]).stdout)
            expectEqual((page["added"] as? [[String: Any]])?.map { $0["uuid"] as? String }, [first])
            let anchor = try #require(page["anchor"] as? String)
            try expectEqual(cli.run(["changes", "--since", anchor]).status, 0)
            // The first sample is deleted and that deletion compacted away: the page's anchor can no longer say so.
            try expectEqual(cli.run(["delete", first, "--yes"]).status, 0)
            try expectEqual(cli.run(["compact", "--retention", "0", "--now", "2024-06-01T13:00:00Z"]).status, 0)
            let refused = try cli.run(["changes", "--since", anchor])
            expectEqual(refused.status, 65)
            #expect(refused.stderr.contains("older than the deletions kept"), "\(refused.stderr)")
        }
    }

    /// Item 17: `watch` whose store folder is moved away says that the store disappeared (exit 66), naming no anchor and
    /// no option it does not have.
    func watchSaysTheStoreDisappearedWhenItsFolderIsMovedAway() throws {
        try CLIRunner.withTemporaryStore { cli in
            _ = try add(cli, "100mL", at: "07:00")
            let folder = (cli.storePath as NSString).deletingLastPathComponent
            let watch = try Spawned.start(["watch", "--interval", "50"], cli: cli, outputFolder: folder, label: "watch")
            Thread.sleep(forTimeInterval: 0.5)
            expectEqual(rename(cli.storePath, folder + "/moved"), 0)
            let deadline = Date().addingTimeInterval(5)
            while watch.process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            let stillRunning = watch.killNow()
            let (result, _) = watch.wait()
            #expect(!stillRunning, "watch kept running after its store was moved away")
            expectEqual(result.status, 66, "exit \(result.status): \(result.stderr)")
            #expect(result.stderr.contains("disappeared") && result.stderr.contains(cli.storePath), "\(result.stderr)")
            #expect(!result.stderr.contains("anchor") && !result.stderr.contains("--since"), "\(result.stderr)")
            expectEqual(result.stderr.split(separator: "\n").count, 1, "\(result.stderr)")
        }
    }
}

/// The checks ``SyncAfterCompactionTests/checks(_:)`` runs.
private let syncAfterCompactionTestsChecks: [Check<SyncAfterCompactionTests>] = [
    Check("theAnchorOfAFullSyncAfterCompactionIsAccepted",
          SyncAfterCompactionTests.theAnchorOfAFullSyncAfterCompactionIsAccepted),
    Check("aPageAnchorIsRefusedAfterALaterCompactionDropsDeletions",
          SyncAfterCompactionTests.aPageAnchorIsRefusedAfterALaterCompactionDropsDeletions),
    Check("watchSaysTheStoreDisappearedWhenItsFolderIsMovedAway",
          SyncAfterCompactionTests.watchSaysTheStoreDisappearedWhenItsFolderIsMovedAway),
]
