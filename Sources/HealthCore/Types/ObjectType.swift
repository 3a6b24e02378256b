/// HealthKit's `HKQuantityType`: in HealthCore every sample type is a ``SampleType``, so a quantity type is one,
/// made with `QuantityType(.stepCount)`.
public typealias QuantityType = SampleType
/// HealthKit's `HKCategoryType`: a ``SampleType`` made with `CategoryType(.sleepAnalysis)`.
public typealias CategoryType = SampleType

/// HealthKit's `HKCharacteristicType`: date of birth, biological sex, blood type, skin type, wheelchair use, move
/// mode. A characteristic type is a ``SampleType`` of kind ``SampleType/Kind/characteristic``, made with
/// `CharacteristicType(.bloodType)`, so it goes into the same `Set<ObjectType>` of types to read as sample types do.
/// It holds no samples: the values are read with ``HealthStore/dateOfBirthComponents()`` and its siblings, and a
/// source reads them once the owner has allowed it to read that characteristic.
public typealias CharacteristicType = SampleType

extension SampleType {
    /// The characteristic type with this identifier, as `HKCharacteristicType(_:)`. Every static member of
    /// ``CharacteristicTypeIdentifier`` names one; another raw value is a programming error and stops the program
    /// (``ObjectType/characteristicType(forIdentifier:)`` returns nil instead).
    public init(_ identifier: CharacteristicTypeIdentifier) {
        guard let type = SampleType.characteristicTypes.first(where: { $0.identifier == identifier.rawValue }) else {
            preconditionFailure("No characteristic type has the identifier '\(identifier.rawValue)'")
        }
        self = type
    }

    /// Every characteristic type, in HealthKit's order; their ``name``s are the keys `hkctl me` uses
    /// (`date-of-birth`, `blood-type`, ...).
    public static let characteristicTypes: [SampleType] = [
        (CharacteristicTypeIdentifier.dateOfBirth, "date-of-birth", "Date of birth"),
        (.biologicalSex, "biological-sex", "Biological sex"), (.bloodType, "blood-type", "Blood type"),
        (.fitzpatrickSkinType, "skin-type", "Skin type"), (.wheelchairUse, "wheelchair-use", "Wheelchair use"),
        (.activityMoveMode, "activity-move-mode", "Activity move mode"),
    ].map { identifier, name, title in
        SampleType(identifier: identifier.rawValue, name: name, title: title, kind: .characteristic, aggregation: nil,
                   canonicalUnit: nil, displayUnit: nil, examples: [], categoryValues: [], maximumDuration: nil,
                   validRange: nil)
    }

    /// The characteristic type called `text`: its name (`blood-type`), HealthKit identifier
    /// (`HKCharacteristicTypeIdentifierBloodType`) or identifier without prefix (`BloodType`, `bloodType`), in any case.
    public static func characteristicType(named text: String) -> SampleType? {
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

extension SampleType {
    /// The quantity type with this identifier, as `HKQuantityType(_:)`. Every static member of
    /// ``QuantityTypeIdentifier`` names one; a raw value the standard catalogue does not know is a programming error
    /// and stops the program (``ObjectType/quantityType(forIdentifier:)`` returns nil instead).
    public init(_ identifier: QuantityTypeIdentifier) {
        guard let type = ObjectType.quantityType(forIdentifier: identifier) else {
            preconditionFailure("No quantity type has the identifier '\(identifier.rawValue)' in the standard catalogue")
        }
        self = type
    }

    /// The category type with this identifier, as `HKCategoryType(_:)`; see ``init(_:)-(QuantityTypeIdentifier)``.
    public init(_ identifier: CategoryTypeIdentifier) {
        guard let type = ObjectType.categoryType(forIdentifier: identifier) else {
            preconditionFailure("No category type has the identifier '\(identifier.rawValue)' in the standard catalogue")
        }
        self = type
    }

    /// The type of workouts, as `HKObjectType.workoutType()`.
    public static func workoutType() -> SampleType { Workout.sampleType }

    /// The longest a sample of this type may last, as HealthKit's `maximumAllowedDuration` (sleep: 24 h), or nil.
    public var maximumAllowedDuration: TimeInterval? { maximumDuration }
    /// Whether samples of this type have a longest allowed duration, as HealthKit's `isMaximumDurationRestricted`.
    public var isMaximumDurationRestricted: Bool { maximumDuration != nil }
    /// Whether samples of this type have a shortest allowed duration, as HealthKit's `isMinimumDurationRestricted`:
    /// none of the types here has one.
    public var isMinimumDurationRestricted: Bool { false }
    /// The shortest a sample of this type may last, as HealthKit's `minimumAllowedDuration`: 0.
    public var minimumAllowedDuration: TimeInterval { 0 }
    /// The aggregation style of a quantity type, as `HKQuantityType.aggregationStyle`, or nil for a category type.
    public var aggregationStyle: AggregationStyle? { aggregation }

    /// Whether amounts of this type can be written in `unit`, as `HKQuantityType.is(compatibleWith:)`.
    public func `is`(compatibleWith unit: HealthUnit) -> Bool { canonicalUnit?.isCompatible(with: unit) ?? false }
}

/// HealthKit's `HKObjectType`: in HealthCore sample types and characteristic types are all ``SampleType`` values, so
/// `Set<HKObjectType>` is `Set<ObjectType>`, a set of them.
public typealias ObjectType = SampleType
/// HealthKit's `HKWorkoutType`: the workout type is a ``SampleType``, `WorkoutType.workoutType()`.
public typealias WorkoutType = SampleType

/// HealthKit's `HKObjectType` class methods: types looked up by identifier, nil when there is none.
extension SampleType {
    /// The quantity type with this identifier in the standard catalogue, as `HKObjectType.quantityType(forIdentifier:)`.
    public static func quantityType(forIdentifier identifier: QuantityTypeIdentifier) -> SampleType? {
        SampleTypeCatalogue.standard.type(identifier: identifier.rawValue).flatMap { $0.kind == .quantity ? $0 : nil }
    }

    /// The category type with this identifier, as `HKObjectType.categoryType(forIdentifier:)`.
    public static func categoryType(forIdentifier identifier: CategoryTypeIdentifier) -> SampleType? {
        SampleTypeCatalogue.standard.type(identifier: identifier.rawValue).flatMap { $0.kind == .category ? $0 : nil }
    }

    /// The correlation type with this identifier, as `HKObjectType.correlationType(forIdentifier:)`.
    public static func correlationType(forIdentifier identifier: CorrelationTypeIdentifier) -> CorrelationType? {
        CorrelationType.identified(identifier.rawValue)
    }

    /// The characteristic type with this identifier, as `HKObjectType.characteristicType(forIdentifier:)`.
    public static func characteristicType(forIdentifier identifier: CharacteristicTypeIdentifier) -> CharacteristicType? {
        characteristicTypes.first { $0.identifier == identifier.rawValue }
    }
}

extension CorrelationType {
    /// The correlation type with this identifier, as `HKCorrelationType(_:)`; an identifier without one is a
    /// programming error and stops the program.
    public init(_ identifier: CorrelationTypeIdentifier) {
        guard let type = CorrelationType.identified(identifier.rawValue) else {
            preconditionFailure("No correlation type has the identifier '\(identifier.rawValue)'")
        }
        self = type
    }
}
