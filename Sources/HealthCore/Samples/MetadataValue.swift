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
