import Foundation
import HealthCore
import Testing
import TestKit

// Seed 001_d88b1a68be32cd2c.txt: "HealthKit AI Reference" (manager, data types, reads, a SwiftUI dashboard,
// writes, background delivery, a weekly collection, unit conversions).
//
// Line 13 (`import HealthKit`) is `import HealthCore` above. `HealthStore.isHealthDataAvailable()` says whether the
// per-user store has a place (false only without a home or data folder). `Date()` is the pinned `Seed.now` and
// `Calendar.current` is `Seed.calendar` (UTC), and each class is given its store instead of `HKHealthStore()`.
enum Seed001 {
    // Seed 001, lines 28-50.
    final class HealthKitManager: Sendable {
        init(_ healthStore: HealthStore) { self.healthStore = healthStore }
        //>> HealthKitManager
        let healthStore: HealthStore
        var isAvailable: Bool {
            HealthStore.isHealthDataAvailable()
        }
        func requestAuthorization() async throws {
            let readTypes: Set<ObjectType> = [
                QuantityType(.stepCount),
                QuantityType(.heartRate),
                QuantityType(.activeEnergyBurned),
                CategoryType(.sleepAnalysis)
            ]
            let writeTypes: Set<SampleType> = [
                QuantityType(.stepCount),
                QuantityType(.activeEnergyBurned)
            ]
            try await healthStore.requestAuthorization(toShare: writeTypes, read: readTypes)
        }
    }
    //<<

    // The full example (lines 112-240): the view model. `@Observable` (line 116) is SwiftUI's observation and is
    // replaced by `@MainActor`, which the task group of `fetchAllData` needs under Swift 6 to share `self`. The
    // views (lines 242-294: HealthDashboardView, HealthCard) are SwiftUI only and are left out; what the dashboard
    // does with HealthKit (`.task` → requestAuthorization, `.refreshable` → fetchAllData) the test calls directly.
    @MainActor
    final class HealthViewModel {
        init(_ healthStore: HealthStore) { self.healthStore = healthStore }
        //>> HealthViewModel
        let healthStore: HealthStore
        var steps: Double = 0
        var heartRate: Double = 0
        var calories: Double = 0
        var sleepHours: Double = 0
        var isAuthorized = false
        var error: Error?
        func requestAuthorization() async {
            guard HealthStore.isHealthDataAvailable() else { return }
            let readTypes: Set<ObjectType> = [
                QuantityType(.stepCount),
                QuantityType(.heartRate),
                QuantityType(.activeEnergyBurned),
                CategoryType(.sleepAnalysis)
            ]
            do {
                try await healthStore.requestAuthorization(toShare: [], read: readTypes)
                isAuthorized = true
                await fetchAllData()
            } catch {
                self.error = error
            }
        }
        func fetchAllData() async {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.fetchSteps() }
                group.addTask { await self.fetchHeartRate() }
                group.addTask { await self.fetchCalories() }
                group.addTask { await self.fetchSleep() }
            }
        }
        private func fetchSteps() async {
            let stepType = QuantityType(.stepCount)
            let predicate = Query.predicateForSamples(
                withStart: Seed.calendar.startOfDay(for: Seed.now),
                end: Seed.now
            )
            let descriptor = StatisticsQueryDescriptor(
                predicate: SampleTypePredicate.quantitySample(type: stepType, predicate: predicate),
                options: .cumulativeSum
            )
            do {
                let result = try await descriptor.result(for: healthStore)
                steps = result?.sumQuantity()?.doubleValue(for: .count()) ?? 0
            } catch {
                print("걸음 수 조회 실패: \(error)")
            }
        }
        private func fetchHeartRate() async {
            let heartRateType = QuantityType(.heartRate)
            let sortDescriptor = SortDescriptor(\QuantitySample.startDate, order: .reverse)
            let descriptor = SampleQueryDescriptor(
                predicates: [.quantitySample(type: heartRateType)],
                sortDescriptors: [sortDescriptor],
                limit: 1
            )
            do {
                let samples = try await descriptor.result(for: healthStore)
                if let sample = samples.first {
                    heartRate = sample.quantity.doubleValue(for: HealthUnit.count().unitDivided(by: .minute()))
                }
            } catch {
                print("심박수 조회 실패: \(error)")
            }
        }
        private func fetchCalories() async {
            let calorieType = QuantityType(.activeEnergyBurned)
            let predicate = Query.predicateForSamples(
                withStart: Seed.calendar.startOfDay(for: Seed.now),
                end: Seed.now
            )
            let descriptor = StatisticsQueryDescriptor(
                predicate: SampleTypePredicate.quantitySample(type: calorieType, predicate: predicate),
                options: .cumulativeSum
            )
            do {
                let result = try await descriptor.result(for: healthStore)
                calories = result?.sumQuantity()?.doubleValue(for: .kilocalorie()) ?? 0
            } catch {
                print("칼로리 조회 실패: \(error)")
            }
        }
        private func fetchSleep() async {
            let sleepType = CategoryType(.sleepAnalysis)
            let calendar = Seed.calendar
            let now = Seed.now
            let yesterday = calendar.date(byAdding: .day, value: -1, to: calendar.startOfDay(for: now))!
            let predicate = Query.predicateForSamples(withStart: yesterday, end: now)
            let sortDescriptor = SortDescriptor(\CategorySample.startDate, order: .forward)
            let descriptor = SampleQueryDescriptor(
                predicates: [.categorySample(type: sleepType, predicate: predicate)],
                sortDescriptors: [sortDescriptor]
            )
            do {
                let samples = try await descriptor.result(for: healthStore)
                let asleepSamples = samples.filter { $0.value != CategoryValueSleepAnalysis.inBed.rawValue }
                sleepHours = asleepSamples.reduce(0) { total, sample in
                    total + sample.endDate.timeIntervalSince(sample.startDate)
                } / 3600
            } catch {
                print("수면 조회 실패: \(error)")
            }
        }
    }
    //<<
}

