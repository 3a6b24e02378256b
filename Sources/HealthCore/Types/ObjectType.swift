/// HealthKit's `HKQuantityType`: in HealthCore every sample type is a ``SampleType``, so a quantity type is one,
/// made with `QuantityType(.stepCount)`.
public typealias QuantityType = SampleType
/// HealthKit's `HKCategoryType`: a ``SampleType`` made with `CategoryType(.sleepAnalysis)`.
public typealias CategoryType = SampleType

/// HealthKit's characteristic types (`HKCharacteristicType`): date of birth, biological sex, blood type, skin type,
/// wheelchair use, move mode. They are read with ``HealthStore/dateOfBirthComponents()`` and its siblings.
public struct CharacteristicType: Hashable, Sendable {
    /// Which characteristic.
    public let identifier: CharacteristicTypeIdentifier

    /// The characteristic type with this identifier.
    public init(_ identifier: CharacteristicTypeIdentifier) { self.identifier = identifier }
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

/// HealthKit's `HKObjectType`: in HealthCore the types a store holds samples of are all ``SampleType`` values, so
/// `Set<HKObjectType>` is `Set<ObjectType>`, a set of them (characteristics are read with
/// ``HealthStore/dateOfBirthComponents()`` and its siblings, without a permission of their own).
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
        CharacteristicType(identifier)
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
