import Testing
import TestKit
@testable import HealthCore

/// HealthKit's identifiers and type constructors name the catalogue's types, with HealthKit's raw values.
struct TypeIdentifierTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: typeIdentifierTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    @Test(arguments: [
        (QuantityTypeIdentifier.stepCount, "HKQuantityTypeIdentifierStepCount", "steps"),
        (.dietaryWater, "HKQuantityTypeIdentifierDietaryWater", "water"),
        (.bodyMass, "HKQuantityTypeIdentifierBodyMass", "weight"),
        (.heartRate, "HKQuantityTypeIdentifierHeartRate", "heart-rate"),
        (.vo2Max, "HKQuantityTypeIdentifierVO2Max", "vo2max"),
        (.activeEnergyBurned, "HKQuantityTypeIdentifierActiveEnergyBurned", "active-energy"),
        (.distanceWalkingRunning, "HKQuantityTypeIdentifierDistanceWalkingRunning", "distance"),
        (.heartRateVariabilitySDNN, "HKQuantityTypeIdentifierHeartRateVariabilitySDNN", "hrv"),
    ])
    func quantityTypesAreTheCataloguesTypes(identifier: QuantityTypeIdentifier, raw: String, name: String) throws {
        expectEqual(identifier.rawValue, raw)
        let type = QuantityType(identifier)
        #expect(type == (try SampleTypeCatalogue.standard.type(named: name)))
        expectEqual(type.kind, .quantity)
        expectEqual(ObjectType.quantityType(forIdentifier: identifier), type)
    }

    func categoryAndOtherTypes() throws {
        let sleep = CategoryType(.sleepAnalysis)
        expectEqual(sleep.identifier, "HKCategoryTypeIdentifierSleepAnalysis")
        #expect(sleep.isMaximumDurationRestricted && sleep.maximumAllowedDuration == 86_400)
        #expect(!sleep.isMinimumDurationRestricted)
        expectEqual(QuantityType(.stepCount).aggregationStyle, .cumulative)
        #expect(QuantityType(.bodyMass).is(compatibleWith: .pound()))
        #expect(!QuantityType(.dietaryWater).is(compatibleWith: .gramUnit(with: .kilo)))
        expectEqual(ObjectType.workoutType().identifier, "HKWorkoutTypeIdentifier")
        expectEqual(CorrelationType(.bloodPressure), .bloodPressure)
        expectEqual(ObjectType.correlationType(forIdentifier: .food), .food)
        expectEqual(ObjectType.characteristicType(forIdentifier: .dateOfBirth)?.identifier, "HKCharacteristicTypeIdentifierDateOfBirth")
        // The wrong kind, or an identifier the catalogue does not know: nil, not a crash.
        expectNil(ObjectType.categoryType(forIdentifier: CategoryTypeIdentifier(QuantityTypeIdentifier.stepCount.rawValue)))
        expectNil(ObjectType.quantityType(forIdentifier: QuantityTypeIdentifier("HKQuantityTypeIdentifierNoSuchThing")))
    }

    func everyCatalogueTypeHasAnIdentifierThatFindsIt() {
        for type in SampleTypeCatalogue.standard.types {
            switch type.kind {
            case .quantity: expectEqual(ObjectType.quantityType(forIdentifier: QuantityTypeIdentifier(type.identifier)), type)
            case .category: expectEqual(ObjectType.categoryType(forIdentifier: CategoryTypeIdentifier(type.identifier)), type)
            case .characteristic, .workout, .correlation:
                Issue.record("the catalogue of sample types holds the \(type.kind) type \(type.name)")
            }
        }
    }
}

/// The checks ``TypeIdentifierTests/checks(_:)`` runs.
private let typeIdentifierTestsChecks: [Check<TypeIdentifierTests>] = [
    Check("categoryAndOtherTypes", TypeIdentifierTests.categoryAndOtherTypes),
    Check("everyCatalogueTypeHasAnIdentifierThatFindsIt",
          TypeIdentifierTests.everyCatalogueTypeHasAnIdentifierThatFindsIt),
]
