import Foundation
import Testing
import TestKit

/// Characteristics (`hkctl me`) and display-unit preferences (`hkctl config`).
struct MeConfigCLITests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: meConfigCLITestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    func characteristicsCanBeSetShownAndUnset() throws {
        try CLIRunner.withTemporaryStore { cli in
            for (key, value) in [("date-of-birth", "1988-04-02"), ("biological-sex", "female"), ("blood-type", "A+"),
                                 ("skin-type", "III")] {
                let set = try cli.run(["me", "set", key, value])
                expectEqual(set.status, 0, "\(set.stderr)")
            }
            let shown = try cli.run(["me", "--format", "json"])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any])
            expectEqual(object["date-of-birth"] as? String, "1988-04-02")
            expectEqual(object["biological-sex"] as? String, "female")
            expectEqual(object["blood-type"] as? String, "A+")
            expectEqual(object["skin-type"] as? String, "III")
            try expectEqual(cli.run(["me", "unset", "blood-type"]).status, 0)
            #expect(try cli.run(["me", "--format", "json"]).stdout.contains("\"blood-type\":null"))
        }
    }

    @Test(arguments: [
        (["me", "set", "blood-type", "C+"], 65, "A+"),
        (["me", "set", "skin-type", "VII"], 65, "VI"),
        (["me", "set", "date-of-birth", "2030-01-01"], 65, "past"),
        (["me", "set", "date-of-birth", "1988-02-30"], 65, "does not exist"),
        (["me", "set", "eye-colour", "blue"], 65, "Unknown characteristic"),
        (["add", "blood-type", "A+"], 64, "characteristic, not a sample type"),
        (["add", "HKCharacteristicTypeIdentifierDateOfBirth", "1988-04-02"], 64, "characteristic"),
        (["config", "set", "unit.weight", "mL"], 65, "does not measure weight"),
        (["config", "set", "unit.sleep", "h"], 64, "Unknown setting"),
        (["config", "set", "colour", "red"], 64, "Unknown setting"),
    ] as [([String], Int32, String)])
    func badCharacteristicsAndSettingsChangeNothing(arguments: [String], status: Int32, fragment: String) throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "water", "1L"]).status, 0)
            let before = cli.snapshot()
            let result = try cli.run(arguments)
            expectEqual(result.status, status, "\(result.stderr)")
            #expect(result.stderr.contains(fragment), "\(result.stderr)")
            expectEqual(cli.snapshot(), before)
        }
    }

    func aDisplayUnitPreferenceChangesListAndStatsButNotTheStore() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "weight", "72.5747792kg", "--at", "08:00"]).status, 0)
            try expectEqual(cli.run(["config", "set", "unit.weight", "lbs"]).stdout, "unit.weight = lb\n")
            try expectEqual(cli.run(["config", "get", "unit.weight"]).stdout, "lb\n")
            let listed = try cli.run(["list", "weight", "--format", "json"]).stdout
            #expect(listed.contains("\"value\":160") && listed.contains("\"unit\":\"lb\""))
            #expect(try cli.run(["stats", "weight", "--format", "json"]).stdout.contains("\"unit\":\"lb\""))
            // --unit wins over the preference.
            #expect(try cli.run(["list", "weight", "--unit", "kg", "--format", "json"]).stdout.contains("\"unit\":\"kg\""))
            try expectEqual(cli.run(["config", "unset", "unit.weight"]).status, 0)
            #expect(try cli.run(["list", "weight", "--format", "json"]).stdout.contains("\"unit\":\"kg\""))
        }
    }

    func percentIsAFractionInDataAndPercentInTables() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "body-fat", "21.5%", "--at", "08:00"]).status, 0)
            let json = try cli.run(["list", "body-fat", "--format", "json"]).stdout
            #expect(json.contains("\"value\":0.215") && json.contains("\"unit\":\"%\""))
            #expect(try cli.run(["list", "body-fat"]).stdout.contains("21.5 %"))
            let bare = try cli.run(["add", "body-fat", "21.5"])
            #expect(bare.status == 65 && bare.stderr.contains("21.5%"))
        }
    }
}

/// The checks ``MeConfigCLITests/checks(_:)`` runs.
private let meConfigCLITestsChecks: [Check<MeConfigCLITests>] = [
    Check("characteristicsCanBeSetShownAndUnset", MeConfigCLITests.characteristicsCanBeSetShownAndUnset),
    Check("aDisplayUnitPreferenceChangesListAndStatsButNotTheStore",
          MeConfigCLITests.aDisplayUnitPreferenceChangesListAndStatsButNotTheStore),
    Check("percentIsAFractionInDataAndPercentInTables", MeConfigCLITests.percentIsAFractionInDataAndPercentInTables),
]
