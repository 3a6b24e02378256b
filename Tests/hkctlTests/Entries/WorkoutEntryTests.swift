import Foundation
import Testing
import TestKit
@testable import HKCtlCommands
@testable import HealthCore
@testable import HKCtlSupport

/// Activity names, durations, entries, the store line form and summaries of workouts.
struct WorkoutEntryTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: workoutEntryTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    func everyActivityTypeOfTheFactSheetIsKnownWithItsRawValue() throws {
        let all = WorkoutActivityType.all
        expectEqual(all.count, 84)  // 1...80, 82...84, 3000 (there is no 81)
        expectEqual(Set(all.map(\.rawValue)), Set(Array(1...80) + [82, 83, 84, 3000]))
        expectEqual(Set(all.map(\.name)).count, all.count)
        try expectEqual(WorkoutActivityType.named("running").rawValue, 37)
        try expectEqual(WorkoutActivityType.named("underwaterDiving").rawValue, 84)
        try expectEqual(WorkoutActivityType.named("other").rawValue, 3000)
    }

    @Test(arguments: [("traditionalStrengthTraining", 50), ("strength", 50), ("traditional-strength-training", 50),
                      ("HKWorkoutActivityTypeTraditionalStrengthTraining", 50), ("HIIT", 63), ("run", 37), ("37", 37)])
    func activityNamesAcceptCaseNamesShortFormsAndExportNames(text: String, raw: Int) throws {
        try expectEqual(WorkoutActivityType.named(text).rawValue, raw)
    }

    func unknownActivitySuggestsTheNearestName() {
        #expect(throws: WorkoutError.unknownActivity("runing", suggestion: "running")) { try WorkoutActivityType.named("runing") }
        expectEqual(WorkoutActivityType.raw(85).name, "activity85")
        expectEqual(WorkoutActivityType.exported("HKWorkoutActivityTypeCycling")?.rawValue, 13)
    }

    @Test(arguments: [("45min", 2700.0), ("45m", 2700), ("1.5h", 5400), ("1h30m", 5400), ("1h 30min", 5400), ("90s", 90), ("2hr", 7200)])
    func durationsReadAsPeopleTypeThem(text: String, seconds: Double) throws {
        try expectEqual(WorkoutDuration.parse(text), seconds)
    }

    @Test(arguments: ["", "45", "min", "45kg", "1h1h", "-5min"])
    func badDurationsAreRefused(text: String) {
        #expect(throws: WorkoutError.self) { try WorkoutDuration.parse(text) }
    }

    func zeroAndTooLongDurationsAreRefused() {
        #expect(throws: WorkoutError.durationOutOfRange("0min", maximumHours: 48)) { try WorkoutDuration.parse("0min") }
        #expect(throws: WorkoutError.durationOutOfRange("49h", maximumHours: 48)) { try WorkoutDuration.parse("49h") }
    }

    func entryWithoutTimesEndsNowAndKeepsTotals() throws {
        let context = TestSupport.context()
        let workout = try WorkoutEntry(activity: "running", duration: "45min", energy: "420kcal", distance: "7.2km", indoor: true)
            .workout(source: "hkctl", context: context)
        expectEqual(workout.end, context.now)
        expectEqual(workout.start, context.now.addingTimeInterval(-2700))
        expectEqual(workout.energyKilocalories, 420)
        #expect(abs((workout.distanceMeters ?? 0) - 7200) < 1e-6)
        expectEqual(workout.isIndoor, true)
        expectEqual(workout.paceSecondsPerKilometer.map { $0.rounded() }, 375)
    }

    func entryFromToWithShorterDurationKeepsPauses() throws {
        let context = TestSupport.context()
        let from = TimeExpression(date: TestSupport.date("2024-06-01T07:00:00Z"), isDateOnly: false)
        let to = TimeExpression(date: TestSupport.date("2024-06-01T08:00:00Z"), isDateOnly: false)
        let workout = try WorkoutEntry(activity: "cycling", duration: "50min", from: from, to: to).workout(source: "hkctl", context: context)
        expectEqual(workout.duration, 3000)
        expectEqual(workout.end.timeIntervalSince(workout.start), 3600)
        #expect(throws: WorkoutError.self) {
            try WorkoutEntry(activity: "cycling", duration: "70min", from: from, to: to).workout(source: "hkctl", context: context)
        }
    }

    func entryRefusesWrongUnitsAndFutureWorkouts() {
        let context = TestSupport.context()
        #expect(throws: UnitError.self) {
            try WorkoutEntry(activity: "running", duration: "30min", distance: "5kg").workout(source: "hkctl", context: context)
        }
        #expect(throws: UnitError.self) {
            try WorkoutEntry(activity: "running", duration: "30min", energy: "5km").workout(source: "hkctl", context: context)
        }
        let later = TimeExpression(date: context.now.addingTimeInterval(-600), isDateOnly: false)
        #expect(throws: SampleError.self) {
            try WorkoutEntry(activity: "running", duration: "30min", at: later).workout(source: "hkctl", context: context)
        }
    }

    func storeLineKeepsEveryPartOfAWorkout() throws {
        let start = TestSupport.date("2024-06-01T07:00:00Z")
        let detail = WorkoutDetail(
            duration: 2400, totalEnergyBurned: Quantity(420, try HealthUnit(parsing: "kcal")),
            totalDistance: Quantity(4.5, try HealthUnit(parsing: "mi")),
            events: [WorkoutEvent(kind: .pause, date: start.addingTimeInterval(600)),
                     WorkoutEvent(kind: .segment, date: start, duration: 300)],
            statistics: [WorkoutStatistic(typeIdentifier: "HKQuantityTypeIdentifierHeartRate", start: start,
                                          end: start.addingTimeInterval(2700), average: 142, minimum: 98, maximum: 171, unit: "count/min")],
            activities: [WorkoutActivity(uuid: "A1", start: start, end: start.addingTimeInterval(2700), duration: 2400,
                                         metadata: ["HKIndoorWorkout": "0"])])
        let workout = Workout(activity: .raw(37), start: start, end: start.addingTimeInterval(2700), detail: detail,
                              source: "Watch", created: start, metadata: ["HKIndoorWorkout": .number(0)])
        var codec = SampleLineCodec(catalogue: .standard, timeZone: .gmt)
        let line = codec.encode(workout.sample, sequence: 7)
        #expect(line.contains("\"value\":37"))
        #expect(line.contains("\"workout\":{\"duration\":2400"))
        let decoded = try Array(line.utf8).withUnsafeBufferPointer { try codec.decode($0) }
        expectEqual(decoded, workout.sample)
        expectEqual(Workout(sample: decoded), workout)
        expectEqual(codec.lastSequence, 7)
    }

    func quantityLinesAreUnchanged() {
        let sample = TestSupport.quantitySample(.water, 500, "mL", start: "2024-06-01T08:00:00Z")
        let line = SampleLineCodec(catalogue: .standard, timeZone: .gmt).encode(sample)
        #expect(!line.contains("workout") && !line.contains("correlation"))
        #expect(line.hasPrefix("{\"uuid\":") && line.contains(",\"value\":500,\"unit\":\"mL\",\"source\":\"hkctl\",\"created\":"))
    }

    func summaryCountsDurationEnergyDistanceAndPacePerWeek() throws {
        let context = TestSupport.context()
        let store = InMemorySampleStore()
        func add(_ activity: String, _ duration: String, at iso: String, energy: String? = nil, distance: String? = nil) throws {
            let workout = try WorkoutEntry(activity: activity, duration: duration,
                                           at: TimeExpression(date: TestSupport.date(iso), isDateOnly: false),
                                           energy: energy, distance: distance).workout(source: "hkctl", context: context)
            try store.save([workout.sample])
        }
        try add("running", "30min", at: "2024-05-20T07:00:00Z", energy: "300kcal", distance: "6km")
        try add("running", "50min", at: "2024-05-28T07:00:00Z", energy: "500kcal", distance: "10km")
        try add("yoga", "1h", at: "2024-05-29T18:00:00Z", energy: "150kcal")
        let interval = DateInterval(start: TestSupport.date("2024-05-20T00:00:00Z"), end: TestSupport.date("2024-06-03T00:00:00Z"))
        let summary = try WorkoutQuery(interval: interval).summary(in: store, bucket: BucketInterval(.week), calendar: context.calendar)
        expectEqual(summary.total.count, 3)
        expectEqual(summary.total.totalDuration, 8400)
        expectEqual(summary.total.averageDuration, 2800)
        expectEqual(summary.total.energyKilocalories, 950)
        expectEqual(summary.total.distanceMeters, 16000)
        // Pace only over the distance activities: 80 min for 16 km = 5:00 /km.
        expectEqual(summary.total.paceSecondsPerKilometer, 300)
        expectEqual(summary.buckets.map(\.figures.count), [1, 2])
        let running = try WorkoutQuery(interval: interval, activity: .named("run")).summary(in: store, calendar: context.calendar)
        expectEqual(running.total.count, 2)
    }

    func averageHeartRateUsesReadingsInsideTheWorkout() throws {
        let context = TestSupport.context()
        let workout = try WorkoutEntry(activity: "running", duration: "30min",
                                       at: TimeExpression(date: TestSupport.date("2024-06-01T07:00:00Z"), isDateOnly: false))
            .workout(source: "hkctl", context: context)
        let heartRate = try SampleTypeCatalogue.standard.type(named: "heart-rate")
        let store = InMemorySampleStore([workout.sample] + [
            TestSupport.quantitySample(heartRate, 140, "count/min", start: "2024-06-01T07:05:00Z"),
            TestSupport.quantitySample(heartRate, 160, "count/min", start: "2024-06-01T07:25:00Z"),
            TestSupport.quantitySample(heartRate, 60, "count/min", start: "2024-06-01T09:00:00Z"),
        ])
        let found = try WorkoutQuery(interval: DateInterval(start: TestSupport.date("2024-06-01T00:00:00Z"), duration: 86_400)).workouts(in: store)
        expectEqual(found, [workout])
        let averages = try WorkoutQuery.averageHeartRates(for: found, in: store)
        expectEqual(averages[workout.uuid].map { ($0 * 1000).rounded() / 1000 }, 150)
    }
}

