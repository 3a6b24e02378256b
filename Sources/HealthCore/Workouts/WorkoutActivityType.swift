import TextSupport

/// A kind of workout, HealthKit's `HKWorkoutActivityType`: its raw value, Swift case name and short forms.
///
/// An Apple Health export writes `HKWorkoutActivityType` + the case name with a capital
/// (`HKWorkoutActivityTypeTraditionalStrengthTraining`). ``named(_:)`` reads a type by its case name
/// (`traditionalStrengthTraining`), its kebab-case form (`traditional-strength-training`), an alias (`strength`),
/// the export name or the raw value, case-insensitively.
public struct WorkoutActivityType: Hashable, Sendable, CustomStringConvertible {
    /// HealthKit's raw value (`running` = 37, `other` = 3000).
    public let rawValue: Int
    /// The Swift case name (`traditionalStrengthTraining`).
    public let name: String
    /// Extra short forms (`strength`).
    public let aliases: [String]
    /// Whether distance is part of the activity, so that a pace means something (running, cycling, swimming...).
    public let measuresDistance: Bool
    /// Deprecated by Apple (`dance`, `danceInspiredTraining`, `mixedMetabolicCardioTraining`), still readable.
    public let isDeprecated: Bool

    /// Creates an activity type.
    public init(_ rawValue: Int, _ name: String, aliases: [String] = [], measuresDistance: Bool = false,
                isDeprecated: Bool = false) {
        self.rawValue = rawValue
        self.name = name
        self.aliases = aliases
        self.measuresDistance = measuresDistance
        self.isDeprecated = isDeprecated
    }

    /// The known activity type with this raw value, as `HKWorkoutActivityType(rawValue:)`; nil for a raw value HealthKit
    /// does not define (``raw(_:)`` keeps such a number as an unknown type instead).
    public init?(rawValue: Int) {
        guard let known = WorkoutActivityType.index[String(rawValue)] else { return nil }
        self = known
    }

    /// Two activity types are the same when their raw values are, as HealthKit's enumeration cases compare.
    public static func == (lhs: WorkoutActivityType, rhs: WorkoutActivityType) -> Bool { lhs.rawValue == rhs.rawValue }

    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    public var description: String { name }

    /// `HKWorkoutActivityTypeRunning`.
    public var exportName: String { "HKWorkoutActivityType" + name.prefix(1).uppercased() + name.dropFirst() }

    /// `traditional-strength-training`.
    public var kebabName: String {
        var text = ""
        for character in name {
            if character.isUppercase {
                text += "-" + character.lowercased()
            } else {
                text.append(character)
            }
        }
        return text
    }

    /// An activity type the library does not know by name (from a newer export), kept by its raw value.
    public static func unknown(_ rawValue: Int) -> WorkoutActivityType {
        WorkoutActivityType(rawValue, "activity\(rawValue)")
    }

    private static let index: [String: WorkoutActivityType] = {
        var index: [String: WorkoutActivityType] = [:]
        for type in all {
            for key in [type.name, type.kebabName, type.exportName, String(type.rawValue)] + type.aliases {
                precondition(index[key.lowercased()].map { $0 == type } ?? true, "duplicate workout activity name \(key)")
                index[key.lowercased()] = type
            }
        }
        return index
    }()

    /// The activity type `text` names.
    ///
    /// - Throws: ``WorkoutError/unknownActivity(_:suggestion:)``, with the nearest name when there is one.
    public static func named(_ text: String) throws -> WorkoutActivityType {
        if let type = index[text.lowercased()] { return type }
        throw WorkoutError.unknownActivity(text, suggestion: closestName(to: text))
    }

    /// The activity type with this raw value (an unknown one keeps the number).
    public static func raw(_ rawValue: Int) -> WorkoutActivityType {
        index[String(rawValue)] ?? .unknown(rawValue)
    }

    /// The activity type of an export's `workoutActivityType` attribute, if it names one.
    public static func exported(_ text: String) -> WorkoutActivityType? {
        guard text.hasPrefix("HKWorkoutActivityType") else { return nil }
        return index[text.lowercased()]
    }

    private static func closestName(to text: String) -> String? {
        let lowered = Array(text.lowercased())
        var best: (String, Int)?
        for key in index.keys where Int(key) == nil && !key.hasPrefix("hkworkout") {
            let distance = NameSuggestions.distance(lowered, Array(key))
            if distance < (best?.1 ?? Int.max) { best = (key, distance) }
        }
        guard let (key, distance) = best, distance <= max(2, lowered.count / 3) else { return nil }
        return index[key].map { key.contains("-") || $0.aliases.contains(key) ? key : $0.name }
    }
}
