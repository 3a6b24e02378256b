/// A kind of sample hkctl stores, like HealthKit's `HKQuantityType` or `HKCategoryType`.
///
/// Everything hkctl knows about a type lives here, so adding a type is one entry in
/// ``SampleTypeCatalogue/standard``: its HealthKit identifier, its short command-line name, how it
/// aggregates, its units and the values it accepts.
public struct SampleType: Hashable, Sendable, CustomStringConvertible {
    /// Whether samples carry a quantity or a category value; or, for a characteristic type
    /// (``CharacteristicType``), that there are no samples at all, only the person's value.
    public enum Kind: String, Sendable {
        case quantity, category, characteristic
    }

    /// HealthKit's identifier, as written in exports (`HKQuantityTypeIdentifierDietaryWater`).
    public let identifier: String
    /// The short command-line name (`water`).
    public let name: String
    /// A human title for tables (`Water`).
    public let title: String
    /// Quantity, category or characteristic.
    public let kind: Kind
    /// How values combine; nil for category types.
    public let aggregation: AggregationStyle?
    /// HealthKit's canonical unit; nil for category types.
    public let canonicalUnit: HealthUnit?
    /// The unit list and stats use unless told otherwise; nil for category types.
    public let displayUnit: HealthUnit?
    /// Examples of amounts, for error messages (`500mL`, `0.5L`).
    public let examples: [String]
    /// The accepted values of a category type, empty for quantity types.
    public let categoryValues: [CategoryValue]
    /// The longest a single sample may last, if limited (sleep: 24 hours).
    public let maximumDuration: TimeInterval?
    /// Plausible values of one sample in ``canonicalUnit``; values outside are refused as typing mistakes.
    public let validRange: ClosedRange<Double>?

    /// Creates a quantity type.
    public static func quantity(
        _ identifier: String, name: String, title: String, aggregation: AggregationStyle, unit: String,
        display: String? = nil, examples: [String], validRange: ClosedRange<Double>? = nil,
        maximumDuration: TimeInterval? = nil
    ) -> SampleType {
        let canonical = try! HealthUnit(parsing: unit)
        return SampleType(
            identifier: identifier, name: name, title: title, kind: .quantity, aggregation: aggregation,
            canonicalUnit: canonical, displayUnit: display.map { try! HealthUnit(parsing: $0) } ?? canonical,
            examples: examples, categoryValues: [], maximumDuration: maximumDuration, validRange: validRange)
    }

    /// Creates a quantity type from units already parsed.
    static func quantity(
        _ identifier: String, name: String, title: String, aggregation: AggregationStyle, canonicalUnit: HealthUnit,
        displayUnit: HealthUnit, examples: [String], validRange: ClosedRange<Double>?
    ) -> SampleType {
        SampleType(
            identifier: identifier, name: name, title: title, kind: .quantity, aggregation: aggregation,
            canonicalUnit: canonicalUnit, displayUnit: displayUnit, examples: examples, categoryValues: [],
            maximumDuration: nil, validRange: validRange)
    }

    /// Creates a category type.
    public static func category(
        _ identifier: String, name: String, title: String, values: [CategoryValue], examples: [String],
        maximumDuration: TimeInterval? = nil
    ) -> SampleType {
        SampleType(
            identifier: identifier, name: name, title: title, kind: .category, aggregation: nil, canonicalUnit: nil,
            displayUnit: nil, examples: examples, categoryValues: values, maximumDuration: maximumDuration,
            validRange: nil)
    }

    public static func == (lhs: SampleType, rhs: SampleType) -> Bool { lhs.identifier == rhs.identifier }
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }
    public var description: String { name }

    /// Whether this is HealthKit's sleep analysis type, whose statistics are time asleep and time in bed.
    public var isSleepAnalysis: Bool { identifier == SampleType.sleepAnalysisIdentifier }
    static let sleepAnalysisIdentifier = "HKCategoryTypeIdentifierSleepAnalysis"

    /// The identifier without its `HK...TypeIdentifier` prefix, first letter lowered (`dietaryWater`).
    public var shortIdentifier: String {
        for prefix in Self.identifierPrefixes where identifier.hasPrefix(prefix) {
            var rest = Array(identifier.utf8.dropFirst(prefix.utf8.count))
            if let first = rest.first, first &- 65 < 26 { rest[0] = first | 0x20 }
            return String(decoding: rest, as: UTF8.self)
        }
        return identifier
    }

    /// The prefixes that ``shortIdentifier`` drops; both are ``identifierPrefixLength`` bytes long.
    static let identifierPrefixes = ["HKQuantityTypeIdentifier", "HKCategoryTypeIdentifier"]
    static let identifierPrefixLength = 24

    /// The category value that `text` names (case name, export name, alias or raw number).
    ///
    /// - Throws: ``SampleError/unknownCategoryValue(_:type:choices:)`` when none matches.
    public func categoryValue(named text: String) throws -> CategoryValue {
        if let value = categoryValues.first(where: { $0.matches(text) }) { return value }
        throw SampleError.unknownCategoryValue(text, type: name, choices: categoryValues.map { $0.aliases.first ?? $0.name })
    }

    /// The category value with this raw value, if valid for the type.
    public func categoryValue(raw: Int) -> CategoryValue? { categoryValues.first { $0.rawValue == raw } }
}
