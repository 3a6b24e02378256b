import Foundation
import Testing
import TestKit
import TextSupport

private let waterPartition = "samples/HKQuantityTypeIdentifierDietaryWater/2024-06.jsonl"
private let sleepFolder = "samples/HKCategoryTypeIdentifierSleepAnalysis"
private let weightFolder = "samples/HKQuantityTypeIdentifierBodyMass"

private func append(_ line: String, to path: String) throws {
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data((line + "\n").utf8))
    try handle.close()
}

private func sampleLine(uuid: String, type: String, start: String, end: String, value: String, unit: String?, seq: Int) -> String {
    "{\"uuid\":\"\(uuid)\",\"type\":\"\(type)\",\"start\":\"\(start)\",\"end\":\"\(end)\",\"value\":\(value),"
        + (unit.map { "\"unit\":\"\($0)\"," } ?? "") + "\"source\":\"hkctl\",\"created\":\"2024-06-01T12:00:00+00:00\",\"seq\":\(seq)}"
}

struct DoctorCLITests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: doctorCLITestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    func aHealthyStoreIsReportedHealthy() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "water", "250mL", "--at", "08:00"]).status, 0)
            let result = try cli.run(["doctor"])
            expectEqual(result.status, 0, "\(result.stderr)")
            #expect(result.stdout.contains("0 errors, 0 warnings"), "\(result.stdout)")
        }
    }

    func implausibleSamplesAreWarningsWithTheirUUIDs() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "water", "250mL", "--at", "08:00"]).status, 0)
            let steps = try cli.run(["add", "steps", "200000", "--from", "08:00", "--to", "08:01", "--format", "json"])
            expectEqual(steps.status, 0, "\(steps.stderr)")
            let stepsUUID = String(try #require(steps.stdout.firstMatch(of: /[0-9a-f-]{36}/)).output)
            let store = cli.storePath
            try FileManager.default.createDirectory(atPath: store + "/" + sleepFolder, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: store + "/" + weightFolder, withIntermediateDirectories: true)
            let sleepUUID = "11111111-1111-4111-8111-111111111111"
            let weightUUID = "22222222-2222-4222-8222-222222222222"
            let futureUUID = "33333333-3333-4333-8333-333333333333"
            try Data().write(to: URL(fileURLWithPath: store + "/" + sleepFolder + "/long.jsonl"))
            try append(sampleLine(uuid: sleepUUID, type: "HKCategoryTypeIdentifierSleepAnalysis", start: "2024-05-01T00:00:00+00:00",
                                  end: "2024-05-13T12:00:00+00:00", value: "\"asleepCore\"", unit: nil, seq: 10),
                       to: store + "/" + sleepFolder + "/long.jsonl")
            // A weight of 0 is outside the valid range: an error since issue 20 (OutOfRangeValueTests), not a warning.
            _ = weightUUID
            try append(sampleLine(uuid: futureUUID, type: "HKQuantityTypeIdentifierDietaryWater", start: "2051-06-01T08:00:00+00:00",
                                  end: "2051-06-01T08:00:00+00:00", value: "250", unit: "mL", seq: 12),
                       to: store + "/" + waterPartition)
            try Data("00000000000000000012\n".utf8).write(to: URL(fileURLWithPath: store + "/sequence"))

            let before = cli.snapshot()
            let result = try cli.run(["doctor"])
            expectEqual(result.status, 0, "warnings alone are no failure: \(result.stderr)")
            let warnings = result.stdout.split(separator: "\n").filter { $0.hasPrefix("warning: ") }
            for (uuid, words) in [(sleepUUID, "300 hours"), (futureUUID, "years after now"),
                                  (stepsUUID, "a minute")] {
                #expect(warnings.contains { $0.contains(uuid) && $0.contains(words) }, "no warning for \(uuid) with '\(words)': \(result.stdout)")
            }
            expectEqual(cli.snapshot(), before, "doctor without --repair wrote")
            let json = try cli.run(["doctor", "--format", "json"])
            let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
            expectEqual(parsed["errors"] as? Int, 0)
            #expect((parsed["warnings"] as? Int ?? 0) >= 3)
        }
    }

    func repairQuarantinesBadLinesRebuildsTheCounterAndKeepsEverythingElse() throws {
        try CLIRunner.withTemporaryStore { cli in
            for (amount, time) in [("250mL", "08:00"), ("300mL", "09:00"), ("350mL", "10:00")] {
                try expectEqual(cli.run(["add", "water", amount, "--at", time]).status, 0)
            }
            let path = cli.storePath + "/" + waterPartition
            var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
            lines.insert("garbage{not json", at: 1)
            lines.insert(lines[0], at: 3)  // an exact copy: statistics would count it twice
            try Data((lines.joined(separator: "\n") + "\n{\"uuid\":\"torn").utf8).write(to: URL(fileURLWithPath: path))
            try Data("nonsense".utf8).write(to: URL(fileURLWithPath: cli.storePath + "/sequence"))

            let check = try cli.run(["doctor"])
            expectEqual(check.status, 65)
            #expect(check.stdout.contains("error: \(waterPartition):2:"), "\(check.stdout)")
            #expect(check.stdout.contains("error: \(waterPartition):4:"), "\(check.stdout)")
            #expect(check.stdout.contains("error: sequence:1:"), "\(check.stdout)")
            try expectEqual(cli.run(["list", "water"]).status, 65)

            let repair = try cli.run(["doctor", "--repair"])
            expectEqual(repair.status, 0, "\(repair.stdout)\(repair.stderr)")
            #expect(repair.stdout.contains("moved 3 bad lines of \(waterPartition) (lines 2, 4, 6) into quarantine.jsonl"), "\(repair.stdout)")
            #expect(repair.stdout.contains("rebuilt the change counter in sequence: unreadable → 3"), "\(repair.stdout)")
            #expect(repair.stdout.contains("0 errors"), "\(repair.stdout)")

            let quarantined = try String(contentsOfFile: cli.storePath + "/quarantine.jsonl", encoding: .utf8)
            #expect(quarantined.contains("garbage{not json"))
            #expect(quarantined.contains("{\\\"uuid\\\":\\\"torn"))
            expectEqual(quarantined.split(separator: "\n").count, 3)
            let listed = try cli.run(["list", "water", "--format", "json"])
            expectEqual(listed.status, 0, "\(listed.stderr)")
            let values = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
                .compactMap { ($0["value"] as? NSNumber)?.doubleValue }
            expectEqual(values, [350, 300, 250])
            let next = try cli.run(["add", "water", "1L", "--at", "11:00", "--format", "json"])
            expectEqual(next.status, 0)
            #expect(try String(contentsOfFile: path, encoding: .utf8).contains("\"seq\":4"))
        }
    }

    func aNewerStoreIsRefusedAndNeverRewritten() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "water", "250mL", "--at", "08:00"]).status, 0)
            try Data("{\"format\":\"hkctl-store\",\"version\":2}\n".utf8).write(to: URL(fileURLWithPath: cli.storePath + "/hkctl-store.json"))
            try Data("garbage\n".utf8).write(to: URL(fileURLWithPath: cli.storePath + "/sequence"))
            let before = cli.snapshot()
            for arguments in [["doctor"], ["doctor", "--repair"]] {
                let result = try cli.run(arguments)
                expectEqual(result.status, 65)
                #expect(result.stderr.contains("version 2, newer"), "\(result.stderr)")
                expectEqual(cli.snapshot(), before)
            }
        }
    }

    func aMissingStoreIsNothingToCheck() throws {
        try CLIRunner.withTemporaryStore { cli in
            let result = try cli.run(["doctor"])
            expectEqual(result.status, 0)
            #expect(result.stdout.contains("no store"))
            #expect(!FileManager.default.fileExists(atPath: cli.storePath))
        }
    }

    /// An import batch cut short by a crash: its journal lists each partition's length before the batch (and, for
    /// an import, no lines), and the partitions hold some of the batch's lines after that.
    private func leaveInterruptedImportBatch(_ cli: CLIRunner) throws -> (partition: String, before: Data) {
        try expectEqual(cli.run(["add", "water", "250mL", "--at", "08:00"]).status, 0)
        try expectEqual(cli.run(["add", "water", "300mL", "--at", "09:00"]).status, 0)
        let path = cli.storePath + "/" + waterPartition
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let firstLine = try #require(String(decoding: before, as: UTF8.self).split(separator: "\n").first.map(String.init))
        let uuid = try #require(firstLine.firstMatch(of: /[0-9a-f-]{36}/)).output
        let imported = firstLine.replacingOccurrences(of: String(uuid), with: "44444444-4444-4444-8444-444444444444")
            .replacingOccurrences(of: "\"value\":250", with: "\"value\":999")
        #expect(imported != firstLine)
        // One whole line of the batch and the start of the next.
        try (before + Data((imported + "\n{\"uuid\":\"5555").utf8)).write(to: URL(fileURLWithPath: path))
        let header = "{\"journal\":2,\"undo\":true,\"partitions\":[{\"path\":\"\(waterPartition)\","
            + "\"length\":\(before.count),\"lines\":2}]}\n"
        try Data(header.utf8).write(to: URL(fileURLWithPath: cli.storePath + "/journal.jsonl"))
        return (path, before)
    }

    func anInterruptedImportBatchIsInvisibleAndRepairUndoesIt() throws {
        try CLIRunner.withTemporaryStore { cli in
            let (path, before) = try leaveInterruptedImportBatch(cli)
            let listed = try cli.run(["list", "water", "--format", "csv"])
            expectEqual(listed.status, 0, "\(listed.stderr)")
            // The batch's line by its uuid and value field (a random uuid may hold the digits 999).
            #expect(!listed.stdout.contains("44444444-4444-4444-8444-444444444444") && !listed.stdout.contains(",999,"),
                    "a line of the interrupted batch is visible: \(listed.stdout)")
            expectEqual(listed.stdout.split(separator: "\n").count, 3, "\(listed.stdout)")

            let snapshot = cli.snapshot()
            let report = try cli.run(["doctor"])
            expectEqual(report.status, 0, "\(report.stdout)\(report.stderr)")
            #expect(report.stdout.contains("an import batch interrupted by a crash waits here"), "\(report.stdout)")
            #expect(report.stdout.contains("import the file again"), "\(report.stdout)")
            expectEqual(cli.snapshot(), snapshot, "doctor without --repair wrote")

            let repair = try cli.run(["doctor", "--repair"])
            expectEqual(repair.status, 0, "\(repair.stdout)\(repair.stderr)")
            #expect(repair.stdout.contains("undid the interrupted import batch in journal.jsonl"), "\(repair.stdout)")
            try expectEqual(Data(contentsOf: URL(fileURLWithPath: path)), before, "the partition is not back to its bytes before the batch")
            #expect(!FileManager.default.fileExists(atPath: cli.storePath + "/journal.jsonl"))
            #expect(!FileManager.default.fileExists(atPath: cli.storePath + "/recovered"), "the batch's lines are dropped, not kept as a torn tail")
        }
    }

    func theNextWriteUndoesAnInterruptedImportBatch() throws {
        try CLIRunner.withTemporaryStore { cli in
            let (path, before) = try leaveInterruptedImportBatch(cli)
            try expectEqual(cli.run(["add", "water", "100mL", "--at", "10:00"]).status, 0)
            let after = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(after.starts(with: before))
            let added = String(decoding: after.dropFirst(before.count), as: UTF8.self)
            #expect(added.split(separator: "\n").count == 1 && added.contains("\"value\":100"), "\(added)")
            let stats = try cli.run(["stats", "water", "--from", "2024-06-01", "--to", "2024-06-30", "--format", "csv"])
            #expect(stats.status == 0 && stats.stdout.contains("650"), "\(stats.stdout)\(stats.stderr)")
            #expect(!FileManager.default.fileExists(atPath: cli.storePath + "/journal.jsonl"))
        }
    }
}

/// The checks ``DoctorCLITests/checks(_:)`` runs.
private let doctorCLITestsChecks: [Check<DoctorCLITests>] = [
    Check("aHealthyStoreIsReportedHealthy", DoctorCLITests.aHealthyStoreIsReportedHealthy),
    Check("implausibleSamplesAreWarningsWithTheirUUIDs", DoctorCLITests.implausibleSamplesAreWarningsWithTheirUUIDs),
    Check("repairQuarantinesBadLinesRebuildsTheCounterAndKeepsEverythingElse",
          DoctorCLITests.repairQuarantinesBadLinesRebuildsTheCounterAndKeepsEverythingElse),
    Check("aNewerStoreIsRefusedAndNeverRewritten", DoctorCLITests.aNewerStoreIsRefusedAndNeverRewritten),
    Check("aMissingStoreIsNothingToCheck", DoctorCLITests.aMissingStoreIsNothingToCheck),
    Check("anInterruptedImportBatchIsInvisibleAndRepairUndoesIt",
          DoctorCLITests.anInterruptedImportBatchIsInvisibleAndRepairUndoesIt),
    Check("theNextWriteUndoesAnInterruptedImportBatch", DoctorCLITests.theNextWriteUndoesAnInterruptedImportBatch),
]
