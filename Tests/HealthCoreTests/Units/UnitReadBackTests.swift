import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Every unit the library makes reads back as itself from its ``HealthUnit/unitString`` (the store writes that string
/// and parses it at every read), one unit has one spelling, and powers a dimension cannot hold are refused rather than
/// wrapped around into another dimension.
struct UnitReadBackTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: unitReadBackTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit

    /// `unit` parsed from its own string: the same unit, dimension and size.
    private static func expectReadsBack(_ unit: HealthUnit, _ how: String) {
        guard let back = HealthUnit.parse(unit.unitString) else {
            Issue.record("\(how) gives '\(unit.unitString)', which does not parse")
            return
        }
        expectEqual(back, unit, "\(how)")
        expectEqual(back.dimension, unit.dimension, "\(how): '\(unit.unitString)'")
        #expect(Kit.isClose(back.factor, unit.factor), "\(how): '\(unit.unitString)' \(back.factor) against \(unit.factor)")
    }

    func aNegativeScaleFactorReadsBack() throws {
        let thousandth = HealthUnit(from: "10^3").unitRaised(toPower: -1)
        expectEqual(thousandth.unitString, "count/10^3")
        Self.expectReadsBack(thousandth, "(10^3)^-1")
        #expect(Kit.isClose(try Quantity(5_000, thousandth).value(in: .count()), 5))
        Self.expectReadsBack(HealthUnit.meter().unitDivided(by: HealthUnit(from: "10^3")), "m/10^3")
        Self.expectReadsBack(HealthUnit(from: "(10^6)^-1"), "(10^6)^-1")
    }

    func likeTermsAreOnePower() throws {
        expectEqual(HealthUnit.meter().unitMultiplied(by: .meter()), HealthUnit(from: "m^2"))
        expectEqual(HealthUnit.meter().unitMultiplied(by: .meter()).unitString, "m^2")
        expectEqual(HealthUnit(from: "kg*m/kg"), HealthUnit.meter())
        expectEqual(HealthUnit(from: "m/m"), HealthUnit.count())
        expectEqual(HealthUnit.meter().unitDivided(by: .meter()), HealthUnit.count())
        expectEqual(HealthUnit(from: "mL*mL/mL").unitString, "mL")
        // Different symbols of one dimension stay apart: mL/L is a fraction of a thousandth, not a count.
        let ratio = HealthUnit(from: "mL/L")
        expectEqual(ratio.unitString, "mL/L")
        #expect(Kit.isClose(try Quantity(1, ratio).value(in: .count()), 0.001))
    }

    func powersADimensionCannotHoldAreRefused() throws {
        for text in ["m^128", "m^-128", "m^256", "m^257", "(m^99)^99", "(m^2)^64", "m^100*m^28", "(kg*m^2)^100"] {
            #expect(throws: UnitError.self, "\(text)") { try HealthUnit(parsing: text) }
        }
        // Nested powers that would overflow a machine integer are refused, not a crash.
        let nested = String(repeating: "(", count: 20) + "m" + String(repeating: ")^9999", count: 20)
        #expect(throws: UnitError.self) { try HealthUnit(parsing: nested) }
        // The largest power reads back, and keeps its dimension.
        let largest = try HealthUnit(parsing: "m^127")
        Self.expectReadsBack(largest, "m^127")
        #expect(!largest.isCompatible(with: .count()))
        #expect(!largest.isCompatible(with: .meter()))
        Self.expectReadsBack(try HealthUnit(parsing: "m^-127"), "m^-127")
        // Powers that cancel within the limit are fine.
        expectEqual(try HealthUnit(parsing: "m^200/m^199"), HealthUnit.meter())
    }

    /// Random units built by the HealthKit arithmetic from the units people use: each reads back as itself.
    func randomCompoundUnitsReadBack() throws {
        let pool: [HealthUnit] = ["m", "cm", "kg", "g", "mg", "s", "min", "hr", "d", "mL", "L", "dL", "count", "kcal", "J",
                                      "lb", "oz", "mi", "ft", "in", "fl_oz_us", "mmHg", "Pa", "%", "IU", "Hz", "W", "V", "10^3",
                                      "10^6", "mmol<180.1558800000541>", "mcg", "rad", "deg", "lx", "S"].map { HealthUnit(from: $0) }
        var generator = Kit.SeededGenerator(seed: 38)
        var checked = 0
        for round in 0..<3_000 {
            var unit = pool.randomElement(using: &generator)!
            var how = unit.unitString
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let other = pool.randomElement(using: &generator)!
                switch Int.random(in: 0..<4, using: &generator) {
                case 0: unit = unit.unitMultiplied(by: other); how += " × \(other.unitString)"
                case 1: unit = unit.unitDivided(by: other); how += " ÷ \(other.unitString)"
                case 2:
                    let power = [-3, -2, -1, 2, 3].randomElement(using: &generator)!
                    unit = unit.unitRaised(toPower: power); how += " ^ \(power)"
                default: unit = unit.reciprocal(); how += " reciprocal"
                }
            }
            Self.expectReadsBack(unit, "round \(round): \(how)")
            checked += 1
        }
        expectEqual(checked, 3_000)
    }

    /// Units whose size is near what a number holds: a spelling parses exactly when its canonical string does, to the
    /// same size (a review found `(mol<1e200>/mol<1e300>)*mol<1e150>/(dL*10^50)` parsed, while its string, which puts
    /// the large terms side by side, overflowed: an import stored it, and the month no longer read).
    func unitsOfExtremeSizesReadBackOrAreRefused() throws {
        let reviewed = "(mol<1e200>/mol<1e300>)*mol<1e150>/(dL*10^50)"
        if let unit = HealthUnit.parse(reviewed) { Self.expectReadsBack(unit, reviewed) }
        let terms = ["mol<1e200>", "mol<1e300>", "mol<1e-300>", "mol<1e150>", "Tm", "Gm", "pm", "fg", "mi", "dL", "10^50", "10^100",
                     "g", "s", "min", "mmol<180.1558800000541>", "kcal", "count"]
        var generator = IndependentTestKit.SeededGenerator(seed: 3_800)
        var parsed = 0
        for _ in 0..<20_000 {
            let count = Int.random(in: 2...5, using: &generator)
            var text = ""
            for index in 0..<count {
                var term = terms.randomElement(using: &generator)!
                if Bool.random(using: &generator) { term = "(\(term))^\(Int.random(in: 1...3, using: &generator))" }
                text += index == 0 ? term : (Int.random(in: 0..<3, using: &generator) == 0 ? "/" : "*") + term
                if text.filter({ $0 == "/" }).count > 1 { text = "(" + text.replacingOccurrences(of: "/", with: "*") + ")" }
            }
            guard let unit = HealthUnit.parse(text) else { continue }
            parsed += 1
            guard let back = HealthUnit.parse(unit.unitString) else {
                Issue.record("'\(text)' parses as '\(unit.unitString)', which does not")
                continue
            }
            expectEqual(back, unit, "\(text)")
            expectEqual(back.factor, unit.factor, "\(text): the same size to the last bit")
            expectEqual(back.dimension, unit.dimension, "\(text)")
        }
        #expect(parsed > 5_000, "\(parsed) of 20,000 parsed")
    }

    /// The scenario a review found: steps in a unit that did not read back were saved, and every later read of the
    /// month failed. Now the unit reads back, and the samples read as they were saved.
    func stepsInANegativeScaleUnitAreSavedAndReadBack() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store", clock: { Kit.referenceNow })
            let thousandth = HealthUnit(from: "10^3").unitRaised(toPower: -1)
            let at = Kit.utc(2024, 5, 30, 8)
            try await store.save(QuantitySample(type: QuantityType(.stepCount), quantity: Quantity(5_000, thousandth), start: at, end: at))
            try await store.save(QuantitySample(type: QuantityType(.stepCount), quantity: Quantity(700, .count()), start: at, end: at))
            let read = try await SampleQueryDescriptor(predicates: [.quantitySample(type: QuantityType(.stepCount))]).result(for: store)
            expectEqual(read.count, 2)
            let total = try read.map { try $0.quantity.value(in: .count()) }.reduce(0, +)
            #expect(Kit.isClose(total, 705), "\(total)")
        }
    }

    /// Defence in depth: a unit whose string would not read back (none the library makes) is refused by `save`, with
    /// the store byte-for-byte unchanged.
    func aUnitThatWouldNotReadBackIsRefused() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", clock: { Kit.referenceNow })
            try store.save([Kit.steps(10, Kit.utc(2024, 5, 30, 7))])
            let before = TestSupport.walkFiles(folder)
            let broken = HealthUnit(unitString: "10^-3", dimension: .none, factor: 0.001)
            var sample = Kit.steps(10, Kit.utc(2024, 5, 30, 8))
            sample.value = .quantity(Quantity(5_000, broken))
            #expect(throws: UnitError.malformed("10^-3", reason: "it does not read back as the same unit")) { try store.save([sample]) }
            expectEqual(TestSupport.walkFiles(folder), before)
            expectEqual(try store.samples(ofType: SampleType.steps.identifier, overlapping: DateInterval(start: Kit.utc(2024, 5, 1), end: Kit.utc(2024, 6, 1))).count, 1)
        }
    }
}

/// The checks ``UnitReadBackTests/checks(_:)`` runs.
private let unitReadBackTestsChecks: [Check<UnitReadBackTests>] = [
    Check("aNegativeScaleFactorReadsBack", UnitReadBackTests.aNegativeScaleFactorReadsBack),
    Check("likeTermsAreOnePower", UnitReadBackTests.likeTermsAreOnePower),
    Check("powersADimensionCannotHoldAreRefused", UnitReadBackTests.powersADimensionCannotHoldAreRefused),
    Check("randomCompoundUnitsReadBack", UnitReadBackTests.randomCompoundUnitsReadBack),
    Check("unitsOfExtremeSizesReadBackOrAreRefused", UnitReadBackTests.unitsOfExtremeSizesReadBackOrAreRefused),
    Check("stepsInANegativeScaleUnitAreSavedAndReadBack", UnitReadBackTests.stepsInANegativeScaleUnitAreSavedAndReadBack),
    Check("aUnitThatWouldNotReadBackIsRefused", UnitReadBackTests.aUnitThatWouldNotReadBackIsRefused),
]
