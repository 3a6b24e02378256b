import Foundation
import Testing
import TestKit
import HealthCore
@testable import HKCtlSupport

/// Amounts as people type them for `hkctl add`.
struct QuantityInputTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: quantityInputTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit

    private static let waterExamples = ["500mL", "0.5L", "16.9fl_oz_us"]
    private static let weightExamples = ["72.4kg", "160lb", "11st"]

    /// A percentage type of our own, to exercise the `%` rule (HealthKit stores fractions).
    private static let bodyFat = SampleType.quantity(
        "HKQuantityTypeIdentifierBodyFatPercentage", name: "bodyfat", title: "Body fat",
        aggregation: .discreteArithmetic, unit: "%", examples: ["21.5%"], validRange: 0...1)

    /// (text, type name, expected value, expected unit string).
    @Test(arguments: [
        ("0.5L", "water", 0.5, "L"),
        ("500mL", "water", 500.0, "mL"),
        ("500 mL", "water", 500.0, "mL"),
        ("500ml", "water", 500.0, "mL"),          // alias
        (" 500 mL ", "water", 500.0, "mL"),       // surrounding spaces trimmed
        (".5L", "water", 0.5, "L"),
        ("+5L", "water", 5.0, "L"),
        ("1e3mL", "water", 1000.0, "mL"),
        ("2 liters", "water", 2.0, "L"),
        ("16.9fl_oz_us", "water", 16.9, "fl_oz_us"),
        ("12floz", "water", 12.0, "fl_oz_us"),
        ("8oz", "water", 8.0, "fl_oz_us"),        // oz of a volume type is US fluid ounces
        ("1cup_us", "water", 1.0, "cup_us"),      // the precise spelling is not ambiguous
        ("72.4kg", "weight", 72.4, "kg"),
        ("160lb", "weight", 160.0, "lb"),
        ("160 lbs", "weight", 160.0, "lb"),
        ("11st", "weight", 11.0, "st"),
        ("5 kgs", "weight", 5.0, "kg"),
        ("8oz", "weight", 8.0, "oz"),             // oz of a mass type is the mass ounce
        ("8000", "steps", 8000.0, "count"),
        ("8000 steps", "steps", 8000.0, "count"),
        ("8000count", "steps", 8000.0, "count"),
    ])
    func parsesAmounts(text: String, typeName: String, value: Double, unit: String) throws {
        let type = try SampleTypeCatalogue.standard.type(named: typeName)
        let quantity = try QuantityInput.parse(text, for: type)
        expectEqual(quantity.value, value)
        expectEqual(quantity.unit.unitString, unit)
    }

    func typedUnitsConvertToTheCanonicalUnitExactly() throws {
        // 16.9 × 29.5735295625 mL = 499.79264960625 mL.
        let bottle = try QuantityInput.parse("16.9fl_oz_us", for: .water)
        #expect(Kit.isClose(try bottle.value(in: HealthUnit(parsing: "mL")), 499.79264960625, relative: 1e-11))
        // 160 × 0.45359237 kg = 72.5747792 kg.
        try expectEqual(QuantityInput.parse("160lb", for: .weight).value(in: HealthUnit(parsing: "kg")), 72.5747792)
        // 11 × 6.35029318 kg = 69.85322498 kg.
        let stones = try QuantityInput.parse("11st", for: .weight).value(in: HealthUnit(parsing: "kg"))
        #expect(Kit.isClose(stones, 69.85322498))
    }

    /// The aliases are a list searched in order (issue 32): each must be there once, in lower case, or the first
    /// would hide the others.
    func everyAliasIsListedOnceInLowerCase() {
        let names = QuantityInput.aliases.map(\.alias)
        expectEqual(Set(names).count, names.count)
        #expect(names.allSatisfy { $0 == $0.lowercased() })
        expectEqual(QuantityInput.units(forAlias: "cups"), ["cup_us", "cup_imp"])
        #expect(QuantityInput.units(forAlias: "parsec").isEmpty)
    }

    func percentIsStoredAsAFraction() throws {
        // 21.5 % → 0.215 in the unit '%'.
        let quantity = try QuantityInput.parse("21.5%", for: QuantityInputTests.bodyFat)
        expectEqual(quantity.value, 0.215)
        expectEqual(quantity.unit, .percent())
    }

    func bareNumberForWaterNeedsAUnit() {
        #expect(throws: UnitError.missingUnit("500", type: "water", examples: QuantityInputTests.waterExamples)) {
            try QuantityInput.parse("500", for: .water)
        }
        #expect(throws: UnitError.missingUnit("72.4", type: "weight", examples: QuantityInputTests.weightExamples)) {
            try QuantityInput.parse("72.4", for: .weight)
        }
    }

    func massUnitForWaterIsTheWrongUnit() {
        #expect(throws: UnitError.wrongUnitForType(unit: "kg", type: "water", expected: QuantityInputTests.waterExamples)) {
            try QuantityInput.parse("5kg", for: .water)
        }
        #expect(throws: UnitError.wrongUnitForType(unit: "mL", type: "weight", expected: QuantityInputTests.weightExamples)) {
            try QuantityInput.parse("500mL", for: .weight)
        }
        #expect(throws: UnitError.wrongUnitForType(unit: "L", type: "steps", expected: ["8000"])) {
            try QuantityInput.parse("5L", for: .steps)
        }
        // An alias that fits no dimension of the type is reported against the type too.
        #expect(throws: UnitError.wrongUnitForType(unit: "lbs", type: "water", expected: QuantityInputTests.waterExamples)) {
            try QuantityInput.unit("lbs", for: .water)
        }
    }

    func cupForWaterIsAmbiguousListingBothCups() {
        let choices = ["cup_us", "cup_imp"]
        #expect(throws: UnitError.ambiguous("cup", type: "water", choices: choices)) {
            try QuantityInput.parse("1cup", for: .water)
        }
        #expect(throws: UnitError.ambiguous("cup", type: "water", choices: choices)) {
            try QuantityInput.unit("cup", for: .water)
        }
        #expect(throws: UnitError.ambiguous("cups", type: "water", choices: choices)) {
            try QuantityInput.parse("2 cups", for: .water)
        }
        #expect(throws: UnitError.ambiguous("pint", type: "water", choices: ["pt_us", "pt_imp"])) {
            try QuantityInput.parse("1 pint", for: .water)
        }
        let message = UnitError.ambiguous("cup", type: "water", choices: choices).description
        #expect(message.contains("'cup_us'") && message.contains("'cup_imp'"))
    }

    func ozDependsOnTheTypesDimension() throws {
        try expectEqual(QuantityInput.unit("oz", for: .weight).unitString, "oz")
        try expectEqual(QuantityInput.unit("oz", for: .water).unitString, "fl_oz_us")
        try expectEqual(QuantityInput.unit("OZ", for: .water).unitString, "fl_oz_us")  // aliases ignore case
    }

    @Test(arguments: ["abc", "", "L", "kg5", ",5L", "--5L", "five litres"])
    func textThatIsNoNumberThrowsNotANumber(text: String) {
        #expect(throws: UnitError.notANumber(text)) { try QuantityInput.parse(text, for: .water) }
    }

    func decimalCommaIsNotANumber() {
        // "1,5L" reads "1" then finds ",5L": a European decimal comma, refused rather than read as 1 L.
        #expect(throws: UnitError.notANumber("1,5L")) { try QuantityInput.parse("1,5L", for: .water) }
    }

    @Test(arguments: ["nanL", "infL", "NaN L", "inf mL", "-infL"])
    func nonFiniteSpellingsAreRefused(text: String) {
        #expect(throws: (any Error).self) { try QuantityInput.parse(text, for: .water) }
    }

    func overflowingExponentIsNotFinite() {
        // 1e999 overflows a double to +infinity.
        #expect(throws: SampleError.notFinite(type: "water")) { try QuantityInput.parse("1e999mL", for: .water) }
    }

    func unknownUnitTextIsReportedAsUnknown() {
        #expect(throws: UnitError.unknownUnit("xyz")) { try QuantityInput.parse("5xyz", for: .water) }
        #expect(throws: UnitError.unknownUnit("xyz")) { try QuantityInput.unit("xyz", for: .water) }
    }

    func categoryTypesTakeNoAmount() {
        #expect(throws: SampleError.self) { try QuantityInput.parse("5", for: .sleep) }
        #expect(throws: UnitError.self) { try QuantityInput.unit("mL", for: .sleep) }
    }

    func negativeAmountsParseButFailValidation() throws {
        // The parser keeps the sign; Sample validation refuses it.
        let quantity = try QuantityInput.parse("-5mL", for: .water)
        expectEqual(quantity.value, -5)
        let sample = Sample(typeIdentifier: SampleType.water.identifier, start: TestSupport.referenceNow,
                            end: TestSupport.referenceNow, value: .quantity(quantity), source: "hkctl",
                            created: TestSupport.referenceNow)
        #expect(throws: SampleError.negative(-5, type: "water")) { try sample.validated(as: .water) }
    }

    func unitSpellingsForStatsFollowTheType() throws {
        try expectEqual(QuantityInput.unit("L", for: .water), HealthUnit(parsing: "L"))
        try expectEqual(QuantityInput.unit("fl_oz_us", for: .water), HealthUnit(parsing: "fl_oz_us"))
        try expectEqual(QuantityInput.unit("lb", for: .weight), HealthUnit(parsing: "lb"))
        try expectEqual(QuantityInput.unit("pounds", for: .weight), HealthUnit(parsing: "lb"))
        try expectEqual(QuantityInput.unit("stone", for: .weight), HealthUnit(parsing: "st"))
    }
}

