import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

extension ImportTests {
    /// Health Auto Export workouts (Tests/Fixtures/hae-workouts, figures in its README) become typed workouts with
    /// their totals, statistics, metadata and route; on an in-memory store.
    struct HAEWorkoutTests {
        /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
        /// build a tenth of a `@Test` apiece (README.md, "Development").
        @Test(arguments: hAEWorkoutTestsChecks)
        func checks(_ check: Check<Self>) async throws {
            try await check.run(on: Self())
        }

        static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/hae-workouts").path
        static let realFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("shared/fixtures/health-auto-export/namtonthat_apple-health-data_daily-week-2023-01-old-sleep-sleepSource.json").path
        static let heartRate = "HKQuantityTypeIdentifierHeartRate"

        static func payload(_ name: String) throws -> HealthAutoExportPayload {
            let bytes = try #require(FileManager.default.contents(atPath: fixtures + "/" + name))
            return try HealthAutoExportPayload(bytes: Array(bytes), name: name)
        }

        static func load(_ text: String, into store: InMemorySampleStore) throws -> ImportReceipt {
            let payload = try HealthAutoExportPayload(bytes: Array(text.utf8), name: "test.json")
            return try HealthImporter(store: store, timeZone: .gmt).importHealthAutoExport(payload, receivedThrough: nil)
        }

        static func workouts(_ store: InMemorySampleStore) -> [Workout] {
            store.allSamples.compactMap(Workout.init(sample:)).sorted { $0.start < $1.start }
        }

        static func date(_ text: String) -> Date { ISODate.parse(text)! }

        static func statistic(_ workout: Workout, _ type: String) -> WorkoutStatistic? {
            workout.detail.statistics.first { $0.typeIdentifier == "HKQuantityTypeIdentifier" + type }
        }

        func aVersion1WorkoutWithItsTotalsHeartRateAndRoute() throws {
            let store = InMemorySampleStore()
            let receipt = try HealthImporter(store: store, timeZone: .gmt).importHealthAutoExport(try Self.payload("v1-walk.json"), receivedThrough: nil)
            expectEqual(receipt.counts[Workout.typeIdentifier]?.added, 1, "\(receipt.problems)")
            let walk = try #require(Self.workouts(store).first)
            #expect(walk.activity == .walking && walk.source == "Health Auto Export")
            #expect(walk.start == Self.date("2024-03-01T21:00:00Z") && walk.end == Self.date("2024-03-01T21:30:00Z"))
            expectEqual(walk.duration, 1800)  // v1 has no duration: end − start
            #expect(walk.detail.totalEnergyBurned == Quantity(120, try HealthUnit(parsing: "kcal")))
            #expect(walk.detail.totalDistance == Quantity(2.5, try HealthUnit(parsing: "km")))
            // Heart rate: HAE's avgHeartRate 109 and maxHeartRate 121 stand; the minimum is the series' (100, 110, 120).
            let heart = try #require(Self.statistic(walk, "HeartRate"))
            #expect(heart.average == 109 && heart.minimum == 100 && heart.maximum == 121 && heart.unit == "count/min")
            #expect(heart.start == walk.start && heart.end == walk.end)
            expectEqual(Self.statistic(walk, "ActiveEnergyBurned")?.sum, 120)
            expectEqual(Self.statistic(walk, "BasalEnergyBurned")?.sum, 30)  // total 150 − active 120
            expectEqual(Self.statistic(walk, "StepCount")?.sum, 3100)
            expectEqual(Self.statistic(walk, "FlightsClimbed")?.sum, 2)
            expectEqual(walk.metadataValues?["HKIndoorWorkout"], .number(0))
            expectEqual(walk.metadataValues?["HKElevationAscended"], .string("12 m"))
            expectEqual(walk.metadataValues?["HAE:elevationDescended"], .string("10 m"))
            expectEqual(walk.metadataValues?["HKWeatherTemperature"], .string("22.5 degC"))
            expectEqual(walk.metadataValues?["HKWeatherHumidity"], .string("60 %"))
            expectEqual(walk.metadataValues?["HAE:speed"], .string("5 km/hr"))
            expectEqual(walk.metadataValues?["HAE:totalEnergy"], .string("150 kcal"))
            #expect(walk.metadataValues?["HAE:heartRateRecovery"] == .string(#"[{"date":"2024-03-02 08:31:00 +1100","qty":90,"units":"bpm"}]"#))
            expectEqual(walk.metadataValues?["HAEWorkoutName"], .string("Walking"))
            expectEqual(walk.metadataValues?[MetadataKeySyncIdentifier], .string("HAE|workout|2024-03-01T21:00:00+00:00|Walking"))
            let route = try #require(walk.detail.route)
            expectEqual(route.locations.count, 4)
            expectEqual(route.locations[0], WorkoutRoute.Location(timestamp: Self.date("2024-03-01T21:00:00Z"), latitude: -33.8688,
                                                                  longitude: 151.2093, altitude: 10.5))
            #expect(route.locations[3].timestamp == Self.date("2024-03-01T21:30:00Z") && route.locations[3].altitude == 9)
            // The series are statistics only: no heart-rate samples (HAE's heart_rate metric brings those).
            #expect(!store.allSamples.contains { $0.typeIdentifier == Self.heartRate })
        }

