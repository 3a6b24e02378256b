import Testing
@testable import HealthCore

/// HealthKit's identifiers and type constructors name the catalogue's types, with HealthKit's raw values.
struct TypeIdentifierTests {
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
        #expect(identifier.rawValue == raw)
        let type = QuantityType(identifier)
        #expect(type == (try SampleTypeCatalogue.standard.type(named: name)))
        #expect(type.kind == .quantity)
        #expect(ObjectType.quantityType(forIdentifier: identifier) == type)
    }

    @Test func categoryAndOtherTypes() throws {
        let sleep = CategoryType(.sleepAnalysis)
        #expect(sleep.identifier == "HKCategoryTypeIdentifierSleepAnalysis")
        #expect(sleep.isMaximumDurationRestricted && sleep.maximumAllowedDuration == 86_400)
        #expect(!sleep.isMinimumDurationRestricted)
        #expect(QuantityType(.stepCount).aggregationStyle == .cumulative)
        #expect(QuantityType(.bodyMass).is(compatibleWith: .pound()))
        #expect(!QuantityType(.dietaryWater).is(compatibleWith: .gramUnit(with: .kilo)))
        #expect(ObjectType.workoutType().identifier == "HKWorkoutTypeIdentifier")
        #expect(CorrelationType(.bloodPressure) == .bloodPressure)
        #expect(ObjectType.correlationType(forIdentifier: .food) == .food)
        #expect(ObjectType.characteristicType(forIdentifier: .dateOfBirth)?.identifier == "HKCharacteristicTypeIdentifierDateOfBirth")
        // The wrong kind, or an identifier the catalogue does not know: nil, not a crash.
        #expect(ObjectType.categoryType(forIdentifier: CategoryTypeIdentifier(QuantityTypeIdentifier.stepCount.rawValue)) == nil)
        #expect(ObjectType.quantityType(forIdentifier: QuantityTypeIdentifier("HKQuantityTypeIdentifierNoSuchThing")) == nil)
    }

    @Test func everyCatalogueTypeHasAnIdentifierThatFindsIt() {
        for type in SampleTypeCatalogue.standard.types {
            switch type.kind {
            case .quantity: #expect(ObjectType.quantityType(forIdentifier: QuantityTypeIdentifier(type.identifier)) == type)
            case .category: #expect(ObjectType.categoryType(forIdentifier: CategoryTypeIdentifier(type.identifier)) == type)
            case .characteristic, .workout, .correlation:
                Issue.record("the catalogue of sample types holds the \(type.kind) type \(type.name)")
            }
        }
    }
}
