import Foundation
import Testing
import TestKit
import TextSupport

/// `hkctl import` does not rewrite who you are (issue 22): characteristics the store has are kept unless
/// `--replace-characteristics` is given, and the summary says which were added, kept or replaced.
struct ImportCharacteristicsCLITests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: importCharacteristicsCLITestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// An export whose `Me` says 1988-04-02, female, B+, skin type not set, no wheelchair.
    private func export(in cli: CLIRunner) throws -> String {
        let path = (cli.storePath as NSString).deletingLastPathComponent + "/export.xml"
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <Me HKCharacteristicTypeIdentifierDateOfBirth="1988-04-02" HKCharacteristicTypeIdentifierBiologicalSex="HKBiologicalSexFemale" HKCharacteristicTypeIdentifierBloodType="HKBloodTypeBPositive" HKCharacteristicTypeIdentifierFitzpatrickSkinType="HKFitzpatrickSkinTypeNotSet" HKCharacteristicTypeIdentifierWheelchairUse="HKWheelchairUseNo"/>
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="p" unit="count" startDate="2024-05-01 08:00:00 -0700" endDate="2024-05-01 08:10:00 -0700" value="12"/>
            </HealthData>

            """
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func results(_ stdout: String) throws -> [String: [String: String]] {
        let receipt = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
        let list = try #require(receipt["characteristicResults"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: list.map { entry in
            (entry["key"] as? String ?? "", entry.compactMapValues { $0 as? String })
        })
    }

    func differingCharacteristicsAreKeptAndReported() throws {
        try CLIRunner.withTemporaryStore { cli in
            let path = try export(in: cli)
            try expectEqual(cli.run(["me", "set", "blood-type", "A+"]).status, 0)
            try expectEqual(cli.run(["me", "set", "date-of-birth", "1988-04-02"]).status, 0)
            let table = try cli.run(["import", path])
            expectEqual(table.status, 0, "\(table.stderr)")
            let rows = table.stdout.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
            #expect(rows.contains("CHARACTERISTIC STORE EXPORT RESULT"), "\(table.stdout)")
            #expect(rows.contains("blood-type A+ B+ kept"))
            #expect(rows.contains("biological-sex - female added"))
            #expect(rows.contains("date-of-birth 1988-04-02 1988-04-02 unchanged"))
            #expect(rows.contains("HKCharacteristicTypeIdentifierWheelchairUse - HKWheelchairUseNo added"))
            #expect(table.stdout.contains("Kept the store's blood-type; import with --replace-characteristics to take the export's."))
            let me = try cli.run(["me", "--format", "json"]).stdout
            #expect(me.contains("\"blood-type\":\"A+\"") && me.contains("\"biological-sex\":\"female\""), "\(me)")

            let json = try cli.run(["import", path, "--format", "json"])
            expectEqual(json.status, 0)
            let again = try results(json.stdout)
            expectEqual(again["blood-type"], ["key": "blood-type", "store": "A+", "export": "B+", "result": "kept"])
            expectEqual(again["biological-sex"]?["result"], "unchanged")
            expectEqual(again.count, 4, "skin type not set in the export is not part of it")

            let replaced = try cli.run(["import", path, "--replace-characteristics", "--format", "json"])
            expectEqual(replaced.status, 0)
            try expectEqual(results(replaced.stdout)["blood-type"]?["result"], "replaced")
            #expect(try cli.run(["me", "--format", "json"]).stdout.contains("\"blood-type\":\"B+\""))
        }
    }

    func aDryRunReportsTheSameAndWritesNothing() throws {
        try CLIRunner.withTemporaryStore { cli in
            let path = try export(in: cli)
            try expectEqual(cli.run(["me", "set", "blood-type", "O-"]).status, 0)
            let before = cli.snapshot()
            for extra in [[], ["--replace-characteristics"]] {
                let json = try cli.run(["import", path, "--dry-run", "--format", "json"] + extra)
                expectEqual(json.status, 0, "\(json.stderr)")
                let entries = try results(json.stdout)
                expectEqual(entries["blood-type"]?["result"], (extra.isEmpty ? "kept" : "replaced"))
                expectEqual(entries["date-of-birth"]?["result"], "added")
                expectEqual(cli.snapshot(), before, "a dry run writes nothing")
            }
            let table = try cli.run(["import", path, "--dry-run"])
            #expect(table.stdout.contains("would be kept") && table.stdout.contains("would be added"), "\(table.stdout)")
            #expect(table.stdout.contains("The store's blood-type would be kept"))
            expectEqual(cli.snapshot(), before)
        }
    }

    func theFirstImportAddsEverything() throws {
        try CLIRunner.withTemporaryStore { cli in
            let json = try cli.run(["import", try export(in: cli), "--format", "json"])
            expectEqual(json.status, 0)
            #expect(try results(json.stdout).values.allSatisfy { $0["result"] == "added" && $0["store"] == nil })
            #expect(!json.stdout.contains("\"kept\""))
        }
    }
}

/// The checks ``ImportCharacteristicsCLITests/checks(_:)`` runs.
private let importCharacteristicsCLITestsChecks: [Check<ImportCharacteristicsCLITests>] = [
    Check("differingCharacteristicsAreKeptAndReported",
          ImportCharacteristicsCLITests.differingCharacteristicsAreKeptAndReported),
    Check("aDryRunReportsTheSameAndWritesNothing", ImportCharacteristicsCLITests.aDryRunReportsTheSameAndWritesNothing),
    Check("theFirstImportAddsEverything", ImportCharacteristicsCLITests.theFirstImportAddsEverything),
]
