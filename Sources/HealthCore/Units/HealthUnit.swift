#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A unit of measure in HealthKit's unit system, such as `mL`, `kg`, `count/min` or `mmol<180.1558800000541>/L`.
///
/// A unit is parsed from HealthKit's unit-string grammar (see ``HealthUnit/init(parsing:)``) and always prints
/// back in HealthKit's canonical spelling through ``unitString``. Conversion between two units uses exact factors,
/// gives its result to 12 significant digits (so 500 mL is 0.5 L, not 0.5000000000000001; HealthKit keeps the last
/// bits) and is only allowed when both have the same ``dimension``.
public struct HealthUnit: Hashable, Sendable, CustomStringConvertible {
    /// The canonical HealthKit spelling, such as `mL` or `mL/min·kg`. Parsing it gives this unit back.
    public let unitString: String
    /// The physical dimension; units convert into each other only when dimensions are equal.
    public let dimension: UnitDimension
    /// The value of one of this unit in the coherent base of its dimension (grams, meters, seconds, kelvin...).
    let factor: Double
    /// Added after scaling, for units with an offset zero point (degrees Celsius and Fahrenheit).
    let offset: Double

    init(unitString: String, dimension: UnitDimension, factor: Double, offset: Double = 0) {
        self.unitString = unitString
        self.dimension = dimension
        self.factor = factor
        self.offset = offset
    }

    public var description: String { unitString }

    public static func == (lhs: HealthUnit, rhs: HealthUnit) -> Bool { lhs.unitString == rhs.unitString }
    public func hash(into hasher: inout Hasher) { hasher.combine(unitString) }

    /// Whether a value in this unit can be converted to `other`: the same dimension, or a sound pressure level in
    /// decibels (`dBASPL`) and a pressure (`Pa`, `mmHg`), which HealthKit converts into each other.
    public func isCompatible(with other: HealthUnit) -> Bool {
        dimension == other.dimension || isSoundLevelAndPressure(other)
    }

    /// A sound pressure level in dB (A-weighted) is 20·log10 of the pressure over 20 µPa, the threshold of hearing.
    private static let referencePressure = 2e-5
    private static let soundPressureLevel = UnitDimension(.soundPressureLevel)
    /// The factor of one pascal (pressures are held in grams, metres and seconds).
    private static let pascalFactor = 1000.0

    private func isSoundLevelAndPressure(_ other: HealthUnit) -> Bool {
        (dimension == Self.soundPressureLevel && other.dimension == .pressure)
            || (dimension == .pressure && other.dimension == Self.soundPressureLevel)
    }

    /// Converts `value` from this unit to `target`.
    ///
    /// - Parameters:
    ///   - value: A value measured in this unit.
    ///   - target: The unit to express it in.
    /// - Returns: The same amount expressed in `target`, to 12 significant digits (the value itself when `target` is
    ///   this unit).
    /// - Throws: ``UnitError/incompatible(_:_:)`` when the dimensions differ (`mL` to `kg`).
    public func convert(_ value: Double, to target: HealthUnit) throws -> Double {
        if self == target { return value }
        if isSoundLevelAndPressure(target) {
            // Logarithmic, not a factor (fact sheet §3.4): Pa = 2e-5 × 10^(dB/20), and back.
            if dimension == Self.soundPressureLevel {
                let pascals = Self.referencePressure * pow(10, value / 20)
                return HealthUnit.roundedToPrecision(pascals * Self.pascalFactor / target.factor)
            }
            let pascals = value * factor / Self.pascalFactor
            return HealthUnit.roundedToPrecision(20 * log10(pascals / Self.referencePressure))
        }
        guard dimension == target.dimension else { throw UnitError.incompatible(unitString, target.unitString) }
        let result: Double
        if offset == 0 && target.offset == 0 {
            result = value * (factor / target.factor)
        } else {
            result = ((value * factor + offset) - target.offset) / target.factor
        }
        return HealthUnit.roundedToPrecision(result)
    }

    /// Rounds away the last few bits of floating-point noise left by a conversion (12 significant digits),
    /// so that 500 mL in L prints as 0.5 and not 0.5000000000000001.
    static func roundedToPrecision(_ value: Double) -> Double {
        guard value.isFinite, value != 0 else { return value }
        let magnitude = (log10(abs(value))).rounded(.down)
        let scale = pow(10, 11 - magnitude)
        guard scale.isFinite, scale > 0 else { return value }
        let rounded = (value * scale).rounded() / scale
        return rounded.isFinite ? rounded : value
    }
}

extension HealthUnit {
    /// `count`, the unit of dimensionless counts such as steps: HealthKit's `HKUnit.count()`.
    public static func count() -> HealthUnit { HealthUnit(unitString: "count", dimension: .none, factor: 1) }
    /// `%`, a fraction: the value 0.215 means 21.5 % (`HKUnit.percent()`).
    public static func percent() -> HealthUnit { HealthUnit(unitString: "%", dimension: .fraction, factor: 1) }
    /// Seconds (`HKUnit.second()`).
    public static func second() -> HealthUnit { HealthUnit(unitString: "s", dimension: .time, factor: 1) }
    /// Minutes (`HKUnit.minute()`).
    public static func minute() -> HealthUnit { HealthUnit(unitString: "min", dimension: .time, factor: 60) }
    /// Hours (`HKUnit.hour()`).
    public static func hour() -> HealthUnit { HealthUnit(unitString: "hr", dimension: .time, factor: 3600) }
}
