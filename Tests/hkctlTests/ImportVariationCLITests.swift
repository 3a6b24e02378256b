import Foundation
import Testing
import TextSupport
import TestKit

/// `hkctl import` of the export variations in Tests/Fixtures/import (issue 23), run as the built binary.
struct ImportVariationCLITests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: importVariationCLITestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/import").path

    static func fixture(_ name: String) -> String { folder + "/" + name }

    static let exports = ["locale-digits.ascii.xml", "locale-digits.arabic-indic.xml", "locale-digits.persian.xml",
                          "locale-digits.devanagari.xml", "look-alike.xml", "ios8.xml", "me-generic.xml",
                          "activity-summary.2024-05-31.xml", "activity-summary.2024-06-02.kJ.xml"]

    @Test(arguments: exports)
    func everyVariationImportsWithExitZeroAndAgainAddsNothing(name: String) throws {
        try CLIRunner.withTemporaryStore { cli in
            let first = try cli.run(["import", Self.fixture(name), "--format", "json"])
            expectEqual(first.status, 0, "\(first.stderr)")
            let receipt = try #require(try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])
            let totals = try #require(receipt["totals"] as? [String: Int])
            expectEqual(totals["rejected"], 0)
            expectEqual(totals["alreadyPresent"], 0)
            let second = try cli.run(["import", Self.fixture(name), "--format", "json"])
            expectEqual(second.status, 0, "\(second.stderr)")
            let again = try #require(try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any])
            let againTotals = try #require(again["totals"] as? [String: Int])
            expectEqual(againTotals["added"], 0)
            expectEqual(againTotals["keptGenerically"], 0)
        }
    }

    func lookAlikesAreListedNotRemoved() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["import", Self.fixture("look-alike.xml")]).status, 0)
            let before = cli.snapshot()
            let listed = try cli.run(["sources", "--look-alikes", "--format", "json"])
            expectEqual(listed.status, 0, "\(listed.stderr)")
            let groups = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
            expectEqual(groups.count, 5)
            expectEqual(groups.map { ($0["samples"] as? [Any])?.count ?? 0 }.sum, 15)
            let energy = try #require(groups.first { $0["type"] as? String == "HKQuantityTypeIdentifierActiveEnergyBurned" })
            expectEqual((energy["samples"] as? [Any])?.count, 5)
            let table = try cli.run(["sources", "--look-alikes", "active-energy"], environment: ["COLUMNS": "200"])
            expectEqual(table.status, 0)
            #expect(table.stdout.contains("5 samples in 1 groups look alike"))
            let csv = try cli.run(["sources", "--look-alikes", "sleep", "--format", "csv"])
            expectEqual(csv.stdout.split(separator: "\n").count, 4)
            expectEqual(cli.snapshot(), before, "listing changes nothing")
            // Reading every source's samples is for the owner.
            let other = try cli.run(["sources", "--look-alikes", "--source", "SomeApp"])
            expectEqual(other.status, 77)
            // Deleting one of a group leaves the others.
            let uuid = try #require(((energy["samples"] as? [[String: Any]])?.last?["uuid"]) as? String)
            try expectEqual(cli.run(["delete", uuid, "--yes"]).status, 0)
            let after = try cli.run(["sources", "--look-alikes", "active-energy", "--format", "json"])
            let remaining = try #require(try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [[String: Any]])
            expectEqual((remaining.first?["samples"] as? [Any])?.count, 4)
        }
    }

    /// Two exports of one phone, the second made two days later in kJ: the days both write are stored once, with
    /// the later export's figures; importing the earlier export again writes nothing; undo brings the earlier back.
    func aLaterExportsActivitySummariesReplaceTheEarlierOnes() throws {
        func summaries(_ cli: CLIRunner, _ range: [String] = []) throws -> [String] {
            let export = try cli.run(["export", "--type", "HKActivitySummaryTypeIdentifier", "--format", "jsonl"] + range)
            expectEqual(export.status, 0, "\(export.stderr)")
            return try export.stdout.split(separator: "\n").map { line in
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let metadata = try #require(object["metadata"] as? [String: Any])
                return ["@dateComponents", "@activeEnergyBurned", "@activeEnergyBurnedUnit"].map { metadata[$0] as? String ?? "-" }
                    .joined(separator: " ")
            }.sorted()
        }
        func counts(_ result: CLIResult) throws -> [String: Int] {
            let receipt = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let types = try #require(receipt["types"] as? [String: [String: Int]], "\(result.stdout)")
            return try #require(types["HKActivitySummaryTypeIdentifier"])
        }
        try CLIRunner.withTemporaryStore { cli in
            let early = Self.fixture("activity-summary.2024-05-31.xml"), later = Self.fixture("activity-summary.2024-06-02.kJ.xml")
            try expectEqual(cli.run(["import", early]).status, 0)
            let before = try summaries(cli)
            expectEqual(before, ["2024-05-30 512.5 kcal", "2024-05-31 356.6 kcal"])
            let second = try cli.run(["import", later, "--format", "json"])
            expectEqual(second.status, 0, "\(second.stderr)")
            let replaced = try counts(second)
            expectEqual(replaced["replaced"], 2, "\(replaced)")
            expectEqual(replaced["keptGenerically"], 1, "\(replaced)")
            let after = try summaries(cli)
            expectEqual(after, ["2024-05-30 2144.3 kJ", "2024-05-31 2950.1 kJ", "2024-06-01 1500 kJ"])
            // A day's range takes that day's summary, west of UTC as east of it.
            for zone in ["America/Los_Angeles", "Asia/Tokyo"] {
                try expectEqual(summaries(cli, ["--from", "2024-05-31", "--to", "2024-05-31", "--tz", zone]), ["2024-05-31 2950.1 kJ"], "\(zone)")
            }
            let samples = { cli.snapshot().filter { $0.key.hasPrefix("samples/") } }
            let snapshot = samples()
            let again = try cli.run(["import", early, "--format", "json"])
            expectEqual(again.status, 0, "\(again.stderr)")
            expectEqual(try counts(again)["alreadyPresent"], 2)
            try expectEqual(summaries(cli), after)
            expectEqual(samples(), snapshot, "the earlier export again wrote to the store's samples")
            let undo = try cli.run(["undo", "--yes"])
            expectEqual(undo.status, 0, "\(undo.stderr)")
            try expectEqual(summaries(cli), before)
        }
    }

    func unknownCharacteristicsAreListedByMeAndExportedBack() throws {
        try CLIRunner.withTemporaryStore { cli in
            let imported = try cli.run(["import", Self.fixture("me-generic.xml")])
            expectEqual(imported.status, 0, "\(imported.stderr)")
            #expect(!imported.stdout.contains("Skipped"), "\(imported.stdout)")
            let me = try cli.run(["me", "--format", "json"])
            #expect(me.stdout.contains("\"HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse\":\"HKCardioFitnessMedicationsUseOptionBetaBlocker\""), "\(me.stdout)")
            #expect(try cli.run(["me"]).stdout.contains("HKCharacteristicTypeIdentifierActivityMoveMode"))
            let exported = try cli.run(["export", "--format", "healthxml"])
            expectEqual(exported.status, 0)
            #expect(exported.stdout.contains(" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse=\"HKCardioFitnessMedicationsUseOptionBetaBlocker\""))
        }
    }
}

