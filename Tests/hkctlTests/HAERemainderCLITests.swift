import Foundation
import Testing
import TestKit

/// `hkctl delete`, `hkctl edit` and a later export's greater sync version change an export's sample that a Health
/// Auto Export day total was reduced by (its remainder, docs/IMPORT.md "One truth with bulk imports"): the day still
/// counts HAE's total once, through the binary. The day (Berlin, 10 May 2024): the export made at 14:00 holds 1,000
/// steps at 08:00 and 3,000 at 12:00; HAE's day total is 4,500, stored as a remainder of 500 after 12:30.
struct HAERemainderCLITests {
    @Test(arguments: hAERemainderCLITestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias H = HAEIndependent
    private static let day = ["steps", "--by", "day", "--from", "2024-05-10", "--to", "2024-05-10"]

    /// The export's 12:00 sample (3,000 steps), by its uuid.
    private static func noonSample(_ cli: CLIRunner) throws -> String {
        let noon = try H.list(cli, "steps").first { H.number($0["value"]) == 3000 && ($0["source"] as? String) == "Jane’s iPhone" }
        return try #require(noon?["uuid"] as? String, "no 3,000-step sample")
    }

    /// Deleting the 12:00 sample gives HAE's day its 3,000 back (4,500, not 1,500); undo brings the sample back and the
    /// remainder to 500 (4,500); editing it to 2,000 leaves the day at 4,500 (1,000 + 2,000 + 1,500).
    func deleteUndoAndEditOfTheExportsSampleKeepHAEsDay() throws {
        try CLIRunner.withTemporaryStore { cli in
            try H.importQuietly(cli, "export-until-14.xml")
            try H.importQuietly(cli, "hae-day-steps.json")
            try expectEqual(H.sums(cli, Self.day), [4500])
            let deleted = try cli.run(["delete", try Self.noonSample(cli), "--yes", "-q"], environment: H.berlin)
            expectEqual(deleted.status, 0, "\(deleted.stderr)")
            try expectEqual(H.sums(cli, Self.day), [4500])
            let undo = try cli.run(["undo", "--yes"], environment: H.berlin)
            expectEqual(undo.status, 0, "\(undo.stderr)")
            try expectEqual(H.sums(cli, Self.day), [4500])
            #expect(try H.list(cli, "steps").contains { H.number($0["value"]) == 3000 }, "the sample is back")
            let edited = try cli.run(["edit", try Self.noonSample(cli), "2000", "-q"], environment: H.berlin)
            expectEqual(edited.status, 0, "\(edited.stderr)")
            try expectEqual(H.sums(cli, Self.day), [4500])
            try expectEqual(H.sums(cli, Self.day + ["--no-merge"]), [4500])
        }
    }

    /// The 12:00 sample carries sync keys; a later export holds it in version 2 (2,000): imported after HAE's day,
    /// the day stays 4,500, and importing the same files again changes nothing.
    func aGreaterSyncVersionOfTheExportsSampleKeepsHAEsDay() throws {
        try CLIRunner.withTemporaryStore { cli in
            let folder = (cli.storePath as NSString).deletingLastPathComponent
            func export(_ noon: Int, version: Int) throws -> String {
                let path = folder + "/export-v\(version).xml"
                let record = { (start: String, end: String, value: Int, sync: Bool) in
                    " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Jane’s iPhone\" unit=\"count\" "
                        + "startDate=\"2024-05-10 \(start) +0200\" endDate=\"2024-05-10 \(end) +0200\" value=\"\(value)\""
                        + (sync ? ">\n  <MetadataEntry key=\"HKMetadataKeySyncIdentifier\" value=\"noon-walk\"/>\n"
                            + "  <MetadataEntry key=\"HKMetadataKeySyncVersion\" value=\"\(version)\"/>\n </Record>\n" : "/>\n")
                }
                let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
                    + " <ExportDate value=\"2024-05-10 14:00:00 +0200\"/>\n" + record("08:00:00", "08:10:00", 1000, false)
                    + record("12:00:00", "12:30:00", noon, true) + "</HealthData>\n"
                try text.write(toFile: path, atomically: true, encoding: .utf8)
                return path
            }
            let files = [try export(3000, version: 1), H.path("hae-day-steps.json"), try export(2000, version: 2)]
            for round in 1...2 {
                for file in files {
                    let result = try cli.run(["import", file, "-q"], environment: H.berlin)
                    expectEqual(result.status, 0, "import \(file): \(result.stderr)")
                }
                try expectEqual(H.sums(cli, Self.day), [4500], "round \(round)")
            }
            #expect(try H.list(cli, "steps").contains { H.number($0["value"]) == 2000 }, "version 2 is stored")
        }
    }
}

/// The checks ``HAERemainderCLITests/checks(_:)`` runs.
private let hAERemainderCLITestsChecks: [Check<HAERemainderCLITests>] = [
    Check("deleteUndoAndEditOfTheExportsSampleKeepHAEsDay", HAERemainderCLITests.deleteUndoAndEditOfTheExportsSampleKeepHAEsDay),
    Check("aGreaterSyncVersionOfTheExportsSampleKeepsHAEsDay", HAERemainderCLITests.aGreaterSyncVersionOfTheExportsSampleKeepsHAEsDay),
]
