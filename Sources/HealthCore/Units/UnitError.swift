import TextSupport

/// Errors from parsing unit strings, parsing quantities and converting between units.
public enum UnitError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The unit string is not in HealthKit's grammar; the payload is the string and what was wrong with it.
    case malformed(String, reason: String)
    /// No unit has this symbol.
    case unknownUnit(String)
    /// The two units measure different things (`mL` and `kg`).
    case incompatible(String, String)
    /// A unit that does not measure what the type measures (water in kg); payload: unit, type name, expected examples.
    case wrongUnitForType(unit: String, type: String, expected: [String])
    /// An alias that means two different units for this type; payload: alias, type, the spellings to choose from.
    case ambiguous(String, type: String, choices: [String])
    /// A number with no unit where the unit is not obvious; payload: the text, the type, examples of how to write it.
    case missingUnit(String, type: String, examples: [String])
    /// The amount is not a number at all.
    case notANumber(String)

    public var description: String {
        switch self {
        case let .malformed(text, reason):
            return "The unit '\(text)' is malformed: \(reason)."
        case let .unknownUnit(text):
            return "Unknown unit '\(text)'; HealthUnit reads HealthKit's unit strings (such as mL, kg, count/min)."
        case let .incompatible(from, to):
            return "Cannot convert '\(from)' to '\(to)': they measure different things."
        case let .wrongUnitForType(unit, type, expected):
            // The type's examples are amounts (`500mL`, `8000` for a count), not units.
            return "The unit '\(unit)' does not measure \(type); write the amount like \(expected.joined(separator: " or "))."
        case let .ambiguous(alias, type, choices):
            return "The unit '\(alias)' is ambiguous for \(type); write \(choices.map { "'\($0)'" }.joined(separator: " or ")) instead."
        case let .missingUnit(text, type, examples):
            return "The amount '\(text)' for \(type) needs a unit; write it like \(examples.map { "'\($0)'" }.joined(separator: " or "))."
        case let .notANumber(text):
            return "The amount '\(text)' is not a number; write it like '500mL' or '72.4kg'."
        }
    }

    public var errorDescription: String? { description }
}
