import Foundation
import HealthCore
import Testing
import TestKit

// Seed 003_7474e9d6a8e3520f.txt: setting up HealthKit (availability, the store, asking for permission, checking it
// before saving, the requestAuthorization declaration).
struct Seed003HealthKitSetupTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: seed003HealthKitSetupTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static let app = "org.example.speedy-sloth"

    func isHealthDataAvailable() {
        // Seed 003, lines 80-82: false only without a home or data folder for the per-user store. The comment line of
        // the snippet becomes the line that records the answer.
        var available = false
        //>> isHealthDataAvailable
        if HealthStore.isHealthDataAvailable() {
            available = true // Add code to use HealthKit here.
        }
        //<<
        #expect(available)                                           // HOME is set for the tests
    }

    func createTheStore() async throws {
        try await Seed.withFolder { folder in
            // Seed 003, line 94; a temporary folder and the pinned clock instead of the per-user store.
            //>> healthStore
            let healthStore = try HealthStore(directory: folder, clock: { Seed.now })
            //<<
            // The owner's store: may write anything, and nothing is written by opening it.
            #expect(healthStore.source == AuthorizationState.ownerSource)
            #expect(healthStore.authorizationStatus(for: QuantityType(.height)) == .sharingAuthorized)
            #expect(!FileManager.default.fileExists(atPath: folder))
        }
    }

    func requestAuthorizationForAllTypes() async throws {
        try await Seed.withStores(app: Self.app) { owner, healthStore in
            // Seed 003, lines 118-128. The empty failure branch records an issue in place of its comment.
            //>> allTypes+requestAuthorization
            let allTypes = Set([ObjectType.workoutType(),
                                ObjectType.quantityType(forIdentifier: .activeEnergyBurned)!,
                                ObjectType.quantityType(forIdentifier: .distanceCycling)!,
                                ObjectType.quantityType(forIdentifier: .distanceWalkingRunning)!,
                                ObjectType.quantityType(forIdentifier: .heartRate)!])
            healthStore.requestAuthorization(toShare: allTypes, read: allTypes) { (success, error) in
                if !success {
                    Issue.record("\(String(describing: error))") // Handle the error here.
                }
            }
            //<<
            // The completion runs on a thread of the library's; the request is then recorded for the owner: the
            // five types, sorted.
            let expected = ["HKQuantityTypeIdentifierActiveEnergyBurned", "HKQuantityTypeIdentifierDistanceCycling",
                            "HKQuantityTypeIdentifierDistanceWalkingRunning", "HKQuantityTypeIdentifierHeartRate",
                            "HKWorkoutTypeIdentifier"]
            let recorded = try await Seed.eventually { try Seed.requested(by: Self.app, in: owner) == expected }
            let workoutStatus = healthStore.authorizationStatus(for: ObjectType.workoutType())
            #expect(recorded)
            #expect(workoutStatus == .notDetermined)
        }
    }

    func authorizationStatusBeforeSaving() async throws {
        try await Seed.withStores(app: Self.app) { owner, healthStore in
            try owner.decideAuthorization(for: Self.app, allow: true, share: [QuantityType(.height)], read: [])
            // Seed 003, lines 140-148.
            //>> authorizationStatus
            let accessAtWalking = healthStore.authorizationStatus(for: ObjectType.quantityType(forIdentifier: .walkingHeartRateAverage)!)
            let height = healthStore.authorizationStatus(for: QuantityType.quantityType(forIdentifier: .height)! )
            if accessAtWalking == .notDetermined {
              print("This App Not determined Access to walking imformatino")
            }
            if height == .sharingAuthorized {
              print("This App Access to Height Imformation")
            }
            //<<
            #expect(accessAtWalking == .notDetermined)
            #expect(height == .sharingAuthorized)
            // After the owner says no, the same call answers sharingDenied, and a save is refused with HealthKit's code.
            try owner.decideAuthorization(for: Self.app, allow: false, share: [QuantityType(.height)], read: [])
            #expect(healthStore.authorizationStatus(for: QuantityType(.height)) == .sharingDenied)
            let tall = QuantitySample(type: QuantityType(.height), quantity: Quantity(unit: .meter(), doubleValue: 1.8),
                                      start: Seed.now, end: Seed.now)
            await #expect(throws: HealthError.self) { try await healthStore.save(tall) }
            do {
                try await healthStore.save(tall)
            } catch HealthError.errorAuthorizationDenied {
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }

    func requestAuthorizationDeclaration() async throws {
        // Seed 003, lines 172-174: the declaration
        // `requestAuthorization(toShare: Set<HKSampleType>?, read: Set<HKObjectType>?, completion: (Bool, Error?) -> Void)`.
        // HealthCore declares `requestAuthorization(toShare: Set<SampleType>?, read: Set<SampleType>?,
        // completion: @escaping @Sendable (Bool, Error?) -> Void)`: the sets are optional, as in HealthKit.
        try await Seed.withStores(app: Self.app) { owner, app in
            let typesToShare: Set<SampleType>? = [QuantityType(.stepCount)]
            let asked: (Bool, String?) = await withCheckedContinuation { continuation in
                app.requestAuthorization(toShare: typesToShare, read: nil) { success, error in
                    continuation.resume(returning: (success, error.map { "\($0)" }))
                }
            }
            #expect(asked.0 && asked.1 == nil)
            let askedToRead: (Bool, String?) = await withCheckedContinuation { continuation in
                app.requestAuthorization(toShare: nil, read: [CategoryType(.sleepAnalysis)]) { success, error in
                    continuation.resume(returning: (success, error.map { "\($0)" }))
                }
            }
            #expect(askedToRead.0 && askedToRead.1 == nil)
            let requested = try Seed.requested(by: Self.app, in: owner)
            #expect(requested == ["HKCategoryTypeIdentifierSleepAnalysis", "HKQuantityTypeIdentifierStepCount"])
            // Asking to share a type no source may write fails: false and an error.
            let refused: (Bool, Bool) = await withCheckedContinuation { continuation in
                app.requestAuthorization(toShare: [QuantityType(.walkingHeartRateAverage)], read: []) { success, error in
                    continuation.resume(returning: (success, error != nil))
                }
            }
            #expect(!refused.0 && refused.1)
        }
    }

    func characteristicMethods() async throws {
        // Seed 003, lines 26-29: not a snippet but a list of the characteristic methods of `HKHealthStore`, called
        // here. `dateOfBirth()` (deprecated in HealthKit) is not in HealthCore: `dateOfBirthComponents()` is.
        try await Seed.withStore { healthStore in
            // Nothing recorded yet: as HealthKit's, `dateOfBirthComponents()` throws `errorNoData`, and every other
            // characteristic is not set.
            let noBirth = #expect(throws: HealthError.self) { try healthStore.dateOfBirthComponents() }
            #expect(noBirth?.code == .errorNoData)
            let blood = try healthStore.bloodType()
            let sex = try healthStore.biologicalSex(), skin = try healthStore.fitzpatrickSkinType()
            #expect(blood.bloodType == .notSet && sex.biologicalSex == .notSet && skin.skinType == .notSet)
        }
    }
}

/// The checks ``Seed003HealthKitSetupTests/checks(_:)`` runs.
private let seed003HealthKitSetupTestsChecks: [Check<Seed003HealthKitSetupTests>] = [
    Check("isHealthDataAvailable", Seed003HealthKitSetupTests.isHealthDataAvailable),
    Check("createTheStore", Seed003HealthKitSetupTests.createTheStore),
    Check("requestAuthorizationForAllTypes", Seed003HealthKitSetupTests.requestAuthorizationForAllTypes),
    Check("authorizationStatusBeforeSaving", Seed003HealthKitSetupTests.authorizationStatusBeforeSaving),
    Check("requestAuthorizationDeclaration", Seed003HealthKitSetupTests.requestAuthorizationDeclaration),
    Check("characteristicMethods", Seed003HealthKitSetupTests.characteristicMethods),
]
