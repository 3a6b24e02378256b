import Foundation
import HealthCore
import Testing
import TestKit

// Workouts read the ways public HealthKit client code reads them, spelled by the porting rules alone
// (docs/LIBRARY.md, "Real client code, in its own shapes").
//
// NOT a copy of those files: the code index they were found in keeps third-party code out of this repository, so the
// functions below were written here, call for call in the shapes of (read 28 November 2026, no licence file found):
//   - async descriptor: "WorkoutStore" in a file "HealthKitManager.swift" of "Workout Exporter" by Eric McCarthy
//     (repository not named by the index): HKSampleQueryDescriptor(predicates: [.workout()],
//     sortDescriptors: [SortDescriptor(\.endDate, order: .reverse)], limit: 100), `try await ….result(for:)`; and
//     "WorkoutsBy.swift" by Fernando Fuentes: `.filter { $0.workoutActivityType == type }` on the result;
//   - handler-based in a continuation: jonesstoen/WorkOutTracker,
//     WorkoutTracker/Core/Data/HealthKit/HealthKitService.swift (`fetchWorkouts(limit:)`:
//     NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: false), HKSampleQuery(sampleType:
//     .workoutType(), predicate: nil, limit:, sortDescriptors:), `samples as? [HKWorkout] ?? []`);
//   - compound predicate: fozeu-jm/fitBitProject, fitBit/WorkoutDataStore.swift and "WorkoutsDataStore.swift" of
//     Activity Footprint (Ravi Vooda): NSCompoundPredicate(andPredicateWithSubpredicates:), HKQuery.predicateForObjects,
//     limit 0, `guard let samples = samples as? [HKWorkout], error == nil`. Two of their lines do not port (see
//     LIBRARY.md) as written: `HKSource.default()` (the store's own source name, `Source(name:)`, stands in for it),
//     and `HKQuery.predicateForWorkouts(with: .other)`, which ports since this session added it.

/// Async descriptors.
struct DescriptorWorkoutReader {
    let healthStore: HealthStore

    //>> fetchWorkouts (descriptor)
    func fetchWorkouts(limit: Int = 100) async throws -> [Workout] {
        let workoutQuery = SampleQueryDescriptor(
            predicates: [.workout()],
            sortDescriptors: [SortDescriptor(\.endDate, order: .reverse)],
            limit: limit
        )

        let workouts = try await workoutQuery.result(for: healthStore)
        return workouts
    }

    func getWorkouts(by type: WorkoutActivityType) async throws -> [Workout] {
        let sample = try await fetchWorkouts()
            .filter { $0.workoutActivityType == type }
        return sample
    }
    //<<
}

/// Handler-based, resumed through a continuation.
enum HandlerWorkoutReader {
    //>> fetchWorkouts (handler)
    static func fetchWorkouts(limit: Int = 100, store: HealthStore) async throws -> [Workout] {
        try await withCheckedThrowingContinuation { cont in
            let sort = SampleSortDescriptor(key: SampleSortIdentifierStartDate, ascending: false)
            let query = SampleQuery(
                sampleType: .workoutType(),
                predicate: nil,
                limit: limit,
                sortDescriptors: [sort]
            ) { _, samples, error in
                if let error = error {
                    cont.resume(throwing: error)
                } else {
                    cont.resume(returning: samples as? [Workout] ?? [])
                }
            }
            store.execute(query)
        }
    }
    //<<

    //>> loadWorkouts (compound predicate)
    static func loadWorkouts(_ type: WorkoutActivityType, since start: Date, source: Source, store: HealthStore, completion: @escaping @Sendable ([Workout]?, Error?) -> Void) {
        let workoutPredicate = Query.predicateForWorkouts(with: type)
        let datePredicate = Query.predicateForSamples(withStart: start, end: nil)
        let sourcePredicate = Query.predicateForObjects(from: source)
        let compound = SamplePredicate(andPredicateWithSubpredicates: [workoutPredicate, datePredicate, sourcePredicate])
        let sortDescriptor = SampleSortDescriptor(key: SampleSortIdentifierEndDate, ascending: true)
        let query = SampleQuery(
          sampleType: .workoutType(),
          predicate: compound,
          limit: 0,
          sortDescriptors: [sortDescriptor]) { (query, samples, error) in
              guard
                let samples = samples as? [Workout],
                error == nil
                else {
                  completion(nil, error)
                  return
              }
              completion(samples, nil)
          }
        store.execute(query)
    }
    //<<
}

