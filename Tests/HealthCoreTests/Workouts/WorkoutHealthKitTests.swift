import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Workouts with HealthKit's face: figures per type (`statistics(for:)`, `allStatistics`), events, parts, samples
/// associated with a workout (`add(_:to:)`, `predicateForObjects(from: workout)`) kept through undo and delete, and
/// routes found the same way.
struct WorkoutHealthKitTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: workoutHealthKitTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static let now = TestSupport.date("2024-06-10T12:00:00Z")
    private static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/import/workout-children.xml").path
    private static let heartRate = QuantityType(.heartRate)

    /// A store at `folder/store` that records its writes as `kind` operations of the owner, so they can be undone.
    private static func store(_ folder: String, _ kind: OperationRecord.Kind) throws -> HealthStore {
        let storage = JSONFileStore(path: folder + "/store", timeZone: .gmt, lockTimeout: 2, clock: { now },
                                    recording: OperationRecording(kind: kind, source: AuthorizationState.ownerSource, date: now))
        return try HealthStore(storage: storage, source: AuthorizationState.ownerSource)
    }

    private static func run(start: String = "2024-06-03T07:00:00Z", end: String = "2024-06-03T08:00:00Z") -> Workout {
        Workout(activityType: .running, start: TestSupport.date(start), end: TestSupport.date(end),
                totalEnergyBurned: Quantity(unit: .kilocalorie(), doubleValue: 600),
                totalDistance: Quantity(unit: .meterUnit(with: .kilo), doubleValue: 10))
    }

    /// `workout` with `route` (a workout is immutable: a new one with the same record and the route in its detail).
    private static func with(_ route: WorkoutRoute, _ workout: Workout) -> Workout {
        var detail = workout.detail
        detail.route = route
        return Workout(uuid: workout.uuid, activity: workout.activity, start: workout.startDate, end: workout.endDate,
                       detail: detail, source: workout.sample.source, created: workout.sample.created,
                       metadata: workout.sample.metadata)
    }

    private static func beat(_ bpm: Double, at time: String) -> QuantitySample {
        let date = TestSupport.date(time)
        return QuantitySample(type: heartRate, quantity: Quantity(unit: .count().unitDivided(by: .minute()), doubleValue: bpm),
                              start: date, end: date)
    }

    private static func associated(with workout: Workout, in store: HealthStore, type: SampleType = heartRate) async throws -> [HealthSample] {
        try await SampleQueryDescriptor(predicates: [.sample(type: type, predicate: Query.predicateForObjects(from: workout))])
            .result(for: store)
    }

    private static func workouts(_ store: HealthStore) async throws -> [Workout] {
        try await SampleQueryDescriptor(predicates: [.workout()]).result(for: store)
    }

    // MARK: - Figures, events and parts of an imported export

    func anExportsWorkoutChildrenReachStatisticsEventsAndActivities() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let storage = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            _ = try HealthImporter(store: storage).importFile(atPath: Self.fixture)
            let store = try HealthStore(storage: storage, source: AuthorizationState.ownerSource)
            let workout = try #require(try await Self.workouts(store).first)
            expectEqual(workout.workoutActivityType, .swimBikeRun)
            expectEqual(workout.totalEnergyBurned?.doubleValue(for: .kilocalorie()), 640)
            expectEqual(workout.totalDistance?.doubleValue(for: .meterUnit(with: .kilo)), 21.5)
            // The workout's own figures.
            let energy = try #require(workout.statistics(for: QuantityType(.activeEnergyBurned)))
            expectEqual(energy.sumQuantity()?.doubleValue(for: .kilocalorie()), 640)
            let beats = try #require(workout.statistics(for: Self.heartRate))
            let perMinute = HealthUnit.count().unitDivided(by: .minute())
            expectEqual(beats.averageQuantity()?.doubleValue(for: perMinute), 142)
            expectEqual(beats.minimumQuantity()?.doubleValue(for: perMinute), 98)
            expectEqual(beats.maximumQuantity()?.doubleValue(for: perMinute), 171)
            expectNil(beats.sumQuantity())
            // Its parts' figures, found through the workout when it has none of its own: 1500 m swum, 20 km cycled.
            expectEqual(workout.statistics(for: QuantityType(.distanceSwimming))?.sumQuantity()?.doubleValue(for: .meter()), 1500)
            expectEqual(workout.statistics(for: QuantityType(.distanceCycling))?.sumQuantity()?.doubleValue(for: .meter()), 20_000)
            expectNil(workout.statistics(for: QuantityType(.stepCount)))
            expectEqual(Set(workout.allStatistics.keys.map(\.identifier)), [
                "HKQuantityTypeIdentifierActiveEnergyBurned", "HKQuantityTypeIdentifierHeartRate",
                "HKQuantityTypeIdentifierDistanceSwimming", "HKQuantityTypeIdentifierDistanceCycling"])
            expectEqual(workout.allStatistics[Self.heartRate]?.averageQuantity()?.doubleValue(for: perMinute), 142)
            // Events: pause, resume, a 20-minute segment.
            let events = workout.workoutEvents ?? []
            expectEqual(events.map(\.type), [.pause, .resume, .segment])
            expectEqual(events[2].dateInterval, DateInterval(start: TestSupport.date("2024-05-03T08:00:00Z"), duration: 1200))
            expectEqual(events[0].dateInterval.duration, 0)
            // Parts, in time order, with their own events and figures.
            let parts = workout.workoutActivities
            expectEqual(parts.map(\.startDate), [TestSupport.date("2024-05-03T08:00:00Z"), TestSupport.date("2024-05-03T08:25:00Z")])
            expectEqual(parts[1].endDate, TestSupport.date("2024-05-03T09:00:00Z"))
            expectEqual(parts[1].workoutEvents.map(\.type), [.lap])
            expectEqual(parts[1].statistics(for: QuantityType(.distanceCycling))?.sumQuantity()?.doubleValue(for: .meterUnit(with: .kilo)), 20)
            expectEqual(parts[0].allStatistics.keys.map(\.identifier), ["HKQuantityTypeIdentifierDistanceSwimming"])
            // The route: the GPX file the WorkoutRoute element names, beside the export (workout-routes/), found as
            // HealthKit finds a route.
            let routes = try await SampleQueryDescriptor(predicates: [.sample(type: .workoutRouteType(),
                                                                              predicate: Query.predicateForObjects(from: workout))])
                .result(for: store) as? [WorkoutRoute]
            let route = try #require(routes?.first)
            expectEqual(route.locations.map(\.latitude), [51.5074, 51.5075, 51.5077])
            expectEqual(route.locations.map(\.timestamp), [TestSupport.date("2024-05-03T08:25:00Z"), TestSupport.date("2024-05-03T08:25:10Z"),
                                                           TestSupport.date("2024-05-03T08:25:20Z")])
            let first = route.locations[0]
            #expect(first.longitude == -0.1275 && first.altitude == 11.2 && first.speed == 6.1 && first.course == 90.5)
            #expect(first.horizontalAccuracy == 4.2 && first.verticalAccuracy == 3.1)
        }
    }

    func aRouteInTheArchiveIsReadAndAMissingOrBrokenOneLeavesTheWorkoutWithoutARoute() async throws {
        let xml = try String(contentsOfFile: Self.fixture, encoding: .utf8)
        let gpx = try String(contentsOfFile: URL(fileURLWithPath: Self.fixture).deletingLastPathComponent()
            .appendingPathComponent("workout-routes/route_2024-05-03_9.00am.gpx").path, encoding: .utf8)
        func importedRoute(_ build: (inout ZipBuilder) -> Void) throws -> WorkoutRoute? {
            try TestSupport.withTemporaryDirectory { folder in
                var zip = ZipBuilder()
                zip.add("apple_health_export/export.xml", xml)
                build(&zip)
                try Data(zip.bytes()).write(to: URL(fileURLWithPath: folder + "/export.zip"))
                let store = InMemorySampleStore()
                _ = try HealthImporter(store: store).importFile(atPath: folder + "/export.zip")
                let workouts = store.allSamples.compactMap(Workout.init(sample:))
                expectEqual(workouts.count, 1)
                return workouts.first?.detail.route
            }
        }
        let route = try importedRoute { $0.add("apple_health_export/workout-routes/route_2024-05-03_9.00am.gpx", gpx) }
        #expect(route?.locations.count == 3 && route?.locations.last?.speed == 6.6)
        try expectNil(importedRoute { _ in }, "no such member")
        // A point without a time: the whole route is left out, never kept in part.
        let broken = gpx.replacingOccurrences(of: "<time>2024-05-03T08:25:10Z</time>", with: "")
        try expectNil(importedRoute { $0.add("apple_health_export/workout-routes/route_2024-05-03_9.00am.gpx", broken) })
    }

    func whatGPXWriterWritesReadsBack() throws {
        let start = TestSupport.date("2024-06-03T07:00:00.250Z")
        let workout = Self.with(WorkoutRoute(locations: [
            WorkoutRoute.Location(timestamp: start, latitude: 51.5, longitude: -0.12, altitude: 20),
            WorkoutRoute.Location(timestamp: start.addingTimeInterval(60), latitude: -33.9, longitude: 151.2),
        ]), Self.run())
        let read = try #require(GPXReader.locations(in: try GPXWriter.document(for: workout)))
        expectEqual(read, workout.detail.route?.locations)
    }

    func partsFiguresCombineBySummingAndWeightingAverages() {
        let start = TestSupport.date("2024-06-03T07:00:00Z")
        let parts = [
            WorkoutActivity(start: start, end: start.addingTimeInterval(600), statistics: [
                WorkoutStatistic(typeIdentifier: "HKQuantityTypeIdentifierHeartRate", start: start, end: start.addingTimeInterval(600),
                                 average: 120, minimum: 90, maximum: 150, unit: "count/min"),
                WorkoutStatistic(typeIdentifier: "HKQuantityTypeIdentifierDistanceWalkingRunning", start: start,
                                 end: start.addingTimeInterval(600), sum: 2, unit: "km")]),
            WorkoutActivity(start: start.addingTimeInterval(600), end: start.addingTimeInterval(2400), statistics: [
                WorkoutStatistic(typeIdentifier: "HKQuantityTypeIdentifierHeartRate", start: start.addingTimeInterval(600),
                                 end: start.addingTimeInterval(2400), average: 160, minimum: 130, maximum: 180, unit: "count/min"),
                WorkoutStatistic(typeIdentifier: "HKQuantityTypeIdentifierDistanceWalkingRunning", start: start.addingTimeInterval(600),
                                 end: start.addingTimeInterval(2400), sum: 1500, unit: "m")]),
        ]
        let workout = Workout(activity: .running, start: start, end: start.addingTimeInterval(2400),
                              detail: WorkoutDetail(duration: 2400, activities: parts), source: "test", created: start)
        let beats = workout.statistics(for: Self.heartRate)
        // (120 × 10 min + 160 × 30 min) / 40 min = 150; the lowest minimum, the highest maximum.
        #expect(beats?.average == 150 && beats?.minimum == 90 && beats?.maximum == 180)
        // 2 km + 1500 m = 3.5 km, in the first part's unit.
        expectEqual(workout.statistics(for: QuantityType(.distanceWalkingRunning))?.sumQuantity()?.doubleValue(for: .meter()), 3500)
        expectEqual(workout.distanceMeters, 3500)
        // A multisport workout's distance adds its distances of every kind, each once (the workout's own figure, else
        // its parts'): a swim of 1,500 m, a ride of 40 km and a run of 10 km are 51.5 km (a review: the swim alone).
        let distance = { (kind: String, sum: Double, unit: String) in
            WorkoutStatistic(typeIdentifier: "HKQuantityTypeIdentifierDistance" + kind, start: start, end: start.addingTimeInterval(7200),
                             sum: sum, unit: unit)
        }
        let triathlon = Workout(activity: .swimBikeRun, start: start, end: start.addingTimeInterval(7200),
                                detail: WorkoutDetail(duration: 7200, statistics: [distance("Swimming", 1500, "m"), distance("Cycling", 40, "km")],
                                                      activities: [WorkoutActivity(start: start, statistics: [distance("Swimming", 1500, "m"),
                                                                                                               distance("WalkingRunning", 10, "km")])]),
                                source: "test", created: start)
        expectEqual(triathlon.distanceMeters, 51_500)
        expectEqual(triathlon.totalStatistics.count, 3)
    }

    // MARK: - Associated samples

    /// A sample associated with a workout and then replaced (a greater sync version, a correction) stays associated
    /// through the sample replacing it, and an undo associates the restored one again (before session 40 the workout
    /// went on naming the replaced sample, and found nothing).
    func aReplacedAssociatedSampleStaysWithItsWorkout() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            // Each step an operation of its own, as each command is.
            var store: HealthStore { get throws { try Self.store(folder, .add) } }
            let workout = Self.run()
            try await store.save(workout)
            func beat(_ bpm: Double, version: Double) -> QuantitySample {
                QuantitySample(type: Self.heartRate, quantity: Quantity(unit: .count().unitDivided(by: .minute()), doubleValue: bpm),
                               start: TestSupport.date("2024-06-03T07:10:00Z"), end: TestSupport.date("2024-06-03T07:10:00Z"),
                               metadata: [MetadataKeySyncIdentifier: "beat-1", MetadataKeySyncVersion: .number(version)])
            }
            let perMinute = HealthUnit.count().unitDivided(by: .minute())
            func values() async throws -> [Double] {
                try await Self.associated(with: workout, in: store).compactMap { ($0 as? QuantitySample)?.quantity.doubleValue(for: perMinute) }
            }
            try await store.add([beat(150, version: 1) as HealthSample], to: workout)
            try await store.save(beat(152, version: 2))
            try await expectEqual(values(), [152], "a greater version")
            let current = try #require(try await Self.associated(with: workout, in: store).first)
            var corrected = current.sample
            corrected.uuid = UUID()
            corrected.value = .quantity(Quantity(148, perMinute))
            try store.storage.replace([current.uuid], with: [corrected], now: Self.now)
            try await expectEqual(values(), [148], "a correction")
            expectEqual(try await Self.workouts(store).map(\.uuid), [workout.uuid], "the workout keeps its uuid")
            _ = try store.storage.undo(source: AuthorizationState.ownerSource, now: Self.now)
            try await expectEqual(values(), [152], "the correction undone")
            _ = try store.storage.undo(source: AuthorizationState.ownerSource, now: Self.now)
            try await expectEqual(values(), [150], "the greater version undone")
        }
    }

    /// A food entry associated with a workout and replaced by its greater sync version: the workout names the new entry.
    func aReplacedAssociatedCorrelationStaysWithItsWorkout() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try Self.store(folder, .add)
            let workout = Self.run()
            try await store.save(workout)
            let at = TestSupport.date("2024-06-03T07:30:00Z")
            func entry(_ kcal: Double, version: Double) throws -> [Sample] {
                let energy = Sample(typeIdentifier: QuantityTypeIdentifier.dietaryEnergyConsumed.rawValue, start: at, end: at,
                                    value: .quantity(Quantity(kcal, .kilocalorie())), source: AuthorizationState.ownerSource, created: Self.now)
                var food = Correlation.sample(of: .food, members: [energy], start: at, end: at, source: AuthorizationState.ownerSource,
                                              created: Self.now)
                food.metadata = [MetadataKeySyncIdentifier: "lunch-1", MetadataKeySyncVersion: .number(version)]
                return [energy, food]
            }
            let first = try entry(300, version: 1)
            try store.storage.saveReporting(first)
            try store.add([first[1]], to: workout)
            let later = try entry(350, version: 2)
            try store.storage.saveReporting(later)
            let found = try await Self.associated(with: workout, in: store, type: CorrelationType(.food))
            expectEqual(found.map(\.uuid), [later[1].uuid])
        }
    }

    func samplesAddedToAWorkoutAreFoundByItAndNothingElseIs() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try Self.store(folder, .add)
            let workout = Self.run()
            try await store.save(workout)
            let stored = Self.beat(150, at: "2024-06-03T07:10:00Z")
            let outside = Self.beat(70, at: "2024-06-03T09:00:00Z")
            try await store.save([stored as HealthSample, outside])
            #expect(try await Self.associated(with: workout, in: store).isEmpty)
            // One stored sample and one new one: the new one is saved by the call.
            let fresh = Self.beat(162, at: "2024-06-03T07:40:00Z")
            try await store.add([stored as HealthSample, fresh], to: workout)
            let found = try await Self.associated(with: workout, in: store)
            expectEqual(Set(found.map(\.uuid)), [stored.uuid, fresh.uuid])
            #expect(found.allSatisfy { $0.sourceName == AuthorizationState.ownerSource })
            // The workout value read before the call finds them too, as does a fresh read; the workout keeps its uuid
            // and figures, and is not doubled.
            let reread = try await Self.workouts(store)
            expectEqual(reread.map(\.uuid), [workout.uuid])
            expectEqual(reread[0].totalEnergyBurned?.doubleValue(for: .kilocalorie()), 600)
            #expect(Set(try await Self.associated(with: reread[0], in: store).map(\.uuid)) == [stored.uuid, fresh.uuid])
            // A statistics query over the workout's samples, as HealthKit code computes a workout's heart-rate range:
            // 150 to 162, the reading of 70 outside it left out.
            let perMinute = HealthUnit.count().unitDivided(by: .minute())
            let range = try await StatisticsQueryDescriptor(
                predicate: .quantitySample(type: Self.heartRate, predicate: Query.predicateForObjects(from: workout)),
                options: [.discreteMin, .discreteMax]).result(for: store)
            expectEqual(range?.minimumQuantity()?.doubleValue(for: perMinute), 150)
            expectEqual(range?.maximumQuantity()?.doubleValue(for: perMinute), 162)
            // Adding again associates once; another workout finds nothing; every heart rate is still there.
            try await store.add([stored as HealthSample], to: workout)
            try await expectEqual(Self.associated(with: workout, in: store).count, 2)
            let other = Self.run(start: "2024-06-04T07:00:00Z", end: "2024-06-04T08:00:00Z")
            try await store.save(other)
            #expect(try await Self.associated(with: other, in: store).isEmpty)
            let all = try await SampleQueryDescriptor(predicates: [.quantitySample(type: Self.heartRate)]).result(for: store)
            expectEqual(all.count, 3)
            // The predicate combines with others as HealthKit's compound predicates do.
            let late = SamplePredicate.and([Query.predicateForObjects(from: workout),
                                            Query.predicateForSamples(withStart: TestSupport.date("2024-06-03T07:30:00Z"), end: nil)])
            let lateFound = try await SampleQueryDescriptor(predicates: [.quantitySample(type: Self.heartRate, predicate: late)])
                .result(for: store)
            expectEqual(lateFound.map(\.uuid), [fresh.uuid])
            // The completion-handler form.
            let extra = Self.beat(155, at: "2024-06-03T07:20:00Z")
            let result = await withCheckedContinuation { continuation in
                store.add([extra], to: workout) { success, error in continuation.resume(returning: (success, error == nil)) }
            }
            #expect(result == (true, true))
            try await expectEqual(Self.associated(with: workout, in: store).count, 3)
        }
    }

    func addingToAWorkoutThatIsNotStoredOrADeletedSampleChangesNothing() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try Self.store(folder, .add)
            let workout = Self.run()
            try await store.save(Self.beat(100, at: "2024-06-03T07:05:00Z"))
            let before = TestSupport.walkFiles(folder + "/store")
            func code(_ call: () async throws -> Void) async -> HealthError.Code? {
                do { try await call(); return nil } catch let error as HealthError { return error.code } catch { return nil }
            }
            await expectEqual(code { try await store.add([Self.beat(120, at: "2024-06-03T07:10:00Z")], to: workout) }, .errorInvalidArgument)
            expectEqual(TestSupport.walkFiles(folder + "/store"), before, "a workout never saved: nothing written")
            try await store.save(workout)
            let gone = Self.beat(130, at: "2024-06-03T07:15:00Z")
            try await store.save(gone)
            try await store.delete(gone)
            let saved = TestSupport.walkFiles(folder + "/store")
            let fresh = Self.beat(140, at: "2024-06-03T07:20:00Z")
            await expectEqual(code { try await store.add([fresh as HealthSample, gone], to: workout) }, .errorInvalidArgument)
            await expectEqual(code { try await store.add([workout], to: workout) }, .errorInvalidArgument)
            expectEqual(TestSupport.walkFiles(folder + "/store"), saved, "a deleted sample: the new one is not saved either")
            #expect(try await Self.associated(with: workout, in: store).isEmpty)
        }
    }

    func undoingTheAssociationKeepsTheWorkoutAndDropsWhatTheCallSaved() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let workout = Self.run()
            try await Self.store(folder, .add).save(workout)
            let stored = Self.beat(150, at: "2024-06-03T07:10:00Z")
            try await Self.store(folder, .add).save(stored)
            let associating = try Self.store(folder, .add)
            let fresh = Self.beat(162, at: "2024-06-03T07:40:00Z")
            try await associating.add([stored as HealthSample, fresh], to: workout)
            _ = try associating.storage.undo(source: AuthorizationState.ownerSource, now: Self.now)
            let reader = try Self.store(folder, .add)
            // The workout is back as it was, under its own uuid; the sample the call saved is gone, the other stays.
            let workouts = try await Self.workouts(reader)
            expectEqual(workouts.map(\.uuid), [workout.uuid])
            #expect(try await Self.associated(with: workout, in: reader).isEmpty)
            let beats = try await SampleQueryDescriptor(predicates: [.quantitySample(type: Self.heartRate)]).result(for: reader)
            expectEqual(beats.map(\.uuid), [stored.uuid])
        }
    }

    /// Undo twice after `add(_:to:)`: the association goes, then the workout's own save (its line restored in place
    /// by the first undo is what the second deletes).
    func undoingTheAssociationThenTheWorkoutsSaveLeavesNoWorkout() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let workout = Self.run()
            try await Self.store(folder, .add).save(workout)
            let associating = try Self.store(folder, .add)
            try await associating.add([Self.beat(162, at: "2024-06-03T07:40:00Z") as HealthSample], to: workout)
            _ = try associating.storage.undo(source: AuthorizationState.ownerSource, now: Self.now)
            try await expectEqual(Self.workouts(try Self.store(folder, .add)).map(\.uuid), [workout.uuid])
            let second = try associating.storage.undo(source: AuthorizationState.ownerSource, now: Self.now)
            #expect(second.total == 1 && second.alreadyDeleted == 0)
            #expect(try await Self.workouts(try Self.store(folder, .add)).isEmpty)
        }
    }

    func deletingTheWorkoutDropsItsAssociationsAndUndoingTheDeleteRestoresThem() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let workout = Self.run()
            let adder = try Self.store(folder, .add)
            try await adder.save(workout)
            let kept = Self.beat(150, at: "2024-06-03T07:10:00Z"), deletedToo = Self.beat(160, at: "2024-06-03T07:20:00Z")
            try await adder.add([kept as HealthSample, deletedToo], to: workout)
            // One delete takes the workout and one of its samples; the other sample stays.
            try await Self.store(folder, .delete).delete([workout as HealthSample, deletedToo])
            let reader = try Self.store(folder, .add)
            #expect(try await Self.workouts(reader).isEmpty)
            #expect(try await Self.associated(with: workout, in: reader).isEmpty)
            let beats = try await SampleQueryDescriptor(predicates: [.quantitySample(type: Self.heartRate)]).result(for: reader)
            expectEqual(beats.map(\.uuid), [kept.uuid])
            // Undo brings the workout back (as a copy, as undo restores every deleted sample) with both associations:
            // the kept sample and the copy of the one deleted with it.
            _ = try reader.storage.undo(source: AuthorizationState.ownerSource, now: Self.now)
            let restored = try #require(try await Self.workouts(reader).first)
            let found = try await Self.associated(with: restored, in: reader)
            expectEqual(found.count, 2)
            #expect(found.contains { $0.uuid == kept.uuid })
            expectEqual(Set(found.compactMap { ($0 as? QuantitySample)?.quantity.doubleValue(for: .count().unitDivided(by: .minute())) }), [150, 160])
        }
    }

    /// A sample associated with a workout, deleted alone, and the delete undone: the workout names the restored copy
    /// (rewritten in place in the undo's write, keeping its uuid). Then the undos go on back: the association's undo
    /// takes the workout's rewritten line and brings back the line before the association.
    func undoingTheDeleteOfAnAssociatedSampleBringsItBackToItsWorkout() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let workout = Self.run()
            try await Self.store(folder, .add).save(workout)
            let kept = Self.beat(150, at: "2024-06-03T07:10:00Z"), deleted = Self.beat(160, at: "2024-06-03T07:20:00Z")
            try await Self.store(folder, .add).add([kept as HealthSample, deleted], to: workout)
            try await Self.store(folder, .delete).delete([deleted as HealthSample])
            let reader = try Self.store(folder, .add)
            func values() async throws -> Set<Double> {
                Set(try await Self.associated(with: workout, in: reader).compactMap {
                    ($0 as? QuantitySample)?.quantity.doubleValue(for: .count().unitDivided(by: .minute()))
                })
            }
            try await expectEqual(values(), [150], "the deleted sample is not found")
            let undone = try reader.storage.undo(source: AuthorizationState.ownerSource, now: Self.now)
            expectEqual(undone.kind, .delete)
            try await expectEqual(values(), [150, 160], "the restored copy is found by the workout")
            try await expectEqual(Self.workouts(reader).map(\.uuid), [workout.uuid], "one workout, under its own uuid")
            let beats = try await SampleQueryDescriptor(predicates: [.quantitySample(type: Self.heartRate)]).result(for: reader)
            expectEqual(beats.count, 2)
            #expect(!beats.contains { $0.uuid == deleted.uuid }, "the copy has a uuid of its own")
            // The association's undo: the workout as it was saved, naming nothing; both samples it saved go.
            _ = try reader.storage.undo(source: AuthorizationState.ownerSource, now: Self.now)
            try await expectEqual(Self.workouts(reader).map(\.uuid), [workout.uuid])
            try await expectEqual(values(), [], "the association undone")
            // The workout's save undone: nothing left.
            _ = try reader.storage.undo(source: AuthorizationState.ownerSource, now: Self.now)
            #expect(try await Self.workouts(reader).isEmpty)
        }
    }

    /// More associated samples deleted than the holders' search looks for by their bytes
    /// (`JSONFileStore.holderNeedleLimit`): the undo finds the workout all the same, and it names every copy.
    func undoingTheDeleteOfManyAssociatedSamplesBringsThemAllBack() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let workout = Self.run()
            try await Self.store(folder, .add).save(workout)
            let count = JSONFileStore.holderNeedleLimit + 6
            let beats = (0..<count).map { Self.beat(100 + Double($0), at: String(format: "2024-06-03T07:%02d:00Z", $0 % 60)) }
            try await Self.store(folder, .add).add(beats.map { $0 as HealthSample }, to: workout)
            try await Self.store(folder, .delete).delete(beats.map { $0 as HealthSample })
            let reader = try Self.store(folder, .add)
            #expect(try await Self.associated(with: workout, in: reader).isEmpty)
            _ = try reader.storage.undo(source: AuthorizationState.ownerSource, now: Self.now)
            let found = try await Self.associated(with: workout, in: reader)
            expectEqual(Set(found.compactMap { ($0 as? QuantitySample)?.quantity.doubleValue(for: .count().unitDivided(by: .minute())) }),
                        Set((0..<count).map { 100 + Double($0) }))
            expectEqual(found.count, count)
        }
    }

    /// Another source's workout associated with a sample keeps naming the deleted sample after the delete is undone: a
    /// change never rewrites what another source wrote.
    func undoingADeleteLeavesAnotherSourcesWorkoutAsItIs() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let beat = Self.beat(160, at: "2024-06-03T07:20:00Z")
            try await Self.store(folder, .add).save(beat)
            let workout = Self.run()
            var other = workout.sample
            other.source = "Other App"
            if case .workout(var detail)? = other.detail { detail.associatedUUIDs = [beat.uuid]; other.detail = .workout(detail) }
            let storage = JSONFileStore(path: folder + "/store", timeZone: .gmt, clock: { Self.now })
            try storage.save([other])
            try await Self.store(folder, .delete).delete([beat as HealthSample])
            let reader = try Self.store(folder, .add)
            _ = try reader.storage.undo(source: AuthorizationState.ownerSource, now: Self.now)
            let stored = try #require(try await Self.workouts(reader).first)
            expectEqual(stored.uuid, workout.uuid)
            expectEqual(stored.sample.detail?.workout?.associatedUUIDs, [beat.uuid], "another source's workout is not rewritten")
        }
    }

    /// A correction undone after a second workout was associated with the corrected sample: both workouts name the
    /// restored sample (the first as the correction's undo puts its line back, the second rewritten by the undo).
    func undoingACorrectionBringsTheRestoredSampleToEveryWorkoutOfTheCorrectedOne() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let first = Self.run(), second = Self.run(start: "2024-06-03T07:05:00Z", end: "2024-06-03T07:50:00Z")
            try await Self.store(folder, .add).save(first)
            try await Self.store(folder, .add).save(second)
            let beat = Self.beat(150, at: "2024-06-03T07:10:00Z")
            try await Self.store(folder, .add).add([beat as HealthSample], to: first)
            let store = try Self.store(folder, .add)
            var corrected = try #require(try await Self.associated(with: first, in: store).first).sample
            corrected.uuid = UUID()
            corrected.value = .quantity(Quantity(148, .count().unitDivided(by: .minute())))
            try store.storage.replace([beat.uuid], with: [corrected], now: Self.now)
            let correctedSample = try #require(try await Self.associated(with: first, in: store).first)
            try await Self.store(folder, .add).add([correctedSample], to: second)
            func values(_ workout: Workout) async throws -> [Double] {
                try await Self.associated(with: workout, in: store).compactMap {
                    ($0 as? QuantitySample)?.quantity.doubleValue(for: .count().unitDivided(by: .minute()))
                }
            }
            try await expectEqual(values(first), [148])
            try await expectEqual(values(second), [148])
            // The second association's undo, then the correction's.
            _ = try store.storage.undo(source: AuthorizationState.ownerSource, now: Self.now)
            try await expectEqual(values(second), [], "the second association undone")
            try await Self.store(folder, .add).add([correctedSample], to: second)
            let undone = try store.storage.undo(source: AuthorizationState.ownerSource, touching: Self.heartRate.identifier, now: Self.now)
            expectEqual(undone.kind, .replace)
            try await expectEqual(values(first), [150], "the first workout names the restored sample")
            try await expectEqual(values(second), [150], "so does the second, associated after the correction")
            let beats = try await SampleQueryDescriptor(predicates: [.quantitySample(type: Self.heartRate)]).result(for: store)
            expectEqual(beats.count, 1)
            try await expectEqual(Self.workouts(store).map(\.uuid).sorted { $0.uuidString < $1.uuidString },
                                  [first.uuid, second.uuid].sorted { $0.uuidString < $1.uuidString })
        }
    }

    // MARK: - Routes

    func aWorkoutsRouteIsFoundByTheWorkoutAndReadWithARouteQuery() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try Self.store(folder, .add)
            let start = TestSupport.date("2024-06-03T07:00:00Z")
            let withRoute = Self.with(WorkoutRoute(locations: (0..<3).map { index in
                WorkoutRoute.Location(timestamp: start.addingTimeInterval(Double(index) * 60), latitude: 51.5 + Double(index) / 1000,
                                      longitude: -0.12, altitude: 20)
            }), Self.run())
            let without = Self.run(start: "2024-06-04T07:00:00Z", end: "2024-06-04T08:00:00Z")
            try await store.save([withRoute as HealthSample, without])
            let routes = try await SampleQueryDescriptor(predicates: [.sample(type: SeriesType.workoutRoute(),
                                                                              predicate: Query.predicateForObjects(from: withRoute))])
                .result(for: store)
            // As in HealthKit, the results are routes: `as? [HKWorkoutRoute]`, `as? HKWorkoutRoute`, `is`, `switch`.
            let typed = try #require(routes as? [WorkoutRoute])
            let route = try #require(routes.first as? WorkoutRoute)
            #expect(typed == [route] && routes.count == 1 && route.count == 3 && route.locations.count == 3)
            switch routes[0] {
            case is Workout, is QuantitySample: Issue.record("a route is its own class")
            case let found as WorkoutRoute: expectEqual(found.uuid, route.uuid)
            default: Issue.record("a route's class is WorkoutRoute")
            }
            #expect(route.startDate == start && route.endDate == start.addingTimeInterval(120))
            #expect(route.sampleType.identifier == "HKWorkoutRouteTypeIdentifier" && route.sampleType is SeriesType)
            #expect(route.sourceName == store.source && route.isSaved && route.uuid != withRoute.uuid)
            // The handler form too.
            let handed = await withCheckedContinuation { continuation in
                store.execute(SampleQuery(sampleType: SeriesType.workoutRoute(), predicate: Query.predicateForObjects(from: withRoute),
                                          limit: 0, sortDescriptors: nil) { _, samples, _ in
                    continuation.resume(returning: (samples as? [WorkoutRoute])?.map(\.count))
                })
            }
            expectEqual(handed, [3])
            #expect(try await Self.associated(with: without, in: store, type: SeriesType.workoutRoute()).isEmpty)
            // Every route of the store, without a predicate: one.
            try await expectEqual(SampleQueryDescriptor(predicates: [.sample(type: .workoutRouteType())]).result(for: store).count, 1)
            // The locations, as HKWorkoutRouteQuery hands them out.
            let latitudes = await withCheckedContinuation { continuation in
                store.execute(WorkoutRouteQuery(route: route) { _, locations, done, _ in
                    if done { continuation.resume(returning: locations?.map(\.latitude) ?? []) }
                })
            }
            expectEqual(latitudes, [51.5, 51.501, 51.502])
            // An anchored query of routes, as HealthKit's route samples show it: the route arrives with its workout and
            // goes with it, under the same uuid.
            let query = AnchoredObjectQueryDescriptor(predicates: [.sample(type: SeriesType.workoutRoute(),
                                                                           predicate: Query.predicateForObjects(from: withRoute))],
                                                      anchor: nil)
            let first = try await query.result(for: store)
            #expect(first.addedSamples.map(\.uuid) == [route.uuid] && first.deletedObjects.isEmpty)
            expectEqual((first.addedSamples.first as? WorkoutRoute)?.locations, route.locations)
            try await store.delete(withRoute)
            let second = try await AnchoredObjectQueryDescriptor(predicates: [.sample(type: SeriesType.workoutRoute())],
                                                                 anchor: first.newAnchor).result(for: store)
            #expect(second.addedSamples.isEmpty && second.deletedObjects.map(\.uuid) == [route.uuid])
            expectEqual(second.deletedObjects.first?.typeIdentifier, "HKWorkoutRouteTypeIdentifier")
        }
    }

    // MARK: - A real export

    @Test(.enabled(if: ImportTestSupport.fixturesAvailable,
                   "shared/fixtures/apple-health is not next to the repository, so the real-export workout test is skipped"))
    func aRealExportsWorkoutReadsWithHealthKitsAccessors() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let storage = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            _ = try HealthImporter(store: storage).importFile(atPath: ImportTestSupport.fixture("tdda_en-GB_export6s3sample.xml"))
            let store = try HealthStore(storage: storage, source: AuthorizationState.ownerSource)
            let workout = try #require(try await Self.workouts(store).first)
            // <Workout workoutActivityType="HKWorkoutActivityTypeOther" duration="31.73680251737436" durationUnit="min"
            //  totalDistance="0" totalDistanceUnit="km" totalEnergyBurned="139.3170000000021" ...> with no children.
            expectEqual(workout.workoutActivityType, .other)
            // The duration written is 0.2 s longer than the time from start to end (10:40:38 to 11:12:22): the
            // import keeps it within the workout's span, as HealthKit's invariant `duration <= end − start` wants.
            expectEqual(workout.duration, 1904)
            expectEqual(workout.totalEnergyBurned?.doubleValue(for: .kilocalorie()), 139.3170000000021)
            expectEqual(workout.totalDistance?.doubleValue(for: .meterUnit(with: .kilo)), 0)
            #expect(workout.allStatistics.isEmpty && workout.workoutEvents?.isEmpty == true && workout.workoutActivities.isEmpty)
        }
    }
}