/// Hostile imports stay within the documented memory bound and stop with a clear error (issue 20, item 7), and
/// exports in other encodings are read or refused, never garbled (item 14).
struct HostileImportLimitTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: hostileImportLimitTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// Runs `hkctl ARGS` with its virtual memory limited to `kilobytes` (`ulimit -v`).
    private func runLimited(_ cli: CLIRunner, _ arguments: [String], kilobytes: Int) throws -> CLIResult {
        let quoted = ([CLIRunner.binaryURL.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "ulimit -v \(kilobytes); exec " + quoted.joined(separator: " ")]
        process.environment = ["PATH": "/usr/bin:/bin", "HKCTL_STORE": cli.storePath, "TZ": "UTC",
                               "HKCTL_NOW": "2024-06-01T12:00:00Z", "HOME": NSTemporaryDirectory()]
        return try CLIRunner.collect(process)
    }

    /// 150 MB: an ordinary import fits (docs/IMPORT.md), the builds before the caps did not (they aborted).
    static let limit = 150_000

    @Test(arguments: [false, true])
    func deeplyNestedElementsAreRefusedWithinTheMemoryBound(dryRun: Bool) throws {
        try CLIRunner.withTemporaryStore { cli in
            let folder = (cli.storePath as NSString).deletingLastPathComponent
            let path = folder + "/nested.xml"
            // 500,000 nested elements in 3.5 MB: about 280 MB when every level is kept.
            let depth = 500_000
            var text = "<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n"
            text += String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth) + "\n</HealthData>\n"
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let result = try runLimited(cli, ["import", path] + (dryRun ? ["--dry-run"] : []), kilobytes: Self.limit)
            expectEqual(result.status, 65, "\(result.stderr)")
            #expect(result.stderr.contains("nests elements more than 64 deep at line 3"), "\(result.stderr)")
            expectEqual(result.stderr.split(separator: "\n").count, 1)
            #expect(!FileManager.default.fileExists(atPath: cli.storePath + "/samples"), "nothing stored")
        }
    }

    func anElementWithTooManyChildrenIsRefused() throws {
        try CLIRunner.withTemporaryStore { cli in
            let folder = (cli.storePath as NSString).deletingLastPathComponent
            let path = folder + "/wide.xml"
            var text = "<?xml version=\"1.0\"?>\n<HealthData locale=\"en_US\">\n"
            text += " <Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" duration=\"30\" durationUnit=\"min\" sourceName=\"w\" startDate=\"2024-05-01 08:00:00 -0700\" endDate=\"2024-05-01 08:30:00 -0700\">\n"
            text += String(repeating: "<WorkoutEvent type=\"HKWorkoutEventTypePause\" date=\"2024-05-01 08:10:00 -0700\"/>\n", count: 100_001)
            text += " </Workout>\n</HealthData>\n"
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let result = try runLimited(cli, ["import", path], kilobytes: Self.limit)
            expectEqual(result.status, 65, "\(result.stderr)")
            #expect(result.stderr.contains("element at line 3") && result.stderr.contains("more than 100000 child elements"), "\(result.stderr)")
        }
    }

    func aJSONLinesLineWithoutEndIsRefusedWithinTheMemoryBound() throws {
        try CLIRunner.withTemporaryStore { cli in
            let folder = (cli.storePath as NSString).deletingLastPathComponent
            let path = folder + "/long.jsonl"
            // A first good line, then 100 MB without a newline: builds before the cap held it all and aborted.
            let good = "{\"uuid\":\"0f7a3b9e-1c2d-4e5f-8a9b-0c1d2e3f4a5b\",\"type\":\"HKQuantityTypeIdentifierStepCount\",\"start\":\"2024-05-01T08:00:00Z\",\"end\":\"2024-05-01T08:10:00Z\",\"value\":12,\"unit\":\"count\",\"source\":\"s\",\"created\":\"2024-05-01T08:10:00Z\"}\n"
            _ = FileManager.default.createFile(atPath: path, contents: Data(good.utf8))
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.seekToEnd()
            let block = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
            for _ in 0..<100 { try handle.write(contentsOf: block) }
            try handle.close()
            let result = try runLimited(cli, ["import", path, "--dry-run"], kilobytes: Self.limit)
            expectEqual(result.status, 65, "\(result.stderr)")
            #expect(result.stderr.contains("Line 2 of") && result.stderr.contains("(from byte \(good.utf8.count))")
                && result.stderr.contains("longer than 8 MiB"), "\(result.stderr)")
        }
    }

    func latin1AndWindows1252ExportsAreDecodedAndOtherEncodingsRefused() throws {
        try CLIRunner.withTemporaryStore { cli in
            let folder = (cli.storePath as NSString).deletingLastPathComponent
            func export(_ encoding: String, source: [UInt8]) -> [UInt8] {
                Array("<?xml version=\"1.0\" encoding=\"\(encoding)\"?>\n<HealthData locale=\"fr_FR\">\n <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"".utf8)
                    + source + Array("\" unit=\"count\" startDate=\"2024-05-01 08:00:00 +0200\" endDate=\"2024-05-01 08:10:00 +0200\" value=\"12\"/>\n</HealthData>\n".utf8)
            }
            // "café" in ISO-8859-1; "café ’€" in Windows-1252.
            let latin1 = folder + "/latin1.xml", windows = folder + "/cp1252.xml"
            try Data(export("ISO-8859-1", source: [0x63, 0x61, 0x66, 0xE9])).write(to: URL(fileURLWithPath: latin1))
            try Data(export("windows-1252", source: [0x63, 0x61, 0x66, 0xE9, 0x20, 0x92, 0x80])).write(to: URL(fileURLWithPath: windows))
            try expectEqual(cli.run(["import", latin1]).status, 0)
            try expectEqual(cli.run(["import", windows]).status, 0)
            let sources = try cli.run(["sources", "steps", "--format", "csv"]).stdout
            #expect(sources.contains("café,"), "\(sources)")
            #expect(sources.contains("café ’€,"), "\(sources)")
            #expect(!sources.contains("\u{FFFD}"))
            let utf16 = folder + "/utf16.xml"
            try Data("<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<HealthData locale=\"en_US\"/>\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
                .reduce(into: [0xFF, 0xFE]) { $0.append($1) }).write(to: URL(fileURLWithPath: utf16))
            let ebcdic = folder + "/ebcdic.xml"
            try Data(export("EBCDIC-US", source: [0x61]).map { $0 }).write(to: URL(fileURLWithPath: ebcdic))
            let before = cli.snapshot()
            for (path, name) in [(utf16, "UTF-16"), (ebcdic, "EBCDIC-US")] {
                let result = try cli.run(["import", path])
                expectEqual(result.status, 65)
                #expect(result.stderr.contains("is encoded in \(name), which hkctl does not read"), "\(result.stderr)")
            }
            expectEqual(cli.snapshot(), before)
        }
    }
}

