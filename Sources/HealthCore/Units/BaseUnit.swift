/// One named unit of HealthKit's grammar before prefixes and powers, such as `g`, `lb` or `fl_oz_us`.
struct BaseUnit: Sendable {
    /// Canonical symbol.
    let symbol: String
    let dimension: UnitDimension
    /// Value of one unit in the coherent base of its dimension.
    let factor: Double
    /// Offset zero point (temperatures only).
    var offset: Double = 0
    /// Whether SI prefixes (`k`, `m`, `mc`...) may precede the symbol.
    var acceptsPrefix: Bool = false
    /// Whether the unit is on a log scale, so it cannot take part in products and powers.
    var isLogarithmic: Bool = false

    private static let volumeInLiters = UnitDimension.volume
    private static let liter = 0.001  // m³

    /// Every base unit, in a fixed order (for listings).
    static let all: [BaseUnit] = [
        // mass (grams)
        BaseUnit(symbol: "g", dimension: .mass, factor: 1, acceptsPrefix: true),
        BaseUnit(symbol: "oz", dimension: .mass, factor: 28.349523125),
        BaseUnit(symbol: "lb", dimension: .mass, factor: 453.59237),
        BaseUnit(symbol: "st", dimension: .mass, factor: 6350.29318),
        // length (meters)
        BaseUnit(symbol: "m", dimension: .length, factor: 1, acceptsPrefix: true),
        BaseUnit(symbol: "in", dimension: .length, factor: 0.0254),
        BaseUnit(symbol: "ft", dimension: .length, factor: 0.3048),
        BaseUnit(symbol: "yd", dimension: .length, factor: 0.9144),
        BaseUnit(symbol: "mi", dimension: .length, factor: 1609.344),
        // volume (cubic meters)
        BaseUnit(symbol: "L", dimension: volumeInLiters, factor: liter, acceptsPrefix: true),
        BaseUnit(symbol: "fl_oz_us", dimension: volumeInLiters, factor: 29.5735295625e-6),
        BaseUnit(symbol: "fl_oz_imp", dimension: volumeInLiters, factor: 28.4130625e-6),
        BaseUnit(symbol: "pt_us", dimension: volumeInLiters, factor: 473.176473e-6),
        BaseUnit(symbol: "pt_imp", dimension: volumeInLiters, factor: 568.26125e-6),
        BaseUnit(symbol: "cup_us", dimension: volumeInLiters, factor: 236.5882365e-6),
        BaseUnit(symbol: "cup_imp", dimension: volumeInLiters, factor: 284.130625e-6),
        // time (seconds)
        BaseUnit(symbol: "s", dimension: .time, factor: 1, acceptsPrefix: true),
        BaseUnit(symbol: "min", dimension: .time, factor: 60),
        BaseUnit(symbol: "hr", dimension: .time, factor: 3600),
        BaseUnit(symbol: "d", dimension: .time, factor: 86400),
        // energy (g·m²/s², so 1 J = 1000)
        BaseUnit(symbol: "J", dimension: .energy, factor: 1000, acceptsPrefix: true),
        BaseUnit(symbol: "cal", dimension: .energy, factor: 4184),
        BaseUnit(symbol: "kcal", dimension: .energy, factor: 4_184_000),
        BaseUnit(symbol: "Cal", dimension: .energy, factor: 4_184_000),
        // temperature (kelvin)
        BaseUnit(symbol: "K", dimension: .temperature, factor: 1, acceptsPrefix: true),
        BaseUnit(symbol: "degC", dimension: .temperature, factor: 1, offset: 273.15),
        BaseUnit(symbol: "degF", dimension: .temperature, factor: 5.0 / 9.0, offset: 459.67 * 5.0 / 9.0),
        // pressure (g/(m·s²), so 1 Pa = 1000)
        BaseUnit(symbol: "Pa", dimension: .pressure, factor: 1000, acceptsPrefix: true),
        BaseUnit(symbol: "mmHg", dimension: .pressure, factor: 133_322.387415),
        BaseUnit(symbol: "cmAq", dimension: .pressure, factor: 98_066.5),
        BaseUnit(symbol: "atm", dimension: .pressure, factor: 101_325_000),
        BaseUnit(symbol: "inHg", dimension: .pressure, factor: 3_386_388.16),
        // scalars
        BaseUnit(symbol: "count", dimension: .none, factor: 1),
        BaseUnit(symbol: "%", dimension: .fraction, factor: 1),
        // electrical, frequency, power, light, angle
        BaseUnit(symbol: "Hz", dimension: .frequency, factor: 1, acceptsPrefix: true),
        BaseUnit(symbol: "S", dimension: UnitDimension([.mass: -1, .length: -2, .time: 3, .current: 2]),
                 factor: 0.001, acceptsPrefix: true),
        BaseUnit(symbol: "V", dimension: UnitDimension([.mass: 1, .length: 2, .time: -3, .current: -1]),
                 factor: 1000, acceptsPrefix: true),
        BaseUnit(symbol: "W", dimension: UnitDimension([.mass: 1, .length: 2, .time: -3]), factor: 1000,
                 acceptsPrefix: true),
        BaseUnit(symbol: "lx", dimension: UnitDimension([.luminousIntensity: 1, .length: -2]), factor: 1,
                 acceptsPrefix: true),
        BaseUnit(symbol: "rad", dimension: UnitDimension(.angle), factor: 1, acceptsPrefix: true),
        BaseUnit(symbol: "deg", dimension: UnitDimension(.angle), factor: Double.pi / 180),
        // kinds of their own
        BaseUnit(symbol: "IU", dimension: UnitDimension(.internationalUnit), factor: 1),
        BaseUnit(symbol: "dBASPL", dimension: UnitDimension(.soundPressureLevel), factor: 1, isLogarithmic: true),
        BaseUnit(symbol: "dBHL", dimension: UnitDimension(.hearingLevel), factor: 1, isLogarithmic: true),
        BaseUnit(symbol: "D", dimension: UnitDimension(.diopter), factor: 1),
        BaseUnit(symbol: "pD", dimension: UnitDimension(.prismDiopter), factor: 1),
        BaseUnit(symbol: "appleEffortScore", dimension: UnitDimension(.effort), factor: 1),
    ]