// The reading, writing, background and collection functions of the note (lines 78-106, 302-322, 328-343,
// 349-373) use `healthStore` and, for the observer, the view model's `fetchSteps`: they are ported as methods of
// the view model (an extension in this file can call its private methods).
extension Seed001.HealthViewModel {
    // Seed 001, lines 78-106.
    //>> fetchTodaySteps+fetchRecentHeartRate
    // 오늘 걸음 수
    func fetchTodaySteps() async throws -> Double {
        let stepType = QuantityType(.stepCount)
        let predicate = Query.predicateForSamples(
            withStart: Seed.calendar.startOfDay(for: Seed.now),
            end: Seed.now
        )
        let descriptor = StatisticsQueryDescriptor(
            predicate: SampleTypePredicate.quantitySample(type: stepType, predicate: predicate),
            options: .cumulativeSum
        )
        let result = try await descriptor.result(for: healthStore)
        return result?.sumQuantity()?.doubleValue(for: .count()) ?? 0
    }
    // 최근 심박수
    func fetchRecentHeartRate() async throws -> [QuantitySample] {
        let heartRateType = QuantityType(.heartRate)
        let sortDescriptor = SortDescriptor(\QuantitySample.startDate, order: .reverse)
        let descriptor = SampleQueryDescriptor(
            predicates: [.quantitySample(type: heartRateType)],
            sortDescriptors: [sortDescriptor],
            limit: 10
        )
        return try await descriptor.result(for: healthStore)
    }
    //<<