/// The checks ``ImportVariationCLITests/checks(_:)`` runs.
private let importVariationCLITestsChecks: [Check<ImportVariationCLITests>] = [
    Check("lookAlikesAreListedNotRemoved", ImportVariationCLITests.lookAlikesAreListedNotRemoved),
    Check("aLaterExportsActivitySummariesReplaceTheEarlierOnes", ImportVariationCLITests.aLaterExportsActivitySummariesReplaceTheEarlierOnes),
    Check("unknownCharacteristicsAreListedByMeAndExportedBack",
          ImportVariationCLITests.unknownCharacteristicsAreListedByMeAndExportedBack),
]

/// The checks ``HostileImportLimitTests/checks(_:)`` runs.
private let hostileImportLimitTestsChecks: [Check<HostileImportLimitTests>] = [
    Check("anElementWithTooManyChildrenIsRefused", HostileImportLimitTests.anElementWithTooManyChildrenIsRefused),
    Check("aJSONLinesLineWithoutEndIsRefusedWithinTheMemoryBound",
          HostileImportLimitTests.aJSONLinesLineWithoutEndIsRefusedWithinTheMemoryBound),
    Check("latin1AndWindows1252ExportsAreDecodedAndOtherEncodingsRefused",
          HostileImportLimitTests.latin1AndWindows1252ExportsAreDecodedAndOtherEncodingsRefused),
]