        func version2WorkoutsWithIdsSeriesAndRoutes() throws {
            let store = InMemorySampleStore()
            let receipt = try HealthImporter(store: store, timeZone: .gmt).importHealthAutoExport(try Self.payload("v2-workouts.json"), receivedThrough: nil)
            expectEqual(receipt.counts[Workout.typeIdentifier]?.added, 3, "\(receipt.problems)")
            let workouts = Self.workouts(store)
            let run = workouts[0], paddle = workouts[1], strength = workouts[2]
            #expect(run.activity == .running && run.duration == 2280)  // v2 duration, not end − start (2400)
            #expect(run.detail.totalEnergyBurned == Quantity(1674.72, try HealthUnit(parsing: "kJ")))
            #expect(run.detail.totalDistance == Quantity(3.1, try HealthUnit(parsing: "mi")))
            // Heart rate from the {Min, Avg, Max} series: mean of Avg (150, 160), smallest Min, largest Max.
            let heart = try #require(Self.statistic(run, "HeartRate"))
            #expect(heart.average == 155 && heart.minimum == 140 && heart.maximum == 175)
            #expect(Self.statistic(run, "ActiveEnergyBurned")?.sum == 1674.72 && Self.statistic(run, "ActiveEnergyBurned")?.unit == "kJ")
            #expect(abs((Self.statistic(run, "BasalEnergyBurned")?.sum ?? 0) - 325.28) < 1e-9)  // 2000 − 1674.72 kJ
            expectEqual(Self.statistic(run, "StepCount")?.sum, 5800)  // 3000 + 2800
            expectEqual(run.metadataValues?["HKIndoorWorkout"], .number(0))
            expectEqual(run.metadataValues?["HKElevationAscended"], .string("25 m"))
            expectEqual(run.metadataValues?["HKAverageMETs"], .string("9.2 kcal/hr·kg"))
            expectEqual(run.metadataValues?["HKExternalUUID"], .string("6E1F4C2A-93B7-4B0E-9C55-0B7D2E61A001"))
            expectEqual(run.metadataValues?["HAE:avgSpeed"], .string("7.5 mi/hr"))
            expectEqual(run.metadataValues?[MetadataKeySyncIdentifier], .string("HAE|workout|6E1F4C2A-93B7-4B0E-9C55-0B7D2E61A001"))
            let route = try #require(run.detail.route)
            expectEqual(route.locations.count, 5)
            expectEqual(route.locations[1], WorkoutRoute.Location(
                timestamp: Self.date("2024-03-02T20:10:00Z"), latitude: 51.501, longitude: -0.123, altitude: 6, speed: 3.2, course: 85,
                horizontalAccuracy: 4, verticalAccuracy: 3, speedAccuracy: 0.5, courseAccuracy: 5))
            // A name HealthKit does not know: .other, the name kept.
            #expect(paddle.activity == .other && paddle.metadataValues?["HAEWorkoutName"] == .string("Paddle & <Surf>"))
            #expect(paddle.metadataValues?["HKSwimmingLocationType"] == .number(2) && paddle.detail.route?.locations.count == 2)
            expectNil(paddle.detail.route?.locations[0].altitude)
            #expect(strength.activity == .traditionalStrengthTraining && strength.metadataValues?["HKIndoorWorkout"] == .number(1))
            #expect(strength.detail.route == nil && strength.detail.statistics.map(\.typeIdentifier) == ["HKQuantityTypeIdentifierActiveEnergyBurned"])
        }

