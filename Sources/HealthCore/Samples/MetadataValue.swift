import TextSupport

/// A metadata value: HealthKit allows strings and numbers (and dates and quantities, stored here as strings).
public enum MetadataValue: Hashable, Sendable {
    case string(String)
    case number(Double)
}

/// Metadata written as HealthKit code writes it: `["HKWasUserEntered": true, "HKTimeZone": "Europe/Berlin"]`. A
/// Boolean is stored as the number 1 or 0, as HealthKit stores an `NSNumber`.
extension MetadataValue: ExpressibleByStringLiteral, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(booleanLiteral value: Bool) { self = .number(value ? 1 : 0) }
}

extension MetadataValue {
    /// A value as a person typed it (`KEY=VALUE`), kept as typed.
    ///
    /// It is a number only when `text` is that number's canonical spelling, the one JSON output writes for it
    /// (``text``): `42`, `0.5`, `-3`, `1e+20`. Any other text stays the string it is, even when it reads as a
    /// number: `007`, `01234`, `1.10`, `1.0`, `+5`, `-0`, `.5`, `1e20`, ` 42`, `0x10`, `inf`, and integers of 16
    /// digits or more (an identifier that a double would round). So what is stored, listed and exported is always
    /// exactly what was typed.
    ///
    /// - Parameter text: The typed value.
    public init(typed text: String) {
        if let number = Double(text), number.isFinite, NumberFormatting.json(number) == text {
            self = .number(number)
        } else {
            self = .string(text)
        }
    }

    /// The value as text: a string as it is, a number in its canonical spelling (`42`, `0.5`, `1e+20`), the spelling
    /// ``init(typed:)`` reads back as the same number.
    public var text: String {
        switch self {
        case let .string(text): return text
        case let .number(number): return NumberFormatting.json(number)
        }
    }
}
