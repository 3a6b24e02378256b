/// A kind of data the store holds: HealthKit's `HKObjectType`, the base of every type.
///
/// The classes follow HealthKit's: ``SampleType`` (types whose data are samples) with its final subclasses
/// ``QuantityType``, ``CategoryType``, ``WorkoutType`` and ``CorrelationType``, and ``CharacteristicType`` (the
/// person's own values) directly under `ObjectType`. So `type is QuantityType` is true of a quantity type only, and a
/// `Set<ObjectType>` (a request to read) holds any mix of them. Two types are equal when their identifiers are, and
/// hash by identifier. Every instance is immutable; only this module makes them.
public class ObjectType: Hashable, @unchecked Sendable, CustomStringConvertible {
    /// What the type's data are: quantity, category, workout or correlation samples, or (for a
    /// ``CharacteristicType``) no samples at all, only the person's value.
    public enum Kind: String, Sendable {
        case quantity, category, characteristic, workout, correlation
    }

    /// HealthKit's identifier, as written in exports (`HKQuantityTypeIdentifierDietaryWater`), as `identifier`.
    public let identifier: String
    /// The short name (`water`), by which text input names the type.
    public let name: String
    /// A human title for tables (`Water`).
    public let title: String
    /// Quantity, category, workout, correlation or characteristic; it always agrees with the type's class.
    public let kind: Kind

    init(identifier: String, name: String, title: String, kind: Kind) {
        self.identifier = identifier
        self.name = name
        self.title = title
        self.kind = kind
    }

    public static func == (lhs: ObjectType, rhs: ObjectType) -> Bool { lhs.identifier == rhs.identifier }
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }
    public var description: String { name }
}

/// HealthKit's `HKObjectType` class methods: types looked up by identifier, nil when there is none.
extension ObjectType {
    /// The quantity type with this identifier in the standard catalogue, as `HKObjectType.quantityType(forIdentifier:)`.
    public static func quantityType(forIdentifier identifier: QuantityTypeIdentifier) -> QuantityType? {
        SampleTypeCatalogue.standard.type(identifier: identifier.rawValue) as? QuantityType
    }

    /// The category type with this identifier, as `HKObjectType.categoryType(forIdentifier:)`.
    public static func categoryType(forIdentifier identifier: CategoryTypeIdentifier) -> CategoryType? {
        SampleTypeCatalogue.standard.type(identifier: identifier.rawValue) as? CategoryType
    }

    /// The correlation type with this identifier, as `HKObjectType.correlationType(forIdentifier:)`.
    public static func correlationType(forIdentifier identifier: CorrelationTypeIdentifier) -> CorrelationType? {
        CorrelationType.identified(identifier.rawValue)
    }

    /// The characteristic type with this identifier, as `HKObjectType.characteristicType(forIdentifier:)`.
    public static func characteristicType(forIdentifier identifier: CharacteristicTypeIdentifier) -> CharacteristicType? {
        characteristicTypes.first { $0.identifier == identifier.rawValue }
    }

    /// The type of workouts, as `HKObjectType.workoutType()`.
    public static func workoutType() -> WorkoutType { Workout.sampleType }
}
