import Foundation
import Testing
import TestKit
@testable import HealthCore

/// HealthKit's object model: one class per kind of type, so `is`, `as?` and `switch` over types mean what they mean in
/// HealthKit, and sets of the base classes hold any mix.
struct ObjectModelTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: objectModelTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// What HealthKit code asks of a type it was handed as an `HKObjectType`.
    private static func kindName(_ type: ObjectType) -> String {
        switch type {
        case is QuantityType: "quantity"
        case is CategoryType: "category"
        case is WorkoutType: "workout"
        case is CorrelationType: "correlation"
        case is CharacteristicType: "characteristic"
        default: "other"
        }
    }

    func eachKindOfTypeIsItsOwnClass() {
        let sleep: ObjectType = CategoryType(.sleepAnalysis)
        #expect(!(sleep is QuantityType) && sleep is CategoryType && sleep is SampleType)
        let steps: ObjectType = QuantityType(.stepCount)
        #expect(steps is QuantityType && !(steps is CategoryType))
        let workout: ObjectType = ObjectType.workoutType()
        #expect(workout is WorkoutType && !(workout is CategoryType) && workout.kind == .workout)
        expectEqual(Workout.sampleType.kind, .workout)
        let pressure: ObjectType = CorrelationType(.bloodPressure)
        #expect(pressure is CorrelationType && pressure is SampleType && pressure.kind == .correlation)
        let blood: ObjectType = CharacteristicType(.bloodType)
        #expect(blood is CharacteristicType && !(blood is SampleType))
        expectEqual([sleep, steps, workout, pressure, blood].map(Self.kindName), ["category", "quantity", "workout", "correlation", "characteristic"])
    }

    func theCatalogueMakesTheClassOfEachRowsKind() {
        for type in SampleTypeCatalogue.standard.types {
            switch type.kind {
            case .quantity: #expect(type is QuantityType, "\(type.identifier)")
            case .category: #expect(type is CategoryType, "\(type.identifier)")
            default: Issue.record("the catalogue holds the \(type.kind) type \(type.identifier)")
            }
        }
        // A lookup by identifier answers with the class HealthKit's does, or nil for another kind's identifier.
        let heartRate: QuantityType? = ObjectType.quantityType(forIdentifier: .heartRate)
        expectEqual(heartRate?.identifier, "HKQuantityTypeIdentifierHeartRate")
        expectNil(ObjectType.quantityType(forIdentifier: QuantityTypeIdentifier(CategoryTypeIdentifier.sleepAnalysis.rawValue)))
        expectNil(ObjectType.categoryType(forIdentifier: CategoryTypeIdentifier(QuantityTypeIdentifier.stepCount.rawValue)))
    }

    func setsOfTheBaseClassesHoldAMixAndCompareByIdentifier() {
        let read: Set<ObjectType> = [QuantityType(.stepCount), CategoryType(.sleepAnalysis), ObjectType.workoutType(),
                                     CharacteristicType(.dateOfBirth), CorrelationType(.food),
                                     ObjectType.quantityType(forIdentifier: .stepCount)!]
        expectEqual(read.count, 5)
        #expect(read.contains(QuantityType(.stepCount)) && read.contains(CharacteristicType(.dateOfBirth)))
        let share: Set<SampleType> = [QuantityType(.dietaryWater), CategoryType(.mindfulSession), WorkoutType.workoutType()]
        #expect(share.count == 3 && share.contains(ObjectType.workoutType()))
        // Two instances of one type are equal and hash alike; types of different identifiers are not.
        expectEqual(QuantityType(.stepCount), ObjectType.quantityType(forIdentifier: .stepCount))
        expectEqual(QuantityType(.stepCount).hashValue, QuantityType(.stepCount).hashValue)
        #expect(QuantityType(.stepCount) != QuantityType(.dietaryWater))
        expectEqual(Set(read.compactMap { $0 as? SampleType }).count, 4)
    }

    func queriesNameTheirTypeAsObjectType() {
        let type = QuantityType(.heartRate)
        let query = SampleQuery(sampleType: type, predicate: nil, limit: ObjectQueryNoLimit, sortDescriptors: nil) { _, _, _ in }
        #expect(query.objectType == type && query.objectType is QuantityType)
        let statistics = StatisticsQuery(quantityType: type, quantitySamplePredicate: nil, options: .discreteAverage) { _, _, _ in }
        expectEqual(statistics.objectType as? QuantityType, type)
    }

    // MARK: Samples

    private static let now = TestSupport.date("2024-06-10T12:00:00Z")

    private static func withStore(_ body: (HealthStore) async throws -> Void) async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            try await body(try HealthStore(directory: folder + "/store", clock: { now }))
        }
    }

    private static func heartRate(_ bpm: Double, at time: String) -> QuantitySample {
        let date = TestSupport.date(time)
        return QuantitySample(type: QuantityType(.heartRate),
                              quantity: Quantity(unit: HealthUnit.count().unitDivided(by: .minute()), doubleValue: bpm),
                              start: date, end: date)
    }

    /// A blood-pressure reading: the two members and the correlation record.
    private static func bloodPressure(_ systolic: Double, _ diastolic: Double, at time: String) throws -> [Sample] {
        let date = TestSupport.date(time)
        let members = try [(QuantityTypeIdentifier.bloodPressureSystolic, systolic), (.bloodPressureDiastolic, diastolic)].map {
            Sample(typeIdentifier: $0.0.rawValue, start: date, end: date,
                   value: .quantity(Quantity($0.1, try HealthUnit(parsing: "mmHg"))), source: "", created: date)
        }
        return members + [Correlation.sample(of: .bloodPressure, members: members, start: date, end: date, source: "",
                                             created: date)]
    }

    /// One of each kind: 62 and 75 bpm, a core-sleep stage, a run, a blood-pressure reading.
    private static func saveOneOfEach(in store: HealthStore) async throws {
        let samples: [HealthSample] = [
            heartRate(62, at: "2024-06-03T08:00:00Z"), heartRate(75, at: "2024-06-03T09:00:00Z"),
            CategorySample(type: CategoryType(.sleepAnalysis), value: CategoryValueSleepAnalysis.asleepCore.rawValue,
                           start: TestSupport.date("2024-06-02T23:00:00Z"), end: TestSupport.date("2024-06-03T01:00:00Z")),
            Workout(activityType: .running, start: TestSupport.date("2024-06-03T07:00:00Z"),
                    end: TestSupport.date("2024-06-03T07:30:00Z")),
        ]
        try await store.save(samples)
        try store.save(try bloodPressure(120, 80, at: "2024-06-03T10:00:00Z"))
    }

    /// What HealthKit code does with a sample of any kind: a function taking the base class, switching on the class.
    private static func describe(_ sample: HealthSample) -> String {
        switch sample {
        case let quantity as QuantitySample:
            "quantity \(quantity.quantity.doubleValue(for: HealthUnit.count().unitDivided(by: .minute())))"
        case let category as CategorySample: "category \(category.value)"
        case let workout as Workout: "workout \(workout.workoutActivityType.rawValue)"
        case let correlation as Correlation: "correlation of \(correlation.objects.count)"
        default: "other"
        }
    }

    func aSampleQueryHandsOutTheClassOfEachKind() async throws {
        try await Self.withStore { store in
            try await Self.saveOneOfEach(in: store)
            let calls = QueryTestSupport.Recorder<[HealthSample]?>()
            store.execute(SampleQuery(sampleType: QuantityType(.heartRate), predicate: nil, limit: ObjectQueryNoLimit,
                                      sortDescriptors: nil) { _, samples, _ in calls.record(samples) })
            let samples = try await calls.call(0)
            // HealthKit's idiom: the downcast of the whole answer succeeds, with the values saved.
            let heartRates = try #require(samples as? [QuantitySample])
            expectEqual(heartRates.map { $0.quantity.doubleValue(for: HealthUnit.count().unitDivided(by: .minute())) }, [62, 75])
            #expect(heartRates.allSatisfy { $0.quantityType == QuantityType(.heartRate) && $0.isSaved })

            let sleepCalls = QueryTestSupport.Recorder<[HealthSample]?>()
            store.execute(SampleQuery(sampleType: CategoryType(.sleepAnalysis), predicate: nil, limit: 0,
                                      sortDescriptors: nil) { _, samples, _ in sleepCalls.record(samples) })
            let sleep = try await sleepCalls.call(0)
            expectEqual((sleep?.first as? CategorySample)?.value, CategoryValueSleepAnalysis.asleepCore.rawValue)
            #expect(sleep?.first is CategorySample && !(sleep?.first is QuantitySample))
        }
    }

    func aQueryOfAnyTypeGivesWorkoutsAndCorrelationsAsTheirClasses() async throws {
        try await Self.withStore { store in
            try await Self.saveOneOfEach(in: store)
            let types: [SampleType] = [QuantityType(.heartRate), CategoryType(.sleepAnalysis), ObjectType.workoutType(),
                                       CorrelationType(.bloodPressure)]
            let all = try await SampleQueryDescriptor(predicates: types.map { .sample(type: $0) }).result(for: store)
            expectEqual(all.map(Self.describe).sorted(), ["category 3", "correlation of 2", "quantity 62.0", "quantity 75.0", "workout 37"])
            let run = try #require(all.first { $0 is Workout } as? Workout)
            #expect(run.sampleType is WorkoutType && run.duration == 1800)
            let reading = try #require(all.first { $0 is Correlation } as? Correlation)
            expectEqual(reading.correlationType, CorrelationType(.bloodPressure))
            let systolic = reading.objects(for: QuantityType(.bloodPressureSystolic)).first as? QuantitySample
            expectEqual(systolic?.quantity.doubleValue(for: .millimeterOfMercury()), 120)
            // The typed descriptors keep returning their kind.
            let workouts: [Workout] = try await SampleQueryDescriptor(predicates: [.workout()]).result(for: store)
            expectEqual(workouts.map(\.uuid), [run.uuid])
            // An anchored query hands out the same classes.
            let changes = try await AnchoredObjectQueryDescriptor(predicates: types.map { .sample(type: $0) }, anchor: nil)
                .result(for: store)
            expectEqual(changes.addedSamples.map(Self.describe).sorted(), all.map(Self.describe).sorted())
        }
    }

    func samplesOfEveryKindGoWhereAHealthSampleIsTakenAndCompareAsObjects() async throws {
        try await Self.withStore { store in
            try await Self.saveOneOfEach(in: store)
            let all = try await SampleQueryDescriptor(predicates: [.sample(type: QuantityType(.heartRate)),
                                                                   .sample(type: ObjectType.workoutType())]).result(for: store)
            let again = try await SampleQueryDescriptor(predicates: [.sample(type: QuantityType(.heartRate)),
                                                                     .sample(type: ObjectType.workoutType())]).result(for: store)
            // A set of HKSample, as HealthKit code keeps one: the same samples read twice are equal.
            #expect(Set(all) == Set(again) && Set(all + again).count == 3)
            let objects: [HealthObject] = all
            expectEqual(objects.count, 3)
            try await store.delete(all.filter { $0 is Workout })
            #expect(try await SampleQueryDescriptor(predicates: [.workout()]).result(for: store).isEmpty)
        }
    }

    func aCorrelationCarriesOnlyTheMembersItsReaderMayRead() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let path = folder + "/store"
            let owner = try HealthStore(directory: path, clock: { Self.now })
            let date = TestSupport.date("2024-06-03T12:00:00Z")
            let members = try [(QuantityTypeIdentifier.dietaryEnergyConsumed, 250.0, "kcal"), (.dietaryCaffeine, 0.08, "g")].map {
                Sample(typeIdentifier: $0.0.rawValue, start: date, end: date,
                       value: .quantity(Quantity($0.1, try HealthUnit(parsing: $0.2))), source: "", created: date)
            }
            try owner.save(members + [Correlation.sample(of: .food, members: members, start: date, end: date, source: "",
                                                         created: date)])
            // The app may read dietary energy (what a food needs), not caffeine.
            try owner.decideAuthorization(for: "app", allow: true, share: [], read: [QuantityType(.dietaryEnergyConsumed)])
            let app = try HealthStore(directory: path, source: "app", clock: { Self.now })
            let seenByOwner = try await SampleQueryDescriptor(predicates: [.sample(type: CorrelationType(.food))]).result(for: owner)
            expectEqual((seenByOwner.first as? Correlation)?.objects.count, 2)
            let seen = try await SampleQueryDescriptor(predicates: [.sample(type: CorrelationType(.food))]).result(for: app)
            let food = try #require(seen.first as? Correlation)
            expectEqual(food.objects.map(\.sampleType), [QuantityType(.dietaryEnergyConsumed)])
        }
    }
}