    // Seed 001, lines 302-322.
    //>> saveWorkout+saveSteps
    func saveWorkout(type: WorkoutActivityType, duration: TimeInterval, calories: Double) async throws {
        let workout = Workout(
            activityType: type,
            start: Seed.now.addingTimeInterval(-duration),
            end: Seed.now,
            duration: duration,
            totalEnergyBurned: Quantity(unit: .kilocalorie(), doubleValue: calories),
            totalDistance: nil,
            metadata: nil
        )
        try await healthStore.save(workout)
    }
    func saveSteps(count: Double, start: Date, end: Date) async throws {
        let stepType = QuantityType(.stepCount)
        let quantity = Quantity(unit: .count(), doubleValue: count)
        let sample = QuantitySample(type: stepType, quantity: quantity, start: start, end: end)
        try await healthStore.save(sample)
    }
    //<<

    // Seed 001, lines 328-343.
    //>> enableBackgroundDelivery
    func enableBackgroundDelivery() async throws {
        let stepType = QuantityType(.stepCount)
        try await healthStore.enableBackgroundDelivery(for: stepType, frequency: .hourly)
        // Observer Query로 변경 감지
        let query = ObserverQuery(sampleType: stepType, predicate: nil) { query, completionHandler, error in
            // 데이터 변경됨 → 새로고침
            Task {
                await self.fetchSteps()
            }
            completionHandler()
        }
        healthStore.execute(query)
    }
    //<<

    // Seed 001, lines 349-373.
    //>> fetchWeeklySteps
    func fetchWeeklySteps() async throws -> [(date: Date, steps: Double)] {
        let stepType = QuantityType(.stepCount)
        let calendar = Seed.calendar
        let now = Seed.now
        let startOfWeek = calendar.date(byAdding: .day, value: -7, to: calendar.startOfDay(for: now))!
        let predicate = Query.predicateForSamples(withStart: startOfWeek, end: now)
        let descriptor = StatisticsCollectionQueryDescriptor(
            predicate: SampleTypePredicate.quantitySample(type: stepType, predicate: predicate),
            options: .cumulativeSum,
            anchorDate: startOfWeek,
            intervalComponents: DateComponents(day: 1)
        )
        let collection = try await descriptor.result(for: healthStore)
        var results: [(Date, Double)] = []
        collection.enumerateStatistics(from: startOfWeek, to: now) { statistics, _ in
            let steps = statistics.sumQuantity()?.doubleValue(for: .count()) ?? 0
            results.append((statistics.startDate, steps))
        }
        return results
    }
    //<<
}

