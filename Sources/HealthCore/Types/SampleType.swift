/// A type whose data are samples: HealthKit's `HKSampleType`, the base of ``QuantityType``, ``CategoryType``,
/// ``WorkoutType`` and ``CorrelationType``.
///
/// Everything the library knows about a type lives here, so adding a type is one row in
/// ``SampleTypeCatalogue/standard``: its HealthKit identifier, its short name, how it aggregates, its units and the
/// values it accepts. A type's class is its kind: the catalogue makes a ``QuantityType`` for a quantity row and a
/// ``CategoryType`` for a category row.
public class SampleType: ObjectType, @unchecked Sendable {
    /// How values combine; nil for category types.
    public let aggregation: AggregationStyle?
    /// HealthKit's canonical unit; nil for category types.
    public let canonicalUnit: HealthUnit?
    /// The unit listings and statistics use unless told otherwise; nil for category types.
    public let displayUnit: HealthUnit?
    /// Examples of amounts, for error messages (`500mL`, `0.5L`).
    public let examples: [String]
    /// The accepted values of a category type, empty for quantity types.
    public let categoryValues: [CategoryValue]
    /// The longest a single sample may last, if limited (sleep: 24 hours).
    public let maximumDuration: TimeInterval?
    /// Plausible values of one sample in ``canonicalUnit``; values outside are refused as typing mistakes.
    public let validRange: ClosedRange<Double>?

    init(identifier: String, name: String, title: String, kind: Kind, aggregation: AggregationStyle?,
         canonicalUnit: HealthUnit?, displayUnit: HealthUnit?, examples: [String], categoryValues: [CategoryValue],
         maximumDuration: TimeInterval?, validRange: ClosedRange<Double>?) {
        self.aggregation = aggregation
        self.canonicalUnit = canonicalUnit
        self.displayUnit = displayUnit
        self.examples = examples
        self.categoryValues = categoryValues
        self.maximumDuration = maximumDuration
        self.validRange = validRange
        super.init(identifier: identifier, name: name, title: title, kind: kind)
    }

    /// A new instance of `type`'s class with its values (the initialisers by identifier copy the catalogue's type).
    convenience init(copying type: SampleType) {
        self.init(identifier: type.identifier, name: type.name, title: type.title, kind: type.kind,
                  aggregation: type.aggregation, canonicalUnit: type.canonicalUnit, displayUnit: type.displayUnit,
                  examples: type.examples, categoryValues: type.categoryValues,
                  maximumDuration: type.maximumDuration, validRange: type.validRange)
    }

    /// Creates a quantity type.
    public static func quantity(
        _ identifier: String, name: String, title: String, aggregation: AggregationStyle, unit: String,
        display: String? = nil, examples: [String], validRange: ClosedRange<Double>? = nil,
        maximumDuration: TimeInterval? = nil
    ) -> QuantityType {
        let canonical = try! HealthUnit(parsing: unit)
        return QuantityType(
            identifier: identifier, name: name, title: title, kind: .quantity, aggregation: aggregation,
            canonicalUnit: canonical, displayUnit: display.map { try! HealthUnit(parsing: $0) } ?? canonical,
            examples: examples, categoryValues: [], maximumDuration: maximumDuration, validRange: validRange)
    }

    /// Creates a quantity type from units already parsed.
    static func quantity(
        _ identifier: String, name: String, title: String, aggregation: AggregationStyle, canonicalUnit: HealthUnit,
        displayUnit: HealthUnit, examples: [String], validRange: ClosedRange<Double>?
    ) -> QuantityType {
        QuantityType(
            identifier: identifier, name: name, title: title, kind: .quantity, aggregation: aggregation,
            canonicalUnit: canonicalUnit, displayUnit: displayUnit, examples: examples, categoryValues: [],
            maximumDuration: nil, validRange: validRange)
    }

    /// Creates a category type.
    public static func category(
        _ identifier: String, name: String, title: String, values: [CategoryValue], examples: [String],
        maximumDuration: TimeInterval? = nil
    ) -> CategoryType {
        CategoryType(
            identifier: identifier, name: name, title: title, kind: .category, aggregation: nil, canonicalUnit: nil,
            displayUnit: nil, examples: examples, categoryValues: values, maximumDuration: maximumDuration,
            validRange: nil)
    }

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
