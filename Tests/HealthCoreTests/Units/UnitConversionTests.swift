import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Unit grammar round trips, prefixes and exact conversion factors (fact sheet §3).
struct UnitConversionTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: unitConversionTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit

    private func unit(_ text: String) throws -> HealthUnit { try HealthUnit(parsing: text) }

    // MARK: Base units and prefixes

    @Test(arguments: BaseUnit.all.map(\.symbol))
    func everyBaseUnitParsesAndPrintsBack(symbol: String) throws {
        let parsed = try unit(symbol)
        expectEqual(parsed.unitString, symbol)
        try expectEqual(unit(parsed.unitString), parsed)
        let base = try #require(BaseUnit.all.first { $0.symbol == symbol })
        expectEqual(parsed.dimension, base.dimension)
        // One of the unit converts to itself unchanged.
        try expectEqual(parsed.convert(1, to: parsed), 1)
    }

    /// `hkctl edit` compares a corrected value with the stored one by amount: the same amount in another unit is the same.
    func theSameAmountInAnotherUnitIsTheSameAmount() throws {
        let stored = Quantity(72.4, try unit("kg"))
        #expect(stored.isSameAmount(as: Quantity(72_400, try unit("g"))))
        #expect(stored.isSameAmount(as: Quantity(72_400_000, try unit("mg"))))
        #expect(stored.isSameAmount(as: stored))
        #expect(!stored.isSameAmount(as: Quantity(72_401, try unit("g"))))
        #expect(!stored.isSameAmount(as: Quantity(72.4, try unit("lb"))))
        #expect(!stored.isSameAmount(as: Quantity(72.4, try unit("m"))), "another dimension")
        let temperature = Quantity(37, try unit("degC"))
        #expect(temperature.isSameAmount(as: Quantity(98.6, try unit("degF"))))
        #expect(!temperature.isSameAmount(as: Quantity(98.7, try unit("degF"))))
        #expect(Quantity(0, try unit("count")).isSameAmount(as: Quantity(0, try unit("count"))))
    }

    /// One-symbol strings skip the grammar's parser; wrapping one in parentheses forces the parser, and both
    /// must give the same unit or the same error.
    func singleSymbolsReadAsTheGrammarReadsThem() throws {
        var symbols = BaseUnit.all.map(\.symbol)
        for prefix in UnitPrefix.all { symbols += BaseUnit.all.map { prefix.symbol + $0.symbol } }
        symbols += ["mcg", "ug", "kilogram", "litre", "K_", "%%", "fl_oz", "MG", "Count"]
        for symbol in symbols where !symbol.contains("<") {
            let fast = Result { try unit(symbol) }
            let grammar = Result { try unit("(" + symbol + ")") }
            switch (fast, grammar) {
            case let (.success(a), .success(b)):
                #expect(a.unitString == b.unitString && a.factor == b.factor && a.dimension == b.dimension
                        && a.offset == b.offset, "\(symbol)")
            case let (.failure(a), .failure(b)):
                expectEqual("\(a)", "\(b)".replacingOccurrences(of: "(" + symbol + ")", with: symbol), "\(symbol)")
            default:
                Issue.record("\(symbol): \(fast) against \(grammar)")
            }
        }
    }

    func baseUnitSymbolsAreUnique() {
        let symbols = BaseUnit.all.map(\.symbol)
        expectEqual(Set(symbols).count, symbols.count)
        // The fact sheet's table (§3.3) lists at least these.
        for required in ["g", "oz", "lb", "st", "m", "in", "ft", "yd", "mi", "L", "fl_oz_us", "fl_oz_imp", "pt_us",
                         "pt_imp", "cup_us", "cup_imp", "s", "min", "hr", "d", "J", "cal", "kcal", "Cal", "K", "degC",
                         "degF", "Pa", "mmHg", "cmAq", "atm", "inHg", "count", "%", "IU", "dBASPL", "dBHL"] {
            #expect(symbols.contains(required), "missing base unit \(required)")
        }
    }

    func literIsTheOnlyCaseInsensitiveSymbol() throws {
        try expectEqual(unit("l").unitString, "L")
        try expectEqual(unit("ml").unitString, "mL")
        try expectEqual(unit("dl").unitString, "dL")
        // Every other symbol is case-sensitive: "ML" is a megaliter, not a milliliter.
        try expectEqual(unit("ML").convert(1, to: unit("L")), 1_000_000)
        #expect(throws: UnitError.unknownUnit("KG")) { try HealthUnit(parsing: "KG") }
    }

    /// (spelling, canonical spelling, reference unit, value of one in the reference unit).
    @Test(arguments: [
        ("km", "km", "m", 1e3), ("cm", "cm", "m", 1e-2), ("mm", "mm", "m", 1e-3),
        ("dam", "dam", "m", 10.0),  // "da" wins over "d" + "am"
        ("dm", "dm", "m", 0.1), ("hm", "hm", "m", 100.0), ("nm", "nm", "m", 1e-9), ("pm", "pm", "m", 1e-12),
        ("Mm", "Mm", "m", 1e6), ("Gm", "Gm", "m", 1e9), ("Tm", "Tm", "m", 1e12), ("fm", "fm", "m", 1e-15),
        ("kg", "kg", "g", 1e3), ("mg", "mg", "g", 1e-3), ("mcg", "mcg", "g", 1e-6), ("ng", "ng", "g", 1e-9),
        ("\u{00B5}g", "mcg", "g", 1e-6), ("\u{03BC}g", "mcg", "g", 1e-6),  // micro sign and Greek mu read as "mc"
        ("dL", "dL", "mL", 100.0), ("cL", "cL", "mL", 10.0), ("mcL", "mcL", "mL", 1e-3), ("kL", "kL", "L", 1e3),
        ("ms", "ms", "s", 1e-3), ("ks", "ks", "s", 1e3),
        ("kJ", "kJ", "J", 1e3), ("MJ", "MJ", "J", 1e6),
        ("hPa", "hPa", "Pa", 100.0), ("kPa", "kPa", "Pa", 1e3),
        ("GHz", "GHz", "Hz", 1e9), ("mV", "mV", "V", 1e-3), ("mcS", "mcS", "S", 1e-6), ("kW", "kW", "W", 1e3),
        ("mK", "mK", "K", 1e-3), ("mrad", "mrad", "rad", 1e-3), ("klx", "klx", "lx", 1e3),
    ])
    func prefixesScaleTheirUnit(spelling: String, canonical: String, reference: String, factor: Double) throws {
        let parsed = try unit(spelling)
        expectEqual(parsed.unitString, canonical)
        try expectEqual(unit(canonical), parsed)
        let value = try parsed.convert(1, to: unit(reference))
        #expect(Kit.isClose(value, factor), "1 \(spelling) = \(value) \(reference), expected \(factor)")
    }

    func molarUnitTakesPrefixesAndKeepsItsMolarMass() throws {
        let mmol = try unit("mmol<180.1558800000541>")
        expectEqual(mmol.unitString, "mmol<180.1558800000541>")
        expectEqual(mmol.dimension, .mass)
        // 1 mmol × 180.1558800000541 g/mol = 0.1801558800000541 g.
        #expect(Kit.isClose(try mmol.convert(1, to: unit("g")), 0.1801558800000541, relative: 1e-11))
        // A molar mass written with trailing zeros prints in its shortest form.
        try expectEqual(unit("mol<18.0>").unitString, "mol<18>")
        // 1 mol of water (18 g/mol) = 18 g.
        try expectEqual(unit("mol<18>").convert(1, to: unit("g")), 18)
    }

    /// (spelling, canonical): products print with "·", time comes first in the denominator.
    @Test(arguments: [
        ("kg*m", "kg·m"), ("kg.m", "kg·m"), ("kg\u{00B7}m", "kg·m"), ("s^-1", "s^-1"), ("m^+2", "m^2"),
        ("kg/m.s^2", "kg/s^2·m"), ("(m/s)^2", "m^2/s^2"), ("m/(s/kg)", "m·kg/s"), ("count/s", "count/s"),
        ("(kg)", "kg"), ("kcal/(kg*hr)", "kcal/hr·kg"), ("mmol<180.1558800000541>/L", "mmol<180.1558800000541>/L"),
    ])
    func compoundUnitsPrintCanonically(spelling: String, canonical: String) throws {
        let parsed = try unit(spelling)
        expectEqual(parsed.unitString, canonical)
        try expectEqual(unit(canonical).unitString, canonical)
    }

    func scaleFactorTermIsAPowerOfTen() throws {
        // 10^3 count = 1000 count.
        try expectEqual(unit("10^3").convert(1, to: .count()), 1000)
        // 10^3 count/min = 1000 / 60 count/s = 16.666...
        #expect(Kit.isClose(try unit("10^3*count/min").convert(1, to: unit("count/s")), 1000.0 / 60.0, relative: 1e-11))
    }

    func conversionLeavesNoFloatingPointNoise() throws {
        // 500 × (1e-6 m³ / 1e-3 m³) computes as 0.5000000000000001 in plain doubles; the result must be 0.5.
        try expectEqual(unit("mL").convert(500, to: unit("L")), 0.5)
        try expectEqual(Quantity(500, unit("mL")).converted(to: unit("L")).description, "0.5 L")
        // 0.1 L + nothing: 0.1 × 1000 = 100 exactly.
        try expectEqual(unit("L").convert(0.1, to: unit("mL")), 100)
    }

    // MARK: Exact conversions

    /// (from, to, value, expected). Factors are the legal definitions of the fact sheet §3.3, not the rounded header ones.
    @Test(arguments: [
        ("lb", "kg", 1.0, 0.45359237),          // 1 lb = 453.59237 g exactly
        ("lb", "g", 1.0, 453.59237),
        ("lb", "kg", 160.0, 72.5747792),        // 160 × 0.45359237
        ("st", "kg", 1.0, 6.35029318),          // 14 lb = 14 × 453.59237 g = 6350.29318 g (header says 6350.0)
        ("st", "lb", 1.0, 14.0),
        ("st", "kg", 11.0, 69.85322498),        // 11 × 6.35029318
        ("oz", "g", 1.0, 28.349523125),         // lb / 16
        ("oz", "lb", 16.0, 1.0),
        ("fl_oz_us", "mL", 1.0, 29.5735295625),
        ("cup_us", "mL", 1.0, 236.5882365),     // 8 US fl oz, not the 240 mL label cup
        ("cup_us", "fl_oz_us", 1.0, 8.0),
        ("fl_oz_imp", "mL", 1.0, 28.4130625),
        ("cup_imp", "mL", 1.0, 284.130625),     // 10 imperial fl oz
        ("pt_us", "fl_oz_us", 1.0, 16.0),
        ("pt_us", "mL", 1.0, 473.176473),
        ("pt_imp", "fl_oz_imp", 1.0, 20.0),
        ("pt_imp", "mL", 1.0, 568.26125),
        ("L", "mL", 0.5, 500.0),
        ("mL", "L", 500.0, 0.5),                // must print 0.5, not 0.5000000000000001
        ("mi", "m", 1.0, 1609.344),             // header's 1609.34 is rounded
        ("mi", "km", 1.0, 1.609344),
        ("mi", "ft", 1.0, 5280.0),
        ("in", "cm", 1.0, 2.54),
        ("ft", "in", 1.0, 12.0),
        ("yd", "ft", 1.0, 3.0),
        ("kcal", "J", 1.0, 4184.0),
        ("Cal", "J", 1.0, 4184.0),              // food calorie = kcal
        ("kcal", "Cal", 1.0, 1.0),
        ("cal", "J", 1.0, 4.184),               // small calorie
        ("kcal", "kJ", 1.0, 4.184),
        ("kJ", "kcal", 4.184, 1.0),
        ("kcal", "cal", 1.0, 1000.0),
        ("hr", "min", 1.0, 60.0),
        ("d", "hr", 1.0, 24.0),
        ("min", "s", 1.0, 60.0),
        ("count/min", "count/s", 60.0, 1.0),    // 60 per minute = 1 per second
        ("count/s", "count/min", 1.0, 60.0),
        ("mmHg", "Pa", 1.0, 133.322387415),
        ("atm", "kPa", 1.0, 101.325),
        ("cmAq", "Pa", 1.0, 98.0665),
    ])
    func convertsWithExactFactors(from: String, to: String, value: Double, expected: Double) throws {
        let result = try unit(from).convert(value, to: unit(to))
        #expect(Kit.isClose(result, expected), "\(value) \(from) = \(result) \(to), expected \(expected)")
    }

    func convertsKilometresToMilesByTheExactMile() throws {
        // 1 / 1.609344 = 0.62137119223733...
        let miles = try unit("km").convert(1, to: unit("mi"))
        #expect(Kit.isClose(miles, 0.621371192237334, relative: 1e-11))
    }

    func convertsDegreesToRadians() throws {
        // 180° = π rad.
        #expect(Kit.isClose(try unit("deg").convert(180, to: unit("rad")), Double.pi, relative: 1e-11))
    }

    /// (from, to, value, expected): temperatures are affine, through kelvin.
    @Test(arguments: [
        ("degF", "degC", 98.6, 37.0),    // (98.6 − 32) × 5/9 = 66.6 × 5/9 = 37
        ("degC", "degF", 37.0, 98.6),    // 37 × 1.8 + 32 = 98.6
        ("degF", "degC", 212.0, 100.0),  // boiling point
        ("degF", "degC", -40.0, -40.0),  // the scales cross at −40
        ("degC", "degF", -40.0, -40.0),
        ("degC", "K", 0.0, 273.15),
        ("K", "degC", 300.0, 26.85),     // 300 − 273.15
        ("K", "degF", 0.0, -459.67),     // absolute zero
        ("degC", "degF", 100.0, 212.0),
    ])
    func convertsTemperaturesWithOffsets(from: String, to: String, value: Double, expected: Double) throws {
        let result = try unit(from).convert(value, to: unit(to))
        #expect(Kit.isClose(result, expected), "\(value) \(from) = \(result) \(to), expected \(expected)")
    }

    func freezingPointIsZeroCelsius() throws {
        // (32 − 32) × 5/9 = 0: no floating-point residue may survive.
        let result = try unit("degF").convert(32, to: unit("degC"))
        #expect(abs(result) < 1e-9)
    }

    func convertsBloodGlucoseBetweenMolarAndMassUnits() throws {
        let molar = try unit("mmol<180.1558800000541>/L")
        let mass = try unit("mg/dL")
        #expect(molar.isCompatible(with: mass))
        // 1 mmol/L × 180.1558800000541 mg/mmol = 180.1558800000541 mg/L = 18.01558800000541 mg/dL.
        #expect(Kit.isClose(try molar.convert(1, to: mass), 18.01558800000541, relative: 1e-11))
        // 5.5 mmol/L × 18.01558800000541 = 99.0857340000298 mg/dL.
        #expect(Kit.isClose(try molar.convert(5.5, to: mass), 99.08573400002975, relative: 1e-11))
        // 100 mg/dL ÷ 18.01558800000541 = 5.55074860726 mmol/L.
        #expect(Kit.isClose(try mass.convert(100, to: molar), 5.550748607260001, relative: 1e-11))
        // Round trip.
        #expect(Kit.isClose(try mass.convert(molar.convert(6.1, to: mass), to: molar), 6.1, relative: 1e-11))
    }

    func quantityConvertsAndDescribesItself() throws {
        let pounds = Quantity(160, try unit("lb"))
        try expectEqual(pounds.converted(to: unit("kg")), Quantity(72.5747792, try unit("kg")))
        try expectEqual(pounds.value(in: unit("oz")), 2560)  // 160 × 16
        expectEqual(pounds.description, "160 lb")
        #expect(Quantity(0.5, try unit("L")).description == "0.5 L")
    }

    // MARK: Incompatible units

    @Test(arguments: [
        ("mL", "kg"), ("kg", "mL"), ("count", "%"), ("degC", "kg"), ("kcal", "kg"), ("dBHL", "Pa"), ("m", "s"),
        ("IU", "count"), ("count/min", "count"), ("mg/dL", "mg"), ("lb", "ft"), ("dBHL", "dBASPL"), ("degF", "J"),
        ("dBASPL", "count"), ("dBASPL", "kg"), ("J", "dBASPL"),
    ])
    func incompatibleConversionThrowsNamingBoth(from: String, to: String) throws {
        let source = try unit(from), target = try unit(to)
        #expect(!source.isCompatible(with: target))
        #expect(throws: UnitError.incompatible(source.unitString, target.unitString)) {
            try source.convert(1, to: target)
        }
        #expect(throws: UnitError.incompatible(source.unitString, target.unitString)) {
            try Quantity(1, source).converted(to: target)
        }
    }

    /// A sound pressure level converts to a pressure and back, logarithmically (fact sheet §3.4: Pa = 2e-5 ×
    /// 10^(dB/20)): 94 dB is about 1 Pa, 20 µPa is 0 dB, and each step of 20 dB is a factor of ten.
    func soundLevelsConvertToPressuresLogarithmically() throws {
        let decibels = try unit("dBASPL"), pascals = try unit("Pa")
        #expect(decibels.isCompatible(with: pascals) && pascals.isCompatible(with: decibels))
        #expect(decibels.isCompatible(with: try unit("mmHg")))
        #expect(IndependentTestKit.isClose(try decibels.convert(94, to: pascals), 2e-5 * pow(10, 94.0 / 20), relative: 1e-11))
        expectEqual(try decibels.convert(0, to: pascals), 0.00002)
        expectEqual(try pascals.convert(0.00002, to: decibels), 0)
        expectEqual(try pascals.convert(0.0002, to: decibels), 20)
        expectEqual(try pascals.convert(20, to: decibels), 120)
        expectEqual(try decibels.convert(120, to: try unit("kPa")), 0.02)
        #expect(IndependentTestKit.isClose(try decibels.convert(60, to: try unit("mmHg")), 0.02 / 133.322387415, relative: 1e-11))
        for level in stride(from: -20.0, through: 140, by: 7.5) {
            let there = try decibels.convert(level, to: pascals)
            #expect(IndependentTestKit.isClose(try pascals.convert(there, to: decibels), level, relative: 1e-10, absolute: 1e-9), "\(level)")
        }
        expectEqual(try Quantity(94, decibels).value(in: try unit("mPa")), try decibels.convert(94, to: try unit("mPa")))
    }

    func incompatibleErrorMessageNamesBothUnits() {
        let message = UnitError.incompatible("mL", "kg").description
        #expect(message.contains("'mL'"))
        #expect(message.contains("'kg'"))
    }

    @Test(arguments: [("lb", "kg"), ("fl_oz_us", "L"), ("Cal", "kJ"), ("degF", "K"), ("count/min", "Hz")])
    func compatibleUnitsShareADimension(lhs: String, rhs: String) throws {
        #expect(try unit(lhs).isCompatible(with: unit(rhs)))
        try expectEqual(unit(lhs).dimension, unit(rhs).dimension)
    }
}

