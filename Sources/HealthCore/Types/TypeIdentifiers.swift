/// HealthKit's quantity type identifiers (`HKQuantityTypeIdentifier`), with HealthKit's raw values. A static member
/// exists for every quantity type identifier HealthKit has (the standard catalogue knows them all); any other raw value can be made with
/// ``init(rawValue:)`` and looked up with ``ObjectType/quantityType(forIdentifier:)``.
public struct QuantityTypeIdentifier: RawRepresentable, Hashable, Sendable {
    /// HealthKit's identifier string.
    public let rawValue: String
    /// An identifier from its string.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// An identifier from its string.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// `HKQuantityTypeIdentifierDietaryWater`.
    public static let dietaryWater = Self(rawValue: "HKQuantityTypeIdentifierDietaryWater")
    /// `HKQuantityTypeIdentifierStepCount`.
    public static let stepCount = Self(rawValue: "HKQuantityTypeIdentifierStepCount")
    /// `HKQuantityTypeIdentifierBodyMass`.
    public static let bodyMass = Self(rawValue: "HKQuantityTypeIdentifierBodyMass")
    /// `HKQuantityTypeIdentifierHeight`.
    public static let height = Self(rawValue: "HKQuantityTypeIdentifierHeight")
    /// `HKQuantityTypeIdentifierBodyMassIndex`.
    public static let bodyMassIndex = Self(rawValue: "HKQuantityTypeIdentifierBodyMassIndex")
    /// `HKQuantityTypeIdentifierBodyFatPercentage`.
    public static let bodyFatPercentage = Self(rawValue: "HKQuantityTypeIdentifierBodyFatPercentage")
    /// `HKQuantityTypeIdentifierLeanBodyMass`.
    public static let leanBodyMass = Self(rawValue: "HKQuantityTypeIdentifierLeanBodyMass")
    /// `HKQuantityTypeIdentifierWaistCircumference`.
    public static let waistCircumference = Self(rawValue: "HKQuantityTypeIdentifierWaistCircumference")
    /// `HKQuantityTypeIdentifierHeartRate`.
    public static let heartRate = Self(rawValue: "HKQuantityTypeIdentifierHeartRate")
    /// `HKQuantityTypeIdentifierRestingHeartRate`.
    public static let restingHeartRate = Self(rawValue: "HKQuantityTypeIdentifierRestingHeartRate")
    /// `HKQuantityTypeIdentifierWalkingHeartRateAverage`.
    public static let walkingHeartRateAverage = Self(rawValue: "HKQuantityTypeIdentifierWalkingHeartRateAverage")
    /// `HKQuantityTypeIdentifierHeartRateVariabilitySDNN`.
    public static let heartRateVariabilitySDNN = Self(rawValue: "HKQuantityTypeIdentifierHeartRateVariabilitySDNN")
    /// `HKQuantityTypeIdentifierOxygenSaturation`.
    public static let oxygenSaturation = Self(rawValue: "HKQuantityTypeIdentifierOxygenSaturation")
    /// `HKQuantityTypeIdentifierRespiratoryRate`.
    public static let respiratoryRate = Self(rawValue: "HKQuantityTypeIdentifierRespiratoryRate")
    /// `HKQuantityTypeIdentifierBodyTemperature`.
    public static let bodyTemperature = Self(rawValue: "HKQuantityTypeIdentifierBodyTemperature")
    /// `HKQuantityTypeIdentifierBasalBodyTemperature`.
    public static let basalBodyTemperature = Self(rawValue: "HKQuantityTypeIdentifierBasalBodyTemperature")
    /// `HKQuantityTypeIdentifierBloodGlucose`.
    public static let bloodGlucose = Self(rawValue: "HKQuantityTypeIdentifierBloodGlucose")
    /// `HKQuantityTypeIdentifierBloodPressureSystolic`.
    public static let bloodPressureSystolic = Self(rawValue: "HKQuantityTypeIdentifierBloodPressureSystolic")
    /// `HKQuantityTypeIdentifierBloodPressureDiastolic`.
    public static let bloodPressureDiastolic = Self(rawValue: "HKQuantityTypeIdentifierBloodPressureDiastolic")
    /// `HKQuantityTypeIdentifierVO2Max`.
    public static let vo2Max = Self(rawValue: "HKQuantityTypeIdentifierVO2Max")
    /// `HKQuantityTypeIdentifierActiveEnergyBurned`.
    public static let activeEnergyBurned = Self(rawValue: "HKQuantityTypeIdentifierActiveEnergyBurned")
    /// `HKQuantityTypeIdentifierBasalEnergyBurned`.
    public static let basalEnergyBurned = Self(rawValue: "HKQuantityTypeIdentifierBasalEnergyBurned")
    /// `HKQuantityTypeIdentifierDistanceWalkingRunning`.
    public static let distanceWalkingRunning = Self(rawValue: "HKQuantityTypeIdentifierDistanceWalkingRunning")
    /// `HKQuantityTypeIdentifierDistanceCycling`.
    public static let distanceCycling = Self(rawValue: "HKQuantityTypeIdentifierDistanceCycling")
    /// `HKQuantityTypeIdentifierDistanceSwimming`.
    public static let distanceSwimming = Self(rawValue: "HKQuantityTypeIdentifierDistanceSwimming")
    /// `HKQuantityTypeIdentifierDistanceWheelchair`.
    public static let distanceWheelchair = Self(rawValue: "HKQuantityTypeIdentifierDistanceWheelchair")
    /// `HKQuantityTypeIdentifierPushCount`.
    public static let pushCount = Self(rawValue: "HKQuantityTypeIdentifierPushCount")
    /// `HKQuantityTypeIdentifierFlightsClimbed`.
    public static let flightsClimbed = Self(rawValue: "HKQuantityTypeIdentifierFlightsClimbed")
    /// `HKQuantityTypeIdentifierAppleExerciseTime`.
    public static let appleExerciseTime = Self(rawValue: "HKQuantityTypeIdentifierAppleExerciseTime")
    /// `HKQuantityTypeIdentifierAppleStandTime`.
    public static let appleStandTime = Self(rawValue: "HKQuantityTypeIdentifierAppleStandTime")
    /// `HKQuantityTypeIdentifierAppleMoveTime`.
    public static let appleMoveTime = Self(rawValue: "HKQuantityTypeIdentifierAppleMoveTime")
    /// `HKQuantityTypeIdentifierTimeInDaylight`.
    public static let timeInDaylight = Self(rawValue: "HKQuantityTypeIdentifierTimeInDaylight")
    /// `HKQuantityTypeIdentifierEnvironmentalAudioExposure`.
    public static let environmentalAudioExposure = Self(rawValue: "HKQuantityTypeIdentifierEnvironmentalAudioExposure")
    /// `HKQuantityTypeIdentifierHeadphoneAudioExposure`.
    public static let headphoneAudioExposure = Self(rawValue: "HKQuantityTypeIdentifierHeadphoneAudioExposure")
    /// `HKQuantityTypeIdentifierDietaryEnergyConsumed`.
    public static let dietaryEnergyConsumed = Self(rawValue: "HKQuantityTypeIdentifierDietaryEnergyConsumed")
    /// `HKQuantityTypeIdentifierDietaryCaffeine`.
    public static let dietaryCaffeine = Self(rawValue: "HKQuantityTypeIdentifierDietaryCaffeine")
    /// `HKQuantityTypeIdentifierDietaryProtein`.
    public static let dietaryProtein = Self(rawValue: "HKQuantityTypeIdentifierDietaryProtein")
    /// `HKQuantityTypeIdentifierDietaryCarbohydrates`.
    public static let dietaryCarbohydrates = Self(rawValue: "HKQuantityTypeIdentifierDietaryCarbohydrates")
    /// `HKQuantityTypeIdentifierDietaryFatTotal`.
    public static let dietaryFatTotal = Self(rawValue: "HKQuantityTypeIdentifierDietaryFatTotal")
    /// `HKQuantityTypeIdentifierDietarySugar`.
    public static let dietarySugar = Self(rawValue: "HKQuantityTypeIdentifierDietarySugar")
    /// `HKQuantityTypeIdentifierDietaryFiber`.
    public static let dietaryFiber = Self(rawValue: "HKQuantityTypeIdentifierDietaryFiber")
    /// `HKQuantityTypeIdentifierDietarySodium`.
    public static let dietarySodium = Self(rawValue: "HKQuantityTypeIdentifierDietarySodium")
    /// `HKQuantityTypeIdentifierNumberOfAlcoholicBeverages`.
    public static let numberOfAlcoholicBeverages = Self(rawValue: "HKQuantityTypeIdentifierNumberOfAlcoholicBeverages")
    /// `HKQuantityTypeIdentifierAppleSleepingWristTemperature`.
    public static let appleSleepingWristTemperature = Self(rawValue: "HKQuantityTypeIdentifierAppleSleepingWristTemperature")
    /// `HKQuantityTypeIdentifierElectrodermalActivity`.
    public static let electrodermalActivity = Self(rawValue: "HKQuantityTypeIdentifierElectrodermalActivity")
    /// `HKQuantityTypeIdentifierCrossCountrySkiingSpeed`.
    public static let crossCountrySkiingSpeed = Self(rawValue: "HKQuantityTypeIdentifierCrossCountrySkiingSpeed")
    /// `HKQuantityTypeIdentifierCyclingCadence`.
    public static let cyclingCadence = Self(rawValue: "HKQuantityTypeIdentifierCyclingCadence")
    /// `HKQuantityTypeIdentifierCyclingFunctionalThresholdPower`.
    public static let cyclingFunctionalThresholdPower = Self(rawValue: "HKQuantityTypeIdentifierCyclingFunctionalThresholdPower")
    /// `HKQuantityTypeIdentifierCyclingPower`.
    public static let cyclingPower = Self(rawValue: "HKQuantityTypeIdentifierCyclingPower")
    /// `HKQuantityTypeIdentifierCyclingSpeed`.
    public static let cyclingSpeed = Self(rawValue: "HKQuantityTypeIdentifierCyclingSpeed")
    /// `HKQuantityTypeIdentifierDistanceCrossCountrySkiing`.
    public static let distanceCrossCountrySkiing = Self(rawValue: "HKQuantityTypeIdentifierDistanceCrossCountrySkiing")
    /// `HKQuantityTypeIdentifierDistanceDownhillSnowSports`.
    public static let distanceDownhillSnowSports = Self(rawValue: "HKQuantityTypeIdentifierDistanceDownhillSnowSports")
    /// `HKQuantityTypeIdentifierDistancePaddleSports`.
    public static let distancePaddleSports = Self(rawValue: "HKQuantityTypeIdentifierDistancePaddleSports")
    /// `HKQuantityTypeIdentifierDistanceRowing`.
    public static let distanceRowing = Self(rawValue: "HKQuantityTypeIdentifierDistanceRowing")
    /// `HKQuantityTypeIdentifierDistanceSkatingSports`.
    public static let distanceSkatingSports = Self(rawValue: "HKQuantityTypeIdentifierDistanceSkatingSports")
    /// `HKQuantityTypeIdentifierEstimatedWorkoutEffortScore`.
    public static let estimatedWorkoutEffortScore = Self(rawValue: "HKQuantityTypeIdentifierEstimatedWorkoutEffortScore")
    /// `HKQuantityTypeIdentifierNikeFuel`.
    public static let nikeFuel = Self(rawValue: "HKQuantityTypeIdentifierNikeFuel")
    /// `HKQuantityTypeIdentifierPaddleSportsSpeed`.
    public static let paddleSportsSpeed = Self(rawValue: "HKQuantityTypeIdentifierPaddleSportsSpeed")
    /// `HKQuantityTypeIdentifierPhysicalEffort`.
    public static let physicalEffort = Self(rawValue: "HKQuantityTypeIdentifierPhysicalEffort")
    /// `HKQuantityTypeIdentifierRowingSpeed`.
    public static let rowingSpeed = Self(rawValue: "HKQuantityTypeIdentifierRowingSpeed")
    /// `HKQuantityTypeIdentifierRunningPower`.
    public static let runningPower = Self(rawValue: "HKQuantityTypeIdentifierRunningPower")
    /// `HKQuantityTypeIdentifierRunningSpeed`.
    public static let runningSpeed = Self(rawValue: "HKQuantityTypeIdentifierRunningSpeed")
    /// `HKQuantityTypeIdentifierSwimmingStrokeCount`.
    public static let swimmingStrokeCount = Self(rawValue: "HKQuantityTypeIdentifierSwimmingStrokeCount")
    /// `HKQuantityTypeIdentifierUnderwaterDepth`.
    public static let underwaterDepth = Self(rawValue: "HKQuantityTypeIdentifierUnderwaterDepth")
    /// `HKQuantityTypeIdentifierWorkoutEffortScore`.
    public static let workoutEffortScore = Self(rawValue: "HKQuantityTypeIdentifierWorkoutEffortScore")
    /// `HKQuantityTypeIdentifierEnvironmentalSoundReduction`.
    public static let environmentalSoundReduction = Self(rawValue: "HKQuantityTypeIdentifierEnvironmentalSoundReduction")
    /// `HKQuantityTypeIdentifierAtrialFibrillationBurden`.
    public static let atrialFibrillationBurden = Self(rawValue: "HKQuantityTypeIdentifierAtrialFibrillationBurden")
    /// `HKQuantityTypeIdentifierHeartRateRecoveryOneMinute`.
    public static let heartRateRecoveryOneMinute = Self(rawValue: "HKQuantityTypeIdentifierHeartRateRecoveryOneMinute")
    /// `HKQuantityTypeIdentifierPeripheralPerfusionIndex`.
    public static let peripheralPerfusionIndex = Self(rawValue: "HKQuantityTypeIdentifierPeripheralPerfusionIndex")
    /// `HKQuantityTypeIdentifierAppleWalkingSteadiness`.
    public static let appleWalkingSteadiness = Self(rawValue: "HKQuantityTypeIdentifierAppleWalkingSteadiness")
    /// `HKQuantityTypeIdentifierRunningGroundContactTime`.
    public static let runningGroundContactTime = Self(rawValue: "HKQuantityTypeIdentifierRunningGroundContactTime")
    /// `HKQuantityTypeIdentifierRunningStrideLength`.
    public static let runningStrideLength = Self(rawValue: "HKQuantityTypeIdentifierRunningStrideLength")
    /// `HKQuantityTypeIdentifierRunningVerticalOscillation`.
    public static let runningVerticalOscillation = Self(rawValue: "HKQuantityTypeIdentifierRunningVerticalOscillation")
    /// `HKQuantityTypeIdentifierSixMinuteWalkTestDistance`.
    public static let sixMinuteWalkTestDistance = Self(rawValue: "HKQuantityTypeIdentifierSixMinuteWalkTestDistance")
    /// `HKQuantityTypeIdentifierStairAscentSpeed`.
    public static let stairAscentSpeed = Self(rawValue: "HKQuantityTypeIdentifierStairAscentSpeed")
    /// `HKQuantityTypeIdentifierStairDescentSpeed`.
    public static let stairDescentSpeed = Self(rawValue: "HKQuantityTypeIdentifierStairDescentSpeed")
    /// `HKQuantityTypeIdentifierWalkingAsymmetryPercentage`.
    public static let walkingAsymmetryPercentage = Self(rawValue: "HKQuantityTypeIdentifierWalkingAsymmetryPercentage")
    /// `HKQuantityTypeIdentifierWalkingDoubleSupportPercentage`.
    public static let walkingDoubleSupportPercentage = Self(rawValue: "HKQuantityTypeIdentifierWalkingDoubleSupportPercentage")
    /// `HKQuantityTypeIdentifierWalkingSpeed`.
    public static let walkingSpeed = Self(rawValue: "HKQuantityTypeIdentifierWalkingSpeed")
    /// `HKQuantityTypeIdentifierWalkingStepLength`.
    public static let walkingStepLength = Self(rawValue: "HKQuantityTypeIdentifierWalkingStepLength")
    /// `HKQuantityTypeIdentifierBloodAlcoholContent`.
    public static let bloodAlcoholContent = Self(rawValue: "HKQuantityTypeIdentifierBloodAlcoholContent")
    /// `HKQuantityTypeIdentifierInsulinDelivery`.
    public static let insulinDelivery = Self(rawValue: "HKQuantityTypeIdentifierInsulinDelivery")
    /// `HKQuantityTypeIdentifierNumberOfTimesFallen`.
    public static let numberOfTimesFallen = Self(rawValue: "HKQuantityTypeIdentifierNumberOfTimesFallen")
    /// `HKQuantityTypeIdentifierUVExposure`.
    public static let uvExposure = Self(rawValue: "HKQuantityTypeIdentifierUVExposure")
    /// `HKQuantityTypeIdentifierWaterTemperature`.
    public static let waterTemperature = Self(rawValue: "HKQuantityTypeIdentifierWaterTemperature")
    /// `HKQuantityTypeIdentifierAppleSleepingBreathingDisturbances`.
    public static let appleSleepingBreathingDisturbances = Self(rawValue: "HKQuantityTypeIdentifierAppleSleepingBreathingDisturbances")
    /// `HKQuantityTypeIdentifierForcedExpiratoryVolume1`.
    public static let forcedExpiratoryVolume1 = Self(rawValue: "HKQuantityTypeIdentifierForcedExpiratoryVolume1")
    /// `HKQuantityTypeIdentifierForcedVitalCapacity`.
    public static let forcedVitalCapacity = Self(rawValue: "HKQuantityTypeIdentifierForcedVitalCapacity")
    /// `HKQuantityTypeIdentifierInhalerUsage`.
    public static let inhalerUsage = Self(rawValue: "HKQuantityTypeIdentifierInhalerUsage")
    /// `HKQuantityTypeIdentifierPeakExpiratoryFlowRate`.
    public static let peakExpiratoryFlowRate = Self(rawValue: "HKQuantityTypeIdentifierPeakExpiratoryFlowRate")
    /// `HKQuantityTypeIdentifierDietaryBiotin`.
    public static let dietaryBiotin = Self(rawValue: "HKQuantityTypeIdentifierDietaryBiotin")
    /// `HKQuantityTypeIdentifierDietaryCalcium`.
    public static let dietaryCalcium = Self(rawValue: "HKQuantityTypeIdentifierDietaryCalcium")
    /// `HKQuantityTypeIdentifierDietaryChloride`.
    public static let dietaryChloride = Self(rawValue: "HKQuantityTypeIdentifierDietaryChloride")
    /// `HKQuantityTypeIdentifierDietaryCholesterol`.
    public static let dietaryCholesterol = Self(rawValue: "HKQuantityTypeIdentifierDietaryCholesterol")
    /// `HKQuantityTypeIdentifierDietaryChromium`.
    public static let dietaryChromium = Self(rawValue: "HKQuantityTypeIdentifierDietaryChromium")
    /// `HKQuantityTypeIdentifierDietaryCopper`.
    public static let dietaryCopper = Self(rawValue: "HKQuantityTypeIdentifierDietaryCopper")
    /// `HKQuantityTypeIdentifierDietaryFatMonounsaturated`.
    public static let dietaryFatMonounsaturated = Self(rawValue: "HKQuantityTypeIdentifierDietaryFatMonounsaturated")
    /// `HKQuantityTypeIdentifierDietaryFatPolyunsaturated`.
    public static let dietaryFatPolyunsaturated = Self(rawValue: "HKQuantityTypeIdentifierDietaryFatPolyunsaturated")
    /// `HKQuantityTypeIdentifierDietaryFatSaturated`.
    public static let dietaryFatSaturated = Self(rawValue: "HKQuantityTypeIdentifierDietaryFatSaturated")
    /// `HKQuantityTypeIdentifierDietaryFolate`.
    public static let dietaryFolate = Self(rawValue: "HKQuantityTypeIdentifierDietaryFolate")
    /// `HKQuantityTypeIdentifierDietaryIodine`.
    public static let dietaryIodine = Self(rawValue: "HKQuantityTypeIdentifierDietaryIodine")
    /// `HKQuantityTypeIdentifierDietaryIron`.
    public static let dietaryIron = Self(rawValue: "HKQuantityTypeIdentifierDietaryIron")
    /// `HKQuantityTypeIdentifierDietaryMagnesium`.
    public static let dietaryMagnesium = Self(rawValue: "HKQuantityTypeIdentifierDietaryMagnesium")
    /// `HKQuantityTypeIdentifierDietaryManganese`.
    public static let dietaryManganese = Self(rawValue: "HKQuantityTypeIdentifierDietaryManganese")
    /// `HKQuantityTypeIdentifierDietaryMolybdenum`.
    public static let dietaryMolybdenum = Self(rawValue: "HKQuantityTypeIdentifierDietaryMolybdenum")
    /// `HKQuantityTypeIdentifierDietaryNiacin`.
    public static let dietaryNiacin = Self(rawValue: "HKQuantityTypeIdentifierDietaryNiacin")
    /// `HKQuantityTypeIdentifierDietaryPantothenicAcid`.
    public static let dietaryPantothenicAcid = Self(rawValue: "HKQuantityTypeIdentifierDietaryPantothenicAcid")
    /// `HKQuantityTypeIdentifierDietaryPhosphorus`.
    public static let dietaryPhosphorus = Self(rawValue: "HKQuantityTypeIdentifierDietaryPhosphorus")
    /// `HKQuantityTypeIdentifierDietaryPotassium`.
    public static let dietaryPotassium = Self(rawValue: "HKQuantityTypeIdentifierDietaryPotassium")
    /// `HKQuantityTypeIdentifierDietaryRiboflavin`.
    public static let dietaryRiboflavin = Self(rawValue: "HKQuantityTypeIdentifierDietaryRiboflavin")
    /// `HKQuantityTypeIdentifierDietarySelenium`.
    public static let dietarySelenium = Self(rawValue: "HKQuantityTypeIdentifierDietarySelenium")
    /// `HKQuantityTypeIdentifierDietaryThiamin`.
    public static let dietaryThiamin = Self(rawValue: "HKQuantityTypeIdentifierDietaryThiamin")
    /// `HKQuantityTypeIdentifierDietaryVitaminA`.
    public static let dietaryVitaminA = Self(rawValue: "HKQuantityTypeIdentifierDietaryVitaminA")
    /// `HKQuantityTypeIdentifierDietaryVitaminB12`.
    public static let dietaryVitaminB12 = Self(rawValue: "HKQuantityTypeIdentifierDietaryVitaminB12")
    /// `HKQuantityTypeIdentifierDietaryVitaminB6`.
    public static let dietaryVitaminB6 = Self(rawValue: "HKQuantityTypeIdentifierDietaryVitaminB6")
    /// `HKQuantityTypeIdentifierDietaryVitaminC`.
    public static let dietaryVitaminC = Self(rawValue: "HKQuantityTypeIdentifierDietaryVitaminC")
    /// `HKQuantityTypeIdentifierDietaryVitaminD`.
    public static let dietaryVitaminD = Self(rawValue: "HKQuantityTypeIdentifierDietaryVitaminD")
    /// `HKQuantityTypeIdentifierDietaryVitaminE`.
    public static let dietaryVitaminE = Self(rawValue: "HKQuantityTypeIdentifierDietaryVitaminE")
    /// `HKQuantityTypeIdentifierDietaryVitaminK`.
    public static let dietaryVitaminK = Self(rawValue: "HKQuantityTypeIdentifierDietaryVitaminK")
    /// `HKQuantityTypeIdentifierDietaryZinc`.
    public static let dietaryZinc = Self(rawValue: "HKQuantityTypeIdentifierDietaryZinc")
}