/// The checks ``ObjectModelTests/checks(_:)`` runs.
private let objectModelTestsChecks: [Check<ObjectModelTests>] = [
    Check("eachKindOfTypeIsItsOwnClass", ObjectModelTests.eachKindOfTypeIsItsOwnClass),
    Check("theCatalogueMakesTheClassOfEachRowsKind", ObjectModelTests.theCatalogueMakesTheClassOfEachRowsKind),
    Check("setsOfTheBaseClassesHoldAMixAndCompareByIdentifier",
          ObjectModelTests.setsOfTheBaseClassesHoldAMixAndCompareByIdentifier),
    Check("queriesNameTheirTypeAsObjectType", ObjectModelTests.queriesNameTheirTypeAsObjectType),
    Check("aSampleQueryHandsOutTheClassOfEachKind", ObjectModelTests.aSampleQueryHandsOutTheClassOfEachKind),
    Check("aQueryOfAnyTypeGivesWorkoutsAndCorrelationsAsTheirClasses",
          ObjectModelTests.aQueryOfAnyTypeGivesWorkoutsAndCorrelationsAsTheirClasses),
    Check("samplesOfEveryKindGoWhereAHealthSampleIsTakenAndCompareAsObjects",
          ObjectModelTests.samplesOfEveryKindGoWhereAHealthSampleIsTakenAndCompareAsObjects),
    Check("aCorrelationCarriesOnlyTheMembersItsReaderMayRead",
          ObjectModelTests.aCorrelationCarriesOnlyTheMembersItsReaderMayRead),
]
