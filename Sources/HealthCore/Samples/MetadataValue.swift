/// A metadata value: HealthKit allows strings and numbers (and dates and quantities, stored here as strings).
public enum MetadataValue: Hashable, Sendable {
    case string(String)
    case number(Double)
}
