/// The owner's preferences kept in the store's `settings.json`: the display unit per type (`weight` in `lb`), which
/// ``HealthStore/preferredUnits(for:)`` answers with, and the zone samples are shown in.
public struct Settings: Codable, Equatable, Sendable {
    /// Type short name → HealthKit unit string.
    public var displayUnits: [String: String] = [:]
    /// The zone samples are shown in when none is asked for: `recorded` (each sample in the zone it was recorded in,
    /// its `HKTimeZone` metadata), or nil for the zone of the reader. Absent from older documents.
    public var displayZone: String?

    /// Creates empty settings.
    public init() {}

    /// The display unit for `type`, if one is set and still valid.
    public func displayUnit(for type: SampleType) -> HealthUnit? {
        guard let text = displayUnits[type.name], let unit = try? HealthUnit(parsing: text),
              let canonical = type.canonicalUnit, unit.dimension == canonical.dimension else { return nil }
        return unit
    }
}
