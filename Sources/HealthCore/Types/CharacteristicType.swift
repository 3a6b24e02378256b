/// HealthKit's `HKCharacteristicType`: date of birth, biological sex, blood type, skin type, wheelchair use, move
/// mode, made with `CharacteristicType(.bloodType)`.
///
/// A characteristic type is an ``ObjectType`` but not a ``SampleType``, as in HealthKit: it holds no samples. It goes
/// into the same `Set<ObjectType>` of types to read as sample types do; the values are read with
/// ``HealthStore/dateOfBirthComponents()`` and its siblings, once the owner has allowed the source to read that
/// characteristic.
public final class CharacteristicType: ObjectType, @unchecked Sendable {
    init(identifier: String, name: String, title: String) {
        super.init(identifier: identifier, name: name, title: title, kind: .characteristic)
    }

    /// The characteristic type with this identifier, as `HKCharacteristicType(_:)`. Every static member of
    /// ``CharacteristicTypeIdentifier`` names one; another raw value is a programming error and stops the program
    /// (``ObjectType/characteristicType(forIdentifier:)`` returns nil instead).
    public convenience init(_ identifier: CharacteristicTypeIdentifier) {
        guard let type = ObjectType.characteristicType(forIdentifier: identifier) else {
            preconditionFailure("No characteristic type has the identifier '\(identifier.rawValue)'")
        }
        self.init(identifier: type.identifier, name: type.name, title: type.title)
    }
}

extension ObjectType {
    /// Every characteristic type, in HealthKit's order; their ``name``s are `date-of-birth`, `blood-type`, ...
    public static let characteristicTypes: [CharacteristicType] = [
        (CharacteristicTypeIdentifier.dateOfBirth, "date-of-birth", "Date of birth"),
        (.biologicalSex, "biological-sex", "Biological sex"), (.bloodType, "blood-type", "Blood type"),
        (.fitzpatrickSkinType, "skin-type", "Skin type"), (.wheelchairUse, "wheelchair-use", "Wheelchair use"),
        (.activityMoveMode, "activity-move-mode", "Activity move mode"),
    ].map { identifier, name, title in
        CharacteristicType(identifier: identifier.rawValue, name: name, title: title)
    }

    /// The characteristic type called `text`: its name (`blood-type`), HealthKit identifier
    /// (`HKCharacteristicTypeIdentifierBloodType`) or identifier without prefix (`BloodType`, `bloodType`), in any case.
    public static func characteristicType(named text: String) -> CharacteristicType? {
        let wanted = text.lowercased()
        let prefix = "HKCharacteristicTypeIdentifier"
        return characteristicTypes.first { type in
            [type.name, type.identifier, String(type.identifier.dropFirst(prefix.count))].contains { $0.lowercased() == wanted }
        }
    }

    /// The identifier of a characteristic type, as `HKCharacteristicType`'s; nil for a sample type.
    public var characteristicIdentifier: CharacteristicTypeIdentifier? {
        kind == .characteristic ? CharacteristicTypeIdentifier(rawValue: identifier) : nil
    }
}