struct ClientPatternWorkoutTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: clientPatternWorkoutTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// Three workouts, by hand:
    /// - run 8 June 07:00–07:45 (2,700 s), 450 kcal, 8 km;
    /// - ride 9 June 17:00–18:30 (5,400 s), 900 kcal, 36 km;
    /// - run 10 June 07:00–07:30 (1,800 s), 300 kcal, 5 km.
    static func saveWorkouts(in store: HealthStore) async throws {
        func workout(_ type: WorkoutActivityType, _ start: String, _ end: String, _ kcal: Double, _ km: Double) -> Workout {
            let start = Seed.date(start), end = Seed.date(end)
            return Workout(activityType: type, start: start, end: end, duration: end.timeIntervalSince(start),
                           totalEnergyBurned: Quantity(unit: .kilocalorie(), doubleValue: kcal),
                           totalDistance: Quantity(unit: .meterUnit(with: .kilo), doubleValue: km), metadata: nil)
        }
        try await store.save(workout(.running, "2024-06-08T07:00:00Z", "2024-06-08T07:45:00Z", 450, 8))
        try await store.save(workout(.cycling, "2024-06-09T17:00:00Z", "2024-06-09T18:30:00Z", 900, 36))
        try await store.save(workout(.running, "2024-06-10T07:00:00Z", "2024-06-10T07:30:00Z", 300, 5))
    }

    func descriptorFetchesLatestFirst() async throws {
        try await Seed.withStore { store in
            try await Self.saveWorkouts(in: store)
            let reader = DescriptorWorkoutReader(healthStore: store)
            // Latest end first: 10 June run, 9 June ride, 8 June run.
            let all = try await reader.fetchWorkouts()
            #expect(all.map(\.workoutActivityType) == [.running, .cycling, .running])
            #expect(all.map(\.duration) == [1_800, 5_400, 2_700])
            #expect(try await reader.fetchWorkouts(limit: 2).map(\.endDate) == [Seed.date("2024-06-10T07:30:00Z"), Seed.date("2024-06-09T18:30:00Z")])
            // Runs: 30 + 45 = 75 min, 300 + 450 = 750 kcal, 5 + 8 = 13 km.
            let runs = try await reader.getWorkouts(by: .running)
            // Sums computed outside the macro: closures inside `#expect` took the type checker seconds.
            var minutes = 0.0, kilocalories = 0.0, kilometres = 0.0
            for run in runs {
                minutes += run.duration / 60
                kilocalories += run.totalEnergyBurned?.doubleValue(for: .kilocalorie()) ?? 0
                kilometres += run.totalDistance?.doubleValue(for: .meterUnit(with: .kilo)) ?? 0
            }
            #expect(minutes == 75)
            #expect(kilocalories == 750)
            #expect(kilometres == 13)
            // The ride in metres: 36,000.
            #expect(try await reader.getWorkouts(by: .cycling).first?.totalDistance?.doubleValue(for: .meter()) == 36_000)
        }
    }

    func handlerFetchesLatestStartFirst() async throws {
        try await Seed.withStore { store in
            try await Self.saveWorkouts(in: store)
            // Latest start first, two of them: the 10 June run (07:00), the 9 June ride (17:00).
            let two = try await HandlerWorkoutReader.fetchWorkouts(limit: 2, store: store)
            #expect(two.map(\.startDate) == [Seed.date("2024-06-10T07:00:00Z"), Seed.date("2024-06-09T17:00:00Z")])
            #expect(two.map(\.workoutActivityType) == [.running, .cycling])
            // No limit: all three, 2,700 + 5,400 + 1,800 = 9,900 s.
            // Summed outside the macro: a closure inside `#expect` took the type checker seconds.
            var seconds = 0.0
            for workout in try await HandlerWorkoutReader.fetchWorkouts(store: store) { seconds += workout.duration }
            #expect(seconds == 9_900)
        }
    }

    /// The handler's workouts, collected.
    private static func load(_ type: WorkoutActivityType, since start: String, source: String, store: HealthStore) async throws -> [Workout] {
        try await withCheckedThrowingContinuation { continuation in
            HandlerWorkoutReader.loadWorkouts(type, since: Seed.date(start), source: Source(name: source), store: store) { samples, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: samples ?? []) }
            }
        }
    }

    func compoundPredicateLoadsAnActivitySinceADateFromASource() async throws {
        try await Seed.withStore { store in
            try await Self.saveWorkouts(in: store)
            let owner = AuthorizationState.ownerSource
            // Runs since 9 June 00:00, written by the store's own source: the 10 June run only (the 8 June run is
            // earlier, the ride is no run).
            #expect(try await Self.load(.running, since: "2024-06-09T00:00:00Z", source: owner, store: store).map(\.startDate) == [Seed.date("2024-06-10T07:00:00Z")])
            // Runs since 1 June, oldest end first: 8 June (07:45), 10 June (07:30); 8 + 5 = 13 km.
            let runs = try await Self.load(.running, since: "2024-06-01T00:00:00Z", source: owner, store: store)
            #expect(runs.map(\.endDate) == [Seed.date("2024-06-08T07:45:00Z"), Seed.date("2024-06-10T07:30:00Z")])
            var kilometres = 0.0
            for run in runs { kilometres += run.totalDistance?.doubleValue(for: .meterUnit(with: .kilo)) ?? 0 }
            #expect(kilometres == 13)
            // Rides since 1 June: the 9 June ride, 36 km.
            let rides = try await Self.load(.cycling, since: "2024-06-01T00:00:00Z", source: owner, store: store)
            #expect(rides.map(\.endDate) == [Seed.date("2024-06-09T18:30:00Z")])
            #expect(rides.first?.totalDistance?.doubleValue(for: .meterUnit(with: .kilo)) == 36)
            // Runs from another source: none (the store's own source wrote them all).
            #expect(try await Self.load(.running, since: "2024-06-01T00:00:00Z", source: "org.example.other", store: store).isEmpty)
        }
    }
}

/// The checks ``ClientPatternWorkoutTests/checks(_:)`` runs.
private let clientPatternWorkoutTestsChecks: [Check<ClientPatternWorkoutTests>] = [
    Check("descriptorFetchesLatestFirst", ClientPatternWorkoutTests.descriptorFetchesLatestFirst),
    Check("handlerFetchesLatestStartFirst", ClientPatternWorkoutTests.handlerFetchesLatestStartFirst),
    Check("compoundPredicateLoadsAnActivitySinceADateFromASource",
          ClientPatternWorkoutTests.compoundPredicateLoadsAnActivitySinceADateFromASource),
]
