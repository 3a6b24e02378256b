/// The person's characteristics and preferred units, as HealthKit's `HKHealthStore` reads them.
///
/// Characteristics are the owner's. A source reads one once the owner has allowed it to read that characteristic
/// type (`requestAuthorization(toShare: [], read: [CharacteristicType(.dateOfBirth)])`, then the owner's decision);
/// until then it reads it as not set, as HealthKit never tells an app whether reading was denied. No source can write
/// one: asking to share a characteristic type fails with ``AuthorizationError/cannotShare(_:)``.
extension HealthStore {
    /// The date of birth, as HealthKit's `dateOfBirthComponents()`: year, month and day (Gregorian).
    ///
    /// - Throws: As HealthKit's Swift call, a ``HealthError`` with ``HealthError/Code/errorNoData`` when no date of
    ///   birth is set, or when this source may not read it (HealthKit never tells a source that reading was denied);
    ///   ``StoreError`` when `characteristics.json` cannot be read.
    public func dateOfBirthComponents() throws -> DateComponents {
        var components = DateComponents()
        guard let text = try characteristics().dateOfBirth, let parts = try? ISODate.components(text) else {
            throw HealthError(.errorNoData, message: "No date of birth is set, or this source may not read it.")
        }
        components.year = parts.year
        components.month = parts.month
        components.day = parts.day
        return components
    }

    /// The biological sex, as HealthKit's `biologicalSex()`.
    public func biologicalSex() throws -> BiologicalSexObject {
        BiologicalSexObject(biologicalSex: try characteristics().biologicalSex ?? .notSet)
    }

    /// The blood type, as HealthKit's `bloodType()`.
    public func bloodType() throws -> BloodTypeObject {
        BloodTypeObject(bloodType: try characteristics().bloodType ?? .notSet)
    }

    /// The Fitzpatrick skin type, as HealthKit's `fitzpatrickSkinType()`.
    public func fitzpatrickSkinType() throws -> FitzpatrickSkinTypeObject {
        FitzpatrickSkinTypeObject(skinType: try characteristics().skinType ?? .notSet)
    }

    /// The units the owner prefers for these quantity types, as HealthKit's `preferredUnits(for:)`: the unit set with
    /// the store's settings (``Settings``), else the type's usual display unit (millilitres for water, kilograms for body mass).
    ///
    /// - Throws: ``HealthError/Code/errorInvalidArgument`` for a type that is not a quantity type.
    public func preferredUnits(for types: Set<QuantityType>) async throws -> [QuantityType: HealthUnit] {
        try await BlockingWork.run { try preferredUnits(for: types) }
    }

    /// HealthKit's completion-handler form of ``preferredUnits(for:)``.
    public func preferredUnits(for types: Set<QuantityType>,
                               completion: @escaping @Sendable ([QuantityType: HealthUnit], Error?) -> Void) {
        BlockingWork.start {
            do {
                completion(try BlockingWork.healthErrors { try preferredUnits(for: types) }, nil)
            } catch {
                completion([:], error)
            }
        }
    }

    /// ``preferredUnits(for:)`` on the caller's thread.
    func preferredUnits(for types: Set<QuantityType>) throws -> [QuantityType: HealthUnit] {
        let settings = try storage.document("settings.json", default: Settings())
        var units: [QuantityType: HealthUnit] = [:]
        for type in types {
            guard type.kind == .quantity, let unit = settings.displayUnit(for: type) ?? type.displayUnit else {
                throw SampleError.wrongKind(type: type.name, expected: "a quantity type, which has units")
            }
            units[type] = unit
        }
        return units
    }

    /// The person's characteristics as this store's source may read them: all of them for the owner (with those of
    /// kinds this version does not know, kept from an import); for another source, only those the owner allowed it
    /// to read, the rest not set. A kind kept from an import (`HKCharacteristicTypeIdentifierWheelchairUse`) is read
    /// with a permission for its characteristic type (``CharacteristicType`` `(.wheelchairUse)`).
    ///
    /// - Throws: ``StoreError`` when `characteristics.json` or the permissions cannot be read.
    public func characteristics() throws -> Characteristics {
        let stored = try storage.document("characteristics.json", default: Characteristics())
        if isOwner { return stored }
        var visible = Characteristics()
        if try readsEverything(ofType: CharacteristicTypeIdentifier.dateOfBirth.rawValue) { visible.dateOfBirth = stored.dateOfBirth }
        if try readsEverything(ofType: CharacteristicTypeIdentifier.biologicalSex.rawValue) { visible.biologicalSex = stored.biologicalSex }
        if try readsEverything(ofType: CharacteristicTypeIdentifier.bloodType.rawValue) { visible.bloodType = stored.bloodType }
        if try readsEverything(ofType: CharacteristicTypeIdentifier.fitzpatrickSkinType.rawValue) { visible.skinType = stored.skinType }
        // Kinds kept as an export wrote them (wheelchair use, move mode), by their identifier.
        let kept = try (stored.generic ?? [:]).filter { try readsEverything(ofType: $0.key) }
        visible.generic = kept.isEmpty ? nil : kept
        return visible
    }
}

/// HealthKit's `HKBiologicalSexObject`.
public struct BiologicalSexObject: Sendable, Hashable {
    /// The value, ``BiologicalSex/notSet`` when there is none.
    public let biologicalSex: BiologicalSex
}

/// HealthKit's `HKBloodTypeObject`.
public struct BloodTypeObject: Sendable, Hashable {
    /// The value, ``BloodType/notSet`` when there is none.
    public let bloodType: BloodType
}

/// HealthKit's `HKFitzpatrickSkinTypeObject`.
public struct FitzpatrickSkinTypeObject: Sendable, Hashable {
    /// The value, ``FitzpatrickSkinType/notSet`` when there is none.
    public let skinType: FitzpatrickSkinType
}
