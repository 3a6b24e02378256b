import Foundation
import Testing
import TestKit

/// Issue 30 §1 (`add --sync-id`) and issue 31 "Corrections in one command" (`hkctl edit`), through the binary.
struct SyncAndEditCLITests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: syncAndEditCLITestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// The samples `list TYPE --format json` prints, as dictionaries.
    private func listed(_ cli: CLIRunner, _ type: String) throws -> [[String: Any]] {
        let result = try cli.run(["list", type, "--format", "json", "--from", "2020-01-01"])
        expectEqual(result.status, 0, "\(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    }

    private func values(_ cli: CLIRunner, _ type: String) throws -> [Double] {
        try listed(cli, type).compactMap { $0["value"] as? Double }
    }

    func aCronLineRunTwiceStoresOneSampleAndAHigherVersionReplacesIt() throws {
        try CLIRunner.withTemporaryStore { cli in
            let line = ["add", "steps", "8000", "--from", "08:00", "--to", "09:00", "--sync-id", "steps-2024-06-01"]
            let first = try cli.run(line)
            #expect(first.status == 0 && first.stderr.contains("Added"), "\(first.stderr)")
            let again = try cli.run(line)
            #expect(again.status == 0 && again.stderr.contains("Unchanged"), "\(again.stderr)")
            #expect(again.stdout.isEmpty)
            try expectEqual(values(cli, "steps"), [8000])
            let quiet = try cli.run(line + ["-q"])
            #expect(quiet.status == 0 && quiet.stderr.isEmpty && quiet.stdout.isEmpty)

            let anchor = try cli.run(["changes", "--format", "json"])
            expectEqual(anchor.status, 0)
            let newer = try cli.run(["add", "steps", "9500", "--from", "08:00", "--to", "09:00",
                                     "--sync-id", "steps-2024-06-01", "--sync-version", "2"])
            #expect(newer.status == 0 && newer.stderr.contains("Replaced"), "\(newer.stderr)")
            try expectEqual(values(cli, "steps"), [9500])
            #expect(try cli.run(["add", "steps", "100", "--from", "08:00", "--to", "09:00", "--sync-id", "steps-2024-06-01",
                                 "--sync-version", "2"]).stderr.contains("Unchanged"))

            let shown = try cli.run(["undo", "--dry-run"])
            #expect(shown.stdout.contains("Undo replace") && shown.stdout.contains("restores 1 it replaced"), "\(shown.stdout)")
            let undo = try cli.run(["undo", "--yes"])
            expectEqual(undo.status, 0, "\(undo.stderr)")
            try expectEqual(values(cli, "steps"), [8000], "undo brings the replaced sample back")
        }
    }

    func badSyncOptionsAreRefusedAndChangeNothing() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "water", "250mL"]).status, 0)
            let before = cli.snapshot()
            for arguments in [["--sync-version", "2"], ["--sync-id", "a", "--sync-version", "1.5"],
                              ["--sync-id", "a", "--sync-version", "x"], ["--meta", "HKMetadataKeySyncVersion=3"],
                              ["--meta", "HKMetadataKeySyncIdentifier=abc"]] {
                let result = try cli.run(["add", "water", "250mL"] + arguments)
                #expect(result.status == 64 || result.status == 65, "\(arguments): \(result.stderr)")
                // One error line (a usage error adds the usage and the help hint, as every command's does).
                #expect(result.stderr.hasPrefix("Error: ") && [1, result.status == 64 ? 3 : 1].contains(result.stderr.split(separator: "\n").count),
                        "\(arguments): \(result.stderr)")
                expectEqual(cli.snapshot(), before, "\(arguments)")
            }
        }
    }

    func editChangesValueTimeAndMetadataByPrefixAndUndoTakesItBack() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "weight", "27.2kg", "--at", "07:30", "--meta", "note=scale"]).status, 0)
            let uuid = try #require(try listed(cli, "weight").first?["uuid"] as? String)
            let edit = try cli.run(["edit", String(uuid.prefix(8)), "72.2kg"])
            expectEqual(edit.status, 0, "\(edit.stderr)")
            var samples = try listed(cli, "weight")
            #expect(samples.count == 1 && samples[0]["value"] as? Double == 72.2)
            #expect(samples[0]["uuid"] as? String != uuid)
            expectEqual((samples[0]["start"] as? String)?.contains("07:30"), true, "the time stays")
            expectEqual((samples[0]["metadata"] as? [String: Any])?["note"] as? String, "scale", "the metadata stays")

            let second = try #require(samples[0]["uuid"] as? String)
            try expectEqual(cli.run(["edit", second, "--at", "08:15", "--meta", "note=fixed"]).status, 0)
            samples = try listed(cli, "weight")
            #expect(samples.count == 1 && samples[0]["value"] as? Double == 72.2)
            expectEqual((samples[0]["start"] as? String)?.contains("08:15"), true)
            expectEqual((samples[0]["metadata"] as? [String: Any])?["note"] as? String, "fixed")

            let changes = try cli.run(["changes", "--format", "json"])
            expectEqual(changes.status, 0)
            try expectEqual(cli.run(["undo", "--yes"]).status, 0)
            try expectEqual(cli.run(["undo", "--yes"]).status, 0)
            try expectEqual(values(cli, "weight"), [27.2], "two undos take both edits back")
        }
    }

    func editChangesASleepStageAndRange() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "sleep", "23:10-07:05", "--on", "2024-05-28"]).status, 0)
            let uuid = try #require(try listed(cli, "sleep").first?["uuid"] as? String)
            let stage = try cli.run(["edit", uuid, "--stage", "deep"])
            expectEqual(stage.status, 0, "\(stage.stderr)")
            var sleep = try listed(cli, "sleep")
            #expect(sleep.count == 1 && "\(sleep[0]["value"] ?? "")".lowercased().contains("deep"), "\(sleep)")
            let moved = try cli.run(["edit", try #require(sleep[0]["uuid"] as? String), "23:40-07:05"])
            expectEqual(moved.status, 0, "\(moved.stderr)")
            sleep = try listed(cli, "sleep")
            #expect(sleep.count == 1 && (sleep[0]["start"] as? String)?.hasPrefix("2024-05-27T23:40") == true,
                    "the range stays on its night: \(sleep)")
            #expect("\(sleep[0]["value"] ?? "")".lowercased().contains("deep"), "the stage stays")
        }
    }

    /// An edit of a sleep range gets the warnings `add` gives the same range (a review found it silent), and a range
    /// can be written with the en dash hkctl prints ranges with.
    func editWarnsOfASleepRangeAsAddDoes() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "sleep", "23:10\u{2013}07:05", "--on", "2024-05-25"]).status, 0)
            let uuid = try #require(try listed(cli, "sleep").first?["uuid"] as? String)
            let typo = try cli.run(["edit", uuid, "07:15-07:05"])
            expectEqual(typo.status, 0, "\(typo.stderr)")
            #expect(typo.stderr.contains("Warning: 07:15–07:05 is 23.8 hours of sleep, longer than a night"), "\(typo.stderr)")
            // Not told to write it as 07:05-07:15, which would be ten minutes of daytime.
            #expect(!typo.stderr.contains("write it as"), "\(typo.stderr)")
            let added = try cli.run(["add", "sleep", "07:15-07:05", "--on", "2024-05-20"])
            #expect(added.stderr.contains("longer than a night") && !added.stderr.contains("write it as"), "\(added.stderr)")
            let moved = try #require(try listed(cli, "sleep").first { ($0["start"] as? String)?.hasPrefix("2024-05-24") == true }?["uuid"] as? String)
            let daytime = try cli.run(["edit", moved, "07:00-23:00"])
            #expect(daytime.stderr.contains("during the day; if you meant the night, write it as 23:00-07:00"), "\(daytime.stderr)")
            let edited = try #require(try listed(cli, "sleep").first { ($0["start"] as? String)?.hasPrefix("2024-05-25T07:00") == true }?["uuid"] as? String)
            // Metadata alone: the stored range is not warned of again.
            let noted = try cli.run(["edit", edited, "--meta", "note=nap"])
            #expect(noted.status == 0 && !noted.stderr.contains("Warning"), "\(noted.stderr)")
            let again = try #require(try listed(cli, "sleep").first { ($0["start"] as? String)?.hasPrefix("2024-05-25T07:00") == true }?["uuid"] as? String)
            let plain = try cli.run(["edit", again, "22:50-06:40"])
            #expect(plain.status == 0 && !plain.stderr.contains("Warning"), "\(plain.stderr)")
            // A late morning to past midnight is a reversed night too (the warning a review saw go missing).
            let late = try cli.run(["add", "sleep", "11:00-00:30", "--on", "2024-05-15"])
            #expect(late.stderr.contains("13.5 hours of sleep during the day; if you meant the night, write it as 00:30-11:00"),
                    "\(late.stderr)")
        }
    }

    /// A reversed range of full dates says the end is before the start (a review found it cut at another dash and
    /// blamed an offset), with the store unchanged.
    func aReversedRangeOfDatesSaysTheEndIsBeforeTheStart() throws {
        try CLIRunner.withTemporaryStore { cli in
            let before = cli.snapshot()
            for range in ["2024-05-31T07:00-2024-05-30T23:00", "2024-05-31T07:00 - 2024-05-30T23:00",
                          "2024-05-31T07:00\u{2013}2024-05-30T23:00"] {
                let result = try cli.run(["add", "sleep", range])
                expectEqual(result.status, 65, "\(range): \(result.stderr)")
                #expect(result.stderr.contains("is before the start") && result.stderr.contains("give the earlier time first"),
                        "\(range): \(result.stderr)")
                expectEqual(cli.snapshot(), before)
            }
            // Half a range is a time, not an unknown stage; so is one time with an offset after a space.
            for half in ["23:10-", "-07:05", "23:10\u{2013}", "23:10", "2024-05-30 22:40 -0400"] {
                let result = try cli.run(["add", "sleep", half])
                expectEqual(result.status, 65, "\(half): \(result.stderr)")
                #expect(result.stderr.contains("a range of two times, not '\(half)'") && !result.stderr.contains("Unknown sleep value"),
                        "\(half): \(result.stderr)")
                expectEqual(cli.snapshot(), before)
            }
            // Times west of UTC, as hkctl prints them (`-04:00`): each side is one time.
            for range in ["2024-05-30T22:40-04:00-2024-05-31T06:10-04:00", "2024-05-30T22:40-04:00 - 2024-05-31T06:10-04:00",
                          "2024-05-30T22:40-04:00\u{2013}2024-05-31T06:10-04:00", "2024-05-30T22:40-0400-2024-05-31T06:10-0400",
                          "2024-05-30 22:40 -04:00 - 2024-05-31 06:10 -04:00", "2024-05-30 22:40-04:00-2024-05-31 06:10-04:00",
                          "2024-05-30T22:40-04:00-2024-05-31 06:10-04:00"] {
                let result = try cli.run(["add", "sleep", range, "--format", "json"])
                expectEqual(result.status, 0, "\(range): \(result.stderr)")
                #expect(result.stdout.contains("\"start\":\"2024-05-31T02:40:00+00:00\"") && result.stdout.contains("\"end\":\"2024-05-31T10:10:00+00:00\""),
                        "\(range): \(result.stdout)")
                try expectEqual(cli.run(["undo", "--yes"]).status, 0)
            }
            // A date, a time and a bare end time is a night (as before): `-23:30` or `-07:00` is its end, not an offset.
            for (range, end) in [("2024-05-30T22:40-23:30", "2024-05-30T23:30:00+00:00"), ("2024-05-30T22:40-07:00", "2024-05-31T07:00:00+00:00"),
                                 ("2024-05-28 22:00-05:30", "2024-05-29T05:30:00+00:00")] {
                let result = try cli.run(["add", "sleep", range, "--format", "json"])
                expectEqual(result.status, 0, "\(range): \(result.stderr)")
                #expect(result.stdout.contains("\"end\":\"\(end)\""), "\(range): \(result.stdout)")
                try expectEqual(cli.run(["undo", "--yes"]).status, 0)
            }
        }
    }

    /// A corrected member of a blood pressure reading is named by the reading (an older build left it naming the
    /// replaced sample: the reading listed as -/80).
    func editingAReadingsMemberKeepsTheReadingWhole() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "blood-pressure", "120/80", "--at", "08:00"]).status, 0)
            let systolic = try #require(try listed(cli, "HKQuantityTypeIdentifierBloodPressureSystolic").first?["uuid"] as? String)
            let edited = try cli.run(["edit", systolic, "118mmHg"])
            expectEqual(edited.status, 0, "\(edited.stderr)")
            let readings = try listed(cli, "blood-pressure")
            expectEqual(readings.map { "\($0["systolic"] ?? "-")/\($0["diastolic"] ?? "-")" }, ["118/80"])
            // Moved outside the reading's time: refused, one line naming the reading, nothing changed.
            let corrected = try #require(try listed(cli, "HKQuantityTypeIdentifierBloodPressureSystolic").first?["uuid"] as? String)
            let before = cli.snapshot()
            let moved = try cli.run(["edit", corrected, "--at", "09:00"])
            expectEqual(moved.status, 65, "\(moved.stderr)")
            #expect(moved.stderr.hasPrefix("Error: ") && moved.stderr.contains("blood-pressure correlation")
                    && moved.stderr.split(separator: "\n").count == 1, "\(moved.stderr)")
            expectEqual(cli.snapshot(), before)
            // Undone: the reading as it was.
            try expectEqual(cli.run(["undo", "--yes"]).status, 0)
            expectEqual(try listed(cli, "blood-pressure").map { "\($0["systolic"] ?? "-")/\($0["diastolic"] ?? "-")" }, ["120/80"])
        }
    }

    /// A food entry with sync keys of its own, in two exports (the app changed it from 300 to 350 kcal between them):
    /// whichever is imported first, the store holds the later version once, and the day's energy is 350 kcal, not 650.
    func aFoodEntrysTwoVersionsFromTwoExportsLeaveTheLaterOnce() throws {
        func export(_ version: Int, kcal: Int) -> String {
            let record = """
              <Record type="HKQuantityTypeIdentifierDietaryEnergyConsumed" sourceName="MyFitnessPal" unit="kcal" \
            creationDate="2024-03-12 21:05:00 +0000" startDate="2024-03-12 12:00:00 +0000" endDate="2024-03-12 12:00:00 +0000" value="\(kcal)"/>
            """
            return """
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
            \(record)
             <Correlation type="HKCorrelationTypeIdentifierFood" sourceName="MyFitnessPal" creationDate="2024-03-12 21:05:00 +0000" \
            startDate="2024-03-12 12:00:00 +0000" endDate="2024-03-12 12:00:00 +0000">
              <MetadataEntry key="HKFoodType" value="Lunch"/>
              <MetadataEntry key="HKMetadataKeySyncIdentifier" value="lunch-1"/>
              <MetadataEntry key="HKMetadataKeySyncVersion" value="\(version)"/>
            \(record)
             </Correlation>
            </HealthData>

            """
        }
        for newerFirst in [false, true] {
            try CLIRunner.withTemporaryStore { cli in
                let folder = (cli.storePath as NSString).deletingLastPathComponent
                let older = folder + "/older.xml", newer = folder + "/newer.xml"
                try export(1, kcal: 300).write(toFile: older, atomically: true, encoding: .utf8)
                try export(2, kcal: 350).write(toFile: newer, atomically: true, encoding: .utf8)
                for file in newerFirst ? [newer, older] : [older, newer] {
                    let imported = try cli.run(["import", file])
                    expectEqual(imported.status, 0, "\(imported.stderr)")
                }
                let energy = try listed(cli, "dietary-energy")
                expectEqual(energy.compactMap { $0["value"] as? Double }, [350], "newer first: \(newerFirst)")
                let entries = try listed(cli, "food")
                expectEqual(entries.count, 1, "newer first: \(newerFirst): \(entries)")
                let total = try cli.run(["stats", "dietary-energy", "--from", "2024-03-12", "--to", "2024-03-12", "--format", "csv"])
                #expect(total.stdout.contains("350") && !total.stdout.contains("650"), "\(total.stdout)")
                // Undoing the later import: the older one added and took out its record in one operation, so its undo
                // changes nothing and says so; the newer one's undo brings back its predecessor.
                let undo = try cli.run(["undo", "--yes"])
                expectEqual(undo.status, 0, "\(undo.stderr)")
                if newerFirst {
                    #expect(undo.stdout.contains("1 it saved and took out again stays out"), "\(undo.stdout)")
                    expectEqual(try listed(cli, "dietary-energy").compactMap { $0["value"] as? Double }, [350])
                } else {
                    expectEqual(try listed(cli, "dietary-energy").compactMap { $0["value"] as? Double }, [300])
                }
                expectEqual(try listed(cli, "food").count, 1)
            }
        }
    }

    func badEditsLeaveTheStoreByteForByteUnchanged() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "weight", "72kg", "--at", "07:30"]).status, 0)
            try expectEqual(cli.run(["add", "blood-pressure", "120/80"]).status, 0)
            let uuid = try #require(try listed(cli, "weight").first?["uuid"] as? String)
            let pressure = try cli.run(["list", "blood-pressure", "--format", "json", "--from", "2020-01-01"])
            let reading = try #require((try JSONSerialization.jsonObject(with: Data(pressure.stdout.utf8)) as? [[String: Any]])?
                .first?["uuid"] as? String, "\(pressure.stdout)")
            let before = cli.snapshot()
            let cases: [([String], Int32)] = [
                (["edit"], 64),
                (["edit", uuid], 64),
                (["edit", uuid, "72"], 65),
                (["edit", uuid, "900kg"], 65),
                (["edit", uuid, "--at", "2030-01-01"], 65),
                (["edit", uuid, "--stage", "deep"], 64),
                (["edit", "00000000", "1kg"], 66),
                (["edit", "zzzz", "1kg"], 64),
                (["edit", UUID().uuidString, "70kg"], 66),
                (["edit", uuid, "70kg", "--source", "other-app"], 66),
                (["edit", reading, "--meta", "note=x"], 64),
                // Nothing would change (a review found these replaced the sample under a new uuid): refused.
                (["edit", uuid, "72kg"], 64),
                (["edit", uuid, "72", "kg"], 64),
                (["edit", uuid, "--at", "07:30"], 64),
                (["edit", uuid, "72kg", "--at", "07:30"], 64),
                // The same amount in another unit is the same value (it replaced the sample before session 40).
                (["edit", uuid, "72000g"], 64),
                (["edit", uuid, "72000000mg"], 64),
            ]
            for (arguments, status) in cases {
                let result = try cli.run(arguments)
                expectEqual(result.status, status, "\(arguments): \(result.status) \(result.stderr)")
                // One error line (a usage error adds the usage and the help hint, as every command's does).
                #expect(result.stderr.hasPrefix("Error: ") && [1, result.status == 64 ? 3 : 1].contains(result.stderr.split(separator: "\n").count),
                        "\(arguments): \(result.stderr)")
                expectEqual(cli.snapshot(), before, "\(arguments)")
            }
        }
    }
}

