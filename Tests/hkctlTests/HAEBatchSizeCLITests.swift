import Foundation
import Testing
import TestKit

/// `hkctl import FILE --batch-size N` through the built binary: a Health Auto Export file that sends the same points
/// several times (heart rate full and then `Avg` alone, steps from `Watch` and then `Watch|iPhone`, a night's summary
/// twice with its own in-bed source, a night as stages and as its summary) stores the same samples and gives the same
/// receipt in batches of 1, 3 and the default, its dry run says so first, and importing it again leaves the same
/// samples.
struct HAEBatchSizeCLITests {
    @Test(arguments: hAEBatchSizeCLITestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    static let payload = """
        {"data":{"metrics":[
        {"name":"heart_rate","units":"count/min","data":[
         {"date":"2024-05-10 08:00:00 +0200","Min":60,"Avg":70,"Max":90,"source":"Watch"},
         {"date":"2024-05-10 08:01:00 +0200","Avg":71,"source":"Watch"},
         {"date":"2024-05-10 08:00:00 +0200","Avg":72,"source":"Watch"}]},
        {"name":"step_count","units":"count","data":[
         {"date":"2024-05-10 08:00:00 +0200","qty":10,"source":"Watch"},
         {"date":"2024-05-10 08:01:00 +0200","qty":5,"source":"Strap"},
         {"date":"2024-05-10 08:00:00 +0200","qty":12,"source":"Watch|iPhone"}]},
        {"name":"sleep_analysis","units":"hr","data":[
         {"date":"2024-05-10 00:00:00 +0200","asleep":6,"inBed":7,"sleepStart":"2024-05-09 23:00:00 +0200",
          "sleepEnd":"2024-05-10 05:00:00 +0200","inBedStart":"2024-05-09 22:30:00 +0200","inBedEnd":"2024-05-10 05:30:00 +0200",
          "sleepSource":"Watch","inBedSource":"Watch|iPhone"},
         {"startDate":"2024-05-10 23:00:00 +0200","endDate":"2024-05-11 01:00:00 +0200","value":"Core","source":"Watch"},
         {"date":"2024-05-11 00:00:00 +0200","core":2,"deep":1,"totalSleep":3,"asleep":0,"sleepStart":"2024-05-10 23:00:00 +0200",
          "sleepEnd":"2024-05-11 02:00:00 +0200","source":"Watch"},
         {"startDate":"2024-05-11 01:00:00 +0200","endDate":"2024-05-11 02:00:00 +0200","value":"Deep","source":"Watch"},
         {"date":"2024-05-10 00:00:00 +0200","asleep":6,"inBed":7,"sleepStart":"2024-05-09 23:00:00 +0200",
          "sleepEnd":"2024-05-10 05:00:00 +0200","inBedStart":"2024-05-09 22:30:00 +0200","inBedEnd":"2024-05-10 05:30:00 +0200",
          "sleepSource":"Watch","inBedSource":"Watch|iPhone"}]}]}}
        """

    /// The same folder imported (twice) in separate processes gives the same store, byte for byte but
    /// for the uuids of new samples: each process hashes with a seed of its own, and the plan's deletions, found
    /// through dictionaries, came out in another order (other tombstones at each change number) in most runs.
    func theSameFolderGivesTheSameStoreInEveryProcess() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/hae-determinism").path
        var stores: [[String: String]] = []
        for _ in 0..<6 {
            try CLIRunner.withTemporaryStore { cli in
                let environment = ["HKCTL_NOW": "2026-11-30T10:00:00", "TZ": "America/Los_Angeles"]
                try expectEqual(cli.run(["import", folder, "-q"], environment: environment).status, 0)
                try expectEqual(cli.run(["import", folder, "--all-files", "-q"], environment: environment).status, 0)
                stores.append(Self.rankedUUIDs(cli.snapshot()))
            }
        }
        #expect(stores.first?.keys.contains { $0.hasSuffix("tombstones.jsonl") } == true, "the fixture deletes: \(stores.first?.keys.sorted() ?? [])")
        for (index, store) in stores.enumerated().dropFirst() {
            for (name, text) in store where stores[0][name] != text {
                Issue.record("run \(index): \(name) differs from run 0")
            }
            expectEqual(Set(store.keys), Set(stores[0].keys))
        }
    }

