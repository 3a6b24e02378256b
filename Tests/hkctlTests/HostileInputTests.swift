import Foundation
import Testing
import TestKit
import TextSupport

/// Runs every command line of ``HostileInputCorpus`` against a store holding one sample: each must exit with its
/// documented code, print exactly one error line (a usage error names its help on that line), print nothing on stdout, and leave the
/// store and the folder around it byte-for-byte unchanged (compared by a hash of the whole tree).
struct HostileInputTests {
    static let indices = Array(HostileInputCorpus.cases.indices)

    @Test func theCorpusHoldsAtLeastTwoHundredDistinctCommandLines() {
        #expect(HostileInputCorpus.cases.count >= 200)
        expectEqual(Set(HostileInputCorpus.cases.map { $0.arguments.joined(separator: "\u{0}") }).count, HostileInputCorpus.cases.count)
    }

    @Test(arguments: HostileInputTests.indices)
    func isRefusedWithOneLineAndNoChange(_ index: Int) throws {
        let entry = HostileInputCorpus.cases[index]
        let arguments = entry.arguments.map(Self.expand)
        try CLIRunner.withTemporaryStore { cli in
            let seeded = try cli.run(["add", "water", "250mL", "--at", "08:00"])
            try #require(seeded.status == 0, "seeding failed: \(seeded.stderr)")
            let scratch = (cli.storePath as NSString).deletingLastPathComponent
            let before = try Self.treeHash(scratch)
            let result = try Self.run(arguments, store: cli.storePath, folder: scratch)
            let label = "case \(index): hkctl \(entry.arguments.joined(separator: " ").prefix(120))"
            expectEqual(result.status, entry.status, "\(label): exit \(result.status); \(result.stderr.prefix(300))")
            let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: true)
            expectEqual(lines.first?.hasPrefix("Error: "), true, "\(label): \(result.stderr.prefix(300))")
            expectEqual(lines.count, 1, "\(label): the message is not one line: \(result.stderr.prefix(500))")
            #expect((lines.first?.count ?? 0) <= 1_000, "\(label): a \(lines.first?.count ?? 0)-character error line")
            #expect(result.stdout.isEmpty, "\(label): stdout \(result.stdout.prefix(200))")
            try expectEqual(Self.treeHash(scratch), before, "\(label): the store or its folder changed")
        }
    }

    static func expand(_ argument: String) -> String {
        argument.replacingOccurrences(of: "{long}", with: String(repeating: "x", count: 100_000))
            .replacingOccurrences(of: "{nines400}", with: String(repeating: "9", count: 400))
            .replacingOccurrences(of: "{big310}", with: "1" + String(repeating: "0", count: 310))
    }

    /// Runs hkctl in `folder`; `hex:` arguments go through python3 as raw bytes (Foundation passes only valid UTF-8).
    static func run(_ arguments: [String], store: String, folder: String) throws -> CLIResult {
        let process = Process()
        if arguments.contains(where: { $0.hasPrefix("hex:") }) {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            let script = "import os, sys; os.execv(sys.argv[1], [sys.argv[1]] + [bytes.fromhex(a[4:]) if a.startswith('hex:') else a.encode() for a in sys.argv[2:]])"
            process.arguments = ["python3", "-c", script, CLIRunner.binaryURL.path] + arguments
        } else {
            process.executableURL = CLIRunner.binaryURL
            process.arguments = arguments
        }
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        process.environment = ["PATH": "/usr/local/bin:/usr/bin:/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? ""),
                               "HKCTL_STORE": store, "TZ": "UTC", "HKCTL_NOW": "2024-06-01T12:00:00Z", "HOME": folder]
        return try CLIRunner.collect(process)
    }

    /// FNV-1a over every path, mode and content under `root`, in sorted order.
    static func treeHash(_ root: String) throws -> UInt64 {
        let tree = try FileTree(root)
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        for (path, entry) in tree.entries.sorted(by: { $0.key < $1.key }) {
            mix(path.utf8)
            mix(String(entry.mode).utf8)
            mix(entry.bytes ?? Data([0xFF]))
        }
        return hash
    }
}