        func reSendsAddNothingAndAChangedWorkoutReplacesTheStoredOne() throws {
            let store = InMemorySampleStore()
            let v2 = try String(contentsOfFile: Self.fixtures + "/v2-workouts.json", encoding: .utf8)
            let v1 = try String(contentsOfFile: Self.fixtures + "/v1-walk.json", encoding: .utf8)
            _ = try Self.load(v2, into: store)
            _ = try Self.load(v1, into: store)
            let again = try Self.load(v2, into: store)
            #expect(again.counts[Workout.typeIdentifier]?.alreadyPresent == 3 && again.totals.added == 0 && again.totals.replaced == 0)
            let againV1 = try Self.load(v1, into: store)
            #expect(againV1.counts[Workout.typeIdentifier]?.alreadyPresent == 1 && againV1.totals.added == 0)
            // The run re-sent with one more route point and a longer distance: it replaces the stored run.
            let grown = v2.replacingOccurrences(of: #""distance":{"qty":3.1,"units":"mi"}"#, with: #""distance":{"qty":3.2,"units":"mi"}"#)
                .replacingOccurrences(of: #""timestamp":"2024-03-03 07:40:00 +1100"}]"#,
                                      with: #""timestamp":"2024-03-03 07:40:00 +1100"},{"latitude":51.503,"longitude":-0.115,"timestamp":"2024-03-03 07:40:05 +1100"}]"#)
            #expect(grown != v2)
            let replaced = try Self.load(grown, into: store)
            #expect(replaced.counts[Workout.typeIdentifier]?.replaced == 1 && replaced.counts[Workout.typeIdentifier]?.alreadyPresent == 2)
            let workouts = Self.workouts(store)
            expectEqual(workouts.count, 4)
            let run = try #require(workouts.first { $0.activity == .running })
            #expect(run.detail.totalDistance?.value == 3.2 && run.detail.route?.locations.count == 6)
            expectEqual(run.metadataValues?[MetadataKeySyncVersion], .number(2))
        }

        func theWorkoutsHeartRateSeriesDoesNotDoubleTheHeartRateMetric() throws {
            let store = InMemorySampleStore()
            let text = #"""
                {"data":{"metrics":[{"name":"heart_rate","units":"count/min","data":[
                 {"date":"2024-03-03 07:00:00 +1100","Min":140,"Avg":150,"Max":160,"source":"Watch"},
                 {"date":"2024-03-03 07:01:00 +1100","Min":150,"Avg":160,"Max":175,"source":"Watch"}]}],
                 "workouts":[{"id":"A1","name":"Outdoor Run","start":"2024-03-03 07:00:00 +1100","end":"2024-03-03 07:10:00 +1100",
                 "heartRateData":[{"date":"2024-03-03 07:00:00 +1100","Min":140,"Avg":150,"Max":160,"source":"Watch"},
                 {"date":"2024-03-03 07:01:00 +1100","Min":150,"Avg":160,"Max":175,"source":"Watch"}]}]}}
                """#
            let receipt = try Self.load(text, into: store)
            expectEqual(receipt.counts[Workout.typeIdentifier]?.added, 1)
            // The metric's two points (three samples each: min, max, the rest) and nothing from the workout's series.
            let fromMetric = store.allSamples.filter { $0.typeIdentifier == Self.heartRate }
            #expect(fromMetric.count == 6 && fromMetric.count == receipt.counts[Self.heartRate]?.added)
            #expect(fromMetric.allSatisfy { sample in
                if case let .string(identifier)? = sample.metadata[MetadataKeySyncIdentifier] { return identifier.hasPrefix("HAE|heart_rate|") }
                return false
            })
            #expect(Self.statistic(try #require(Self.workouts(store).first), "HeartRate")?.average == 155)
        }

        @Test(arguments: [
            ("Walking", WorkoutActivityType.walking), ("Outdoor Run", .running), ("Indoor Walk", .walking),
            ("Pool Swim", .swimming), ("Open Water Swim", .swimming), ("Indoor Cycle", .cycling), ("Outdoor Cycling", .cycling),
            ("High Intensity Interval Training", .highIntensityIntervalTraining), ("Traditional Strength Training", .traditionalStrengthTraining),
            ("Functional Strength Training", .functionalStrengthTraining), ("Stair Stepper", .stairClimbing), ("Yoga", .yoga),
            ("Hiking", .hiking), ("Elliptical", .elliptical), ("Mixed Cardio", .mixedCardio), ("Core Training", .coreTraining),
            ("Cooldown", .cooldown), ("Other", .other), ("Underwater Basket Weaving", .other), ("", .other),
        ])
        func activityNames(name: String, expected: WorkoutActivityType) {
            expectEqual(HAEWorkouts.activity(named: name), expected)
        }

        func unusableWorkoutsAreRefusedWithTheirLinesAndTheOthersStored() throws {
            let store = InMemorySampleStore()
            let text = """
                {"data":{"workouts":[
                {"name":"Walking","end":"2024-03-02 08:30:00 +1100"},
                {"name":"Walking","start":"2024-03-02 08:30:00 +1100","end":"2024-03-02 08:00:00 +1100"},
                {"name":"Walking","start":"2024-03-02 08:00:00 +1100","end":"2024-03-02 08:30:00 +1100","route":[{"lat":95,"lon":1,"timestamp":"2024-03-02 08:00:00 +1100"}]},
                {"name":"Walking","start":"2024-03-02 08:00:00 +1100","end":"2024-03-02 08:30:00 +1100","route":[{"lat":5,"lon":1}]},
                {"name":"Walking","start":"2024-03-02 08:00:00 +1100","end":"2024-03-02 08:30:00 +1100","activeEnergy":{"qty":-5,"units":"kcal"}},
                {"name":"Walking","start":"2024-03-02 09:00:00 +1100","end":"2024-03-02 09:30:00 +1100"}
                ]}}
                """
            let receipt = try Self.load(text, into: store)
            let counts = try #require(receipt.counts[Workout.typeIdentifier])
            #expect(counts.rejected == 5 && counts.added == 1)
            expectEqual(receipt.problems.map(\.line), [2, 3, 4, 5, 6])
            #expect(receipt.problems[0].reason.contains("no 'start'"))
            #expect(receipt.problems[1].reason.contains("before it starts"))
            #expect(receipt.problems[2].reason.contains("point 1 of the workout's route"))
            #expect(receipt.problems[4].reason.contains("negative") || receipt.problems[4].reason.contains("-5"), "\(receipt.problems[4].reason)")
        }

        func theRealVersion1Workout() throws {
            guard let bytes = FileManager.default.contents(atPath: Self.realFile) else {
                print("skipped: \(Self.realFile) is absent (../shared is not next to the repository)")
                return
            }
            let store = InMemorySampleStore()
            let payload = try HealthAutoExportPayload(bytes: Array(bytes), name: "real.json")
            let receipt = try HealthImporter(store: store, timeZone: .gmt).importHealthAutoExport(payload, receivedThrough: nil)
            expectEqual(receipt.counts[Workout.typeIdentifier]?.added, 1, "\(receipt.problems)")
            let walk = try #require(Self.workouts(store).first)
            #expect(walk.activity == .walking && walk.metadataValues?["HKIndoorWorkout"] == .number(1))
            #expect(walk.start == Self.date("2023-01-22T00:34:52Z") && walk.duration == 20 * 60 + 39)
            #expect(walk.detail.totalEnergyBurned?.value == 87.2165636745502 && walk.detail.totalDistance?.value == 1.524247608482372)
            let heart = try #require(Self.statistic(walk, "HeartRate"))
            #expect(heart.average == 86.12290502704502 && heart.maximum == 106)
            expectNil(walk.detail.route)  // its route is empty
            expectEqual(Self.statistic(walk, "StepCount")?.sum, 2079)
        }

        // MARK: - Line form

        func aRouteSurvivesTheStoreLineAndOldLinesWithoutOneStillRead() throws {
            let start = Self.date("2024-03-02T21:00:00Z")
            let route = WorkoutRoute(locations: [
                .init(timestamp: start.addingTimeInterval(60.5), latitude: 1e-7, longitude: -179.999999, altitude: -3.25, speed: 2,
                      course: 359.5, horizontalAccuracy: 5, verticalAccuracy: 4, speedAccuracy: 0.25, courseAccuracy: 10),
                .init(timestamp: start, latitude: 48.1, longitude: 11.5),
            ])
            expectEqual(route.locations[0].timestamp, start)  // put in time order
            let workout = Workout(activity: .running, start: start, end: start.addingTimeInterval(600),
                                  detail: WorkoutDetail(duration: 600, route: route), source: "Watch", created: start)
            var codec = SampleLineCodec(catalogue: .standard, timeZone: .gmt)
            let line = codec.encode(workout.sample)
            #expect(line.contains("\"route\":{\"locations\":["))
            let decoded = try Array(line.utf8).withUnsafeBufferPointer { try codec.decode($0) }
            expectEqual(Workout(sample: decoded)?.detail.route, route)
            // A line written before routes existed: the same form without the key.
            var detail = workout.detail
            detail.route = nil
            let old = workout.replacing(detail: detail)
            let oldLine = codec.encode(old.sample)
            #expect(!oldLine.contains("route"))
            let oldDecoded = try Array(oldLine.utf8).withUnsafeBufferPointer { try codec.decode($0) }
            #expect(Workout(sample: oldDecoded)?.detail.route == nil && Workout(sample: oldDecoded)?.duration == 600)
        }
    }
}

/// The checks ``ImportTests.HAEWorkoutTests/checks(_:)`` runs.
private let hAEWorkoutTestsChecks: [Check<ImportTests.HAEWorkoutTests>] = [
    Check("aVersion1WorkoutWithItsTotalsHeartRateAndRoute",
          ImportTests.HAEWorkoutTests.aVersion1WorkoutWithItsTotalsHeartRateAndRoute),
    Check("version2WorkoutsWithIdsSeriesAndRoutes", ImportTests.HAEWorkoutTests.version2WorkoutsWithIdsSeriesAndRoutes),
    Check("reSendsAddNothingAndAChangedWorkoutReplacesTheStoredOne",
          ImportTests.HAEWorkoutTests.reSendsAddNothingAndAChangedWorkoutReplacesTheStoredOne),
    Check("theWorkoutsHeartRateSeriesDoesNotDoubleTheHeartRateMetric",
          ImportTests.HAEWorkoutTests.theWorkoutsHeartRateSeriesDoesNotDoubleTheHeartRateMetric),
    Check("unusableWorkoutsAreRefusedWithTheirLinesAndTheOthersStored",
          ImportTests.HAEWorkoutTests.unusableWorkoutsAreRefusedWithTheirLinesAndTheOthersStored),
    Check("theRealVersion1Workout", ImportTests.HAEWorkoutTests.theRealVersion1Workout),
    Check("aRouteSurvivesTheStoreLineAndOldLinesWithoutOneStillRead",
          ImportTests.HAEWorkoutTests.aRouteSurvivesTheStoreLineAndOldLinesWithoutOneStillRead),
]
