/// Preferences kept in the store's `settings.json`: the display unit per type (`unit.weight = lb`) and the zone
/// samples are shown in (`tz = recorded`).
public struct Settings: Codable, Equatable, Sendable {
    /// Type short name → HealthKit unit string.
    public var displayUnits: [String: String] = [:]
    /// The zone samples are shown in when none is asked for: `recorded` (each sample in the zone it was recorded in,
    /// its `HKTimeZone` metadata), or nil for the zone of the reader. Absent from older documents.
    public var displayZone: String?

    /// The value of the `tz` setting that shows each sample in the zone it was recorded in.
    public static let recordedZone = "recorded"

    /// Whether samples are shown in the zone each was recorded in (`tz = recorded`).
    public var showsRecordedZones: Bool { displayZone == Settings.recordedZone }

    /// Creates empty settings.
    public init() {}

    /// The display unit for `type`, if one is set and still valid.
    public func displayUnit(for type: SampleType) -> HealthUnit? {
        guard let text = displayUnits[type.name], let unit = try? HealthUnit(parsing: text),
              let canonical = type.canonicalUnit, unit.isCompatible(with: canonical) else { return nil }
        return unit
    }

    /// Sets `key` (`unit.<type>`) to `value`.
    ///
    /// - Throws: ``SettingsError/unknownKey(_:)``, ``SampleError/unknownType(_:known:)`` or a unit error.
    public mutating func set(_ key: String, to value: String, catalogue: SampleTypeCatalogue) throws {
        if key == "tz" {
            guard value == Settings.recordedZone else { throw SettingsError.invalidValue(key: key, value: value) }
            displayZone = value
            return
        }
        let type = try settingType(key, catalogue: catalogue)
        displayUnits[type.name] = try QuantityInput.unit(value, for: type).unitString
    }

    /// Removes `key`.
    public mutating func unset(_ key: String, catalogue: SampleTypeCatalogue) throws {
        if key == "tz" {
            displayZone = nil
            return
        }
        displayUnits[try settingType(key, catalogue: catalogue).name] = nil
    }

    /// The value of `key`, if set.
    public func value(_ key: String, catalogue: SampleTypeCatalogue) throws -> String? {
        if key == "tz" { return displayZone }
        return displayUnits[try settingType(key, catalogue: catalogue).name]
    }

    /// Every setting as (key, value), sorted.
    public var entries: [(key: String, value: String)] {
        (displayZone.map { [("tz", $0)] } ?? []) + displayUnits.keys.sorted().map { ("unit.\($0)", displayUnits[$0]!) }
    }

    /// Every key `set` accepts for `catalogue`: `tz`, then `unit.<type>` for each quantity type.
    public static func keys(catalogue: SampleTypeCatalogue) -> [String] {
        ["tz"] + catalogue.types.filter { $0.kind == .quantity }.map { "unit.\($0.name)" }
    }

    private func settingType(_ key: String, catalogue: SampleTypeCatalogue) throws -> SampleType {
        guard key.hasPrefix("unit.") else { throw SettingsError.unknownKey(key) }
        let type = try catalogue.type(named: String(key.dropFirst(5)))
        guard type.kind == .quantity else { throw SettingsError.unknownKey(key) }
        return type
    }
}

/// Errors from changing ``Settings``.
public enum SettingsError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// No such setting.
    case unknownKey(String)
    /// A value the setting does not take.
    case invalidValue(key: String, value: String)

    public var description: String {
        switch self {
        case let .unknownKey(key):
            return "Unknown setting '\(key)'; settings are 'unit.<type>' for a quantity type, such as 'unit.weight', and 'tz'."
        case let .invalidValue(key, value):
            return "The setting '\(key)' takes 'recorded' (each sample shown in the zone it was recorded in), not '\(value)'; "
                + "unset it to show samples in the system zone."
        }
    }

    public var errorDescription: String? { description }
}