/// The checks ``QuantityInputTests/checks(_:)`` runs.
private let quantityInputTestsChecks: [Check<QuantityInputTests>] = [
    Check("typedUnitsConvertToTheCanonicalUnitExactly", QuantityInputTests.typedUnitsConvertToTheCanonicalUnitExactly),
    Check("everyAliasIsListedOnceInLowerCase", QuantityInputTests.everyAliasIsListedOnceInLowerCase),
    Check("percentIsStoredAsAFraction", QuantityInputTests.percentIsStoredAsAFraction),
    Check("bareNumberForWaterNeedsAUnit", QuantityInputTests.bareNumberForWaterNeedsAUnit),
    Check("massUnitForWaterIsTheWrongUnit", QuantityInputTests.massUnitForWaterIsTheWrongUnit),
    Check("cupForWaterIsAmbiguousListingBothCups", QuantityInputTests.cupForWaterIsAmbiguousListingBothCups),
    Check("ozDependsOnTheTypesDimension", QuantityInputTests.ozDependsOnTheTypesDimension),
    Check("decimalCommaIsNotANumber", QuantityInputTests.decimalCommaIsNotANumber),
    Check("overflowingExponentIsNotFinite", QuantityInputTests.overflowingExponentIsNotFinite),
    Check("unknownUnitTextIsReportedAsUnknown", QuantityInputTests.unknownUnitTextIsReportedAsUnknown),
    Check("categoryTypesTakeNoAmount", QuantityInputTests.categoryTypesTakeNoAmount),
    Check("negativeAmountsParseButFailValidation", QuantityInputTests.negativeAmountsParseButFailValidation),
    Check("unitSpellingsForStatsFollowTheType", QuantityInputTests.unitSpellingsForStatsFollowTheType),
]
