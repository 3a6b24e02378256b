import Foundation
import Testing
import TestKit

/// The built binary's change counter: `hkctl add` in one boot reserves a block of numbers once and takes from it, and
/// after a restart of the machine that lost the counter's unsynced rewrites (acted out by rolling the `sequence` file
/// back and giving it another boot's identity) it hands out no number twice and `changes` misses nothing.
struct ChangeCounterCLITests {
    private static let bootFile = "/proc/sys/kernel/random/boot_id"

    private func anchor(_ output: String) throws -> String {
        String(try #require(output.firstMatch(of: /"anchor":"(v1\.[0-9a-z]+)"/)).output.1)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: bootFile) && KernelVersion.tellsUniqueMountIDs,
                   "needs Linux's boot identity and a kernel that tells unique mount ids (6.8 or later)"))
    func addsReserveOnceAndARestartNeverReusesANumber() throws {
        let boot = try String(contentsOfFile: Self.bootFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        try CLIRunner.withTemporaryStore { cli in
            let counter = cli.storePath + "/sequence"
            try expectEqual(cli.run(["add", "water", "100mL", "--at", "08:00", "-q"]).status, 0)
            let afterFirst = try String(contentsOfFile: counter, encoding: .utf8)
            // The reservation's identity: this boot, and the unique id of the mount the store lies on (Linux 6.8+; on an
            // older kernel every add syncs and no block is reserved).
            let match = try #require(afterFirst.wholeMatch(of: /00000000000000000001\nreserved 00000000000000001025 boot ([0-9a-f-]+)-m([0-9a-f]+)\n/),
                                     "\(afterFirst)")
            expectEqual(String(match.output.1), boot)
            let identity = "\(boot)-m\(match.output.2)"
            try expectEqual(cli.run(["add", "water", "200mL", "--at", "09:00", "-q"]).status, 0)
            try expectEqual(cli.run(["add", "water", "300mL", "--at", "10:00", "-q"]).status, 0)
            try expectEqual(String(contentsOfFile: counter, encoding: .utf8), "00000000000000000003\nreserved 00000000000000001025 boot \(identity)\n")
            let before = try cli.run(["changes", "--format", "json"])
            expectEqual(before.status, 0, "\(before.stderr)")
            try expectEqual(anchor(before.stdout), "v1.3")

            // The power loss: the first add's counter is what reached the disk; the machine starts with a new boot.
            let other = boot.hasPrefix("0") ? "1" + boot.dropFirst() : "0" + boot.dropFirst()
            try Data("00000000000000000001\nreserved 00000000000000001025 boot \(other)\n".utf8)
                .write(to: URL(fileURLWithPath: counter))
            // Readers now take the block's end as the last number: an anchor there is accepted, one past it is not.
            let atTheEnd = try cli.run(["changes", "--since", "v1." + String(1025, radix: 36), "--format", "json"])
            expectEqual(atTheEnd.status, 0, "\(atTheEnd.stderr)")
            #expect(!atTheEnd.stdout.contains("\"value\":"), "\(atTheEnd.stdout)")
            let past = try cli.run(["changes", "--since", "v1." + String(1026, radix: 36), "--format", "json"])
            #expect(past.status != 0 && past.stderr.contains("is ahead of this store"), "\(past.stderr)")

            try expectEqual(cli.run(["add", "water", "400mL", "--at", "11:00", "-q"]).status, 0)
            let seen = try cli.run(["changes", "--since", "v1.3", "--format", "json"])
            expectEqual(seen.status, 0, "\(seen.stderr)")
            expectEqual(seen.stdout.components(separatedBy: "\"value\":").count, 2, "exactly the new add: \(seen.stdout)")
            #expect(seen.stdout.contains("\"value\":400"))
            try expectEqual(anchor(seen.stdout), "v1." + String(1026, radix: 36))
            let partition = cli.storePath + "/samples/HKQuantityTypeIdentifierDietaryWater/2024-06.jsonl"
            let numbers = try String(contentsOfFile: partition, encoding: .utf8)
                .matches(of: /"seq":([0-9]+)/).map { Int($0.output.1)! }
            expectEqual(numbers, [1, 2, 3, 1026])
            let doctor = try cli.run(["doctor"])
            #expect(doctor.status == 0 && doctor.stdout.contains("0 errors"), "\(doctor.stdout)\(doctor.stderr)")
        }
    }

    /// The same storage through another mount, as a disk pulled out and mounted again is seen (acted out with
    /// `unshare -m`, whose mounts have new ids on the same device): its writer does not trust the block reserved under
    /// the old mount, starts after it and reserves its own; the first mount's next add then starts after that one.
    @Test(.enabled(if: KernelVersion.tellsUniqueMountIDs && CLIRunner.canUnshareMounts,
                   "needs `unshare -m` (root or user namespaces) and a kernel that tells unique mount ids (6.8 or later)"))
    func anotherMountOfTheStorageStartsAfterTheBlock() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "water", "100mL", "--at", "08:00", "-q"]).status, 0)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
            process.arguments = ["-m", CLIRunner.binaryURL.path, "add", "water", "200mL", "--at", "09:00", "-q"]
            process.environment = ["PATH": "/usr/bin:/bin", "HKCTL_STORE": cli.storePath, "TZ": "UTC",
                                   "HKCTL_NOW": "2024-06-01T12:00:00Z", "HOME": NSTemporaryDirectory()]
            let elsewhere = try CLIRunner.collect(process)
            expectEqual(elsewhere.status, 0, "\(elsewhere.stderr)")
            try expectEqual(cli.run(["add", "water", "300mL", "--at", "10:00", "-q"]).status, 0)
            let partition = cli.storePath + "/samples/HKQuantityTypeIdentifierDietaryWater/2024-06.jsonl"
            let numbers = try String(contentsOfFile: partition, encoding: .utf8)
                .matches(of: /"seq":([0-9]+)/).map { Int($0.output.1)! }
            expectEqual(numbers, [1, 1026, 2051], "each mount starts after the other's block")
            let doctor = try cli.run(["doctor"])
            #expect(doctor.status == 0 && doctor.stdout.contains("0 errors"), "\(doctor.stdout)\(doctor.stderr)")
        }
    }
}
