import HealthCore
import TextSupport

/// Reads amounts as people type them for a given type: `0.5L`, `500 mL`, `16.9fl_oz_us`, `160lb`, `8000`: the
/// command line's syntax, not HealthKit's (a library user makes a `Quantity` from a number and a
/// `HealthUnit(parsing:)`, which reads HealthKit's unit strings and throws on a malformed one).
///
/// On top of HealthKit's unit strings it accepts a few friendly aliases (`ml`, `l`, `floz`, `lbs`, `kgs`,
/// `bpm`, `steps`, `hours`...), case-insensitively. An alias that could mean two units of the type's dimension
/// (`cup`: US or imperial) is refused with both spellings. `oz` means ounces of mass for a mass type and US
/// fluid ounces for a volume type. A number without a unit is accepted only for count types.
package enum QuantityInput: Sendable {
    /// Aliases (lower case) and the HealthKit unit strings each may stand for; the type's dimension picks one. A list
    /// searched in order, not a dictionary: building one cost every `add` about 40,000 instructions at start-up.
    static let aliases: [(alias: String, units: [String])] = [
        ("ml", ["mL"]), ("l", ["L"]), ("liter", ["L"]), ("liters", ["L"]), ("litre", ["L"]), ("litres", ["L"]),
        ("floz", ["fl_oz_us"]), ("fl.oz", ["fl_oz_us"]), ("oz", ["oz", "fl_oz_us"]),
        ("cup", ["cup_us", "cup_imp"]), ("cups", ["cup_us", "cup_imp"]),
        ("pt", ["pt_us", "pt_imp"]), ("pint", ["pt_us", "pt_imp"]), ("pints", ["pt_us", "pt_imp"]),
        ("kg", ["kg"]), ("kgs", ["kg"]), ("lbs", ["lb"]), ("lb", ["lb"]), ("pound", ["lb"]), ("pounds", ["lb"]),
        ("stone", ["st"]), ("g", ["g"]), ("mg", ["mg"]),
        ("bpm", ["count/min"]), ("steps", ["count"]), ("step", ["count"]), ("count", ["count"]),
        ("h", ["hr"]), ("hr", ["hr"]), ("hrs", ["hr"]), ("hour", ["hr"]), ("hours", ["hr"]),
        ("min", ["min"]), ("mins", ["min"]), ("minutes", ["min"]), ("s", ["s"]), ("sec", ["s"]), ("secs", ["s"]),
        ("°c", ["degC"]), ("°f", ["degF"]), ("mmol/l", ["mmol<180.1558800000541>/L"]), ("mg/dl", ["mg/dL"]),
    ]

    /// The unit strings `alias` (lower case) may stand for; empty when it is no alias.
    static func units(forAlias alias: String) -> [String] {
        aliases.first { $0.alias == alias }?.units ?? []
    }

    /// Parses an amount with its unit for `type`.
    ///
    /// - Returns: The quantity in the unit typed; `21.5%` becomes 0.215 `%` (HealthKit stores fractions).
    /// - Throws: ``UnitError`` when the number, the unit, or its fit with the type is wrong.
    package static func parse(_ text: String, for type: SampleType) throws -> Quantity {
        let trimmed = text.trimmingSpaces()
        let scalars = Array(trimmed.unicodeScalars)
        var end = 0
        func isDigit(_ index: Int) -> Bool { index < scalars.count && ("0"..."9").contains(scalars[index]) }
        if end < scalars.count, scalars[end] == "-" || scalars[end] == "+" { end += 1 }
        while isDigit(end) { end += 1 }
        if end < scalars.count, scalars[end] == ".", isDigit(end + 1) || end > 0 {
            end += 1
            while isDigit(end) { end += 1 }
        }
        if end < scalars.count, scalars[end] == "e" || scalars[end] == "E" {
            var probe = end + 1
            if probe < scalars.count, scalars[probe] == "-" || scalars[probe] == "+" { probe += 1 }
            if isDigit(probe) {
                end = probe
                while isDigit(end) { end += 1 }
            }
        }
        let numberText = Self.string(of: scalars[0..<end])
        guard let value = Double(numberText) else {
            throw UnitError.notANumber(text)
        }
        guard value.isFinite else { throw SampleError.notFinite(type: type.name) }
        // "-0" is a negative amount typed, and a non-zero amount that underflows or is subnormal is no measurement.
        if value == 0 && value.sign == .minus { throw SampleError.negative(value, type: type.name) }
        let typedNonZero = numberText.unicodeScalars.prefix { $0 != "e" && $0 != "E" }.contains { ("1"..."9").contains($0) }
        if typedNonZero && abs(value) < 1e-6 { throw SampleError.tooSmall(numberText, type: type.name) }
        let unitText = Self.string(of: scalars[end...]).trimmingSpaces()
        if unitText.hasPrefix(",") { throw UnitError.notANumber(text) }
        guard let canonical = type.canonicalUnit else {
            throw SampleError.wrongKind(type: type.name, expected: "one of the values \(type.categoryValues.map(\.name).joined(separator: ", "))")
        }
        if unitText.isEmpty {
            guard canonical.dimension == .none else {
                throw UnitError.missingUnit(text, type: type.name, examples: type.examples)
            }
            return Quantity(value, canonical)
        }
        let unit = try self.unit(unitText, for: type)
        return Quantity(unit == .percent() ? value / 100 : value, unit)
    }

    /// The scalars as a string, one at a time: the view's generic `append(contentsOf:)` is not specialised into
    /// a program, and its first call costs a command a runtime lookup (see StringJoining.swift).
    private static func string(of scalars: ArraySlice<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        for scalar in scalars { view.append(scalar) }
        return String(view)
    }

    /// Resolves a unit typed for `type` (a unit string or one of the aliases above).
    ///
    /// - Throws: ``UnitError/ambiguous(_:type:choices:)``, ``UnitError/wrongUnitForType(unit:type:expected:)`` or a parse error.
    package static func unit(_ text: String, for type: SampleType) throws -> HealthUnit {
        guard let canonical = type.canonicalUnit else {
            throw UnitError.wrongUnitForType(unit: text, type: type.name,
                                             expected: type.categoryValues.prefix(3).map(\.name) + ["another of its values, without a unit"])
        }
        let meanings = units(forAlias: text.lowercased()).compactMap { try? HealthUnit(parsing: $0) }
        let fitting = meanings.filter { $0.isCompatible(with: canonical) }
        if fitting.count > 1 {
            throw UnitError.ambiguous(text, type: type.name, choices: fitting.map(\.unitString))
        }
        if let only = fitting.first { return only }
        let parsed: HealthUnit
        do {
            parsed = try HealthUnit(parsing: text)
        } catch {
            if !meanings.isEmpty {
                throw UnitError.wrongUnitForType(unit: text, type: type.name, expected: type.examples)
            }
            throw error
        }
        guard parsed.isCompatible(with: canonical) else {
            throw UnitError.wrongUnitForType(unit: text, type: type.name, expected: type.examples)
        }
        return parsed
    }
}

extension QuantityInput {
    /// The friendly aliases that resolve to a unit of `type`'s dimension, as (alias, unit string), sorted.
    package static func aliases(for type: SampleType) -> [(alias: String, unit: String)] {
        aliases.map(\.alias).sorted().compactMap { alias in
            guard let unit = try? QuantityInput.unit(alias, for: type), alias != unit.unitString else { return nil }
            return (alias, unit.unitString)
        }
    }
}
