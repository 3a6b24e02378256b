import Foundation
import Testing
import TestKit

private let waterPartition = "samples/HKQuantityTypeIdentifierDietaryWater/2024-06.jsonl"

/// A started `hkctl` process whose output goes to files (so no pipe can fill up while others run).
private struct Launched {
    let process: Process
    let stdoutPath: String
    let stderrPath: String
    let label: String

    /// Starts `hkctl ARGUMENTS` with the same environment as ``CLIRunner/run(_:stdin:environment:)``.
    static func start(_ arguments: [String], cli: CLIRunner, outputFolder: String, label: String) throws -> Launched {
        let process = Process()
        process.executableURL = CLIRunner.binaryURL
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin", "HKCTL_STORE": cli.storePath, "TZ": "UTC",
                               "HKCTL_NOW": "2024-06-01T12:00:00Z", "HOME": NSTemporaryDirectory()]
        let stdoutPath = outputFolder + "/\(label).out"
        let stderrPath = outputFolder + "/\(label).err"
        for path in [stdoutPath, stderrPath] {
            try #require(FileManager.default.createFile(atPath: path, contents: nil))
        }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return Launched(process: process, stdoutPath: stdoutPath, stderrPath: stderrPath, label: label)
    }

    func wait() -> CLIResult {
        process.waitUntilExit()
        let out = FileManager.default.contents(atPath: stdoutPath) ?? Data()
        let err = FileManager.default.contents(atPath: stderrPath) ?? Data()
        return CLIResult(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                         stderr: String(decoding: err, as: UTF8.self))
    }
}

/// The lines of a store file and whether each is a JSON object.
private func partitionLines(_ cli: CLIRunner) throws -> [(line: String, isJSONObject: Bool)] {
    let data = try #require(FileManager.default.contents(atPath: cli.storePath + "/" + waterPartition))
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.hasSuffix("\n"), "the partition does not end with a newline")
    return text.split(separator: "\n").map { line in
        let parsed = try? JSONSerialization.jsonObject(with: Data(line.utf8))
        return (String(line), parsed is [String: Any])
    }
}

private func listedWater(_ cli: CLIRunner, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
    let result = try cli.run(["list", "water", "--format", "json"])
    try #require(result.status == 0, "list failed: \(result.stderr)", sourceLocation: sourceLocation)
    let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    return try #require(parsed as? [[String: Any]], sourceLocation: sourceLocation)
}

struct ConcurrencyTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: concurrencyTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// Starts 20 `add water <n>mL` at once, waits for all, and checks that every one was saved exactly once.
    ///
    /// - Returns: Whether all checks passed.
    @discardableResult
    private func addTwentyAtOnce(_ cli: CLIRunner) throws -> Bool {
        let outputFolder = cli.storePath + "-output"
        try FileManager.default.createDirectory(atPath: outputFolder, withIntermediateDirectories: true)
        var passed = true
        let amounts = (1...20).map { $0 * 10 }
        let launched = try amounts.map { amount in
            try Launched.start(["add", "water", "\(amount)mL"], cli: cli, outputFolder: outputFolder, label: "add-\(amount)")
        }
        let results = launched.map { ($0.label, $0.wait()) }
        for (label, result) in results where result.status != 0 {
            passed = false
            Issue.record("\(label) exited \(result.status): \(result.stderr)")
        }

        let listed = try listedWater(cli)
        let values = listed.compactMap { ($0["value"] as? NSNumber)?.doubleValue }
        let uuids = Set(listed.compactMap { $0["uuid"] as? String })
        let lines = try partitionLines(cli)
        let checks: [(Bool, String)] = [
            (listed.count == 20, "list shows \(listed.count) samples, not 20"),
            (values.sorted() == amounts.map(Double.init), "list shows the values \(values.sorted())"),
            (uuids.count == listed.count, "duplicate uuids"),
            (lines.count == 20, "the partition has \(lines.count) lines, not 20"),
        ] + lines.enumerated().map { index, entry in (entry.isJSONObject, "line \(index + 1) is not JSON: \(entry.line)") }
        for (ok, message) in checks where !ok {
            passed = false
            Issue.record(Comment(rawValue: message))
        }
        return passed
    }

    /// The first writes to a store that does not exist yet race to create it. The race is timing-dependent,
    /// so it is run on up to five fresh stores, stopping at the first round that fails.
    func twentyConcurrentAddsCreatingTheStore() throws {
        try CLIRunner.withTemporaryStore { cli in
            for round in 1...5 {
                let fresh = CLIRunner(storePath: cli.storePath + "-\(round)")
                if !(try addTwentyAtOnce(fresh)) { break }
            }
        }
    }

    /// The same against a store that already exists (it holds one steps sample), so only the lock is exercised.
    func twentyConcurrentAddsToAnExistingStore() throws {
        try CLIRunner.withTemporaryStore { cli in
            let seeded = try cli.run(["add", "steps", "100", "--at", "06:00"])
            try #require(seeded.status == 0, "\(seeded.stderr)")
            try addTwentyAtOnce(cli)
        }
    }

    func aTornLastLineIsIgnoredThenRepairedByTheNextWrite() throws {
        try CLIRunner.withTemporaryStore { cli in
            for (amount, time) in [("100mL", "07:00"), ("200mL", "08:00")] {
                let added = try cli.run(["add", "water", amount, "--at", time])
                try #require(added.status == 0, "\(added.stderr)")
            }
            let path = cli.storePath + "/" + waterPartition
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("{\"uuid\":\"0b7f4bd4-8a62-4a8e-9c55-5a3b".utf8))
            try handle.close()

            let before = try listedWater(cli)
            expectEqual(before.compactMap { ($0["value"] as? NSNumber)?.doubleValue }, [200, 100])

            let added = try cli.run(["add", "water", "300mL", "--at", "09:00"])
            expectEqual(added.status, 0, "\(added.stderr)")

            let after = try listedWater(cli)
            expectEqual(after.compactMap { ($0["value"] as? NSNumber)?.doubleValue }, [300, 200, 100])
            let lines = try partitionLines(cli)
            expectEqual(lines.count, 3)
            for (index, entry) in lines.enumerated() {
                #expect(entry.isJSONObject, "line \(index + 1) is not JSON: \(entry.line)")
            }
        }
    }
}

/// The checks ``ConcurrencyTests/checks(_:)`` runs.
private let concurrencyTestsChecks: [Check<ConcurrencyTests>] = [
    Check("twentyConcurrentAddsCreatingTheStore", ConcurrencyTests.twentyConcurrentAddsCreatingTheStore),
    Check("twentyConcurrentAddsToAnExistingStore", ConcurrencyTests.twentyConcurrentAddsToAnExistingStore),
    Check("aTornLastLineIsIgnoredThenRepairedByTheNextWrite",
          ConcurrencyTests.aTornLastLineIsIgnoredThenRepairedByTheNextWrite),
]
