import Foundation

/// The set of sample types hkctl knows, with lookup by any of their names.
public struct SampleTypeCatalogue: Sendable {
    /// Every type, in the order `hkctl types` lists them.
    public let types: [SampleType]
    private let index: [String: SampleType]

    /// Creates a catalogue; names and identifiers must be unique.
    public init(_ types: [SampleType]) {
        self.types = types
        var index: [String: SampleType] = [:]
        for type in types {
            for key in [type.name, type.identifier, type.shortIdentifier] {
                let lowered = key.lowercased()
                precondition(index[lowered] == nil || index[lowered] == type, "duplicate type name \(key)")
                index[lowered] = type
            }
        }
        self.index = index
    }

    /// The type called `text`: its short name (`water`), HealthKit identifier
    /// (`HKQuantityTypeIdentifierDietaryWater`) or identifier without prefix (`dietaryWater`), in any case.
    ///
    /// - Throws: ``SampleError/unknownType(_:known:)`` naming the known short names, or
    ///   ``CharacteristicError/notASampleType(_:)`` for a characteristic such as `blood-type`.
    public func type(named text: String) throws -> SampleType {
        if let type = index[text.lowercased()] { return type }
        let characteristics = ["date-of-birth": "DateOfBirth", "biological-sex": "BiologicalSex",
                               "blood-type": "BloodType", "skin-type": "FitzpatrickSkinType"]
        for (key, suffix) in characteristics
        where [key, "HKCharacteristicTypeIdentifier" + suffix, suffix].contains(where: { $0.lowercased() == text.lowercased() }) {
            throw CharacteristicError.notASampleType(key)
        }
        throw SampleError.unknownType(text, known: types.map(\.name))
    }

    /// The type with this exact HealthKit identifier, if known.
    public func type(identifier: String) -> SampleType? { index[identifier.lowercased()] }
}
