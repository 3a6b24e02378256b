import TextSupport

/// HealthKit's SI prefixes, with `HKMetricPrefix`'s raw values.
public enum MetricPrefix: Int, Sendable, CaseIterable {
    case none = 0, pico, nano, micro, milli, centi, deci, deca, hecto, kilo, mega, giga, tera, femto

    /// The prefix as unit strings write it (`k`, `m`, `mc`).
    public var symbol: String {
        switch self {
        case .none: return ""
        case .pico: return "p"
        case .nano: return "n"
        case .micro: return "mc"
        case .milli: return "m"
        case .centi: return "c"
        case .deci: return "d"
        case .deca: return "da"
        case .hecto: return "h"
        case .kilo: return "k"
        case .mega: return "M"
        case .giga: return "G"
        case .tera: return "T"
        case .femto: return "f"
        }
    }
}

/// The unit constructors of HealthKit's `HKUnit`, by the same names: `.liter()`, `.literUnit(with: .milli)`,
/// `.gramUnit(with: .kilo)`, `.count().unitDivided(by: .minute())`. Each gives the unit its unit string names, so
/// `HealthUnit.literUnit(with: .milli) == HealthUnit(from: "mL")`.
extension HealthUnit {
    /// The unit a unit string in HealthKit's grammar names: `HKUnit(from:)`, for strings written in the code.
    ///
    /// As HealthKit's raises an exception, this stops the program (a precondition failure) for a string that is not
    /// a unit: a malformed unit string in code is a programming error. For text that comes from people or files, use
    /// the throwing ``init(parsing:)``, which says what is wrong.
    ///
    /// - Parameter string: A unit string such as `mL`, `count/min` or `mg/dL`.
    public init(from string: String) {
        do {
            try self.init(parsing: string)
        } catch {
            preconditionFailure("HealthUnit(from:): \(error)")
        }
    }

    /// A unit this file builds from known symbols; they always parse.
    private static func known(_ text: String) -> HealthUnit {
        guard let unit = try? HealthUnit(parsing: text) else { preconditionFailure("HealthCore's own unit string '\(text)' does not parse") }
        return unit
    }

    // Mass
    /// Grams with a prefix (`.gramUnit(with: .kilo)` is kg).
    public static func gramUnit(with prefix: MetricPrefix) -> HealthUnit { known(prefix.symbol + "g") }
    /// Grams.
    public static func gram() -> HealthUnit { known("g") }
    /// Ounces (mass).
    public static func ounce() -> HealthUnit { known("oz") }
    /// Pounds.
    public static func pound() -> HealthUnit { known("lb") }
    /// Stones.
    public static func stone() -> HealthUnit { known("st") }
    /// Moles of a substance of molar mass `gramsPerMole`, with a prefix (`mmol<180.15588>` for glucose). The molar mass
    /// must be positive and finite: any other is a programming error and stops the program, as HealthKit raises an
    /// exception (``HealthUnit/init(parsing:)`` of `mol<0>` throws instead).
    public static func moleUnit(with prefix: MetricPrefix, molarMass gramsPerMole: Double) -> HealthUnit {
        known(prefix.symbol + "mol<\(NumberFormatting.json(gramsPerMole))>")
    }
    /// Moles of a substance of molar mass `gramsPerMole` (positive and finite, as above).
    public static func moleUnit(withMolarMass gramsPerMole: Double) -> HealthUnit { moleUnit(with: .none, molarMass: gramsPerMole) }

    // Length
    /// Meters with a prefix.
    public static func meterUnit(with prefix: MetricPrefix) -> HealthUnit { known(prefix.symbol + "m") }
    /// Meters.
    public static func meter() -> HealthUnit { known("m") }
    /// Inches.
    public static func inch() -> HealthUnit { known("in") }
    /// Feet.
    public static func foot() -> HealthUnit { known("ft") }
    /// Yards.
    public static func yard() -> HealthUnit { known("yd") }
    /// Miles.
    public static func mile() -> HealthUnit { known("mi") }

    // Volume
    /// Liters with a prefix (`.literUnit(with: .milli)` is mL).
    public static func literUnit(with prefix: MetricPrefix) -> HealthUnit { known(prefix.symbol + "L") }
    /// Liters.
    public static func liter() -> HealthUnit { known("L") }
    /// US fluid ounces.
    public static func fluidOunceUS() -> HealthUnit { known("fl_oz_us") }
    /// Imperial fluid ounces.
    public static func fluidOunceImperial() -> HealthUnit { known("fl_oz_imp") }
    /// US pints.
    public static func pintUS() -> HealthUnit { known("pt_us") }
    /// Imperial pints.
    public static func pintImperial() -> HealthUnit { known("pt_imp") }
    /// US cups.
    public static func cupUS() -> HealthUnit { known("cup_us") }
    /// Imperial cups.
    public static func cupImperial() -> HealthUnit { known("cup_imp") }

    // Time
    /// Seconds with a prefix (`.secondUnit(with: .milli)` is ms).
    public static func secondUnit(with prefix: MetricPrefix) -> HealthUnit { known(prefix.symbol + "s") }
    /// Days.
    public static func day() -> HealthUnit { known("d") }