/// Issue 30 §1: `hkctl import` follows HealthKit's sync-version rule, through the binary.
struct ImportSyncVersionCLITests {
    private static func export(_ versions: [(value: Int, version: Int)], id: String? = "walk-1") -> String {
        let records = versions.map { entry in
            """
             <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Pedometer" unit="count" creationDate="2024-05-01 08:10:00 +0000" \
            startDate="2024-05-01 08:00:00 +0000" endDate="2024-05-01 08:10:00 +0000" value="\(entry.value)">
            \(id.map { "  <MetadataEntry key=\"HKMetadataKeySyncIdentifier\" value=\"\($0)\"/>\n" } ?? "")\
              <MetadataEntry key="HKMetadataKeySyncVersion" value="\(entry.version)"/>
             </Record>
            """
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
            + records.joined(separator: "\n") + "\n</HealthData>\n"
    }

    private func values(_ cli: CLIRunner) throws -> [Double] {
        let result = try cli.run(["list", "steps", "--format", "json", "--from", "2020-01-01"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        return rows.compactMap { $0["value"] as? Double }.sorted()
    }

    @Test func aNewerVersionInALaterExportReplacesTheOlderOneVisiblyAndUndoably() throws {
        try CLIRunner.withTemporaryStore { cli in
            let folder = (cli.storePath as NSString).deletingLastPathComponent
            let both = folder + "/both.xml", newer = folder + "/newer.xml", bad = folder + "/bad.xml"
            try Self.export([(100, 2), (50, 1)]).write(toFile: both, atomically: true, encoding: .utf8)
            try Self.export([(300, 3)]).write(toFile: newer, atomically: true, encoding: .utf8)
            try Self.export([(7, 1)], id: nil).write(toFile: bad, atomically: true, encoding: .utf8)

            let first = try cli.run(["import", both, "--format", "json"])
            expectEqual(first.status, 0, "\(first.stderr)")
            #expect(first.stdout.contains("\"totals\":{\"added\":1,\"alreadyPresent\":1,\"keptGenerically\":0,\"rejected\":0,\"replaced\":0,\"covered\":0,\"sentAgain\":0}"),
                    "\(first.stdout)")
            try expectEqual(values(cli), [100])
            let anchor = try #require(try JSONSerialization.jsonObject(with: Data(try cli.run(["changes", "--format", "json"]).stdout.utf8))
                as? [String: Any])["anchor"] as? String

            let second = try cli.run(["import", newer])
            expectEqual(second.status, 0, "\(second.stderr)")
            #expect(second.stdout.contains("REPLACED"), "\(second.stdout)")
            try expectEqual(values(cli), [300])
            let changes = try cli.run(["changes", "--since", try #require(anchor), "--format", "json"])
            let page = try #require(try JSONSerialization.jsonObject(with: Data(changes.stdout.utf8)) as? [String: Any])
            #expect((page["deleted"] as? [Any])?.count == 1 && (page["added"] as? [Any])?.count == 1, "\(changes.stdout)")

            let undo = try cli.run(["undo", "--yes"])
            expectEqual(undo.status, 0, "\(undo.stderr)")
            try expectEqual(values(cli), [100], "undo brings the replaced version back")

            let before = cli.snapshot()
            let refused = try cli.run(["import", bad])
            expectEqual(refused.status, 65)
            #expect(refused.stderr.contains("HKMetadataKeySyncVersion is given without HKMetadataKeySyncIdentifier"), "\(refused.stderr)")
            expectEqual(cli.snapshot(), before)
        }
    }
}

/// The checks ``SyncAndEditCLITests/checks(_:)`` runs.
private let syncAndEditCLITestsChecks: [Check<SyncAndEditCLITests>] = [
    Check("editingAReadingsMemberKeepsTheReadingWhole", SyncAndEditCLITests.editingAReadingsMemberKeepsTheReadingWhole),
    Check("aCronLineRunTwiceStoresOneSampleAndAHigherVersionReplacesIt",
          SyncAndEditCLITests.aCronLineRunTwiceStoresOneSampleAndAHigherVersionReplacesIt),
    Check("badSyncOptionsAreRefusedAndChangeNothing", SyncAndEditCLITests.badSyncOptionsAreRefusedAndChangeNothing),
    Check("editChangesValueTimeAndMetadataByPrefixAndUndoTakesItBack",
          SyncAndEditCLITests.editChangesValueTimeAndMetadataByPrefixAndUndoTakesItBack),
    Check("editChangesASleepStageAndRange", SyncAndEditCLITests.editChangesASleepStageAndRange),
    Check("badEditsLeaveTheStoreByteForByteUnchanged", SyncAndEditCLITests.badEditsLeaveTheStoreByteForByteUnchanged),
    Check("aFoodEntrysTwoVersionsFromTwoExportsLeaveTheLaterOnce", SyncAndEditCLITests.aFoodEntrysTwoVersionsFromTwoExportsLeaveTheLaterOnce),
    Check("editWarnsOfASleepRangeAsAddDoes", SyncAndEditCLITests.editWarnsOfASleepRangeAsAddDoes),
    Check("aReversedRangeOfDatesSaysTheEndIsBeforeTheStart", SyncAndEditCLITests.aReversedRangeOfDatesSaysTheEndIsBeforeTheStart),
]
