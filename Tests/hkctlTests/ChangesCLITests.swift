import Foundation
import Testing
import TestKit

/// `delete`, `changes`, `watch` and `compact` driven through the binary.
struct ChangesCLITests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: changesCLITestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    private func add(_ cli: CLIRunner, _ amount: String, at time: String = "08:00", type: String = "water") throws -> String {
        let result = try cli.run(["add", type, amount, "--at", time, "--format", "json"])
        expectEqual(result.status, 0, "\(result.stderr)")
        return try json(result.stdout)["uuid"] as? String ?? ""
    }

    /// A client that syncs with `changes` while other processes add and delete ends with an exact replica.
    func syncLoopBuildsAnExactReplicaWhileOthersWrite() throws {
        try CLIRunner.withTemporaryStore { cli in
            var replica: [String: String] = [:]  // uuid → value
            var anchor: String?
            func sync() throws {
                var arguments = ["changes", "--format", "jsonl", "--limit", "7"]
                if let anchor { arguments += ["--since", anchor] }
                let result = try cli.run(arguments)
                expectEqual(result.status, 0, "\(result.stderr)")
                for line in result.stdout.split(separator: "\n") {
                    let object = try json(String(line))
                    if let added = object["added"] as? [String: Any] {
                        let uuid = added["uuid"] as! String
                        expectNil(replica[uuid], "sample \(uuid) delivered twice")
                        replica[uuid] = "\(added["value"]!)"
                    } else if let deleted = object["deleted"] as? [String: Any] {
                        replica[deleted["uuid"] as! String] = nil
                    } else {
                        anchor = object["anchor"] as? String
                    }
                }
            }
            // Writers run in the background while the client syncs.
            let writers = DispatchGroup()
            for worker in 0..<3 {
                DispatchQueue.global().async(group: writers) {
                    for index in 0..<8 {
                        let uuid = (try? add(cli, "\(worker * 100 + index + 1)mL", at: "0\(worker + 1):\(10 + index)")) ?? ""
                        if index % 3 == 0 { _ = try? cli.run(["delete", uuid, "--yes"]) }
                    }
                }
            }
            for _ in 0..<6 { try sync() }
            writers.wait()
            for _ in 0..<12 { try sync() }
            // The replica equals the store, sample by sample.
            let listed = try cli.run(["list", "water", "--format", "json"])
            let samples = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
            let truth = Dictionary(uniqueKeysWithValues: samples.map { ($0["uuid"] as! String, "\($0["value"]!)") })
            expectEqual(truth.count, 15)  // 3 writers × 8 added, 3 writers × 3 deleted (indexes 0, 3, 6)
            expectEqual(replica, truth)
        }
    }

    func anchorsStayValidAcrossCompaction() throws {
        try CLIRunner.withTemporaryStore { cli in
            let first = try add(cli, "100mL", at: "07:00")
            _ = try add(cli, "200mL", at: "07:30")
            let anchor = try json(try cli.run(["changes", "--format", "json"]).stdout)["anchor"] as! String
            try expectEqual(cli.run(["delete", first, "--yes"]).status, 0)
            let third = try add(cli, "300mL", at: "08:00")
            let before = try cli.run(["stats", "water", "--format", "json"]).stdout
            let compacted = try cli.run(["compact", "--format", "json"])
            expectEqual(compacted.status, 0)
            try expectEqual(json(compacted.stdout)["samplesRemoved"] as? Int, 1)
            try expectEqual(cli.run(["stats", "water", "--format", "json"]).stdout, before)
            let changes = try json(try cli.run(["changes", "--since", anchor, "--format", "json"]).stdout)
            let added = try #require(changes["added"] as? [[String: Any]])
            let deleted = try #require(changes["deleted"] as? [[String: Any]])
            expectEqual(added.map { $0["uuid"] as? String }, [third])
            expectEqual(deleted.map { $0["uuid"] as? String }, [first])
            // With a zero-day retention the tombstone goes; the old anchor is then refused with a clear error.
            try expectEqual(cli.run(["compact", "--retention", "0", "--now", "2024-06-01T13:00:00Z"]).status, 0)
            let expired = try cli.run(["changes", "--since", anchor])
            expectEqual(expired.status, 65)
            #expect(expired.stderr.contains("older than the deletions kept"))
        }
    }

    @Test(arguments: ["garbage", "v1.", "v1.-3", "v2.5", "v1.zzzz"])
    func badAnchorsExitWithBadData(anchor: String) throws {
        try CLIRunner.withTemporaryStore { cli in
            _ = try add(cli, "100mL")
            let before = cli.snapshot()
            let result = try cli.run(["changes", "--since", anchor])
            expectEqual(result.status, 65)
            #expect(result.stderr.hasPrefix("Error: The anchor '\(anchor)'"))
            #expect(result.stdout.isEmpty)
            expectEqual(cli.snapshot(), before)
        }
    }

    func deleteDryRunListsAndKeeps() throws {
        try CLIRunner.withTemporaryStore { cli in
            _ = try add(cli, "100mL", at: "07:00")
            _ = try add(cli, "200mL", at: "09:00")
            let before = cli.snapshot()
            let dry = try cli.run(["delete", "water", "--from", "06:00", "--to", "08:00", "--dry-run", "--format", "json"])
            expectEqual(dry.status, 0)
            let listed = try #require(try JSONSerialization.jsonObject(with: Data(dry.stdout.utf8)) as? [[String: Any]])
            expectEqual(listed.map { $0["value"] as? Double }, [100])
            expectEqual(cli.snapshot(), before)
            let real = try cli.run(["delete", "water", "--from", "06:00", "--to", "08:00", "--yes", "--format", "json"])
            expectEqual(real.status, 0)
            let remaining = try cli.run(["list", "water", "--format", "json"]).stdout
            #expect(remaining.contains("200") && !remaining.contains("\"value\":100"))
        }
    }

    func deleteOfAnUnknownUUIDChangesNothing() throws {
        try CLIRunner.withTemporaryStore { cli in
            _ = try add(cli, "100mL")
            let before = cli.snapshot()
            let result = try cli.run(["delete", "00000000-0000-4000-8000-000000000000"])
            expectEqual(result.status, 66)
            #expect(result.stderr.contains("00000000-0000-4000-8000-000000000000"))
            expectEqual(cli.snapshot(), before)
        }
    }

    func aSourceDeletesOnlyWhatItWrote() throws {
        try CLIRunner.withTemporaryStore { cli in
            let owners = try cli.run(["add", "water", "100mL", "--at", "07:00", "--format", "json"])
            let uuid = try json(owners.stdout)["uuid"] as! String
            let result = try cli.run(["delete", uuid, "--source", "SomeApp"])
            expectEqual(result.status, 66)
            #expect(try cli.run(["list", "water", "--format", "json"]).stdout.contains(uuid))
        }
    }

    /// On a terminal, delete asks first; answering no keeps the sample. Runs hkctl under a pseudo-terminal.
    @Test(arguments: [("n", true), ("y", false)])
    func deleteAsksOnATerminal(answer: String, kept: Bool) throws {
        try CLIRunner.withTemporaryStore { cli in
            let uuid = try add(cli, "100mL")
            try expectEqual(cli.runOnTerminal(["delete", uuid], answers: [answer]), 0)
            try expectEqual(cli.run(["list", "water", "--format", "json"]).stdout.contains(uuid), kept)
        }
    }

    /// `watch` prints a sample another process adds within a second, and stops cleanly on SIGINT.
    func watchSeesAnotherProcessesSampleQuickly() throws {
        try CLIRunner.withTemporaryStore { cli in
            _ = try add(cli, "100mL", at: "07:00")
            let process = Process()
            process.executableURL = CLIRunner.binaryURL
            process.arguments = ["watch", "--interval", "50"]
            process.environment = ["HKCTL_STORE": cli.storePath, "TZ": "UTC", "HKCTL_NOW": "2024-06-01T12:00:00Z"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            Thread.sleep(forTimeInterval: 0.4)
            let uuid = try add(cli, "250mL", at: "09:00")
            let deadline = Date().addingTimeInterval(1.0)
            var seen = Data()
            let handle = output.fileHandleForReading
            let flags = fcntl(handle.fileDescriptor, F_GETFL)
            _ = fcntl(handle.fileDescriptor, F_SETFL, flags | O_NONBLOCK)
            while Date() < deadline && !String(decoding: seen, as: UTF8.self).contains(uuid) {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let count = read(handle.fileDescriptor, &buffer, buffer.count)
                if count > 0 { seen.append(contentsOf: buffer[0..<count]) } else { Thread.sleep(forTimeInterval: 0.02) }
            }
            let text = String(decoding: seen, as: UTF8.self)
            #expect(text.contains(uuid), "watch printed: \(text)")
            #expect(!text.contains("\"value\":100,"), "watch starts from now")
            process.interrupt()
            let stopBy = Date().addingTimeInterval(3)
            while process.isRunning && Date() < stopBy { Thread.sleep(forTimeInterval: 0.02) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            #expect(process.terminationReason == .exit && process.terminationStatus == 0, "watch did not stop on SIGINT")
        }
    }
}

/// The checks ``ChangesCLITests/checks(_:)`` runs.
private let changesCLITestsChecks: [Check<ChangesCLITests>] = [
    Check("syncLoopBuildsAnExactReplicaWhileOthersWrite", ChangesCLITests.syncLoopBuildsAnExactReplicaWhileOthersWrite),
    Check("anchorsStayValidAcrossCompaction", ChangesCLITests.anchorsStayValidAcrossCompaction),
    Check("deleteDryRunListsAndKeeps", ChangesCLITests.deleteDryRunListsAndKeeps),
    Check("deleteOfAnUnknownUUIDChangesNothing", ChangesCLITests.deleteOfAnUnknownUUIDChangesNothing),
    Check("aSourceDeletesOnlyWhatItWrote", ChangesCLITests.aSourceDeletesOnlyWhatItWrote),
    Check("watchSeesAnotherProcessesSampleQuickly", ChangesCLITests.watchSeesAnotherProcessesSampleQuickly),
]
