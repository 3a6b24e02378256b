import Foundation
import Testing
@testable import HealthCore
import TestKit

/// HealthKit's object API: QuantitySample / CategorySample / Workout made in code, saved, read back typed, deleted;
/// completion-handler forms; one HealthError with HealthKit's codes for everything the async calls throw.
struct HealthObjectTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: healthObjectTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static let now = TestSupport.date("2024-06-10T12:00:00Z")
    private static let june = Query.predicateForSamples(withStart: TestSupport.date("2024-06-01T00:00:00Z"),
                                                        end: TestSupport.date("2024-07-01T00:00:00Z"))

    private static func withStore(source: String? = nil, _ body: (HealthStore, String) async throws -> Void) async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let path = folder + "/store"
            let owner = try HealthStore(directory: path, clock: { now })
            guard let source else { return try await body(owner, path) }
            try await body(try HealthStore(directory: path, source: source, clock: { now }), path)
        }
    }

    private static func water(_ milliliters: Double, at time: String) -> QuantitySample {
        let date = TestSupport.date(time)
        return QuantitySample(type: QuantityType(.dietaryWater), quantity: Quantity(unit: .literUnit(with: .milli), doubleValue: milliliters),
                              start: date, end: date)
    }

    /// The code of the HealthError a call throws, or nil when it throws none (or something else).
    private static func code(_ call: () async throws -> Void) async -> HealthError.Code? {
        do {
            try await call()
            return nil
        } catch let error as HealthError {
            return error.code
        } catch {
            return nil
        }
    }

    func aQuantitySampleMadeInCodeIsSavedAsTheStoresSourceAndReadBackTyped() async throws {
        try await Self.withStore { store, _ in
            let glass = Self.water(250, at: "2024-06-03T08:00:00Z")
            #expect(!glass.isSaved)
            try await store.save(glass)
            try await store.save([Self.water(500, at: "2024-06-03T12:00:00Z") as HealthSample,
                                  Self.water(300, at: "2024-06-04T12:00:00Z")])
            let found = try await SampleQueryDescriptor(predicates: [.quantitySample(type: QuantityType(.dietaryWater), predicate: Self.june)],
                                                        sortDescriptors: [SampleSortDescriptor(\QuantitySample.startDate, order: .reverse)])
                .result(for: store)
            // Newest first: 300 mL (June 4), 500 mL, 250 mL; quantity is not optional.
            expectEqual(found.map { $0.quantity.doubleValue(for: .literUnit(with: .milli)) }, [300, 500, 250])
            #expect(found.allSatisfy { $0.isSaved && $0.sourceName == AuthorizationState.ownerSource })
            expectEqual(found.last?.uuid, glass.uuid)
            expectEqual(found.last?.sample.created, Self.now)
            #expect(found.first?.quantityType == QuantityType(.dietaryWater) && found.first?.count == 1)
            // 250 + 500 + 300 mL = 1.05 L.
            let total = try await StatisticsQueryDescriptor(predicate: .quantitySample(type: QuantityType(.dietaryWater), predicate: Self.june),
                                                            options: .cumulativeSum).result(for: store)
            expectEqual(total?.sumQuantity()?.doubleValue(for: .liter()), 1.05)
        }
    }

    func categorySamplesAndWorkoutsComeBackAsTheirKinds() async throws {
        try await Self.withStore { store, _ in
            let bed = TestSupport.date("2024-06-03T23:00:00Z"), wake = TestSupport.date("2024-06-04T07:00:00Z")
            let sleep = CategoryType(.sleepAnalysis)
            try await store.save([
                CategorySample(type: sleep, value: CategoryValueSleepAnalysis.inBed.rawValue, start: bed, end: wake),
                CategorySample(type: sleep, value: CategoryValueSleepAnalysis.asleepCore.rawValue, start: bed.addingTimeInterval(1_800),
                               end: wake.addingTimeInterval(-1_800)),
            ] as [HealthSample])
            let nights = try await SampleQueryDescriptor(predicates: [.categorySample(type: sleep, predicate: Self.june)]).result(for: store)
            let asleep = nights.filter { $0.value != CategoryValueSleepAnalysis.inBed.rawValue }
            // 23:30 to 06:30: 7 hours asleep.
            let asleepSeconds: TimeInterval = asleep.map { $0.endDate.timeIntervalSince($0.startDate) }.sum
            expectEqual(asleepSeconds / 3600, 7)
            expectEqual(nights.map(\.categoryType), [sleep, sleep])

            let run = Workout(activityType: .running, start: TestSupport.date("2024-06-05T07:00:00Z"),
                              end: TestSupport.date("2024-06-05T07:30:00Z"), duration: 1_800,
                              totalEnergyBurned: Quantity(unit: .kilocalorie(), doubleValue: 320), totalDistance: nil, metadata: nil)
            try await store.save(run)
            let workouts = try await SampleQueryDescriptor(predicates: [.workout(Self.june)]).result(for: store)
            expectEqual(workouts.map(\.workoutActivityType), [.running])
            expectEqual(workouts.first?.totalEnergyBurned?.doubleValue(for: .kilocalorie()), 320)
            expectEqual(workouts.first?.duration, 1_800)
        }
    }

    func whatTheAsyncCallsThrowIsAHealthErrorWithHealthKitsCode() async throws {
        try await Self.withStore { store, path in
            // 5 kg of water: refused, with the unit problem kept as the underlying error.
            let heavy = QuantitySample(type: QuantityType(.dietaryWater), quantity: Quantity(unit: .gramUnit(with: .kilo), doubleValue: 5),
                                       start: Self.now, end: Self.now)
            do {
                try await store.save(heavy)
                Issue.record("5 kg of water was saved")
            } catch HealthError.errorInvalidArgument {
            }
            await #expect(throws: HealthError.self) { try await store.save(heavy) }
            do {
                try await store.save(heavy)
            } catch let error as HealthError {
                #expect(error.underlyingError is UnitError)
                #expect(error.errorCode == 3 && error.localizedDescription.contains("kg"))
                // Seen as a plain Error (what handlers receive), the message is still the one that says what to fix.
                let plain: any Error = error
                #expect(plain.localizedDescription.contains("kg"))
            }
            // Saving the same object twice: errorInvalidArgument, as HealthKit (its uuid exists).
            let glass = Self.water(250, at: "2024-06-03T08:00:00Z")
            try await store.save(glass)
            await expectEqual(Self.code { try await store.save(glass) }, .errorInvalidArgument)
            // A descriptor's bad argument.
            let bad = StatisticsCollectionQueryDescriptor(predicate: .quantitySample(type: QuantityType(.stepCount)), options: .cumulativeSum,
                                                          anchorDate: Self.now, intervalComponents: DateComponents(day: 1, hour: 2))
            await expectEqual(Self.code { _ = try await bad.result(for: store) }, .errorInvalidArgument)
            // A source that never asked: errorAuthorizationNotDetermined (5).
            let app = try HealthStore(directory: path, source: "Water App", clock: { Self.now })
            await expectEqual(Self.code { try await app.save(Self.water(100, at: "2024-06-03T09:00:00Z")) }, .errorAuthorizationNotDetermined)
        }
    }

    func healthKitsCodesAndTheMappingOfDetailedErrors() {
        expectEqual(HealthError.Code.allCases.map(\.rawValue), Array(0...15))
        #expect(HealthError.errorNoData.rawValue == 11 && HealthError.errorDataSizeExceeded.rawValue == 13)
        #expect(HealthError.errorDatabaseInaccessible.rawValue == 6 && HealthError.errorAuthorizationDenied.rawValue == 4)
        expectEqual(HealthError(StoreError.busy("/s", waitedSeconds: 10)).code, .errorDatabaseInaccessible)
        #expect(HealthError(StoreError.corrupt("/s/x.jsonl", line: 3, reason: "bad")).message.contains("x.jsonl"))
        expectEqual(HealthError(StoreError.noDefaultLocation).code, .errorHealthDataUnavailable)
        expectEqual(HealthError(AuthorizationError.denied(source: "a", type: "water")).code, .errorAuthorizationDenied)
        expectEqual(HealthError(SampleError.notFinite(type: "water")).code, .errorInvalidArgument)
        expectEqual(HealthError(OverflowError.overflow(type: "steps", samples: [], total: 0)).code, .errorDataSizeExceeded)
        expectEqual(HealthError(HealthError(.errorNoData, message: "none")).message, "none")
        struct Other: Error {}
        expectEqual(HealthError(Other()).code, .errorUnknown)
    }

    func deletingObjectsIsSeenByAnchoredQueriesAndLimitedToTheSourcesOwn() async throws {
        try await Self.withStore { store, path in
            let glass = Self.water(250, at: "2024-06-03T08:00:00Z")
            let bottle = Self.water(500, at: "2024-06-03T12:00:00Z")
            try await store.save([glass, bottle] as [HealthSample])
            let start = try await AnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: QuantityType(.dietaryWater))], anchor: nil)
                .result(for: store)
            try await store.delete(glass)
            let after = try await AnchoredObjectQueryDescriptor(predicates: [.quantitySample(type: QuantityType(.dietaryWater))],
                                                                anchor: start.newAnchor).result(for: store)
            expectEqual(after.deletedObjects.map(\.uuid), [glass.uuid])
            // Deleting it again: it is not there.
            await expectEqual(Self.code { try await store.delete(glass) }, .errorInvalidArgument)

            // A source may delete only its own samples.
            try store.decideAuthorization(for: "Water App", allow: true, share: [QuantityType(.dietaryWater)], read: [])
            let app = try HealthStore(directory: path, source: "Water App", clock: { Self.now })
            let sip = Self.water(50, at: "2024-06-04T08:00:00Z")
            try await app.save([sip, Self.water(60, at: "2024-06-04T09:00:00Z")] as [HealthSample])
            let stored = try await SampleQueryDescriptor(predicates: [.quantitySample(type: QuantityType(.dietaryWater))]).result(for: store)
            let owners = try #require(stored.first { $0.uuid == bottle.uuid })
            await expectEqual(Self.code { try await app.delete(owners) }, .errorAuthorizationDenied)
            // deleteObjects by a source: its two June 4 samples, never the owner's 500 mL.
            try await expectEqual(app.deleteObjects(of: QuantityType(.dietaryWater), predicate: Self.june), 2)
            let left = try await SampleQueryDescriptor(predicates: [.quantitySample(type: QuantityType(.dietaryWater))]).result(for: store)
            expectEqual(left.map(\.uuid), [bottle.uuid])
            try await expectEqual(store.deleteObjects(of: QuantityType(.dietaryWater), predicate: Self.june), 1)
            try await expectEqual(store.deleteObjects(of: QuantityType(.dietaryWater), predicate: Self.june), 0)
            // HealthKit's pattern: a source saves a value and deletes that same value (its copy was never stamped).
            let late = Self.water(70, at: "2024-06-05T08:00:00Z")
            try await app.save(late)
            try await app.delete(late)
            #expect(try await SampleQueryDescriptor(predicates: [.quantitySample(type: QuantityType(.dietaryWater))]).result(for: store).isEmpty)
            // Not as a way around ownership: an unstamped value naming the owner's stored sample is still refused.
            let ownersGlass = Self.water(80, at: "2024-06-06T08:00:00Z")
            try await store.save(ownersGlass)
            await expectEqual(Self.code { try await app.delete(ownersGlass) }, .errorInvalidArgument)
            try await expectEqual(SampleQueryDescriptor(predicates: [.quantitySample(type: QuantityType(.dietaryWater))]).result(for: store)
                .map(\.uuid), [ownersGlass.uuid])
        }
    }

    func completionHandlerFormsReportSuccessAndHealthErrors() async throws {
        try await Self.withStore { store, _ in
            let glass = Self.water(250, at: "2024-06-03T08:00:00Z")
            let first: (Bool, HealthError.Code?) = await withCheckedContinuation { done in
                store.save(glass) { ok, error in done.resume(returning: (ok, (error as? HealthError)?.code)) }
            }
            #expect(first.0 && first.1 == nil)
            let again: (Bool, HealthError.Code?) = await withCheckedContinuation { done in
                store.save(glass) { ok, error in done.resume(returning: (ok, (error as? HealthError)?.code)) }
            }
            #expect(!again.0 && again.1 == .errorInvalidArgument)
            let deleted: (Bool, Int) = await withCheckedContinuation { done in
                store.deleteObjects(of: QuantityType(.dietaryWater), predicate: Self.june) { ok, count, _ in done.resume(returning: (ok, count)) }
            }
            #expect(deleted.0 && deleted.1 == 1)
        }
    }

    func characteristicsAreTheOwnersAndPreferredUnitsFollowSettings() async throws {
        try await Self.withStore { store, path in
            try expectEqual(store.biologicalSex().biologicalSex, .notSet)
            #expect(#expect(throws: HealthError.self) { try store.dateOfBirthComponents() }?.code == .errorNoData)
            try store.storage.updateDocument("characteristics.json", initial: Characteristics()) { me in
                try me.set("date-of-birth", to: "1988-04-02", now: Self.now)
                try me.set("blood-type", to: "AB-", now: Self.now)
                try me.set("biological-sex", to: "female", now: Self.now)
            }
            let birth = try store.dateOfBirthComponents()
            expectEqual([birth.year, birth.month, birth.day], [1988, 4, 2])
            #expect(try store.bloodType().bloodType == .abNegative && store.biologicalSex().biologicalSex == .female)
            try expectEqual(store.fitzpatrickSkinType().skinType, .notSet)
            // A source reads them as not set.
            let app = try HealthStore(directory: path, source: "Some App", clock: { Self.now })
            try expectEqual(app.bloodType().bloodType, .notSet)
            #expect(#expect(throws: HealthError.self) { try app.dateOfBirthComponents() }?.code == .errorNoData)

            let water = QuantityType(.dietaryWater), mass = QuantityType(.bodyMass)
            var units = try await store.preferredUnits(for: [water, mass])
            #expect(units[water] == .literUnit(with: .milli) && units[mass] == .gramUnit(with: .kilo))
            try store.storage.updateDocument("settings.json", initial: Settings()) { $0.displayUnits["weight"] = "lb" }
            units = try await store.preferredUnits(for: [mass])
            expectEqual(units[mass], .pound())
        }
    }

    func objectTypeSetsHoldTypesAsInHealthKit() {
        let read: Set<ObjectType> = [QuantityType(.stepCount), CategoryType(.sleepAnalysis), WorkoutType.workoutType(),
                                     ObjectType.quantityType(forIdentifier: .heartRate)!]
        expectEqual(read.count, 4)
        // The test process has a HOME, so the default store has a place.
        expectEqual(HealthStore.isHealthDataAvailable(), (ProcessInfo.processInfo.environment["HOME"] != nil
                                                          || ProcessInfo.processInfo.environment["XDG_DATA_HOME"] != nil))
        expectNil(Workout(Sample(typeIdentifier: "x", start: Self.now, end: Self.now, value: .category(0), source: "s", created: Self.now)))
        expectNil(QuantitySample(Sample(typeIdentifier: "x", start: Self.now, end: Self.now, value: .category(0), source: "s", created: Self.now)))
        #expect(WorkoutActivityType.running.rawValue == 37 && WorkoutActivityType.other.rawValue == 3000)
    }

    func metadataKeysDevicesAndSourceRevisionsAsInHealthKit() async throws {
        try await Self.withStore { store, _ in
            let watch = Device(name: "Apple Watch", manufacturer: "Apple Inc.", model: "Watch", hardwareVersion: "Watch6,2",
                               firmwareVersion: nil, softwareVersion: "10.1", localIdentifier: nil, udiDeviceIdentifier: nil)
            let date = TestSupport.date("2024-06-03T08:00:00Z")
            let pulse = QuantitySample(type: QuantityType(.heartRate), quantity: Quantity(unit: .count().unitDivided(by: .minute()), doubleValue: 62),
                                       start: date, end: date, device: watch,
                                       metadata: [MetadataKeyWasUserEntered: true, MetadataKeyTimeZone: "Europe/Berlin",
                                                  MetadataKeyHeartRateMotionContext: 1])
            try await store.save(pulse)
            let found = try await SampleQueryDescriptor(predicates: [.quantitySample(type: QuantityType(.heartRate))]).result(for: store)
            let back = try #require(found.first)
            expectEqual(back.device, watch)
            expectEqual(back.sample.device, "name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.1")
            expectEqual(back.metadataValues?["HKWasUserEntered"], .number(1))
            expectEqual(back.metadataValues?["HKTimeZone"], .string("Europe/Berlin"))
            expectEqual(back.metadata?[MetadataKeyWasUserEntered] as? Bool, true)
            expectEqual(back.metadata?[MetadataKeyTimeZone] as? String, "Europe/Berlin")
            expectEqual(back.metadata?[MetadataKeyHeartRateMotionContext] as? Int, 1)
            expectEqual(back.sourceRevision, SourceRevision(source: Source(name: AuthorizationState.ownerSource), version: nil))
            // Without a device, none; HealthKit's raw key strings.
            expectNil(Self.water(1, at: "2024-06-03T08:00:00Z").device)
            #expect(MetadataKeySyncIdentifier == "HKMetadataKeySyncIdentifier" && MetadataKeyIndoorWorkout == "HKIndoorWorkout")
        }
    }

    func deletingAnObjectNeverTouchesAnotherTypesSampleThatSharesItsUUID() async throws {
        try await Self.withStore { store, _ in
            let glass = Self.water(250, at: "2024-06-03T08:00:00Z")
            try await store.save(glass)
            // Another type's sample with the same uuid (the uuid check looks only where a sample of its own type goes).
            var steps = TestSupport.quantitySample(.steps, 1_000, "count", start: "2024-06-03T09:00:00Z")
            steps.uuid = glass.uuid
            try await store.save(HealthSample.of(steps))
            try await store.delete(glass)
            #expect(try await SampleQueryDescriptor(predicates: [.quantitySample(type: QuantityType(.dietaryWater))]).result(for: store).isEmpty)
            let left = try await SampleQueryDescriptor(predicates: [.quantitySample(type: QuantityType(.stepCount))]).result(for: store)
            expectEqual(left.map { $0.quantity.doubleValue(for: .count()) }, [1_000])
        }
    }
}

