import Testing
import TestKit
@testable import HealthCore

/// The standard catalogue holds every type identifier HealthKit has, checked against lists written here from HealthKit's
/// own `HKTypeIdentifiers.h` (iOS 18.1 SDK: each identifier with its canonical unit and aggregation style in the
/// header's comment) and Apple's HealthKit documentation (developer.apple.com/documentation/healthkit: the
/// `HKCategoryValue…` enumerations, `hypertensionEvent` of iOS 26.2, `bleedingAfterMenopause` of iOS 27).
struct HealthKitIdentifierListTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: healthKitIdentifierListTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// `HKQuantityTypeIdentifier…` suffix, canonical unit, aggregation style (C cumulative, DA discrete arithmetic,
    /// DTW temporally weighted, ECL equivalent continuous level), as the iOS 18.1 header lists them, group by group.
    /// (`ml/(kg*min)` of VO2Max is written `mL/(kg*min)`, the same unit; UVExposure's unit is blank there: a count.)
    static let quantities: [(suffix: String, unit: String, style: String)] = [
        // Body measurements
        ("AppleSleepingWristTemperature", "degC", "DA"), ("BodyFatPercentage", "%", "DA"), ("BodyMass", "kg", "DA"),
        ("BodyMassIndex", "count", "DA"), ("ElectrodermalActivity", "S", "DA"), ("Height", "m", "DA"),
        ("LeanBodyMass", "kg", "DA"), ("WaistCircumference", "m", "DA"),
        // Fitness
        ("ActiveEnergyBurned", "kcal", "C"), ("AppleExerciseTime", "min", "C"), ("AppleMoveTime", "min", "C"),
        ("AppleStandTime", "min", "C"), ("BasalEnergyBurned", "kcal", "C"), ("CrossCountrySkiingSpeed", "m/s", "DA"),
        ("CyclingCadence", "count/min", "DA"), ("CyclingFunctionalThresholdPower", "W", "DA"), ("CyclingPower", "W", "DA"),
        ("CyclingSpeed", "m/s", "DA"), ("DistanceCrossCountrySkiing", "m", "C"), ("DistanceCycling", "m", "C"),
        ("DistanceDownhillSnowSports", "m", "C"), ("DistancePaddleSports", "m", "C"), ("DistanceRowing", "m", "C"),
        ("DistanceSkatingSports", "m", "C"), ("DistanceSwimming", "m", "C"), ("DistanceWalkingRunning", "m", "C"),
        ("DistanceWheelchair", "m", "C"), ("EstimatedWorkoutEffortScore", "appleEffortScore", "DA"),
        ("FlightsClimbed", "count", "C"), ("NikeFuel", "count", "C"), ("PaddleSportsSpeed", "m/s", "DA"),
        ("PhysicalEffort", "kcal/(kg*hr)", "DA"), ("PushCount", "count", "C"), ("RowingSpeed", "m/s", "DA"),
        ("RunningPower", "W", "DA"), ("RunningSpeed", "m/s", "DA"), ("StepCount", "count", "C"),
        ("SwimmingStrokeCount", "count", "C"), ("UnderwaterDepth", "m", "DA"), ("WorkoutEffortScore", "appleEffortScore", "DA"),
        // Hearing health
        ("EnvironmentalAudioExposure", "dBASPL", "ECL"), ("EnvironmentalSoundReduction", "dBASPL", "ECL"),
        ("HeadphoneAudioExposure", "dBASPL", "ECL"),
        // Heart
        ("AtrialFibrillationBurden", "%", "DTW"), ("HeartRate", "count/s", "DTW"), ("HeartRateRecoveryOneMinute", "count/min", "DA"),
        ("HeartRateVariabilitySDNN", "ms", "DA"), ("PeripheralPerfusionIndex", "%", "DA"), ("RestingHeartRate", "count/min", "DA"),
        ("VO2Max", "mL/(kg*min)", "DA"), ("WalkingHeartRateAverage", "count/min", "DA"),
        // Mobility
        ("AppleWalkingSteadiness", "%", "DA"), ("RunningGroundContactTime", "ms", "DA"), ("RunningStrideLength", "m", "DA"),
        ("RunningVerticalOscillation", "cm", "DA"), ("SixMinuteWalkTestDistance", "m", "DA"), ("StairAscentSpeed", "m/s", "DA"),
        ("StairDescentSpeed", "m/s", "DA"), ("WalkingAsymmetryPercentage", "%", "DA"), ("WalkingDoubleSupportPercentage", "%", "DA"),
        ("WalkingSpeed", "m/s", "DA"), ("WalkingStepLength", "m", "DA"),
        // Nutrition
        ("DietaryBiotin", "g", "C"), ("DietaryCaffeine", "g", "C"), ("DietaryCalcium", "g", "C"), ("DietaryCarbohydrates", "g", "C"),
        ("DietaryChloride", "g", "C"), ("DietaryCholesterol", "g", "C"), ("DietaryChromium", "g", "C"), ("DietaryCopper", "g", "C"),
        ("DietaryEnergyConsumed", "kcal", "C"), ("DietaryFatMonounsaturated", "g", "C"), ("DietaryFatPolyunsaturated", "g", "C"),
        ("DietaryFatSaturated", "g", "C"), ("DietaryFatTotal", "g", "C"), ("DietaryFiber", "g", "C"), ("DietaryFolate", "g", "C"),
        ("DietaryIodine", "g", "C"), ("DietaryIron", "g", "C"), ("DietaryMagnesium", "g", "C"), ("DietaryManganese", "g", "C"),
        ("DietaryMolybdenum", "g", "C"), ("DietaryNiacin", "g", "C"), ("DietaryPantothenicAcid", "g", "C"),
        ("DietaryPhosphorus", "g", "C"), ("DietaryPotassium", "g", "C"), ("DietaryProtein", "g", "C"), ("DietaryRiboflavin", "g", "C"),
        ("DietarySelenium", "g", "C"), ("DietarySodium", "g", "C"), ("DietarySugar", "g", "C"), ("DietaryThiamin", "g", "C"),
        ("DietaryVitaminA", "g", "C"), ("DietaryVitaminB12", "g", "C"), ("DietaryVitaminB6", "g", "C"), ("DietaryVitaminC", "g", "C"),
        ("DietaryVitaminD", "g", "C"), ("DietaryVitaminE", "g", "C"), ("DietaryVitaminK", "g", "C"), ("DietaryWater", "mL", "C"),
        ("DietaryZinc", "g", "C"),
        // Other
        ("BloodAlcoholContent", "%", "DA"), ("BloodPressureDiastolic", "mmHg", "DA"), ("BloodPressureSystolic", "mmHg", "DA"),
        ("InsulinDelivery", "IU", "C"), ("NumberOfAlcoholicBeverages", "count", "C"), ("NumberOfTimesFallen", "count", "C"),
        ("TimeInDaylight", "min", "C"), ("UVExposure", "count", "DA"), ("WaterTemperature", "degC", "DA"),
        // Reproductive health
        ("BasalBodyTemperature", "degC", "DA"),
        // Respiratory
        ("AppleSleepingBreathingDisturbances", "count", "DA"), ("ForcedExpiratoryVolume1", "L", "DA"),
        ("ForcedVitalCapacity", "L", "DA"), ("InhalerUsage", "count", "C"), ("OxygenSaturation", "%", "DA"),
        ("PeakExpiratoryFlowRate", "L/min", "DA"), ("RespiratoryRate", "count/s", "DA"),
        // Vital signs
        ("BloodGlucose", "mg/dL", "DA"), ("BodyTemperature", "degC", "DA"),
    ]

    /// `HKCategoryTypeIdentifier…` suffix and the `HKCategoryValue…` enumeration its samples take ("" for
    /// `HKCategoryValue`, whose one value is `notApplicable`), as the header lists them; then the deprecated
    /// `AudioExposureEvent` (iOS 13) and the two of later SDKs (Apple's documentation).
    static let categories: [(suffix: String, values: String)] = [
        ("AppleStandHour", "AppleStandHour"), ("EnvironmentalAudioExposureEvent", "EnvironmentalAudioExposureEvent"),
        ("HeadphoneAudioExposureEvent", "HeadphoneAudioExposureEvent"), ("HighHeartRateEvent", ""),
        ("IrregularHeartRhythmEvent", ""), ("LowCardioFitnessEvent", "LowCardioFitnessEvent"), ("LowHeartRateEvent", ""),
        ("MindfulSession", ""), ("AppleWalkingSteadinessEvent", "AppleWalkingSteadinessEvent"), ("HandwashingEvent", ""),
        ("ToothbrushingEvent", ""), ("BleedingAfterPregnancy", "VaginalBleeding"), ("BleedingDuringPregnancy", "VaginalBleeding"),
        ("CervicalMucusQuality", "CervicalMucusQuality"), ("Contraceptive", "Contraceptive"), ("InfrequentMenstrualCycles", ""),
        ("IntermenstrualBleeding", ""), ("IrregularMenstrualCycles", ""), ("Lactation", ""), ("MenstrualFlow", "VaginalBleeding"),
        ("OvulationTestResult", "OvulationTestResult"), ("PersistentIntermenstrualBleeding", ""), ("Pregnancy", ""),
        ("PregnancyTestResult", "PregnancyTestResult"), ("ProgesteroneTestResult", "ProgesteroneTestResult"),
        ("ProlongedMenstrualPeriods", ""), ("SexualActivity", ""), ("SleepApneaEvent", ""), ("SleepAnalysis", "SleepAnalysis"),
        ("AbdominalCramps", "Severity"), ("Acne", "Severity"), ("AppetiteChanges", "AppetiteChanges"),
        ("BladderIncontinence", "Severity"), ("Bloating", "Severity"), ("BreastPain", "Severity"),
        ("ChestTightnessOrPain", "Severity"), ("Chills", "Severity"), ("Constipation", "Severity"), ("Coughing", "Severity"),
        ("Diarrhea", "Severity"), ("Dizziness", "Severity"), ("DrySkin", "Severity"), ("Fainting", "Severity"),
        ("Fatigue", "Severity"), ("Fever", "Severity"), ("GeneralizedBodyAche", "Severity"), ("HairLoss", "Severity"),
        ("Headache", "Severity"), ("Heartburn", "Severity"), ("HotFlashes", "Severity"), ("LossOfSmell", "Severity"),
        ("LossOfTaste", "Severity"), ("LowerBackPain", "Severity"), ("MemoryLapse", "Severity"), ("MoodChanges", "Presence"),
        ("Nausea", "Severity"), ("NightSweats", "Severity"), ("PelvicPain", "Severity"),
        ("RapidPoundingOrFlutteringHeartbeat", "Severity"), ("RunnyNose", "Severity"), ("ShortnessOfBreath", "Severity"),
        ("SinusCongestion", "Severity"), ("SkippedHeartbeat", "Severity"), ("SleepChanges", "Presence"),
        ("SoreThroat", "Severity"), ("VaginalDryness", "Severity"), ("Vomiting", "Severity"), ("Wheezing", "Severity"),
        ("AudioExposureEvent", "AudioExposureEvent"), ("HypertensionEvent", ""), ("BleedingAfterMenopause", "VaginalBleeding"),
    ]

    /// Raw values of HealthKit's `HKCategoryValue…` enumerations (Apple's documentation), by export name.
    static let rawValues: [(exportName: String, raw: Int)] = [
        ("HKCategoryValueNotApplicable", 0), ("HKCategoryValueEnvironmentalAudioExposureEventMomentaryLimit", 1),
        ("HKCategoryValueHeadphoneAudioExposureEventSevenDayLimit", 1), ("HKCategoryValueLowCardioFitnessEventLowFitness", 1),
        ("HKCategoryValueAppleWalkingSteadinessEventInitialLow", 1), ("HKCategoryValueAppleWalkingSteadinessEventRepeatVeryLow", 4),
        ("HKCategoryValueVaginalBleedingUnspecified", 1), ("HKCategoryValueVaginalBleedingNone", 5),
        ("HKCategoryValueCervicalMucusQualityDry", 1), ("HKCategoryValueCervicalMucusQualityEggWhite", 5),
        ("HKCategoryValueContraceptiveUnspecified", 1), ("HKCategoryValueContraceptiveOral", 6), ("HKCategoryValueContraceptivePatch", 7),
        ("HKCategoryValueOvulationTestResultNegative", 1), ("HKCategoryValueOvulationTestResultLuteinizingHormoneSurge", 2),
        ("HKCategoryValueOvulationTestResultEstrogenSurge", 4), ("HKCategoryValuePregnancyTestResultPositive", 2),
        ("HKCategoryValueProgesteroneTestResultIndeterminate", 3), ("HKCategoryValueAppetiteChangesUnspecified", 0),
        ("HKCategoryValueAppetiteChangesIncreased", 3), ("HKCategoryValuePresencePresent", 0), ("HKCategoryValuePresenceNotPresent", 1),
        ("HKCategoryValueSeverityNotPresent", 1), ("HKCategoryValueSeveritySevere", 4), ("HKCategoryValueAudioExposureEventLoudEnvironment", 1),
    ]

    private let catalogue = SampleTypeCatalogue.standard

    func everyQuantityTypeIdentifierWithItsUnitAndStyle() throws {
        expectEqual(Self.quantities.count, 120)
        let quantities = catalogue.types.filter { $0.kind == .quantity }
        expectEqual(Set(quantities.map(\.identifier)), Set(Self.quantities.map { "HKQuantityTypeIdentifier" + $0.suffix }))
        expectEqual(quantities.count, 120)
        let styles: [String: AggregationStyle] = ["C": .cumulative, "DA": .discreteArithmetic, "DTW": .discreteTemporallyWeighted,
                                                  "ECL": .discreteEquivalentContinuousLevel]
        for entry in Self.quantities {
            let type = try #require(catalogue.type(identifier: "HKQuantityTypeIdentifier" + entry.suffix), "\(entry.suffix)")
            expectEqual(type.aggregation, styles[entry.style], "\(entry.suffix)")
            let header = try HealthUnit(parsing: entry.unit)
            let canonical = try #require(type.canonicalUnit)
            let one = canonical.isCompatible(with: header) ? try Quantity(1, canonical).value(in: header) : nil
            expectEqual(one, 1, "\(entry.suffix): \(canonical.unitString), the header says \(entry.unit)")
            // The display unit and every example are of the type's dimension, and the examples lie in its range.
            expectEqual(type.displayUnit.map { $0.isCompatible(with: canonical) }, true, "\(entry.suffix)")
            let range = try #require(type.validRange, "\(entry.suffix)")
            for example in type.examples {
                let quantity = try TestSupport.quantity(example: example, for: type)
                #expect(range.contains(try quantity.value(in: canonical)), "\(entry.suffix): \(example)")
            }
        }
    }

    func everyCategoryTypeIdentifierWithItsValues() throws {
        let categories = catalogue.types.filter { $0.kind == .category }
        expectEqual(Set(categories.map(\.identifier)), Set(Self.categories.map { "HKCategoryTypeIdentifier" + $0.suffix }))
        expectEqual(categories.count, 71)
        for entry in Self.categories {
            let type = try #require(catalogue.type(identifier: "HKCategoryTypeIdentifier" + entry.suffix))
            let prefix = entry.values.isEmpty ? "HKCategoryValueNotApplicable" : "HKCategoryValue" + entry.values
            #expect(!type.categoryValues.isEmpty, "\(entry.suffix)")
            for value in type.categoryValues {
                #expect(value.exportNames.contains { $0.hasPrefix(prefix) }, "\(entry.suffix): \(value.exportNames)")
                #expect(value.aliases.allSatisfy { $0 == $0.lowercased() }, "\(entry.suffix): \(value.aliases)")
            }
            expectEqual(Set(type.categoryValues.map(\.rawValue)).count, type.categoryValues.count, "\(entry.suffix)")
            #expect(type.examples.filter { !$0.contains(":") }.allSatisfy { (try? type.categoryValue(named: $0)) != nil },
                    "\(entry.suffix): \(type.examples)")
        }
        let values = categories.flatMap(\.categoryValues)
        for (exportName, raw) in Self.rawValues {
            let found = values.filter { $0.exportNames.contains(exportName) }
            #expect(!found.isEmpty && found.allSatisfy { $0.rawValue == raw }, "\(exportName)")
        }
    }

    func namesAreUniqueAndStaticMembersNameEveryType() {
        #expect(catalogue.duplicateNames.isEmpty, "\(catalogue.duplicateNames)")
        // A few of the new static members, with HealthKit's Swift names and raw values.
        expectEqual(QuantityTypeIdentifier.walkingSpeed.rawValue, "HKQuantityTypeIdentifierWalkingSpeed")
        expectEqual(QuantityTypeIdentifier.sixMinuteWalkTestDistance.rawValue, "HKQuantityTypeIdentifierSixMinuteWalkTestDistance")
        expectEqual(QuantityTypeIdentifier.uvExposure.rawValue, "HKQuantityTypeIdentifierUVExposure")
        expectEqual(QuantityTypeIdentifier.dietaryVitaminB12.rawValue, "HKQuantityTypeIdentifierDietaryVitaminB12")
        expectEqual(CategoryTypeIdentifier.rapidPoundingOrFlutteringHeartbeat.rawValue, "HKCategoryTypeIdentifierRapidPoundingOrFlutteringHeartbeat")
        expectEqual(CategoryTypeIdentifier.hypertensionEvent.rawValue, "HKCategoryTypeIdentifierHypertensionEvent")
        for entry in Self.quantities {
            #expect(ObjectType.quantityType(forIdentifier: QuantityTypeIdentifier("HKQuantityTypeIdentifier" + entry.suffix)) != nil)
        }
        for entry in Self.categories {
            #expect(ObjectType.categoryType(forIdentifier: CategoryTypeIdentifier("HKCategoryTypeIdentifier" + entry.suffix)) != nil)
        }
        // The characteristic and correlation identifiers of the header.
        for raw in ["ActivityMoveMode", "BiologicalSex", "BloodType", "DateOfBirth", "FitzpatrickSkinType", "WheelchairUse"] {
            #expect(ObjectType.characteristicType(forIdentifier: CharacteristicTypeIdentifier("HKCharacteristicTypeIdentifier" + raw)) != nil, "\(raw)")
        }
        #expect(ObjectType.correlationType(forIdentifier: CorrelationTypeIdentifier("HKCorrelationTypeIdentifierBloodPressure")) != nil)
        #expect(ObjectType.correlationType(forIdentifier: CorrelationTypeIdentifier("HKCorrelationTypeIdentifierFood")) != nil)
    }
}

/// The checks ``HealthKitIdentifierListTests/checks(_:)`` runs.
private let healthKitIdentifierListTestsChecks: [Check<HealthKitIdentifierListTests>] = [
    Check("everyQuantityTypeIdentifierWithItsUnitAndStyle",
          HealthKitIdentifierListTests.everyQuantityTypeIdentifierWithItsUnitAndStyle),
    Check("everyCategoryTypeIdentifierWithItsValues",
          HealthKitIdentifierListTests.everyCategoryTypeIdentifierWithItsValues),
    Check("namesAreUniqueAndStaticMembersNameEveryType",
          HealthKitIdentifierListTests.namesAreUniqueAndStaticMembersNameEveryType),
]
