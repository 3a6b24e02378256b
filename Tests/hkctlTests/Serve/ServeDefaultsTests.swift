#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TestKit

/// `hkctl serve` as issue 30 §3 and README "Sync from your iPhone" describe it without options: 127.0.0.1:8787, a
/// 64 MB body limit, 10 s for a request head and 30 s of silence in a body; and the store left free for other writers
/// while a body arrives. The other serve tests shorten the timeouts and pick a free port, so these hold the defaults.
struct ServeDefaultsTests {
    private static func withTokenForSteps(_ body: (CLIRunner, String, String) throws -> Void) throws {
        try CLIRunner.withTemporaryStore { cli in
            let folder = URL(fileURLWithPath: cli.storePath).deletingLastPathComponent().path
            try body(cli, folder, try tokenForSteps(cli))
        }
    }

    /// A token for the program `iphone`, granted steps.
    private static func tokenForSteps(_ cli: CLIRunner) throws -> String {
        let created = try cli.run(["serve", "token", "create", "iphone"])
        expectEqual(created.status, 0, "\(created.stderr)")
        try expectEqual(cli.run(["auth", "grant", "iphone", "--share", "steps"]).status, 0)
        return created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// No options: the server listens on 127.0.0.1:8787 (when this machine has that port free), answers 413 to a
    /// `Content-Length` one byte over 64 MiB at once, takes one of exactly 64 MiB (and, when its body stops, drops it
    /// after 30 s), and drops a head not whole after 10 s. Nothing is stored; about 30 s of waiting, in parallel.
    ///
    /// The waiting starts when the run is planned (``DefaultServeRun``), before any test runs: started whenever the
    /// test's turn came, in a run whose order is random, its 30 s were the run's last half minute now and then.
    @Test(.timeLimit(.minutes(20)), DefaultServeRun.StartsWhenPlanned())
    func withoutOptionsItListensOn8787AndKeepsTheIssuesLimits() async throws {
        let run = try await DefaultServeRun.shared.outcome()
        expectEqual(run.tokenCreated.status, 0, "\(run.tokenCreated.stderr)")
        expectEqual(run.granted.status, 0, "\(run.granted.stderr)")
        if run.onDefaultPort {
            expectEqual(run.port, 8787, "\(run.log)")
        } else {
            // Another program holds 8787 here: the server says so (exit 1), and the limits are checked on a free port.
            #expect(run.refusedLog.contains("8787"), "\(run.refusedLog)")
            print("SKIPPED the default port: 127.0.0.1:8787 is in use on this machine (\(run.refusedLog.trimmingCharacters(in: .whitespacesAndNewlines)))")
        }
        let answers = try #require(run.answers, "\(run.log)")
        let (over, atLimit, slowHead, health) = (answers[0], answers[1], answers[2], answers[3])
        #expect(over.status == 413 && over.elapsed < 5, "\(over.status ?? 0) after \(over.elapsed) s: \(over.body)")
        #expect(atLimit.status == 408 && atLimit.body.contains("no bytes arrived for 30 s"), "\(atLimit.status ?? 0): \(atLimit.body)")
        #expect((29...60).contains(atLimit.elapsed), "the body was dropped after \(atLimit.elapsed) s")
        #expect(slowHead.status == 408 && slowHead.body.contains("within 10 s"), "\(slowHead.status ?? 0): \(slowHead.body)")
        #expect((9.5...25).contains(slowHead.elapsed), "the head was dropped after \(slowHead.elapsed) s")
        expectEqual(health.status, 200, "\(health.body)")
        expectEqual(run.stopped?.status, 0, "\(run.stopped?.stderr ?? "")")
        expectEqual(run.after, run.before)
    }

    /// A body that keeps moving is taken however long it takes in all (the 30 s are of silence, not of the whole body),
    /// and while it arrives the store is not locked: another `hkctl` writes at once, before the push is answered.
    @Test(.timeLimit(.minutes(20))) func theStoreIsFreeWhileABodyArrivesSlowlyAndTheSlowBodyIsTaken() throws {
        try Self.withTokenForSteps { cli, folder, token in
            // A head within 2 s, a body that never stalls 2 s; the body below takes 6 s in all.
            let server = try ServeHarness.start(cli, folder: folder, environment: ["HKCTL_SERVE_TEST_TIMEOUTS": "2,2"])
            let body = Array(stepsPayload([5, 6, 7, 8]).utf8)
            let pieceSize = (body.count + 5) / 6
            var steps: [Any] = [ServeHarness.pushHead(bodyLength: body.count, token: token)]
            for start in stride(from: 0, to: body.count, by: pieceSize) {
                steps.append(1.0)
                steps.append(String(decoding: body[start..<min(start + pieceSize, body.count)], as: UTF8.self))
            }
            // The client runs beside this test: started, not waited for.
            let client = Process()
            client.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            client.arguments = ["python3", ServeHarness.clientScript, String(server.port)]
            let input = Pipe(), output = Pipe()
            client.standardInput = input
            client.standardOutput = output
            try client.run()
            let started = Date()
            input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: [["steps": steps, "timeout": 60]]))
            try input.fileHandleForWriting.close()
            usleep(1_500_000)
            // The push's head and first piece are in; its body is still arriving.
            #expect(client.isRunning)
            let added = try cli.run(["add", "steps", "1", "--at", "2024-05-29 12:00"], environment: ["HKCTL_LOCK_TIMEOUT": "30"])
            expectEqual(added.status, 0, "\(added.stderr)")
            // The body's last piece leaves at 6 s: a writer done before 5 s did not wait for the push.
            let addedAt = Date().timeIntervalSince(started)
            #expect(addedAt < 5, "the other writer was done only \(addedAt) s into the push: the store was locked while its body arrived")
            let data = output.fileHandleForReading.readDataToEndOfFile()
            client.waitUntilExit()
            let answer = try #require((try JSONSerialization.jsonObject(with: data) as? [[String: Any]])?.first)
            expectEqual(answer["status"] as? Int, 200, "\(answer)")
            #expect((answer["elapsed"] as? Double ?? 0) > 5, "\(answer)")
            let receipt = try JSONSerialization.jsonObject(with: Data((answer["body"] as? String ?? "").utf8)) as? [String: Any]
            expectEqual((receipt?["totals"] as? [String: Any])?["added"] as? Int, 4, "\(answer)")
            expectEqual(server.terminate().status, 0)
            let listed = try cli.run(["list", "steps", "--from", "2024-05-01", "--to", "2024-06-01", "--format", "json"])
            let samples = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
            #expect(samples.count == 5 && samples.reduce(0) { $0 + ((($1["value"] as? NSNumber)?.doubleValue) ?? 0) } == 27)
        }
    }
}
