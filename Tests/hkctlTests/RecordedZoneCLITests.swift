import Foundation
import Testing
import TestKit

/// Issue 31, "Times as they were lived": `add` records the zone (`HKTimeZone`), and `--tz recorded` shows each
/// sample in it while days still follow the zone asked for.
struct RecordedZoneCLITests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: recordedZoneCLITestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    func aNewYorkNightReadsAsItWasLivedBackInParis() throws {
        try CLIRunner.withTemporaryStore { cli in
            let newYork = ["TZ": "America/New_York", "HKCTL_NOW": "2024-06-01T09:00:00-04:00"]
            let added = try cli.run(["add", "sleep", "23:10-07:05", "--format", "json"], environment: newYork)
            expectEqual(added.status, 0, "\(added.stderr)")
            #expect(added.stdout.contains("\"HKTimeZone\":\"America/New_York\""))
            let paris = ["TZ": "Europe/Paris", "HKCTL_NOW": "2024-06-03T21:00:00+02:00"]
            try expectEqual(cli.run(["add", "water", "0.5L", "-q"], environment: paris).status, 0)
            // In Paris the night shows in Paris time; with --tz recorded as it was lived in New York.
            let plain = try cli.run(["list", "sleep"], environment: paris).stdout
            #expect(plain.contains("2024-06-01 05:10") && plain.contains("2024-06-01 13:05"))
            let lived = try cli.run(["list", "sleep", "--tz", "recorded"], environment: paris).stdout
            #expect(lived.contains("2024-05-31 23:10") && lived.contains("2024-06-01 07:05"), "\(lived)")
            let json = try cli.run(["list", "sleep", "--tz", "recorded", "--format", "json"], environment: paris).stdout
            #expect(json.contains("\"start\":\"2024-05-31T23:10:00-04:00\""))
            // The same through the environment, and for changes; a sample without a zone shows in the system zone.
            let env = try cli.run(["list", "water", "--format", "csv"], environment: paris.merging(["HKCTL_TZ": "recorded"]) { $1 })
            #expect(env.stdout.contains("2024-06-03T21:00:00+02:00"))
            let changes = try cli.run(["changes", "--format", "jsonl", "--tz", "recorded"], environment: paris).stdout
            #expect(changes.contains("\"start\":\"2024-05-31T23:10:00-04:00\""))
            // Days and nights still follow the zone of the command: the night of 2024-06-01 runs noon to noon in Paris.
            let stats = try cli.run(["stats", "sleep", "-p", "2024-06-01", "--tz", "recorded", "--format", "json"], environment: paris)
            #expect(stats.status == 0 && stats.stdout.contains("\"from\":\"2024-05-31T12:00:00+02:00\""), "\(stats.stdout)")
            // A zone given by hand is kept; an unknown --tz is still refused.
            let own = try cli.run(["add", "water", "1L", "--meta", "HKTimeZone=Asia/Tokyo", "--format", "json"], environment: paris)
            #expect(own.stdout.contains("\"HKTimeZone\":\"Asia/Tokyo\""))
            try expectEqual(cli.run(["list", "water", "--tz", "Mars/Base"], environment: paris).status, 65)
        }
    }

    /// Workouts, blood pressure and food record their zone too, and `config set tz recorded` makes showing each sample
    /// in it the default (`--tz` and `$HKCTL_TZ` still win).
    func compositeAddsRecordTheirZoneAndTheConfigKeyShowsIt() throws {
        try CLIRunner.withTemporaryStore { cli in
            let newYork = ["TZ": "America/New_York", "HKCTL_NOW": "2024-06-01T09:00:00-04:00"]
            for words in [["workout", "running", "30min", "--at", "07:00"], ["blood-pressure", "120/80", "--at", "07:40"],
                          ["food", "Bagel", "--energy", "300kcal", "--at", "08:00"]] {
                let added = try cli.run(["add"] + words + ["--format", "json"], environment: newYork)
                #expect(added.status == 0 && added.stdout.contains("\"HKTimeZone\":\"America/New_York\""), "\(words): \(added)")
            }
            let paris = ["TZ": "Europe/Paris", "HKCTL_NOW": "2024-06-03T21:00:00+02:00"]
            let before = try cli.run(["list", "workouts"], environment: paris).stdout
            #expect(before.contains("2024-06-01 13:00"), "\(before)")
            let bad = try cli.run(["config", "set", "tz", "Asia/Tokyo"], environment: paris)
            #expect(bad.status == 64 && bad.stderr.contains("takes 'recorded'"), "\(bad.stderr)")
            try expectEqual(cli.run(["config", "set", "tz", "recorded"], environment: paris).stdout, "tz = recorded\n")
            #expect(try cli.run(["config", "list"], environment: paris).stdout.contains("tz = recorded"))
            let lived = try cli.run(["list", "workouts"], environment: paris).stdout
            #expect(lived.contains("2024-06-01 07:00"), "\(lived)")
            let pressure = try cli.run(["list", "blood-pressure", "--format", "csv"], environment: paris).stdout
            #expect(pressure.contains("2024-06-01T07:40:00-04:00"), "\(pressure)")
            let food = try cli.run(["list", "food"], environment: paris).stdout
            #expect(food.contains("2024-06-01 08:00"), "\(food)")
            // --tz and $HKCTL_TZ still choose the zone.
            #expect(try cli.run(["list", "workouts", "--tz", "Europe/Paris"], environment: paris).stdout.contains("2024-06-01 13:00"))
            #expect(try cli.run(["list", "workouts"], environment: paris.merging(["HKCTL_TZ": "UTC"]) { $1 }).stdout.contains("2024-06-01 11:00"))
            try expectEqual(cli.run(["config", "unset", "tz"], environment: paris).status, 0)
            #expect(try cli.run(["list", "workouts"], environment: paris).stdout.contains("2024-06-01 13:00"))
        }
    }
}

/// The checks ``RecordedZoneCLITests/checks(_:)`` runs.
private let recordedZoneCLITestsChecks: [Check<RecordedZoneCLITests>] = [
    Check("aNewYorkNightReadsAsItWasLivedBackInParis", RecordedZoneCLITests.aNewYorkNightReadsAsItWasLivedBackInParis),
    Check("compositeAddsRecordTheirZoneAndTheConfigKeyShowsIt",
          RecordedZoneCLITests.compositeAddsRecordTheirZoneAndTheConfigKeyShowsIt),
]
