/// Preferences kept in the store's `settings.json`: for now, the display unit per type (`unit.weight = lb`).
public struct Settings: Codable, Equatable, Sendable {
    /// Type short name → HealthKit unit string.
    public var displayUnits: [String: String] = [:]

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
        let type = try settingType(key, catalogue: catalogue)
        displayUnits[type.name] = try QuantityInput.unit(value, for: type).unitString
    }

    /// Removes `key`.
    public mutating func unset(_ key: String, catalogue: SampleTypeCatalogue) throws {
        displayUnits[try settingType(key, catalogue: catalogue).name] = nil
    }

    /// The value of `key`, if set.
    public func value(_ key: String, catalogue: SampleTypeCatalogue) throws -> String? {
        displayUnits[try settingType(key, catalogue: catalogue).name]
    }

    /// Every setting as (key, value), sorted.
    public var entries: [(key: String, value: String)] {
        displayUnits.keys.sorted().map { ("unit.\($0)", displayUnits[$0]!) }
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
    case unknownKey(String)

    public var description: String {
        switch self {
        case let .unknownKey(key):
            return "Unknown setting '\(key)'; settings are 'unit.<type>' for a quantity type, such as 'unit.weight'."
        }
    }

    public var errorDescription: String? { description }
}
