#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TestKit

/// Issue 30 §1: `hkctl add --sync-id` with a greater version replaces the stored sample, and `watch` (running in
/// another process) prints it as one deletion of the old sample and one addition of the new; the same version again
/// prints nothing.
struct SyncReplacementWatchTests {
    @Test(.timeLimit(.minutes(4))) func watchSeesAReplacementAsADeletionAndAnAddition() throws {
        try CLIRunner.withTemporaryStore { cli in
            let folder = URL(fileURLWithPath: cli.storePath).deletingLastPathComponent().path
            let line = ["add", "steps", "500", "--at", "2024-05-30 09:00", "--sync-id", "cron-2024-05-30", "-q"]
            try expectEqual(cli.run(line).status, 0)
            let listed = try cli.run(["list", "steps", "--format", "json", "--from", "2024-05-30", "--to", "2024-05-31"])
            let old = try #require((try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])?.first?["uuid"] as? String)
            let watch = try Spawned.start(["watch", "--interval", "50", "--format", "jsonl"], cli: cli, outputFolder: folder, label: "watch")
            defer { if watch.process.isRunning { watch.killNow() } }
            usleep(800_000)
            // The cron line again (unchanged), then with a greater version (replaced).
            try expectEqual(cli.run(line).status, 0)
            try expectEqual(cli.run(["add", "steps", "700", "--at", "2024-05-30 09:00", "--sync-id", "cron-2024-05-30", "--sync-version", "2", "-q"]).status, 0)
            func printed() -> [[String: Any]] {
                let text = (try? String(contentsOfFile: watch.stdoutPath, encoding: .utf8)) ?? ""
                return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            }
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                let lines = printed()
                if lines.contains(where: { $0["deleted"] != nil }) && lines.contains(where: { $0["added"] != nil }) { break }
                usleep(50_000)
            }
            kill(watch.process.processIdentifier, SIGINT)
            let (result, _) = watch.wait()
            expectEqual(result.status, 0, "\(result.stderr)")
            let lines = printed()
            let added = lines.compactMap { $0["added"] as? [String: Any] }
            let deleted = lines.compactMap { $0["deleted"] as? [String: Any] }
            #expect(deleted.count == 1 && deleted.first?["uuid"] as? String == old, "\(lines)")
            #expect(added.count == 1 && (added.first?["value"] as? NSNumber)?.doubleValue == 700 && added.first?["uuid"] as? String != old, "\(lines)")
        }
    }
}