/// HealthKit's category type identifiers (`HKCategoryTypeIdentifier`), with HealthKit's raw values.
public struct CategoryTypeIdentifier: RawRepresentable, Hashable, Sendable {
    /// HealthKit's identifier string.
    public let rawValue: String
    /// An identifier from its string.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// An identifier from its string.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// `HKCategoryTypeIdentifierSleepAnalysis`.
    public static let sleepAnalysis = Self(rawValue: "HKCategoryTypeIdentifierSleepAnalysis")
    /// `HKCategoryTypeIdentifierMindfulSession`.
    public static let mindfulSession = Self(rawValue: "HKCategoryTypeIdentifierMindfulSession")
    /// `HKCategoryTypeIdentifierAppleStandHour`.
    public static let appleStandHour = Self(rawValue: "HKCategoryTypeIdentifierAppleStandHour")
    /// `HKCategoryTypeIdentifierHeadache`.
    public static let headache = Self(rawValue: "HKCategoryTypeIdentifierHeadache")
    /// `HKCategoryTypeIdentifierMenstrualFlow`.
    public static let menstrualFlow = Self(rawValue: "HKCategoryTypeIdentifierMenstrualFlow")
    /// `HKCategoryTypeIdentifierEnvironmentalAudioExposureEvent`.
    public static let environmentalAudioExposureEvent = Self(rawValue: "HKCategoryTypeIdentifierEnvironmentalAudioExposureEvent")
    /// `HKCategoryTypeIdentifierHeadphoneAudioExposureEvent`.
    public static let headphoneAudioExposureEvent = Self(rawValue: "HKCategoryTypeIdentifierHeadphoneAudioExposureEvent")
    /// `HKCategoryTypeIdentifierAudioExposureEvent`.
    public static let audioExposureEvent = Self(rawValue: "HKCategoryTypeIdentifierAudioExposureEvent")
    /// `HKCategoryTypeIdentifierHighHeartRateEvent`.
    public static let highHeartRateEvent = Self(rawValue: "HKCategoryTypeIdentifierHighHeartRateEvent")
    /// `HKCategoryTypeIdentifierIrregularHeartRhythmEvent`.
    public static let irregularHeartRhythmEvent = Self(rawValue: "HKCategoryTypeIdentifierIrregularHeartRhythmEvent")
    /// `HKCategoryTypeIdentifierLowCardioFitnessEvent`.
    public static let lowCardioFitnessEvent = Self(rawValue: "HKCategoryTypeIdentifierLowCardioFitnessEvent")
    /// `HKCategoryTypeIdentifierLowHeartRateEvent`.
    public static let lowHeartRateEvent = Self(rawValue: "HKCategoryTypeIdentifierLowHeartRateEvent")
    /// `HKCategoryTypeIdentifierHypertensionEvent`.
    public static let hypertensionEvent = Self(rawValue: "HKCategoryTypeIdentifierHypertensionEvent")
    /// `HKCategoryTypeIdentifierAppleWalkingSteadinessEvent`.
    public static let appleWalkingSteadinessEvent = Self(rawValue: "HKCategoryTypeIdentifierAppleWalkingSteadinessEvent")
    /// `HKCategoryTypeIdentifierHandwashingEvent`.
    public static let handwashingEvent = Self(rawValue: "HKCategoryTypeIdentifierHandwashingEvent")
    /// `HKCategoryTypeIdentifierToothbrushingEvent`.
    public static let toothbrushingEvent = Self(rawValue: "HKCategoryTypeIdentifierToothbrushingEvent")
    /// `HKCategoryTypeIdentifierBleedingAfterMenopause`.
    public static let bleedingAfterMenopause = Self(rawValue: "HKCategoryTypeIdentifierBleedingAfterMenopause")
    /// `HKCategoryTypeIdentifierBleedingAfterPregnancy`.
    public static let bleedingAfterPregnancy = Self(rawValue: "HKCategoryTypeIdentifierBleedingAfterPregnancy")
    /// `HKCategoryTypeIdentifierBleedingDuringPregnancy`.
    public static let bleedingDuringPregnancy = Self(rawValue: "HKCategoryTypeIdentifierBleedingDuringPregnancy")
    /// `HKCategoryTypeIdentifierCervicalMucusQuality`.
    public static let cervicalMucusQuality = Self(rawValue: "HKCategoryTypeIdentifierCervicalMucusQuality")
    /// `HKCategoryTypeIdentifierContraceptive`.
    public static let contraceptive = Self(rawValue: "HKCategoryTypeIdentifierContraceptive")
    /// `HKCategoryTypeIdentifierInfrequentMenstrualCycles`.
    public static let infrequentMenstrualCycles = Self(rawValue: "HKCategoryTypeIdentifierInfrequentMenstrualCycles")
    /// `HKCategoryTypeIdentifierIntermenstrualBleeding`.
    public static let intermenstrualBleeding = Self(rawValue: "HKCategoryTypeIdentifierIntermenstrualBleeding")
    /// `HKCategoryTypeIdentifierIrregularMenstrualCycles`.
    public static let irregularMenstrualCycles = Self(rawValue: "HKCategoryTypeIdentifierIrregularMenstrualCycles")
    /// `HKCategoryTypeIdentifierLactation`.
    public static let lactation = Self(rawValue: "HKCategoryTypeIdentifierLactation")
    /// `HKCategoryTypeIdentifierOvulationTestResult`.
    public static let ovulationTestResult = Self(rawValue: "HKCategoryTypeIdentifierOvulationTestResult")
    /// `HKCategoryTypeIdentifierPersistentIntermenstrualBleeding`.
    public static let persistentIntermenstrualBleeding = Self(rawValue: "HKCategoryTypeIdentifierPersistentIntermenstrualBleeding")
    /// `HKCategoryTypeIdentifierPregnancy`.
    public static let pregnancy = Self(rawValue: "HKCategoryTypeIdentifierPregnancy")
    /// `HKCategoryTypeIdentifierPregnancyTestResult`.
    public static let pregnancyTestResult = Self(rawValue: "HKCategoryTypeIdentifierPregnancyTestResult")
    /// `HKCategoryTypeIdentifierProgesteroneTestResult`.
    public static let progesteroneTestResult = Self(rawValue: "HKCategoryTypeIdentifierProgesteroneTestResult")
    /// `HKCategoryTypeIdentifierProlongedMenstrualPeriods`.
    public static let prolongedMenstrualPeriods = Self(rawValue: "HKCategoryTypeIdentifierProlongedMenstrualPeriods")
    /// `HKCategoryTypeIdentifierSexualActivity`.
    public static let sexualActivity = Self(rawValue: "HKCategoryTypeIdentifierSexualActivity")
    /// `HKCategoryTypeIdentifierSleepApneaEvent`.
    public static let sleepApneaEvent = Self(rawValue: "HKCategoryTypeIdentifierSleepApneaEvent")
    /// `HKCategoryTypeIdentifierAppetiteChanges`.
    public static let appetiteChanges = Self(rawValue: "HKCategoryTypeIdentifierAppetiteChanges")
    /// `HKCategoryTypeIdentifierMoodChanges`.
    public static let moodChanges = Self(rawValue: "HKCategoryTypeIdentifierMoodChanges")
    /// `HKCategoryTypeIdentifierSleepChanges`.
    public static let sleepChanges = Self(rawValue: "HKCategoryTypeIdentifierSleepChanges")
    /// `HKCategoryTypeIdentifierAbdominalCramps`.
    public static let abdominalCramps = Self(rawValue: "HKCategoryTypeIdentifierAbdominalCramps")
    /// `HKCategoryTypeIdentifierAcne`.
    public static let acne = Self(rawValue: "HKCategoryTypeIdentifierAcne")
    /// `HKCategoryTypeIdentifierBladderIncontinence`.
    public static let bladderIncontinence = Self(rawValue: "HKCategoryTypeIdentifierBladderIncontinence")
    /// `HKCategoryTypeIdentifierBloating`.
    public static let bloating = Self(rawValue: "HKCategoryTypeIdentifierBloating")
    /// `HKCategoryTypeIdentifierBreastPain`.
    public static let breastPain = Self(rawValue: "HKCategoryTypeIdentifierBreastPain")
    /// `HKCategoryTypeIdentifierChestTightnessOrPain`.
    public static let chestTightnessOrPain = Self(rawValue: "HKCategoryTypeIdentifierChestTightnessOrPain")
    /// `HKCategoryTypeIdentifierChills`.
    public static let chills = Self(rawValue: "HKCategoryTypeIdentifierChills")
    /// `HKCategoryTypeIdentifierConstipation`.
    public static let constipation = Self(rawValue: "HKCategoryTypeIdentifierConstipation")
    /// `HKCategoryTypeIdentifierCoughing`.
    public static let coughing = Self(rawValue: "HKCategoryTypeIdentifierCoughing")
    /// `HKCategoryTypeIdentifierDiarrhea`.
    public static let diarrhea = Self(rawValue: "HKCategoryTypeIdentifierDiarrhea")
    /// `HKCategoryTypeIdentifierDizziness`.
    public static let dizziness = Self(rawValue: "HKCategoryTypeIdentifierDizziness")
    /// `HKCategoryTypeIdentifierDrySkin`.
    public static let drySkin = Self(rawValue: "HKCategoryTypeIdentifierDrySkin")
    /// `HKCategoryTypeIdentifierFainting`.
    public static let fainting = Self(rawValue: "HKCategoryTypeIdentifierFainting")
    /// `HKCategoryTypeIdentifierFatigue`.
    public static let fatigue = Self(rawValue: "HKCategoryTypeIdentifierFatigue")
    /// `HKCategoryTypeIdentifierFever`.
    public static let fever = Self(rawValue: "HKCategoryTypeIdentifierFever")
    /// `HKCategoryTypeIdentifierGeneralizedBodyAche`.
    public static let generalizedBodyAche = Self(rawValue: "HKCategoryTypeIdentifierGeneralizedBodyAche")
    /// `HKCategoryTypeIdentifierHairLoss`.
    public static let hairLoss = Self(rawValue: "HKCategoryTypeIdentifierHairLoss")
    /// `HKCategoryTypeIdentifierHeartburn`.
    public static let heartburn = Self(rawValue: "HKCategoryTypeIdentifierHeartburn")
    /// `HKCategoryTypeIdentifierHotFlashes`.
    public static let hotFlashes = Self(rawValue: "HKCategoryTypeIdentifierHotFlashes")
    /// `HKCategoryTypeIdentifierLossOfSmell`.
    public static let lossOfSmell = Self(rawValue: "HKCategoryTypeIdentifierLossOfSmell")
    /// `HKCategoryTypeIdentifierLossOfTaste`.
    public static let lossOfTaste = Self(rawValue: "HKCategoryTypeIdentifierLossOfTaste")
    /// `HKCategoryTypeIdentifierLowerBackPain`.
    public static let lowerBackPain = Self(rawValue: "HKCategoryTypeIdentifierLowerBackPain")
    /// `HKCategoryTypeIdentifierMemoryLapse`.
    public static let memoryLapse = Self(rawValue: "HKCategoryTypeIdentifierMemoryLapse")
    /// `HKCategoryTypeIdentifierNausea`.
    public static let nausea = Self(rawValue: "HKCategoryTypeIdentifierNausea")
    /// `HKCategoryTypeIdentifierNightSweats`.
    public static let nightSweats = Self(rawValue: "HKCategoryTypeIdentifierNightSweats")
    /// `HKCategoryTypeIdentifierPelvicPain`.
    public static let pelvicPain = Self(rawValue: "HKCategoryTypeIdentifierPelvicPain")
    /// `HKCategoryTypeIdentifierRapidPoundingOrFlutteringHeartbeat`.
    public static let rapidPoundingOrFlutteringHeartbeat = Self(rawValue: "HKCategoryTypeIdentifierRapidPoundingOrFlutteringHeartbeat")
    /// `HKCategoryTypeIdentifierRunnyNose`.
    public static let runnyNose = Self(rawValue: "HKCategoryTypeIdentifierRunnyNose")
    /// `HKCategoryTypeIdentifierShortnessOfBreath`.
    public static let shortnessOfBreath = Self(rawValue: "HKCategoryTypeIdentifierShortnessOfBreath")
    /// `HKCategoryTypeIdentifierSinusCongestion`.
    public static let sinusCongestion = Self(rawValue: "HKCategoryTypeIdentifierSinusCongestion")
    /// `HKCategoryTypeIdentifierSkippedHeartbeat`.
    public static let skippedHeartbeat = Self(rawValue: "HKCategoryTypeIdentifierSkippedHeartbeat")
    /// `HKCategoryTypeIdentifierSoreThroat`.
    public static let soreThroat = Self(rawValue: "HKCategoryTypeIdentifierSoreThroat")
    /// `HKCategoryTypeIdentifierVaginalDryness`.
    public static let vaginalDryness = Self(rawValue: "HKCategoryTypeIdentifierVaginalDryness")
    /// `HKCategoryTypeIdentifierVomiting`.
    public static let vomiting = Self(rawValue: "HKCategoryTypeIdentifierVomiting")
    /// `HKCategoryTypeIdentifierWheezing`.
    public static let wheezing = Self(rawValue: "HKCategoryTypeIdentifierWheezing")
}