    /// The base unit with this symbol (`l` is the liter too), found by comparing symbols: a dictionary of them cost
    /// every command that parses a unit about 30 k instructions to build, more than its few lookups save.
    static func named(_ symbol: String) -> BaseUnit? {
        let symbol = symbol == "l" ? "L" : symbol  // liter is the one case-insensitive symbol
        return all.first { $0.symbol == symbol }
    }

    /// The molar base unit `mol<M>`: an amount of a substance of molar mass M g/mol, converted through mass.
    static func mole(molarMass: Double, spelling: String) -> BaseUnit {
        BaseUnit(symbol: "mol<\(spelling)>", dimension: .mass, factor: molarMass, acceptsPrefix: true)
    }
}

/// An SI prefix such as `k` (10³) or `mc` (10⁻⁶).
struct UnitPrefix: Sendable {
    let symbol: String
    let factor: Double

    /// HealthKit's prefixes; longer symbols first so `da` and `mc` win over `d` and `m`.
    static let all: [UnitPrefix] = [
        UnitPrefix(symbol: "da", factor: 1e1),
        UnitPrefix(symbol: "mc", factor: 1e-6),
        UnitPrefix(symbol: "p", factor: 1e-12),
        UnitPrefix(symbol: "n", factor: 1e-9),
        UnitPrefix(symbol: "m", factor: 1e-3),
        UnitPrefix(symbol: "c", factor: 1e-2),
        UnitPrefix(symbol: "d", factor: 1e-1),
        UnitPrefix(symbol: "h", factor: 1e2),
        UnitPrefix(symbol: "k", factor: 1e3),
        UnitPrefix(symbol: "M", factor: 1e6),
        UnitPrefix(symbol: "G", factor: 1e9),
        UnitPrefix(symbol: "T", factor: 1e12),
        UnitPrefix(symbol: "f", factor: 1e-15),
    ]

    /// Spellings of micro that people type and HealthKit does not (`µg`, `μg`); they read as `mc`.
    static let microAliases = ["\u{00B5}", "\u{03BC}"]
}
