// HealthKit's metadata keys (`HKMetadataKey…`) without the prefix, with HealthKit's raw strings, for
// `metadata: [MetadataKeyWasUserEntered: true]`. Any other key may be used too; keys are case-sensitive.

/// `HKMetadataKeyWasUserEntered`: typed in by a person rather than measured.
public let MetadataKeyWasUserEntered = "HKWasUserEntered"
/// `HKMetadataKeyDeviceName`.
public let MetadataKeyDeviceName = "HKDeviceName"
/// `HKMetadataKeyDeviceManufacturerName`.
public let MetadataKeyDeviceManufacturerName = "HKDeviceManufacturerName"
/// `HKMetadataKeyExternalUUID`: the sample's identity in another system.
public let MetadataKeyExternalUUID = "HKExternalUUID"
/// `HKMetadataKeyTimeZone`: the zone the sample was recorded in (`Europe/Berlin`).
public let MetadataKeyTimeZone = "HKTimeZone"
/// `HKMetadataKeySyncIdentifier`.
public let MetadataKeySyncIdentifier = "HKMetadataKeySyncIdentifier"
/// `HKMetadataKeySyncVersion`.
public let MetadataKeySyncVersion = "HKMetadataKeySyncVersion"
/// `HKMetadataKeyIndoorWorkout`.
public let MetadataKeyIndoorWorkout = "HKIndoorWorkout"
/// `HKMetadataKeyCoachedWorkout`.
public let MetadataKeyCoachedWorkout = "HKCoachedWorkout"
/// `HKMetadataKeyGroupFitness`.
public let MetadataKeyGroupFitness = "HKGroupFitness"
/// `HKMetadataKeyWorkoutBrandName`.
public let MetadataKeyWorkoutBrandName = "HKWorkoutBrandName"
/// `HKMetadataKeyWeatherTemperature`.
public let MetadataKeyWeatherTemperature = "HKWeatherTemperature"
/// `HKMetadataKeyWeatherHumidity`.
public let MetadataKeyWeatherHumidity = "HKWeatherHumidity"
/// `HKMetadataKeyAverageSpeed`.
public let MetadataKeyAverageSpeed = "HKAverageSpeed"
/// `HKMetadataKeyMaximumSpeed`.
public let MetadataKeyMaximumSpeed = "HKMaximumSpeed"
/// `HKMetadataKeyElevationAscended`.
public let MetadataKeyElevationAscended = "HKElevationAscended"
/// `HKMetadataKeyAverageMETs`.
public let MetadataKeyAverageMETs = "HKAverageMETs"
/// `HKMetadataKeyLapLength`.
public let MetadataKeyLapLength = "HKLapLength"
/// `HKMetadataKeySwimmingLocationType`.
public let MetadataKeySwimmingLocationType = "HKSwimmingLocationType"
/// `HKMetadataKeyHeartRateMotionContext`.
public let MetadataKeyHeartRateMotionContext = "HKHeartRateMotionContext"
/// `HKMetadataKeyHeartRateSensorLocation`.
public let MetadataKeyHeartRateSensorLocation = "HKHeartRateSensorLocation"
/// `HKMetadataKeyBodyTemperatureSensorLocation`.
public let MetadataKeyBodyTemperatureSensorLocation = "HKBodyTemperatureSensorLocation"
/// `HKMetadataKeyBloodGlucoseMealTime`.
public let MetadataKeyBloodGlucoseMealTime = "HKBloodGlucoseMealTime"
/// `HKMetadataKeyInsulinDeliveryReason`.
public let MetadataKeyInsulinDeliveryReason = "HKInsulinDeliveryReason"
/// `HKMetadataKeyVO2MaxTestType`.
public let MetadataKeyVO2MaxTestType = "HKVO2MaxTestType"
/// `HKMetadataKeyWasTakenInLab`.
public let MetadataKeyWasTakenInLab = "HKWasTakenInLab"
/// `HKMetadataKeyFoodType`.
public let MetadataKeyFoodType = "HKFoodType"
/// `HKMetadataKeyDigitalSignature`.
public let MetadataKeyDigitalSignature = "HKDigitalSignature"
