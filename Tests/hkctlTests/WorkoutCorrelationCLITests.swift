import Foundation
import Testing
import TestKit

/// `hkctl add/list/stats` for workouts, blood pressure and food, run as the built binary (now is 2024-06-01T12:00Z).
struct WorkoutCorrelationCLITests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: workoutCorrelationCLITestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not a JSON object: \(text)")
    }

    private func array(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]], "not a JSON array: \(text)")
    }

    func workoutIsAddedListedAndSummarised() throws {
        try CLIRunner.withTemporaryStore { cli in
            let added = try cli.run(["add", "workout", "running", "45min", "--at", "07:00", "--energy", "420kcal", "--distance", "7.2km",
                                     "--format", "json"])
            expectEqual(added.status, 0, "\(added.stderr)")
            let workout = try object(added.stdout)
            expectEqual(workout["activity"] as? String, "running")
            expectEqual(workout["activityType"] as? Int, 37)
            expectEqual(workout["duration"] as? Double, 2700)
            expectEqual(workout["pace"] as? Double, 375)
            try expectEqual(cli.run(["add", "workout", "strength", "1h", "--at", "2024-05-28T18:00", "--indoor"]).status, 0)
            try expectEqual(cli.run(["add", "heart-rate", "150bpm", "--at", "07:30"]).status, 0)
            let listed = try array(try cli.run(["list", "workouts", "--format", "json"]).stdout)
            expectEqual(listed.map { $0["activity"] as? String }, ["running", "traditionalStrengthTraining"])
            expectEqual(listed[0]["averageHeartRate"] as? Double, 150)
            expectEqual((listed[1]["metadata"] as? [String: Any])?["HKIndoorWorkout"] as? Double, 1)
            let running = try array(try cli.run(["list", "workouts", "--activity", "run", "--format", "json"]).stdout)
            expectEqual(running.count, 1)
            let stats = try object(try cli.run(["stats", "workouts", "--week", "--by", "week", "--format", "json"]).stdout)
            expectEqual(stats["count"] as? Int, 2)
            expectEqual(stats["totalDuration"] as? Double, 6300)
            expectEqual(stats["energy"] as? Double, 420)
            expectEqual(stats["distance"] as? Double, 7200)
            // --week is Sunday 26 May to Saturday 1 June; weeks start on Monday, so both fall in the second bucket.
            expectEqual((stats["buckets"] as? [[String: Any]])?.map { $0["count"] as? Int }, [0, 2])
            let table = try cli.run(["stats", "workouts", "--month", "--activity", "running"])
            #expect(table.stdout.contains("6:15 /km"))
        }
    }

    /// An iOS 16+ export keeps a workout's totals in `WorkoutStatistics` (for the workout and again for each of its
    /// activities): `list workouts --format json` gives the totals from them, as CSV does, and each type's figures
    /// once (a review: JSON said null where CSV said 351.2 kcal, and listed the swim's 1,500 m twice).
    func aModernExportsWorkoutHasItsTotalsInJSON() throws {
        try CLIRunner.withTemporaryStore { cli in
            let folder = (cli.storePath as NSString).deletingLastPathComponent
            let stat = { (type: String, sum: String, unit: String) in
                "  <WorkoutStatistics type=\"HKQuantityTypeIdentifier\(type)\" startDate=\"2024-05-13 07:00:00 -0700\" "
                    + "endDate=\"2024-05-13 07:41:00 -0700\" sum=\"\(sum)\" unit=\"\(unit)\"/>\n"
            }
            let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
                + " <Workout workoutActivityType=\"HKWorkoutActivityTypeSwimming\" duration=\"40\" durationUnit=\"min\" sourceName=\"Watch\" "
                + "creationDate=\"2024-05-13 07:41:00 -0700\" startDate=\"2024-05-13 07:00:00 -0700\" endDate=\"2024-05-13 07:41:00 -0700\">\n"
                + "  <WorkoutActivity uuid=\"0A1B2C3D-1111-4222-8333-444455556666\" startDate=\"2024-05-13 07:00:00 -0700\" "
                + "endDate=\"2024-05-13 07:41:00 -0700\" duration=\"40\" durationUnit=\"min\">\n" + stat("DistanceSwimming", "1500", "m")
                + "  </WorkoutActivity>\n" + stat("DistanceSwimming", "1500", "m") + stat("ActiveEnergyBurned", "300", "Cal")
                + " </Workout>\n</HealthData>\n"
            try xml.write(toFile: folder + "/swim.xml", atomically: true, encoding: .utf8)
            let imported = try cli.run(["import", folder + "/swim.xml"])
            expectEqual(imported.status, 0, "\(imported.stderr)")
            let listed = try array(try cli.run(["list", "workouts", "--from", "2024-05-13", "--to", "2024-05-13", "--format", "json"]).stdout)
            let swim = try #require(listed.first)
            let energy = swim["totalEnergyBurned"] as? [String: Any], distance = swim["totalDistance"] as? [String: Any]
            expectEqual(energy?["value"] as? Double, 300)
            expectEqual(energy?["unit"] as? String, "kcal")
            expectEqual(distance?["value"] as? Double, 1500)
            expectEqual(distance?["unit"] as? String, "m")
            let statistics = try #require(swim["statistics"] as? [[String: Any]])
            expectEqual(statistics.compactMap { $0["type"] as? String }.sorted(),
                        ["HKQuantityTypeIdentifierActiveEnergyBurned", "HKQuantityTypeIdentifierDistanceSwimming"])
        }
    }

    func badWorkoutsAreRefusedAndChangeNothing() throws {
        try CLIRunner.withTemporaryStore { cli in
            try cli.run(["add", "water", "1L"])
            let before = cli.snapshot()
            let cases: [([String], Int32, String)] = [
                (["add", "workout", "running", "5min", "--distance", "5kg"], 65, "does not measure distance"),
                (["add", "workout", "runing", "5min"], 64, "did you mean 'running'"),
                (["add", "workout", "running", "5kg"], 65, "not a duration"),
                (["add", "workout", "running"], 64, "Missing expected argument '<duration>'"),
                (["add", "workout", "running", "2h", "--at", "11:00"], 65, "after now"),
                (["add", "water", "1L", "--energy", "5kcal"], 64, "--energy is for workouts and food"),
                (["add", "blood-pressure", "120/"], 65, "not a reading"),
                (["add", "blood-pressure", "80/120"], 65, "write the higher number first"),
                (["add", "blood-pressure", "120/80kg"], 65, "does not measure"),
                (["add", "food", "Toast"], 65, "has no amounts"),
                (["add", "food", "Toast", "--nutrient", "weight=1kg"], 65, "not a nutrient"),
                (["stats", "food"], 64, "dietary-energy"),
            ]
            for (arguments, status, message) in cases {
                let result = try cli.run(arguments)
                expectEqual(result.status, status, "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
                expectEqual(result.stderr.split(separator: "\n").first?.hasPrefix("Error: "), true)
            }
            expectEqual(cli.snapshot(), before)
        }
    }

    func bloodPressureIsOneReadingOfTwoSamples() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "blood-pressure", "120/80", "--at", "08:00"]).status, 0)
            let kilopascals = try object(try cli.run(["add", "blood-pressure", "16/10.7kPa", "--at", "09:00", "--format", "json"]).stdout)
            expectEqual(kilopascals["systolic"] as? Double, 120.01)
            expectEqual(kilopascals["unit"] as? String, "mmHg")
            expectEqual((kilopascals["members"] as? [Any])?.count, 2)
            let listed = try array(try cli.run(["list", "blood-pressure", "--format", "json"]).stdout)
            expectEqual(listed.map { $0["diastolic"] as? Double }, [80.26, 80])
            let stats = try object(try cli.run(["stats", "blood-pressure", "--month", "--format", "json"]).stdout)
            expectEqual(stats["count"] as? Int, 2)
            expectEqual((stats["systolic"] as? [String: Any])?["maximum"] as? Double, 120.01)
            expectEqual((stats["diastolic"] as? [String: Any])?["minimum"] as? Double, 80)
            // Members are ordinary samples, seen once by their own type.
            let systolic = try object(try cli.run(["stats", "systolic", "--today", "--format", "json"]).stdout)
            expectEqual(systolic["count"] as? Int, 2)
            // Deleting the reading deletes both members.
            let uuid = try #require(listed.first?["uuid"] as? String)
            let deleted = try array(try cli.run(["delete", uuid, "--format", "json"]).stdout)
            expectEqual(deleted.count, 3)
            try expectEqual(array(try cli.run(["list", "systolic", "--format", "json"]).stdout).count, 1)
            try expectEqual(array(try cli.run(["list", "blood-pressure", "--format", "json"]).stdout).count, 1)
            let changes = try object(try cli.run(["changes", "--type", "blood-pressure", "--format", "json"]).stdout)
            expectEqual((changes["added"] as? [[String: Any]])?.first?["type"] as? String, "HKCorrelationTypeIdentifierBloodPressure")
            expectEqual((changes["deleted"] as? [Any])?.count, 1)
        }
    }

    /// One member of a reading deleted alone (`hkctl delete <systolic uuid>`) and the delete undone: the reading
    /// names the restored copy and shows its value again.
    func aReadingsMemberDeletedAloneComesBackToItWithUndo() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "blood-pressure", "120/80", "--at", "08:00"]).status, 0)
            let systolic = try #require(try array(try cli.run(["list", "systolic", "--format", "json"]).stdout).first?["uuid"] as? String)
            try expectEqual(cli.run(["delete", systolic]).status, 0)
            let half = try array(try cli.run(["list", "blood-pressure", "--format", "json"]).stdout)
            #expect(half.first?["systolic"] is NSNull, "the reading without its systolic: \(half)")
            let planned = try object(try cli.run(["undo", "--dry-run", "--format", "json"]).stdout)
            expectEqual((planned["rewritten"] as? [String: Int])?["HKCorrelationTypeIdentifierBloodPressure"], 1)
            let undone = try cli.run(["undo", "--yes"])
            expectEqual(undone.status, 0, "\(undone.stderr)")
            #expect(undone.stdout.contains("rewrites 1 blood-pressure entry that names a restored sample to name its copy"), "\(undone.stdout)")
            let whole = try array(try cli.run(["list", "blood-pressure", "--format", "json"]).stdout)
            expectEqual(whole.count, 1)
            expectEqual(whole.first?["systolic"] as? Double, 120)
            expectEqual(whole.first?["diastolic"] as? Double, 80)
            let copy = try #require(try array(try cli.run(["list", "systolic", "--format", "json"]).stdout).first?["uuid"] as? String)
            #expect(copy != systolic, "the restored systolic has a uuid of its own")
            let members = (whole.first?["members"] as? [[String: Any]])?.compactMap { $0["uuid"] as? String }
            #expect(members?.contains(copy) == true, "the reading names the copy: \(members ?? [])")
        }
    }

    func foodEntriesAreCountedByDietaryEnergy() throws {
        try CLIRunner.withTemporaryStore { cli in
            let oatmeal = try cli.run(["add", "food", "Oatmeal", "--energy", "350kcal", "--protein", "12g", "--carbs", "60g", "--fat", "7g",
                                       "--caffeine", "0mg", "--at", "08:00", "--format", "json"])
            expectEqual(oatmeal.status, 0, "\(oatmeal.stderr)")
            let entry = try object(oatmeal.stdout)
            expectEqual(entry["food"] as? String, "Oatmeal")
            expectEqual((entry["nutrients"] as? [[String: Any]])?.map { $0["name"] as? String }, ["dietary-energy", "protein", "carbs", "fat", "caffeine"])
            try expectEqual(cli.run(["add", "food", "Toast", "--energy", "200kcal", "--at", "yesterday 19:00"]).status, 0)
            let listed = try cli.run(["list", "food"])
            #expect(listed.stdout.contains("Oatmeal") && listed.stdout.contains("Toast"))
            let stats = try object(try cli.run(["stats", "dietary-energy", "--week", "--by", "day", "--format", "json"]).stdout)
            expectEqual(stats["count"] as? Int, 2)
            expectEqual(stats["sum"] as? Double, 550)
            expectEqual((stats["buckets"] as? [[String: Any]])?.suffix(2).map { $0["count"] as? Int }, [1, 1])
        }
    }

    func typesWorkoutsListsEveryActivity() throws {
        try CLIRunner.withTemporaryStore { cli in
            let types = try array(try cli.run(["types", "workouts", "--format", "json"]).stdout)
            expectEqual(types.count, 84)
            let strength = try #require(types.first { $0["name"] as? String == "traditionalStrengthTraining" })
            expectEqual(strength["rawValue"] as? Int, 50)
            expectEqual((strength["shortForms"] as? [String])?.contains("strength"), true)
        }
    }

    func aSourceNeedsTheWorkoutTypeAndTheMemberTypes() throws {
        try CLIRunner.withTemporaryStore { cli in
            let denied = try cli.run(["add", "workout", "running", "10min"], environment: ["HKCTL_SOURCE": "tracker"])
            expectEqual(denied.status, 77)
            #expect(denied.stderr.contains("--share workout"))
            let refused = try cli.run(["auth", "grant", "tracker", "--share", "blood-pressure"])
            expectEqual(refused.status, 64)
            #expect(refused.stderr.contains("systolic,diastolic"))
            try expectEqual(cli.run(["auth", "grant", "tracker", "--share", "workout,systolic,diastolic"]).status, 0)
            try expectEqual(cli.run(["add", "workout", "running", "10min"], environment: ["HKCTL_SOURCE": "tracker"]).status, 0)
            try expectEqual(cli.run(["add", "blood-pressure", "120/80"], environment: ["HKCTL_SOURCE": "tracker"]).status, 0)
        }
    }

    func workoutsRoundTripThroughJSONLinesAndHealthXML() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "workout", "cycling", "1h", "--at", "08:00", "--energy", "600kcal", "--distance", "30km"]).status, 0)
            try expectEqual(cli.run(["add", "blood-pressure", "120/80", "--at", "07:00"]).status, 0)
            let folder = (cli.storePath as NSString).deletingLastPathComponent
            for format in ["jsonl", "healthxml"] {
                let file = folder + "/export.\(format)"
                try expectEqual(cli.run(["export", "--format", format, "--out", file]).status, 0)
                let again = try cli.run(["import", file, "--format", "json"])
                expectEqual(again.status, 0, "\(again.stderr)")
                let totals = try #require(try object(again.stdout)["totals"] as? [String: Any])
                #expect(totals["added"] as? Int == 0 && totals["keptGenerically"] as? Int == 0, "\(format): \(again.stdout)")
                let other = CLIRunner(storePath: folder + "/other-\(format)")
                try expectEqual(other.run(["import", file]).status, 0)
                let workouts = try array(try other.run(["list", "workouts", "--format", "json"]).stdout)
                expectEqual(workouts.map { $0["activity"] as? String }, ["cycling"])
                expectEqual(workouts.first?["pace"] as? Double, 120)
            }
            for format in ["jsonl", "healthxml"] {
                let other = CLIRunner(storePath: folder + "/other-\(format)")
                let readings = try array(try other.run(["list", "blood-pressure", "--format", "json"]).stdout)
                expectEqual(readings.map { $0["systolic"] as? Double }, [120], "\(format)")
            }
        }
    }
}