/// The checks ``WorkoutHealthKitTests/checks(_:)`` runs.
private let workoutHealthKitTestsChecks: [Check<WorkoutHealthKitTests>] = [
    Check("anExportsWorkoutChildrenReachStatisticsEventsAndActivities",
          WorkoutHealthKitTests.anExportsWorkoutChildrenReachStatisticsEventsAndActivities),
    Check("aRouteInTheArchiveIsReadAndAMissingOrBrokenOneLeavesTheWorkoutWithoutARoute",
          WorkoutHealthKitTests.aRouteInTheArchiveIsReadAndAMissingOrBrokenOneLeavesTheWorkoutWithoutARoute),
    Check("whatGPXWriterWritesReadsBack", WorkoutHealthKitTests.whatGPXWriterWritesReadsBack),
    Check("partsFiguresCombineBySummingAndWeightingAverages",
          WorkoutHealthKitTests.partsFiguresCombineBySummingAndWeightingAverages),
    Check("samplesAddedToAWorkoutAreFoundByItAndNothingElseIs",
          WorkoutHealthKitTests.samplesAddedToAWorkoutAreFoundByItAndNothingElseIs),
    Check("addingToAWorkoutThatIsNotStoredOrADeletedSampleChangesNothing",
          WorkoutHealthKitTests.addingToAWorkoutThatIsNotStoredOrADeletedSampleChangesNothing),
    Check("undoingTheAssociationKeepsTheWorkoutAndDropsWhatTheCallSaved",
          WorkoutHealthKitTests.undoingTheAssociationKeepsTheWorkoutAndDropsWhatTheCallSaved),
    Check("undoingTheAssociationThenTheWorkoutsSaveLeavesNoWorkout",
          WorkoutHealthKitTests.undoingTheAssociationThenTheWorkoutsSaveLeavesNoWorkout),
    Check("deletingTheWorkoutDropsItsAssociationsAndUndoingTheDeleteRestoresThem",
          WorkoutHealthKitTests.deletingTheWorkoutDropsItsAssociationsAndUndoingTheDeleteRestoresThem),
    Check("undoingTheDeleteOfAnAssociatedSampleBringsItBackToItsWorkout",
          WorkoutHealthKitTests.undoingTheDeleteOfAnAssociatedSampleBringsItBackToItsWorkout),
    Check("undoingADeleteLeavesAnotherSourcesWorkoutAsItIs", WorkoutHealthKitTests.undoingADeleteLeavesAnotherSourcesWorkoutAsItIs),
    Check("undoingTheDeleteOfManyAssociatedSamplesBringsThemAllBack",
          WorkoutHealthKitTests.undoingTheDeleteOfManyAssociatedSamplesBringsThemAllBack),
    Check("undoingACorrectionBringsTheRestoredSampleToEveryWorkoutOfTheCorrectedOne",
          WorkoutHealthKitTests.undoingACorrectionBringsTheRestoredSampleToEveryWorkoutOfTheCorrectedOne),
    Check("aReplacedAssociatedSampleStaysWithItsWorkout", WorkoutHealthKitTests.aReplacedAssociatedSampleStaysWithItsWorkout),
    Check("aReplacedAssociatedCorrelationStaysWithItsWorkout", WorkoutHealthKitTests.aReplacedAssociatedCorrelationStaysWithItsWorkout),
    Check("aWorkoutsRouteIsFoundByTheWorkoutAndReadWithARouteQuery",
          WorkoutHealthKitTests.aWorkoutsRouteIsFoundByTheWorkoutAndReadWithARouteQuery),
]
