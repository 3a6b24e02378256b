import TextSupport

/// The person's characteristics, like HealthKit's characteristic types: read-only facts that are never samples.
///
/// Stored as `characteristics.json` in the store. Every field is optional ("not set").
public struct Characteristics: Codable, Equatable, Sendable {
    /// `yyyy-MM-dd`.
    public var dateOfBirth: String?
    public var biologicalSex: BiologicalSex?
    public var bloodType: BloodType?
    public var skinType: FitzpatrickSkinType?
    /// Characteristics of kinds this version does not know, or values of known kinds it cannot read, kept as an
    /// export wrote them, by their export attribute name (`HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse`),
    /// so a Health XML export writes them back. Nil when there are none.
    public var generic: [String: String]?

    /// Creates characteristics with nothing set.
    public init() {}

    /// The keys ``set(_:to:now:)`` accepts, in display order.
    public static let keys = ["date-of-birth", "biological-sex", "blood-type", "skin-type"]

    /// Sets one characteristic from text (`date-of-birth 1988-04-02`, `blood-type A+`, `skin-type III`).
    ///
    /// - Throws: ``CharacteristicError`` for an unknown key or a value it does not accept.
    public mutating func set(_ key: String, to text: String, now: Date) throws {
        switch key.lowercased() {
        case "date-of-birth":
            let parts = try ISODate.components(text)
            guard !parts.hasTime else { throw CharacteristicError.badValue(key: key, value: text, expected: ["YYYY-MM-DD"]) }
            guard ISODate.instant(parts, offsetSeconds: 0) <= now else {
                throw CharacteristicError.badValue(key: key, value: text, expected: ["a date in the past"])
            }
            dateOfBirth = text
        case "biological-sex":
            guard let value = BiologicalSex.settable.first(where: { $0.name == text.lowercased() }) else {
                throw CharacteristicError.badValue(key: key, value: text, expected: BiologicalSex.settable.map(\.name))
            }
            biologicalSex = value
        case "blood-type":
            guard let value = BloodType.settable.first(where: { $0.name == text.uppercased().replacingEvery("−", with: "-") }) else {
                throw CharacteristicError.badValue(key: key, value: text, expected: BloodType.settable.map(\.name))
            }
            bloodType = value
        case "skin-type":
            guard let value = FitzpatrickSkinType.settable.first(where: { $0.name == text.uppercased() || String($0.rawValue) == text }) else {
                throw CharacteristicError.badValue(key: key, value: text, expected: FitzpatrickSkinType.settable.map(\.name))
            }
            skinType = value
        default:
            throw CharacteristicError.unknownKey(key)
        }
    }

    /// Clears one characteristic.
    public mutating func unset(_ key: String) throws {
        switch key.lowercased() {
        case "date-of-birth": dateOfBirth = nil
        case "biological-sex": biologicalSex = nil
        case "blood-type": bloodType = nil
        case "skin-type": skinType = nil
        default: throw CharacteristicError.unknownKey(key)
        }
    }

    /// (key, display value or nil) in ``keys`` order, then the ``generic`` ones by name.
    public var entries: [(key: String, value: String?)] {
        [("date-of-birth", dateOfBirth), ("biological-sex", biologicalSex?.name), ("blood-type", bloodType?.name),
         ("skin-type", skinType?.name)] + (generic ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, Optional($0.value)) }
    }
}

/// `HKBiologicalSex` with HealthKit's raw values. ``Characteristics`` keeps "not set" as nil; ``notSet`` is what
/// ``HealthStore/biologicalSex()`` reports then, as HealthKit does.
public enum BiologicalSex: Int, Codable, CaseIterable, Sendable {
    case notSet = 0, female = 1, male = 2, other = 3
    /// The values a person can set (all but ``notSet``).
    public static var settable: [BiologicalSex] { allCases.filter { $0 != .notSet } }
    public var name: String { ["not set", "female", "male", "other"][rawValue] }
    /// The Apple Health export spelling.
    public var exportName: String {
        ["HKBiologicalSexNotSet", "HKBiologicalSexFemale", "HKBiologicalSexMale", "HKBiologicalSexOther"][rawValue]
    }
}

/// `HKBloodType` with HealthKit's raw values (``notSet`` as for ``BiologicalSex``).
public enum BloodType: Int, Codable, CaseIterable, Sendable {
    case notSet = 0, aPositive, aNegative, bPositive, bNegative, abPositive, abNegative, oPositive, oNegative
    /// The values a person can set (all but ``notSet``).
    public static var settable: [BloodType] { allCases.filter { $0 != .notSet } }
    public var name: String { ["not set", "A+", "A-", "B+", "B-", "AB+", "AB-", "O+", "O-"][rawValue] }
    public var exportName: String {
        ["HKBloodTypeNotSet", "HKBloodTypeAPositive", "HKBloodTypeANegative", "HKBloodTypeBPositive", "HKBloodTypeBNegative",
         "HKBloodTypeABPositive", "HKBloodTypeABNegative", "HKBloodTypeOPositive", "HKBloodTypeONegative"][rawValue]
    }
}

/// `HKFitzpatrickSkinType`: types I to VI (``notSet`` as for ``BiologicalSex``).
public enum FitzpatrickSkinType: Int, Codable, CaseIterable, Sendable {
    case notSet = 0, typeI, typeII, typeIII, typeIV, typeV, typeVI
    /// The values a person can set (all but ``notSet``).
    public static var settable: [FitzpatrickSkinType] { allCases.filter { $0 != .notSet } }
    public var name: String { ["not set", "I", "II", "III", "IV", "V", "VI"][rawValue] }
    public var exportName: String { self == .notSet ? "HKFitzpatrickSkinTypeNotSet" : "HKFitzpatrickSkinType" + name }
}

/// Errors from setting a characteristic by key and text.
public enum CharacteristicError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    case unknownKey(String)
    case badValue(key: String, value: String, expected: [String])
    /// A characteristic's key named where a sample type was expected (characteristics are not samples).
    case notASampleType(String)

    public var description: String {
        switch self {
        case let .unknownKey(key):
            return "Unknown characteristic '\(key)'; use one of: \(Characteristics.keys.joined(separator: ", "))."
        case let .badValue(key, value, expected):
            return "The value '\(value)' is invalid for \(key); use \(expected.joined(separator: ", "))."
        case let .notASampleType(key):
            return "'\(key)' is a characteristic, not a sample type: samples cannot be written to it; set the characteristic instead."
        }
    }

    public var errorDescription: String? { description }
}
