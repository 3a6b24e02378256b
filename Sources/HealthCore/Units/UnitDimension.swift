import TextSupport

/// The physical dimension of a unit, as integer exponents of independent base quantities.
///
/// Two units can be converted into each other exactly when their dimensions are equal.
/// Volume is length³, energy is mass·length²·time⁻², and so on; quantities that HealthKit treats
/// as their own kind (international units, decibels, percent) get base quantities of their own so
/// that they never silently convert into a plain count.
public struct UnitDimension: Hashable, Sendable, CustomStringConvertible {
    /// The independent base quantities, in a fixed order.
    public enum Base: Int, CaseIterable, Sendable {
        case mass, length, time, temperature, current, luminousIntensity, angle
        case internationalUnit, soundPressureLevel, hearingLevel, fraction, diopter, prismDiopter, effort

        var name: String {
            switch self {
            case .mass: return "mass"
            case .length: return "length"
            case .time: return "time"
            case .temperature: return "temperature"
            case .current: return "electric current"
            case .luminousIntensity: return "luminous intensity"
            case .angle: return "angle"
            case .internationalUnit: return "international units"
            case .soundPressureLevel: return "sound pressure level"
            case .hearingLevel: return "hearing level"
            case .fraction: return "percent"
            case .diopter: return "diopters"
            case .prismDiopter: return "prism diopters"
            case .effort: return "effort score"
            }
        }
    }

    /// Exponent of each base quantity, indexed by ``Base/rawValue`` (a fixed-size vector, so copying a unit
    /// never touches the heap).
    public private(set) var exponents: SIMD16<Int8>

    /// A dimensionless quantity, such as a count.
    public static let none = UnitDimension(exponents: SIMD16<Int8>())

    init(exponents: SIMD16<Int8>) {
        self.exponents = exponents
    }

    /// A dimension that is one base quantity to the first power.
    public init(_ base: Base) {
        var exponents = UnitDimension.none.exponents
        exponents[base.rawValue] = 1
        self.exponents = exponents
    }

    /// Builds a dimension from base quantities and exponents, e.g. `[.length: 2, .time: -1]`.
    ///
    /// The pairs are not a dictionary, so building the unit tables at start-up hashes nothing.
    public init(_ powers: KeyValuePairs<Base, Int8>) {
        var exponents = UnitDimension.none.exponents
        for (base, power) in powers { exponents[base.rawValue] = power }
        self.exponents = exponents
    }

    public static let mass = UnitDimension(.mass)
    public static let length = UnitDimension(.length)
    public static let volume = UnitDimension([.length: 3])
    public static let time = UnitDimension(.time)
    public static let temperature = UnitDimension(.temperature)
    public static let energy = UnitDimension([.mass: 1, .length: 2, .time: -2])
    public static let pressure = UnitDimension([.mass: 1, .length: -1, .time: -2])
    public static let frequency = UnitDimension([.time: -1])
    public static let fraction = UnitDimension(.fraction)

    /// The product of two dimensions.
    public static func * (lhs: UnitDimension, rhs: UnitDimension) -> UnitDimension {
        UnitDimension(exponents: lhs.exponents &+ rhs.exponents)
    }

    /// This dimension raised to an integer power.
    public func raised(to power: Int) -> UnitDimension {
        UnitDimension(exponents: exponents &* SIMD16<Int8>(repeating: Int8(truncatingIfNeeded: power)))
    }

    /// A short human description, such as `volume` or `mass·length^2·time^-2`.
    public var description: String {
        let named: [(UnitDimension, String)] = [
            (.none, "count"), (.volume, "volume"), (.energy, "energy"), (.pressure, "pressure"),
            (.frequency, "frequency"),
        ]
        if let name = named.first(where: { $0.0 == self })?.1 { return name }
        let parts = Base.allCases.compactMap { base -> String? in
            let power = exponents[base.rawValue]
            if power == 0 { return nil }
            return power == 1 ? base.name : "\(base.name)^\(power)"
        }
        return parts.joined(separator: "·")
    }
}