struct Seed001HealthKitReferenceTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: seed001HealthKitReferenceTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static let app = "org.example.dashboard"

    /// Today (10 June, to 12:00): 5,400 steps, heart rate 60...71 bpm every 5 minutes from 10:00, 380.5 kcal;
    /// last night in bed 22:00-06:00 with 3.5 h core, 1 h deep, 2.5 h REM and 15 min awake; yesterday 2,000 steps
    /// and 99 kcal, which no "today" figure may count.
    private static func saveDay(in store: HealthStore) async throws {
        func quantity(_ type: QuantityTypeIdentifier, _ unit: HealthUnit, _ value: Double, _ start: String, _ end: String) -> HealthSample {
            QuantitySample(type: QuantityType(type), quantity: Quantity(unit: unit, doubleValue: value), start: Seed.date(start), end: Seed.date(end))
        }
        func sleep(_ value: CategoryValueSleepAnalysis, _ start: String, _ end: String) -> HealthSample {
            CategorySample(type: CategoryType(.sleepAnalysis), value: value.rawValue, start: Seed.date(start), end: Seed.date(end))
        }
        let bpm = HealthUnit.count().unitDivided(by: .minute())
        var samples: [HealthSample] = [
            quantity(.stepCount, .count(), 2_000, "2024-06-09T15:00:00Z", "2024-06-09T16:00:00Z"),
            quantity(.stepCount, .count(), 1_200, "2024-06-10T08:00:00Z", "2024-06-10T08:30:00Z"),
            quantity(.stepCount, .count(), 3_400, "2024-06-10T09:00:00Z", "2024-06-10T10:00:00Z"),
            quantity(.stepCount, .count(), 800, "2024-06-10T11:00:00Z", "2024-06-10T11:15:00Z"),
            quantity(.activeEnergyBurned, .kilocalorie(), 99, "2024-06-09T15:00:00Z", "2024-06-09T16:00:00Z"),
            quantity(.activeEnergyBurned, .kilocalorie(), 150, "2024-06-10T08:00:00Z", "2024-06-10T08:30:00Z"),
            quantity(.activeEnergyBurned, .kilocalorie(), 230.5, "2024-06-10T09:00:00Z", "2024-06-10T10:00:00Z"),
            sleep(.inBed, "2024-06-09T22:00:00Z", "2024-06-10T06:00:00Z"),
            sleep(.asleepCore, "2024-06-09T22:30:00Z", "2024-06-10T02:00:00Z"),
            sleep(.asleepDeep, "2024-06-10T02:00:00Z", "2024-06-10T03:00:00Z"),
            sleep(.asleepREM, "2024-06-10T03:00:00Z", "2024-06-10T05:30:00Z"),
            sleep(.awake, "2024-06-10T05:30:00Z", "2024-06-10T05:45:00Z"),
        ]
        for minute in 0..<12 {
            let time = Seed.date("2024-06-10T10:00:00Z").addingTimeInterval(Double(minute) * 300)
            samples.append(QuantitySample(type: QuantityType(.heartRate), quantity: Quantity(unit: bpm, doubleValue: Double(60 + minute)),
                                          start: time, end: time))
        }
        try await store.save(samples)
    }

    func healthKitManager() async throws {
        try await Seed.withStores(app: Self.app) { owner, app in
            let manager = Seed001.HealthKitManager(app)
            // HOME is set for the tests, so the per-user store can be opened.
            #expect(manager.isAvailable)
            try await manager.requestAuthorization()
            // Recorded for the owner: the union of the two sets, sorted (4 types: steps, energy, heart rate, sleep).
            #expect(try Seed.requested(by: Self.app, in: owner) == [
                "HKCategoryTypeIdentifierSleepAnalysis", "HKQuantityTypeIdentifierActiveEnergyBurned",
                "HKQuantityTypeIdentifierHeartRate", "HKQuantityTypeIdentifierStepCount",
            ])
            #expect(app.authorizationStatus(for: QuantityType(.stepCount)) == .notDetermined)
        }
    }

    func dataTypes() throws {
        // Seed 001, lines 56-71.
        //>> dataTypes
        // 수량형 (Quantity)
        let stepCount = QuantityType(.stepCount)
        let heartRate = QuantityType(.heartRate)
        let calories = QuantityType(.activeEnergyBurned)
        let distance = QuantityType(.distanceWalkingRunning)
        // 카테고리형 (Category)
        let sleep = CategoryType(.sleepAnalysis)
        let mindfulness = CategoryType(.mindfulSession)
        // 운동 (Workout)
        let workout = WorkoutType.workoutType()
        // 특성 (Characteristic) - 읽기 전용
        let bloodType = CharacteristicType(.bloodType)
        let biologicalSex = CharacteristicType(.biologicalSex)
        //<<
        #expect([stepCount, heartRate, calories, distance, sleep, mindfulness, workout].map(\.identifier) == [
            "HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierHeartRate",
            "HKQuantityTypeIdentifierActiveEnergyBurned", "HKQuantityTypeIdentifierDistanceWalkingRunning",
            "HKCategoryTypeIdentifierSleepAnalysis", "HKCategoryTypeIdentifierMindfulSession", "HKWorkoutTypeIdentifier",
        ])
        #expect(stepCount.aggregationStyle == .cumulative && heartRate.aggregationStyle != .cumulative)
        #expect([bloodType.identifier, biologicalSex.identifier] == [
            "HKCharacteristicTypeIdentifierBloodType", "HKCharacteristicTypeIdentifierBiologicalSex",
        ])
    }

    func fetchTodaySteps() async throws {
        try await Seed.withStore { store in
            let model = await Seed001.HealthViewModel(store)
            #expect(try await model.fetchTodaySteps() == 0)           // nothing logged: nil statistics, so 0
            try await Self.saveDay(in: store)
            // 1,200 + 3,400 + 800 = 5,400 (yesterday's 2,000 are outside today).
            #expect(try await model.fetchTodaySteps() == 5_400)
        }
    }

    func fetchRecentHeartRate() async throws {
        try await Seed.withStore { store in
            try await Self.saveDay(in: store)
            let recent = try await Seed001.HealthViewModel(store).fetchRecentHeartRate()
            // Twelve readings 60...71 bpm from 10:00 every 5 min; the ten newest, newest first: 71 down to 62.
            let bpm = HealthUnit.count().unitDivided(by: .minute())
            #expect(recent.map { $0.quantity.doubleValue(for: bpm) } == Array(stride(from: 71.0, through: 62, by: -1)))
            #expect(recent.first?.startDate == Seed.date("2024-06-10T10:55:00Z"))
        }
    }

    func healthViewModel() async throws {
        try await Seed.withStores(app: Self.app) { owner, app in
            try await Self.saveDay(in: owner)
            let model = await Seed001.HealthViewModel(app)
            // The dashboard's `.task`: ask, then fetch. Nothing is granted yet, and a source without read permission
            // sees only its own samples (none), as in HealthKit: every figure stays 0.
            await model.requestAuthorization()
            #expect(await model.isAuthorized)
            #expect(await model.error == nil)
            #expect(await [model.steps, model.heartRate, model.calories, model.sleepHours] == [0, 0, 0, 0])
            #expect(try Seed.requested(by: Self.app, in: owner).count == 4)
            // The owner grants reading; the dashboard's `.refreshable` fetches again.
            try owner.decideAuthorization(for: Self.app, allow: true, share: [], read: [
                QuantityType(.stepCount), QuantityType(.heartRate), QuantityType(.activeEnergyBurned), CategoryType(.sleepAnalysis),
            ])
            await model.fetchAllData()
            // Steps 1,200 + 3,400 + 800 = 5,400; latest heart rate 71 bpm (10:55); 150 + 230.5 = 380.5 kcal;
            // sleep: everything but in-bed, 3.5 + 1 + 2.5 h asleep and 0.25 h awake (the note's filter keeps
            // `awake`) = 7.25 h.
            #expect(await model.steps == 5_400)
            #expect(await model.heartRate == 71)
            #expect(await model.calories == 380.5)
            #expect(await model.sleepHours == 7.25)
        }
    }

    func saveWorkoutAndSaveSteps() async throws {
        try await Seed.withStore { store in
            let model = await Seed001.HealthViewModel(store)
            try await model.saveWorkout(type: .running, duration: 1_800, calories: 320)
            try await model.saveSteps(count: 4_321, start: Seed.date("2024-06-10T07:00:00Z"), end: Seed.date("2024-06-10T07:40:00Z"))
            let workouts = try await SampleQueryDescriptor(predicates: [.workout()]).result(for: store)
            // One run, 11:30 to 12:00 (the pinned now), 30 minutes, 320 kcal, no distance.
            #expect(workouts.count == 1)
            #expect(workouts.first?.workoutActivityType == .running)
            #expect(workouts.first?.startDate == Seed.date("2024-06-10T11:30:00Z") && workouts.first?.endDate == Seed.now)
            #expect(workouts.first?.totalEnergyBurned?.doubleValue(for: .kilocalorie()) == 320)
            #expect(workouts.first?.totalDistance == nil)
            #expect(try await model.fetchTodaySteps() == 4_321)
        }
    }

    func enableBackgroundDelivery() async throws {
        try await Seed.withStore { store in
            try await Self.saveDay(in: store)
            let model = await Seed001.HealthViewModel(store)
            try await model.enableBackgroundDelivery()
            // The observer is called once when started: the model fetches today's 5,400 steps.
            #expect(await Seed.eventually { await model.steps == 5_400 })
            // A new step sample wakes it again: 5,400 + 600 = 6,000.
            try await model.saveSteps(count: 600, start: Seed.date("2024-06-10T11:30:00Z"), end: Seed.date("2024-06-10T11:45:00Z"))
            #expect(await Seed.eventually { await model.steps == 6_000 })
            // The snippet keeps no reference to its query, so it cannot be stopped; it waits on the removed folder.
        }
    }

    func fetchWeeklySteps() async throws {
        try await Seed.withStore { store in
            try await Self.saveDay(in: store)
            let model = await Seed001.HealthViewModel(store)
            try await model.saveSteps(count: 1_000, start: Seed.date("2024-06-04T10:00:00Z"), end: Seed.date("2024-06-04T11:00:00Z"))
            try await model.saveSteps(count: 2_500, start: Seed.date("2024-06-06T18:00:00Z"), end: Seed.date("2024-06-06T19:00:00Z"))
            let week = try await model.fetchWeeklySteps()
            // From 3 June 00:00 (7 days before today) to now, one entry per day, empty days as 0:
            // 3rd 0, 4th 1,000, 5th 0, 6th 2,500, 7th 0, 8th 0, 9th 2,000, 10th 5,400.
            #expect(week.map(\.date) == (0..<8).map { Seed.date("2024-06-03T00:00:00Z").addingTimeInterval(Double($0) * 86_400) })
            #expect(week.map(\.steps) == [0, 1_000, 0, 2_500, 0, 0, 2_000, 5_400])
        }
    }

    func unitConversions() {
        // Seed 001, lines 385-392. The note uses one `quantity` for all three kinds; here each pair of lines gets a
        // quantity of its own dimension (HealthCore, like HealthKit, refuses a unit of another dimension).
        let quantity = Quantity(unit: .mile(), doubleValue: 2)
        //>> unitConversions
        // 거리: 미터 또는 마일
        let meters = quantity.doubleValue(for: .meter())
        let miles = quantity.doubleValue(for: .mile())
        //<<
        #expect(meters == 3_218.688 && miles == 2)                  // 2 × 1,609.344 m
        do {
            let quantity = Quantity(unit: .kilocalorie(), doubleValue: 450)
            //>> unitConversions
            // 에너지: 칼로리 또는 줄
            let kcal = quantity.doubleValue(for: .kilocalorie())
            //<<
            #expect(kcal == 450)
        }
        do {
            let quantity = Quantity(unit: HealthUnit.count().unitDivided(by: .second()), doubleValue: 1.2)
            //>> unitConversions
            // 심박수: count/min
            let bpm = quantity.doubleValue(for: HealthUnit.count().unitDivided(by: .minute()))
            //<<
            #expect(abs(bpm - 72) < 1e-9)                             // 1.2 per second × 60 = 72 per minute
        }
    }
}

/// The checks ``Seed001HealthKitReferenceTests/checks(_:)`` runs.
private let seed001HealthKitReferenceTestsChecks: [Check<Seed001HealthKitReferenceTests>] = [
    Check("healthKitManager", Seed001HealthKitReferenceTests.healthKitManager),
    Check("dataTypes", Seed001HealthKitReferenceTests.dataTypes),
    Check("fetchTodaySteps", Seed001HealthKitReferenceTests.fetchTodaySteps),
    Check("fetchRecentHeartRate", Seed001HealthKitReferenceTests.fetchRecentHeartRate),
    Check("healthViewModel", Seed001HealthKitReferenceTests.healthViewModel),
    Check("saveWorkoutAndSaveSteps", Seed001HealthKitReferenceTests.saveWorkoutAndSaveSteps),
    Check("enableBackgroundDelivery", Seed001HealthKitReferenceTests.enableBackgroundDelivery),
    Check("fetchWeeklySteps", Seed001HealthKitReferenceTests.fetchWeeklySteps),
    Check("unitConversions", Seed001HealthKitReferenceTests.unitConversions),
]