/// HealthKit's correlation type identifiers (`HKCorrelationTypeIdentifier`).
public struct CorrelationTypeIdentifier: RawRepresentable, Hashable, Sendable {
    /// HealthKit's identifier string.
    public let rawValue: String
    /// An identifier from its string.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// An identifier from its string.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// `HKCorrelationTypeIdentifierBloodPressure`.
    public static let bloodPressure = Self(rawValue: "HKCorrelationTypeIdentifierBloodPressure")
    /// `HKCorrelationTypeIdentifierFood`.
    public static let food = Self(rawValue: "HKCorrelationTypeIdentifierFood")
}

/// HealthKit's characteristic type identifiers (`HKCharacteristicTypeIdentifier`): facts about the person that do
/// not change over time and are not samples.
public struct CharacteristicTypeIdentifier: RawRepresentable, Hashable, Sendable {
    /// HealthKit's identifier string.
    public let rawValue: String
    /// An identifier from its string.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// An identifier from its string.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// `HKCharacteristicTypeIdentifierBiologicalSex`.
    public static let biologicalSex = Self(rawValue: "HKCharacteristicTypeIdentifierBiologicalSex")
    /// `HKCharacteristicTypeIdentifierBloodType`.
    public static let bloodType = Self(rawValue: "HKCharacteristicTypeIdentifierBloodType")
    /// `HKCharacteristicTypeIdentifierDateOfBirth`.
    public static let dateOfBirth = Self(rawValue: "HKCharacteristicTypeIdentifierDateOfBirth")
    /// `HKCharacteristicTypeIdentifierFitzpatrickSkinType`.
    public static let fitzpatrickSkinType = Self(rawValue: "HKCharacteristicTypeIdentifierFitzpatrickSkinType")
    /// `HKCharacteristicTypeIdentifierWheelchairUse`.
    public static let wheelchairUse = Self(rawValue: "HKCharacteristicTypeIdentifierWheelchairUse")
    /// `HKCharacteristicTypeIdentifierActivityMoveMode`.
    public static let activityMoveMode = Self(rawValue: "HKCharacteristicTypeIdentifierActivityMoveMode")
}
