/// The set of sample types hkctl knows, with lookup by any of their names.
///
/// Lookups compare bytes against the few dozen types directly: building a dictionary of every name was about a
/// tenth of a short command's start-up work (see BENCHMARKS.md), and callers that look up per record keep their
/// own cache.
public struct SampleTypeCatalogue: Sendable {
    /// Every type, in the order `hkctl types` lists them.
    public let types: [SampleType]

    /// Creates a catalogue. Names and identifiers must be unique, ignoring case (``duplicateNames`` lists any that
    /// are not; the tests check the standard catalogue).
    public init(_ types: [SampleType]) {
        self.types = types
    }

    /// The type called `text`: its short name (`water`), HealthKit identifier
    /// (`HKQuantityTypeIdentifierDietaryWater`) or identifier without prefix (`dietaryWater`), in any case.
    ///
    /// - Throws: ``SampleError/unknownType(_:known:)`` naming the known short names, or
    ///   ``CharacteristicError/notASampleType(_:)`` for a characteristic such as `blood-type`.
    public func type(named text: String) throws -> SampleType {
        if let type = lookUp(text) { return type }
        if let characteristic = SampleType.characteristicType(named: text) {
            throw CharacteristicError.notASampleType(characteristic.name)
        }
        throw SampleError.unknownType(text, known: types.map(\.name))
    }

    /// The type with this HealthKit identifier (in any case; a short name or unprefixed identifier also matches),
    /// if known.
    public func type(identifier: String) -> SampleType? { lookUp(identifier) }

    /// Names (short names, identifiers, unprefixed identifiers, ignoring case) that more than one type answers to.
    public var duplicateNames: [String] {
        var owners: [String: String] = [:]
        var duplicates: [String] = []
        for type in types {
            for key in Set([type.name, type.identifier, type.shortIdentifier].map { $0.lowercased() }) {
                if owners.updateValue(type.identifier, forKey: key) != nil { duplicates.append(key) }
            }
        }
        return duplicates
    }

    private func lookUp(_ text: String) -> SampleType? {
        var key = text
        if !key.utf8.allSatisfy({ $0 < 0x80 }) {
            // Unicode lowercasing can turn a non-ASCII letter into an ASCII one (the Kelvin sign into "k").
            key = key.lowercased()
            guard key.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        }
        return key.withUTF8 { key in
            types.first { type in
                ASCIICase.equal(key, type.name) || ASCIICase.equal(key, type.identifier)
                    || ASCIICase.equal(key, type.identifier, droppingPrefixOf: SampleType.identifierPrefixLength)
                    && SampleType.identifierPrefixes.contains(where: type.identifier.hasPrefix)
            }
        }
    }
}