/// The checks ``WorkoutEntryTests/checks(_:)`` runs.
private let workoutEntryTestsChecks: [Check<WorkoutEntryTests>] = [
    Check("everyActivityTypeOfTheFactSheetIsKnownWithItsRawValue",
          WorkoutEntryTests.everyActivityTypeOfTheFactSheetIsKnownWithItsRawValue),
    Check("unknownActivitySuggestsTheNearestName", WorkoutEntryTests.unknownActivitySuggestsTheNearestName),
    Check("zeroAndTooLongDurationsAreRefused", WorkoutEntryTests.zeroAndTooLongDurationsAreRefused),
    Check("entryWithoutTimesEndsNowAndKeepsTotals", WorkoutEntryTests.entryWithoutTimesEndsNowAndKeepsTotals),
    Check("entryFromToWithShorterDurationKeepsPauses", WorkoutEntryTests.entryFromToWithShorterDurationKeepsPauses),
    Check("entryRefusesWrongUnitsAndFutureWorkouts", WorkoutEntryTests.entryRefusesWrongUnitsAndFutureWorkouts),
    Check("storeLineKeepsEveryPartOfAWorkout", WorkoutEntryTests.storeLineKeepsEveryPartOfAWorkout),
    Check("quantityLinesAreUnchanged", WorkoutEntryTests.quantityLinesAreUnchanged),
    Check("summaryCountsDurationEnergyDistanceAndPacePerWeek",
          WorkoutEntryTests.summaryCountsDurationEnergyDistanceAndPacePerWeek),
    Check("averageHeartRateUsesReadingsInsideTheWorkout",
          WorkoutEntryTests.averageHeartRateUsesReadingsInsideTheWorkout),
]
