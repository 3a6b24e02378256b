import Testing
import TestKit
@testable import HealthCore

/// HealthKit's unit constructors and quantity spellings give the units their unit strings name, with HealthKit's
/// conversion factors.
struct HealthKitUnitNamesTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: healthKitUnitNamesTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    @Test(arguments: [
        (HealthUnit.liter(), "L"), (.literUnit(with: .milli), "mL"), (.gramUnit(with: .kilo), "kg"), (.gram(), "g"),
        (.pound(), "lb"), (.stone(), "st"), (.ounce(), "oz"), (.count(), "count"), (.minute(), "min"), (.second(), "s"),
        (.hour(), "hr"), (.day(), "d"), (.secondUnit(with: .milli), "ms"), (.kilocalorie(), "kcal"), (.joule(), "J"),
        (.jouleUnit(with: .kilo), "kJ"), (.meter(), "m"), (.meterUnit(with: .centi), "cm"), (.mile(), "mi"), (.foot(), "ft"),
        (.inch(), "in"), (.percent(), "%"), (.fluidOunceUS(), "fl_oz_us"), (.cupUS(), "cup_us"), (.degreeCelsius(), "degC"),
        (.degreeFahrenheit(), "degF"), (.millimeterOfMercury(), "mmHg"), (.gramUnit(with: .micro), "mcg"),
        (.decibelAWeightedSoundPressureLevel(), "dBASPL"), (.internationalUnit(), "IU"), (.hertz(), "Hz"),
    ])
    func constructorsNameTheirUnit(unit: HealthUnit, text: String) throws {
        expectEqual(unit, (HealthUnit(from: text)))
        expectEqual(unit.unitString, text)
    }

    func arithmeticComposesUnitsAsTheirStringsDo() throws {
        expectEqual(HealthUnit.count().unitDivided(by: .minute()), (HealthUnit(from: "count/min")))
        expectEqual(HealthUnit.gramUnit(with: .milli).unitDivided(by: .literUnit(with: .deci)), (HealthUnit(from: "mg/dL")))
        expectEqual(HealthUnit.meter().unitRaised(toPower: 2), (HealthUnit(from: "m^2")))
        expectEqual(HealthUnit.literUnit(with: .milli).unitDivided(by: HealthUnit.gramUnit(with: .kilo).unitMultiplied(by: .minute())), (HealthUnit(from: "mL/(kg*min)")))
        #expect(HealthUnit.second().reciprocal().isCompatible(with: .hertz()))
    }

    func everyPrefixBuildsAUnitOfItsFactor() throws {
        for prefix in MetricPrefix.allCases {
            let unit = HealthUnit.gramUnit(with: prefix)
            #expect(unit.isCompatible(with: .gram()))
            expectEqual(MetricPrefix(rawValue: prefix.rawValue), prefix)
        }
        try expectEqual(Quantity(unit: .gramUnit(with: .kilo), doubleValue: 1).value(in: .gramUnit(with: .milli)), 1_000_000)
    }

    func quantitiesConvertWithHealthKitsFactors() {
        let pounds = Quantity(unit: .pound(), doubleValue: 1)
        expectEqual(pounds.doubleValue(for: .gramUnit(with: .kilo)), 0.45359237)
        expectEqual(Quantity(unit: .fluidOunceUS(), doubleValue: 1).doubleValue(for: .literUnit(with: .milli)), 29.5735295625)
        #expect(pounds.is(compatibleWith: .stone()))
        #expect(!pounds.is(compatibleWith: .liter()))
        expectEqual(Quantity(unit: .count().unitDivided(by: .second()), doubleValue: 1).doubleValue(for: .count().unitDivided(by: .minute())), 60)
    }

    func anUnknownUnitStringThrowsWhenParsed() {
        #expect(throws: UnitError.unknownUnit("furlong")) { try HealthUnit(parsing: "furlong") }
    }
}

/// The checks ``HealthKitUnitNamesTests/checks(_:)`` runs.
private let healthKitUnitNamesTestsChecks: [Check<HealthKitUnitNamesTests>] = [
    Check("arithmeticComposesUnitsAsTheirStringsDo", HealthKitUnitNamesTests.arithmeticComposesUnitsAsTheirStringsDo),
    Check("everyPrefixBuildsAUnitOfItsFactor", HealthKitUnitNamesTests.everyPrefixBuildsAUnitOfItsFactor),
    Check("quantitiesConvertWithHealthKitsFactors", HealthKitUnitNamesTests.quantitiesConvertWithHealthKitsFactors),
    Check("anUnknownUnitStringThrowsWhenParsed", HealthKitUnitNamesTests.anUnknownUnitStringThrowsWhenParsed),
]