    // Energy
    /// Joules with a prefix.
    public static func jouleUnit(with prefix: MetricPrefix) -> HealthUnit { known(prefix.symbol + "J") }
    /// Joules.
    public static func joule() -> HealthUnit { known("J") }
    /// Kilocalories (`kcal`, the food calorie).
    public static func kilocalorie() -> HealthUnit { known("kcal") }
    /// Small calories (`cal`).
    public static func smallCalorie() -> HealthUnit { known("cal") }
    /// Large calories (`Cal`, equal to a kilocalorie).
    public static func largeCalorie() -> HealthUnit { known("Cal") }

    // Temperature
    /// Degrees Celsius.
    public static func degreeCelsius() -> HealthUnit { known("degC") }
    /// Degrees Fahrenheit.
    public static func degreeFahrenheit() -> HealthUnit { known("degF") }
    /// Kelvin.
    public static func kelvin() -> HealthUnit { known("K") }

    // Pressure
    /// Pascals with a prefix.
    public static func pascalUnit(with prefix: MetricPrefix) -> HealthUnit { known(prefix.symbol + "Pa") }
    /// Pascals.
    public static func pascal() -> HealthUnit { known("Pa") }
    /// Millimeters of mercury, the unit of blood pressure.
    public static func millimeterOfMercury() -> HealthUnit { known("mmHg") }
    /// Centimeters of water.
    public static func centimeterOfWater() -> HealthUnit { known("cmAq") }
    /// Atmospheres.
    public static func atmosphere() -> HealthUnit { known("atm") }
    /// Inches of mercury.
    public static func inchesOfMercury() -> HealthUnit { known("inHg") }

    // Others
    /// Hertz with a prefix.
    public static func hertzUnit(with prefix: MetricPrefix) -> HealthUnit { known(prefix.symbol + "Hz") }
    /// Hertz.
    public static func hertz() -> HealthUnit { known("Hz") }
    /// Volts with a prefix.
    public static func voltUnit(with prefix: MetricPrefix) -> HealthUnit { known(prefix.symbol + "V") }
    /// Volts.
    public static func volt() -> HealthUnit { known("V") }
    /// Watts with a prefix.
    public static func wattUnit(with prefix: MetricPrefix) -> HealthUnit { known(prefix.symbol + "W") }
    /// Watts.
    public static func watt() -> HealthUnit { known("W") }
    /// Siemens with a prefix.
    public static func siemenUnit(with prefix: MetricPrefix) -> HealthUnit { known(prefix.symbol + "S") }
    /// Siemens.
    public static func siemen() -> HealthUnit { known("S") }
    /// International units.
    public static func internationalUnit() -> HealthUnit { known("IU") }
    /// A-weighted decibels of sound pressure level.
    public static func decibelAWeightedSoundPressureLevel() -> HealthUnit { known("dBASPL") }
    /// Decibels of hearing level.
    public static func decibelHearingLevel() -> HealthUnit { known("dBHL") }
    /// Lux.
    public static func lux() -> HealthUnit { known("lx") }
    /// Diopters.
    public static func diopter() -> HealthUnit { known("D") }
    /// Prism diopters.
    public static func prismDiopter() -> HealthUnit { known("pD") }
    /// Radians with a prefix.
    public static func radianAngleUnit(with prefix: MetricPrefix) -> HealthUnit { known(prefix.symbol + "rad") }
    /// Radians.
    public static func radianAngle() -> HealthUnit { known("rad") }
    /// Degrees of angle.
    public static func degreeAngle() -> HealthUnit { known("deg") }
    /// Apple's effort score.
    public static func appleEffortScore() -> HealthUnit { known("appleEffortScore") }

    // Arithmetic
    /// This unit divided by `unit` (`count/min`), as `HKUnit.unitDivided(by:)`. Like HealthKit, a temperature in
    /// degrees or a decibel unit cannot be combined with another; doing so stops the program.
    public func unitDivided(by unit: HealthUnit) -> HealthUnit { Self.known("(\(unitString))/(\(unit.unitString))") }
    /// This unit multiplied by `unit` (`kg·m`), as `HKUnit.unitMultiplied(by:)`.
    public func unitMultiplied(by unit: HealthUnit) -> HealthUnit { Self.known("(\(unitString))*(\(unit.unitString))") }
    /// This unit to an integer power (`m^2`), as `HKUnit.unitRaised(toPower:)`: the result's powers within ±127
    /// (``HealthUnit/init(parsing:)`` reads no larger), and not of a temperature in degrees or a decibel unit;
    /// anything else is a programming error and stops the program.
    public func unitRaised(toPower power: Int) -> HealthUnit {
        power == 1 ? self : Self.known(power == 0 ? "count" : "(\(unitString))^\(power)")
    }
    /// One over this unit, as `HKUnit.reciprocal()`.
    public func reciprocal() -> HealthUnit { HealthUnit.count().unitDivided(by: self) }
}

/// HealthKit's `HKQuantity` spellings.
extension Quantity {
    /// A quantity of `doubleValue` in `unit`, as `HKQuantity(unit:doubleValue:)`.
    public init(unit: HealthUnit, doubleValue: Double) { self.init(doubleValue, unit) }

    /// The amount in `unit`, as `HKQuantity.doubleValue(for:)`. As in HealthKit, asking for a unit of another
    /// dimension is a programming error and stops the program; ``value(in:)`` throws instead.
    public func doubleValue(for unit: HealthUnit) -> Double {
        do { return try value(in: unit) } catch { preconditionFailure("\(error)") }
    }

    /// Whether the quantity can be expressed in `unit`, as `HKQuantity.is(compatibleWith:)`.
    public func `is`(compatibleWith unit: HealthUnit) -> Bool { self.unit.isCompatible(with: unit) }
}
