import HealthCore

/// The settings as keys and values typed by people: `unit.<type>` (`unit.weight = lb`) and `tz` (`tz = recorded`).
extension Settings {
    /// The value of the `tz` setting that shows each sample in the zone it was recorded in.
    package static let recordedZone = "recorded"

    /// Whether samples are shown in the zone each was recorded in (`tz = recorded`).
    package var showsRecordedZones: Bool { displayZone == Settings.recordedZone }

    /// Sets `key` (`unit.<type>`) to `value`.
    ///
    /// - Throws: ``SettingsError/unknownKey(_:)``, ``SampleError/unknownType(_:known:)`` or a unit error.
    package mutating func set(_ key: String, to value: String, catalogue: SampleTypeCatalogue) throws {
        if key == "tz" {
            guard value == Settings.recordedZone else { throw SettingsError.invalidValue(key: key, value: value) }
            displayZone = value
            return
        }
        let type = try settingType(key, catalogue: catalogue)
        let unit = try QuantityInput.unit(value, for: type)
        // Shown figures are in it: a sound level stays in dB (its averages are of levels, not of pressures).
        if let canonical = type.canonicalUnit, unit.dimension != canonical.dimension {
            throw UnitError.wrongUnitForType(unit: unit.unitString, type: type.name, expected: type.examples)
        }
        displayUnits[type.name] = unit.unitString
    }

    /// Removes `key`.
    package mutating func unset(_ key: String, catalogue: SampleTypeCatalogue) throws {
        if key == "tz" {
            displayZone = nil
            return
        }
        displayUnits[try settingType(key, catalogue: catalogue).name] = nil
    }

    /// The value of `key`, if set.
    package func value(_ key: String, catalogue: SampleTypeCatalogue) throws -> String? {
        if key == "tz" { return displayZone }
        return displayUnits[try settingType(key, catalogue: catalogue).name]
    }

    /// Every setting as (key, value), sorted.
    package var entries: [(key: String, value: String)] {
        (displayZone.map { [("tz", $0)] } ?? []) + displayUnits.keys.sorted().map { ("unit.\($0)", displayUnits[$0]!) }
    }

    /// Every key `set` accepts for `catalogue`: `tz`, then `unit.<type>` for each quantity type.
    package static func keys(catalogue: SampleTypeCatalogue) -> [String] {
        ["tz"] + catalogue.types.filter { $0.kind == .quantity }.map { "unit.\($0.name)" }
    }

    private func settingType(_ key: String, catalogue: SampleTypeCatalogue) throws -> SampleType {
        guard key.hasPrefix("unit.") else { throw SettingsError.unknownKey(key) }
        let type = try catalogue.type(named: String(key.dropFirst(5)))
        guard type.kind == .quantity else { throw SettingsError.unknownKey(key) }
        return type
    }
}
