/// HealthKit's quantity type identifiers (`HKQuantityTypeIdentifier`), with HealthKit's raw values. A static member
/// exists for every quantity type the standard catalogue knows; any other raw value can be made with
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
