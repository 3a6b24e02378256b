import Foundation
import HealthCore
import Testing
import TestKit

/// `Query.predicateForWorkouts(with:)`, HealthKit's `HKQuery.predicateForWorkouts(with:)`: only workouts of the
/// activity type, alone and combined with other predicates, through the store's queries.
struct WorkoutActivityPredicateTests {
    private static let now = TestSupport.date("2024-06-10T12:00:00Z")

    private static func workout(_ type: WorkoutActivityType, _ start: String, minutes: Double) -> Workout {
        let start = TestSupport.date(start)
        return Workout(activityType: type, start: start, end: start.addingTimeInterval(minutes * 60), duration: minutes * 60,
                       totalEnergyBurned: nil, totalDistance: nil, metadata: nil)
    }

    @Test func onlyWorkoutsOfTheActivityTypeMatch() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let now = Self.now
            let store = try HealthStore(directory: folder + "/store", clock: { now })
            try await store.save(Self.workout(.running, "2024-06-08T07:00:00Z", minutes: 45))
            try await store.save(Self.workout(.cycling, "2024-06-09T17:00:00Z", minutes: 90))
            try await store.save(Self.workout(.running, "2024-06-10T07:00:00Z", minutes: 30))
            try await store.save(Self.workout(.other, "2024-06-10T09:00:00Z", minutes: 10))
            try await store.save(CategorySample(type: CategoryType(.sleepAnalysis), value: CategoryValueSleepAnalysis.inBed.rawValue,
                                                start: TestSupport.date("2024-06-09T22:00:00Z"), end: TestSupport.date("2024-06-10T06:00:00Z")))
            func durations(_ predicate: SamplePredicate) async throws -> [TimeInterval] {
                try await SampleQueryDescriptor(predicates: [.workout(predicate)], sortDescriptors: [SortDescriptor(\Workout.startDate)])
                    .result(for: store).map(\.duration)
            }
            // Runs: 45 and 30 minutes; rides: 90; other: 10.
            try await expectEqual(durations(Query.predicateForWorkouts(with: .running)), [2_700, 1_800])
            try await expectEqual(durations(Query.predicateForWorkouts(with: .cycling)), [5_400])
            try await expectEqual(durations(Query.predicateForWorkouts(with: .other)), [600])
            try await expectEqual(durations(Query.predicateForWorkouts(with: .swimming)), [])
            // With a date range (since 9 June): the 10 June run only; two activity types together: none.
            let since9 = Query.predicateForSamples(withStart: TestSupport.date("2024-06-09T00:00:00Z"), end: nil)
            try await expectEqual(durations(SamplePredicate(andPredicateWithSubpredicates: [Query.predicateForWorkouts(with: .running), since9])), [1_800])
            try await expectEqual(durations(.and([Query.predicateForWorkouts(with: .running), Query.predicateForWorkouts(with: .cycling)])), [])
            // A sample of another type never matches: a query of sleep with the predicate finds nothing.
            let sleep = try await SampleQueryDescriptor(predicates: [.categorySample(type: CategoryType(.sleepAnalysis), predicate: Query.predicateForWorkouts(with: .running))])
                .result(for: store)
            #expect(sleep.isEmpty)
        }
    }

    /// `HKWorkoutActivityType(rawValue:)`: a raw value HealthKit defines gives its type, another nil; two types with one
    /// raw value are equal whatever name they were made with, as HealthKit's enumeration cases (a review: a type made
    /// as `(37, "swimming")` differed from `.running` yet was saved as running).
    @Test func anActivityTypeIsItsRawValue() {
        expectEqual(WorkoutActivityType(rawValue: 37), .running)
        expectEqual(WorkoutActivityType(rawValue: 46)?.name, "swimming")
        #expect(WorkoutActivityType(rawValue: 81) == nil)
        #expect(WorkoutActivityType(rawValue: -1) == nil)
        #expect(WorkoutActivityType(37, "swimming") == .running)
        expectEqual(Set([WorkoutActivityType(37, "swimming"), .running]).count, 1)
        #expect(WorkoutActivityType.raw(81) != .running && WorkoutActivityType.raw(81).rawValue == 81)
    }
}