/// The identifier without its prefix, as `type(named:)` accepts it.
struct ShortIdentifierTests {
    @Test func everyTypeDropsItsPrefixAndLowersOneLetter() throws {
        expectEqual(SampleType.water.shortIdentifier, "dietaryWater")
        for type in SampleTypeCatalogue.standard.types {
            let rest = type.identifier.replacingOccurrences(of: "HKQuantityTypeIdentifier", with: "")
                .replacingOccurrences(of: "HKCategoryTypeIdentifier", with: "")
            expectEqual(type.shortIdentifier, rest.prefix(1).lowercased() + rest.dropFirst(), "\(type.identifier)")
            try expectEqual(SampleTypeCatalogue.standard.type(named: type.shortIdentifier), type)
        }
    }
}

/// The checks ``UnitConversionTests/checks(_:)`` runs.
private let unitConversionTestsChecks: [Check<UnitConversionTests>] = [
    Check("singleSymbolsReadAsTheGrammarReadsThem", UnitConversionTests.singleSymbolsReadAsTheGrammarReadsThem),
    Check("baseUnitSymbolsAreUnique", UnitConversionTests.baseUnitSymbolsAreUnique),
    Check("literIsTheOnlyCaseInsensitiveSymbol", UnitConversionTests.literIsTheOnlyCaseInsensitiveSymbol),
    Check("molarUnitTakesPrefixesAndKeepsItsMolarMass", UnitConversionTests.molarUnitTakesPrefixesAndKeepsItsMolarMass),
    Check("scaleFactorTermIsAPowerOfTen", UnitConversionTests.scaleFactorTermIsAPowerOfTen),
    Check("conversionLeavesNoFloatingPointNoise", UnitConversionTests.conversionLeavesNoFloatingPointNoise),
    Check("convertsKilometresToMilesByTheExactMile", UnitConversionTests.convertsKilometresToMilesByTheExactMile),
    Check("convertsDegreesToRadians", UnitConversionTests.convertsDegreesToRadians),
    Check("freezingPointIsZeroCelsius", UnitConversionTests.freezingPointIsZeroCelsius),
    Check("convertsBloodGlucoseBetweenMolarAndMassUnits",
          UnitConversionTests.convertsBloodGlucoseBetweenMolarAndMassUnits),
    Check("quantityConvertsAndDescribesItself", UnitConversionTests.quantityConvertsAndDescribesItself),
    Check("incompatibleErrorMessageNamesBothUnits", UnitConversionTests.incompatibleErrorMessageNamesBothUnits),
    Check("theSameAmountInAnotherUnitIsTheSameAmount", UnitConversionTests.theSameAmountInAnotherUnitIsTheSameAmount),
    Check("soundLevelsConvertToPressuresLogarithmically", UnitConversionTests.soundLevelsConvertToPressuresLogarithmically),
]
