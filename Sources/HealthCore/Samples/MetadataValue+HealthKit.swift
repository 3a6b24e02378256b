/// Metadata as HealthKit code reads it: `sample.metadata?[MetadataKeyWasUserEntered] as? Bool`.
///
/// HealthKit's `metadata` is `[String: Any]`, whose numbers are `NSNumber`s that cast to `Bool`, `Int` and `Double`
/// alike. HealthCore links no `NSNumber` (only FoundationEssentials on Linux), so each stored ``MetadataValue`` is
/// handed out as the one Swift type HealthKit documents for its key:
///
/// - a key HealthKit documents as a Boolean (``MetadataKeyWasUserEntered``, ``MetadataKeyIndoorWorkout``, ...)
///   stored as 0 or 1: `Bool`;
/// - a key whose value is an `HKQuantity` (``MetadataKeyAverageSpeed``, ``MetadataKeyWeatherTemperature``, ...),
///   stored as its text (`5.2 km/hr`, `72 degF`): ``Quantity``;
/// - a key whose value is a date (``MetadataKeyDateOfEarliestDataUsedForEstimate``), stored as an ISO 8601 text:
///   `Date`;
/// - any other number: `Int` when it is whole (an enumeration's raw value such as
///   ``MetadataKeyHeartRateMotionContext``, a count, a sync version), `Double` otherwise;
/// - any other text: `String`.
///
/// A value that does not read as its key's type (the text `fast` under ``MetadataKeyAverageSpeed``) is handed out as
/// it is stored. The stored values, exactly, are ``MetadataValue``s (`metadataValues` on each kind of sample).
extension MetadataValue {
    /// The keys HealthKit documents as Booleans (`NSNumber` with a Boolean value).
    static let booleanKeys: Set<String> = [
        MetadataKeyWasUserEntered, MetadataKeyIndoorWorkout, MetadataKeyCoachedWorkout, MetadataKeyGroupFitness,
        MetadataKeyWasTakenInLab, MetadataKeyMenstrualCycleStart, MetadataKeySexualActivityProtectionUsed,
    ]
    /// The keys HealthKit documents as `HKQuantity` values.
    static let quantityKeys: Set<String> = [
        MetadataKeyWeatherTemperature, MetadataKeyWeatherHumidity, MetadataKeyAverageSpeed, MetadataKeyMaximumSpeed,
        MetadataKeyElevationAscended, MetadataKeyElevationDescended, MetadataKeyAverageMETs, MetadataKeyLapLength,
        MetadataKeyAlpineSlopeGrade, MetadataKeyHeartRateEventThreshold,
    ]
    /// The keys HealthKit documents as dates.
    static let dateKeys: Set<String> = [MetadataKeyDateOfEarliestDataUsedForEstimate]

    /// The value as HealthKit's `metadata[key]` holds it: `Bool`, ``Quantity``, `Date`, `Int`, `Double` or `String`,
    /// as the key is documented (see the extension's discussion).
    ///
    /// - Parameter key: The key the value is stored under.
    public func healthKitValue(forKey key: String) -> Any {
        switch self {
        case let .number(number):
            if MetadataValue.booleanKeys.contains(key), number == 0 || number == 1 { return number == 1 }
            if number == number.rounded(), abs(number) <= 9_007_199_254_740_992 { return Int(number) }
            return number
        case let .string(text):
            if MetadataValue.quantityKeys.contains(key), let quantity = MetadataValue.quantity(text) { return quantity }
            if MetadataValue.dateKeys.contains(key), let date = ISODate.parse(text) { return date }
            return text
        }
    }

    /// Metadata in HealthKit's shape, each value as ``healthKitValue(forKey:)`` gives it, or nil when there is none
    /// (as HealthKit's `metadata` is nil then).
    public static func healthKitMetadata(_ values: [String: MetadataValue]) -> [String: Any]? {
        guard !values.isEmpty else { return nil }
        var metadata: [String: Any] = [:]
        metadata.reserveCapacity(values.count)
        for (key, value) in values { metadata[key] = value.healthKitValue(forKey: key) }
        return metadata
    }

    /// A quantity written as `<number> <unit>` (`5.2 km/hr`, `72 degF`, `65 %`), as Apple Health exports write them.
    private static func quantity(_ text: String) -> Quantity? {
        guard let space = text.firstIndex(of: " ") else { return nil }
        let number = text[..<space], unit = text[text.index(after: space)...]
        guard let value = Double(number), value.isFinite, let parsed = try? HealthUnit(parsing: String(unit)) else {
            return nil
        }
        return Quantity(value, parsed)
    }
}

/// `HKMetadataKeyElevationDescended`.
public let MetadataKeyElevationDescended = "HKElevationDescended"
/// `HKMetadataKeyAlpineSlopeGrade`.
public let MetadataKeyAlpineSlopeGrade = "HKAlpineSlopeGrade"
/// `HKMetadataKeyHeartRateEventThreshold`.
public let MetadataKeyHeartRateEventThreshold = "HKHeartRateEventThreshold"
/// `HKMetadataKeyMenstrualCycleStart`.
public let MetadataKeyMenstrualCycleStart = "HKMenstrualCycleStart"
/// `HKMetadataKeySexualActivityProtectionUsed`.
public let MetadataKeySexualActivityProtectionUsed = "HKSexualActivityProtectionUsed"
/// `HKMetadataKeyDateOfEarliestDataUsedForEstimate`.
public let MetadataKeyDateOfEarliestDataUsedForEstimate = "HKDateOfEarliestDataUsedForEstimate"
