import Foundation
import Testing
import TestKit

/// `hkctl add mood` and `hkctl list mood` (HealthKit's state of mind) through the built binary, and a workout's
/// export children kept through an import and a Health XML export.
struct MoodCLITests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: moodCLITestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    static func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    func addListExportAndRestoreMoods() throws {
        try CLIRunner.withTemporaryStore { cli in
            let added = try cli.run(["add", "mood", "pleasant", "--labels", "calm,grateful", "--about", "work",
                                     "--at", "2024-05-20T20:00:00Z", "--format", "json"])
            expectEqual(added.status, 0, "\(added.stderr)")
            let object = try #require(try Self.json(added.stdout) as? [String: Any])
            // `pleasant` is the middle of HealthKit's band of that name: 4/7.
            #expect(abs(((object["valence"] as? NSNumber)?.doubleValue ?? 0) - 4.0 / 7) < 1e-12)
            #expect(object["valenceClassification"] as? String == "pleasant" && object["kind"] as? String == "momentaryEmotion")
            #expect(object["labels"] as? [String] == ["calm", "grateful"] && object["associations"] as? [String] == ["work"])
            expectEqual(object["type"] as? String, "HKDataTypeStateOfMind")
            let daily = try cli.run(["add", "mood", "-0.9", "--kind", "daily", "--about", "self-care", "--at", "2024-05-21T20:00:00Z", "-q"])
            expectEqual(daily.status, 0, "\(daily.stderr)")

            // A word that is no valence: one line, exit 64, the store unchanged.
            let before = cli.snapshot()
            let bad = try cli.run(["add", "mood", "glad", "--at", "2024-05-22T20:00:00Z"])
            expectEqual(bad.status, 64)
            #expect(bad.stderr.hasPrefix("Error: 'glad' is not a mood; give one of very-unpleasant,"), "\(bad.stderr)")
            expectEqual(cli.snapshot(), before)
            // A mood dated after now (the tests' now is 2024-06-01 12:00 UTC): refused as `add` refuses any such entry.
            let later = try cli.run(["add", "mood", "pleasant", "--at", "2024-06-02T20:00:00Z"])
            #expect(later.status == 65 && later.stderr.split(separator: "\n").count == 1, "\(later.stderr)")
            expectEqual(cli.snapshot(), before)
            let stats = try cli.run(["stats", "mood"])
            #expect(stats.status == 64 && stats.stderr.hasPrefix("Error: stats does not summarise moods;"), "\(stats.stderr)")

            let listed = try cli.run(["list", "mood", "--format", "csv"])
            expectEqual(listed.status, 0, "\(listed.stderr)")
            let rows = listed.stdout.split(separator: "\n").map(String.init)
            expectEqual(rows.first, "uuid,start,end,kind,valence,valence_classification,labels,associations,source,metadata")
            // Newest first: the daily mood, then the pleasant moment.
            #expect(rows.count == 3 && rows[1].contains(",dailyMood,-0.9,veryUnpleasant,,selfCare,hkctl,"))
            #expect(rows[2].contains(",momentaryEmotion,") && rows[2].contains(",pleasant,calm;grateful,work,hkctl,"))

            // A jsonl backup restores both into another store, whole.
            let backup = cli.storePath + "-backup.jsonl"
            let exported = try cli.run(["export", "--format", "jsonl", "--out", backup])
            expectEqual(exported.status, 0, "\(exported.stderr)")
            let other = CLIRunner(storePath: cli.storePath + "-restored")
            let restored = try other.run(["import", backup, "-q"])
            expectEqual(restored.status, 0, "\(restored.stderr)")
            let again = try other.run(["list", "mood", "--format", "csv"])
            expectEqual(again.stdout, listed.stdout)
        }
    }

    /// Health Auto Export's `stateOfMind` array (Tests/Fixtures/hae-mood) imported as moods, a re-send adding nothing, and
    /// the moods surviving a Health XML export imported into another store.
    func healthAutoExportMoodsAreTypedAndSurviveAHealthXMLExport() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/hae-mood").path
        try CLIRunner.withTemporaryStore { cli in
            let first = try cli.run(["import", fixtures + "/moods.json"])
            expectEqual(first.status, 65, "five elements are refused")
            #expect(first.stderr.contains("HKDataTypeStateOfMind: the mood at 2024-02-07T18:00:00+00:00 has 'valence' 1.5, outside -1...1"),
                    "\(first.stderr)")
            let again = try cli.run(["import", fixtures + "/moods.json", "--format", "json"])
            let totals = try #require((try Self.json(again.stdout) as? [String: Any])?["totals"] as? [String: Any])
            #expect((totals["added"] as? NSNumber)?.intValue == 0 && (totals["alreadyPresent"] as? NSNumber)?.intValue == 3, "\(again.stdout)")

            let listed = try cli.run(["list", "mood", "--format", "csv"])
            expectEqual(listed.status, 0, "\(listed.stderr)")
            let rows = listed.stdout.split(separator: "\n").map(String.init)
            expectEqual(rows.count, 4)
            #expect(rows.contains { $0.contains(",dailyMood,0.7,pleasant,calm,work,Health Auto Export,") }, "\(rows)")
            #expect(rows.contains { $0.contains(",momentaryEmotion,-0.45,unpleasant,anxious;stressed,selfCare;currentEvents,") })

            // A Health XML export carries them whole: imported into another store, the same moods (new uuids).
            let xml = cli.storePath + "-moods.xml"
            let exported = try cli.run(["export", "--format", "healthxml", "--out", xml])
            expectEqual(exported.status, 0, "\(exported.stderr)")
            let other = CLIRunner(storePath: cli.storePath + "-restored")
            let restored = try other.run(["import", xml, "-q"])
            expectEqual(restored.status, 0, "\(restored.stderr)")
            let copy = try other.run(["list", "mood", "--format", "csv"])
            func withoutUUIDs(_ text: String) -> [String] { text.split(separator: "\n").map { String($0.drop { $0 != "," }) } }
            expectEqual(withoutUUIDs(copy.stdout), withoutUUIDs(listed.stdout))
        }
    }

    func aWorkoutsExportChildrenSurviveImportAndHealthXMLExport() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/import/workout-children.xml").path
        try CLIRunner.withTemporaryStore { cli in
            let imported = try cli.run(["import", fixture, "-q"])
            expectEqual(imported.status, 0, "\(imported.stderr)")
            let exported = try cli.run(["export", "--format", "healthxml"])
            expectEqual(exported.status, 0, "\(exported.stderr)")
            let xml = exported.stdout
            // The statistics, events, parts and the route reference come back as the export wrote them.
            #expect(xml.contains("workoutActivityType=\"HKWorkoutActivityTypeSwimBikeRun\""))
            expectEqual(xml.components(separatedBy: "<WorkoutStatistics ").count - 1, 4)
            expectEqual(xml.components(separatedBy: "<WorkoutEvent ").count - 1, 4)
            expectEqual(xml.components(separatedBy: "<WorkoutActivity ").count - 1, 2)
            #expect(xml.contains("<FileReference path=\"/workout-routes/route_2024-05-03_9.00am.gpx\"/>"))
            #expect(xml.contains("average=\"142\"") && xml.contains("sum=\"1500\""))
            // The route the export's GPX file holds (Tests/Fixtures/import/workout-routes) is the workout's, and exports.
            let listed = try cli.run(["list", "workouts", "--format", "json"])
            let workout = try #require((try Self.json(listed.stdout) as? [[String: Any]])?.first)
            expectEqual(((workout["route"] as? [String: Any])?["locations"] as? NSNumber)?.intValue, 3)
            let uuid = try #require(workout["uuid"] as? String)
            let gpx = try cli.run(["export", "--format", "gpx", "--workout", uuid])
            expectEqual(gpx.status, 0, "\(gpx.stderr)")
            expectEqual(gpx.stdout.components(separatedBy: "<trkpt ").count - 1, 3)
            #expect(gpx.stdout.contains("<trkpt lat=\"51.5077\" lon=\"-0.1254\"><ele>12</ele><time>2024-05-03T08:25:20Z</time></trkpt>"))
        }
    }
}

/// The checks ``MoodCLITests/checks(_:)`` runs.
private let moodCLITestsChecks: [Check<MoodCLITests>] = [
    Check("addListExportAndRestoreMoods", MoodCLITests.addListExportAndRestoreMoods),
    Check("healthAutoExportMoodsAreTypedAndSurviveAHealthXMLExport",
          MoodCLITests.healthAutoExportMoodsAreTypedAndSurviveAHealthXMLExport),
    Check("aWorkoutsExportChildrenSurviveImportAndHealthXMLExport",
          MoodCLITests.aWorkoutsExportChildrenSurviveImportAndHealthXMLExport),
]