/// The checks ``WorkoutCorrelationCLITests/checks(_:)`` runs.
private let workoutCorrelationCLITestsChecks: [Check<WorkoutCorrelationCLITests>] = [
    Check("workoutIsAddedListedAndSummarised", WorkoutCorrelationCLITests.workoutIsAddedListedAndSummarised),
    Check("badWorkoutsAreRefusedAndChangeNothing", WorkoutCorrelationCLITests.badWorkoutsAreRefusedAndChangeNothing),
    Check("bloodPressureIsOneReadingOfTwoSamples", WorkoutCorrelationCLITests.bloodPressureIsOneReadingOfTwoSamples),
    Check("aReadingsMemberDeletedAloneComesBackToItWithUndo", WorkoutCorrelationCLITests.aReadingsMemberDeletedAloneComesBackToItWithUndo),
    Check("foodEntriesAreCountedByDietaryEnergy", WorkoutCorrelationCLITests.foodEntriesAreCountedByDietaryEnergy),
    Check("typesWorkoutsListsEveryActivity", WorkoutCorrelationCLITests.typesWorkoutsListsEveryActivity),
    Check("aModernExportsWorkoutHasItsTotalsInJSON", WorkoutCorrelationCLITests.aModernExportsWorkoutHasItsTotalsInJSON),
    Check("aSourceNeedsTheWorkoutTypeAndTheMemberTypes",
          WorkoutCorrelationCLITests.aSourceNeedsTheWorkoutTypeAndTheMemberTypes),
    Check("workoutsRoundTripThroughJSONLinesAndHealthXML",
          WorkoutCorrelationCLITests.workoutsRoundTripThroughJSONLinesAndHealthXML),
]
