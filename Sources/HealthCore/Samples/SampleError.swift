/// Errors about a sample's type, value or dates.
public enum SampleError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// No type has this name; payload: the name and the known short names.
    case unknownType(String, known: [String])
    /// The value is NaN or infinite.
    case notFinite(type: String)
    /// A negative amount.
    case negative(Double, type: String)
    /// A non-zero amount too small to be a measurement (below a millionth of its unit); payload: the text typed.
    case tooSmall(String, type: String)
    /// Outside the plausible range for the type (in its canonical unit).
    case outOfRange(Double, unit: String, type: String, range: ClosedRange<Double>)
    /// The end is before the start.
    case endBeforeStart(start: String, end: String)
    /// Longer than the type allows (sleep: 24 h); payload: hours and allowed hours.
    case tooLong(type: String, hours: Double, maximumHours: Double)
    /// A category value the type does not have.
    case unknownCategoryValue(String, type: String, choices: [String])
    /// A quantity given for a category type or the other way round.
    case wrongKind(type: String, expected: String)
    /// The sample ends after "now".
    case inFuture(end: String, now: String)

    public var description: String {
        switch self {
        case let .unknownType(name, known):
            return "Unknown type '\(name)'; known types: \(known.joined(separator: ", ")) (see 'hkctl types')."
        case let .notFinite(type):
            return "The \(type) amount is not a finite number; give a real amount such as '500mL'."
        case let .negative(value, type):
            return "The \(type) amount \(NumberFormatting.json(value)) is negative; amounts must be zero or more."
        case let .tooSmall(text, type):
            return "The \(type) amount '\(text)' is too small to be a measurement; write it in a smaller unit (at least a millionth of the unit)."
        case let .outOfRange(value, unit, type, range):
            return "The \(type) amount \(NumberFormatting.json(value)) \(unit) is outside the plausible range "
                + "\(NumberFormatting.json(range.lowerBound))–\(NumberFormatting.json(range.upperBound)) \(unit); check the number and its unit."
        case let .endBeforeStart(start, end):
            return "The end \(end) is before the start \(start); give the earlier time first."
        case let .tooLong(type, hours, maximumHours):
            return "A \(type) sample of \(NumberFormatting.human(hours, fractionDigits: 1)) hours is longer than the "
                + "\(NumberFormatting.json(maximumHours)) hours allowed; check the start and end."
        case let .unknownCategoryValue(text, type, choices):
            return "Unknown \(type) value '\(text)'; expected one of: \(choices.joined(separator: ", "))."
        case let .wrongKind(type, expected):
            return "A \(type) sample needs \(expected)."
        case let .inFuture(end, now):
            return "The sample ends at \(end), after now (\(now)); hkctl records what has already happened."
        }
    }

    public var errorDescription: String? { description }
}