    /// The store's sample and tombstone files, and its operation log, with each uuid replaced by its rank of first
    /// appearance (files in path order).
    static func rankedUUIDs(_ files: [String: Data]) -> [String: String] {
        var ranks: [Substring: Int] = [:]
        var result: [String: String] = [:]
        for name in files.keys.sorted() where name.hasPrefix("samples/") || name == "operations.jsonl" {
            let text = String(decoding: files[name]!, as: UTF8.self)
            var out = ""
            var rest = text[...]
            while let range = rest.range(of: #"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"#, options: .regularExpression) {
                out += rest[..<range.lowerBound]
                let uuid = rest[range]
                let rank = ranks[uuid] ?? ranks.count
                ranks[uuid] = rank
                out += "uuid-\(rank)"
                rest = rest[range.upperBound...]
            }
            result[name] = out + rest
        }
        return result
    }

    func aFileSendingPointsTwiceGivesOneStoreInAnyBatchSize() throws {
        var stores: [String: [String]] = [:], receipts: [String: String] = [:]
        for size in ["1", "3", "default"] {
            try CLIRunner.withTemporaryStore { cli in
                let path = S19ReviewHAECLITests.folder(of: cli) + "/twice.json"
                try Self.payload.write(toFile: path, atomically: true, encoding: .utf8)
                let sizing = size == "default" ? [] : ["--batch-size", size]
                let dry = try cli.run(["import", path, "--dry-run", "--format", "json"] + sizing)
                let real = try cli.run(["import", path, "--format", "json"] + sizing)
                expectEqual(real.status, 0, "batch size \(size): \(real.stderr)")
                try expectEqual(S19ReviewHAECLITests.counts(dry), S19ReviewHAECLITests.counts(real), "batch size \(size)")
                receipts[size] = try S19ReviewHAECLITests.counts(real)
                stores[size] = try S19ReviewHAECLITests.contents(cli)
                // Imported again: heart rate's 08:00 and the nights are unchanged (each stored as its last sending,
                // the earlier ones superseded in the file); the steps of `Watch`, then `Watch|iPhone`, are related
                // sources the plan meets in turn (an export's `iPhone` samples could cover the second and not the
                // first), so they are replaced in turn: the same samples, their versions a step on.
                let again = try cli.run(["import", path, "--format", "json"] + sizing)
                receipts[size + " again"] = try S19ReviewHAECLITests.counts(again)
                try expectEqual(Self.withoutVersions(S19ReviewHAECLITests.contents(cli)), Self.withoutVersions(stores[size] ?? []),
                                "batch size \(size), imported again")
                let totals = try S19ReviewHAECLITests.totals(again)
                #expect(totals["added"] == 0 && totals["replaced"] == 2, "batch size \(size): \(totals)")
            }
        }
        let store = try #require(stores["1"])
        // Heart rate: 08:00 as `Avg` alone (its earlier minimum and maximum gone) and 08:01; steps: `Watch|iPhone` 12
        // in place of `Watch` 10, and `Strap` 5; sleep: 6 h asleep and 7 h in bed, and the next night as its stages.
        expectEqual(store.filter { $0.contains("HKQuantityTypeIdentifierHeartRate") }.count, 2, "\(store)")
        expectEqual(store.filter { $0.contains("HKQuantityTypeIdentifierStepCount") }.count, 2, "\(store)")
        #expect(store.contains { $0.contains("Watch|iPhone") && $0.contains("StepCount") && $0.contains("12") })
        expectEqual(store.filter { $0.contains("HKCategoryTypeIdentifierSleepAnalysis") }.count, 4, "\(store)")
        for size in ["3", "default"] {
            expectEqual(stores[size], store, "batch size \(size)")
            expectEqual(receipts[size], receipts["1"], "batch size \(size)")
            expectEqual(receipts[size + " again"], receipts["1 again"], "batch size \(size), imported again")
        }
    }

    /// Exported lines without their sync versions.
    static func withoutVersions(_ lines: [String]) -> [String] {
        lines.map { $0.replacing(/"HKMetadataKeySyncVersion":[0-9]+,?/, with: "") }
    }
}

/// The checks ``HAEBatchSizeCLITests/checks(_:)`` runs.
private let hAEBatchSizeCLITestsChecks: [Check<HAEBatchSizeCLITests>] = [
    Check("theSameFolderGivesTheSameStoreInEveryProcess", HAEBatchSizeCLITests.theSameFolderGivesTheSameStoreInEveryProcess),
    Check("aFileSendingPointsTwiceGivesOneStoreInAnyBatchSize", HAEBatchSizeCLITests.aFileSendingPointsTwiceGivesOneStoreInAnyBatchSize),
]