/// The checks ``HealthObjectTests/checks(_:)`` runs.
private let healthObjectTestsChecks: [Check<HealthObjectTests>] = [
    Check("aQuantitySampleMadeInCodeIsSavedAsTheStoresSourceAndReadBackTyped",
          HealthObjectTests.aQuantitySampleMadeInCodeIsSavedAsTheStoresSourceAndReadBackTyped),
    Check("categorySamplesAndWorkoutsComeBackAsTheirKinds",
          HealthObjectTests.categorySamplesAndWorkoutsComeBackAsTheirKinds),
    Check("whatTheAsyncCallsThrowIsAHealthErrorWithHealthKitsCode",
          HealthObjectTests.whatTheAsyncCallsThrowIsAHealthErrorWithHealthKitsCode),
    Check("healthKitsCodesAndTheMappingOfDetailedErrors",
          HealthObjectTests.healthKitsCodesAndTheMappingOfDetailedErrors),
    Check("deletingObjectsIsSeenByAnchoredQueriesAndLimitedToTheSourcesOwn",
          HealthObjectTests.deletingObjectsIsSeenByAnchoredQueriesAndLimitedToTheSourcesOwn),
    Check("completionHandlerFormsReportSuccessAndHealthErrors",
          HealthObjectTests.completionHandlerFormsReportSuccessAndHealthErrors),
    Check("characteristicsAreTheOwnersAndPreferredUnitsFollowSettings",
          HealthObjectTests.characteristicsAreTheOwnersAndPreferredUnitsFollowSettings),
    Check("objectTypeSetsHoldTypesAsInHealthKit", HealthObjectTests.objectTypeSetsHoldTypesAsInHealthKit),
    Check("metadataKeysDevicesAndSourceRevisionsAsInHealthKit",
          HealthObjectTests.metadataKeysDevicesAndSourceRevisionsAsInHealthKit),
    Check("deletingAnObjectNeverTouchesAnotherTypesSampleThatSharesItsUUID",
          HealthObjectTests.deletingAnObjectNeverTouchesAnotherTypesSampleThatSharesItsUUID),
]
