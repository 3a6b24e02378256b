import Foundation
import Testing
import TestKit
import HealthCore
@testable import HKCtlSupport

/// ``ReadingChangeRules``: which jumps between body measurements are too large to believe.
struct ReadingChangeRulesTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: readingChangeRulesTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit
    private let rules = ReadingChangeRules()
    private let weight = SampleType.weight
    private let height = try! SampleTypeCatalogue.standard.type(named: "height")

    private func reading(_ type: SampleType, _ value: Double, _ unit: String, day: Int) -> Sample {
        Kit.quantity(type, value, unit, Kit.utc(2024, 5, day, 7))
    }

    func aTypoTheNextDayIsAJumpAndAnOrdinaryChangeIsNot() throws {
        let jump = try #require(rules.jump(to: reading(weight, 27.2, "kg", day: 2), from: reading(weight, 72.3, "kg", day: 1), type: weight))
        #expect(jump.value == 27.2 && jump.previousValue == 72.3)
        #expect(abs(jump.allowed - 72.3 * 0.06) < 1e-9)
        expectNil(rules.jump(to: reading(weight, 71.0, "kg", day: 2), from: reading(weight, 72.3, "kg", day: 1), type: weight))
        // Units are compared in the canonical unit: 160 lb is 72.57 kg, no jump from 72.3 kg.
        expectNil(rules.jump(to: reading(weight, 160, "lb", day: 2), from: reading(weight, 72.3, "kg", day: 1), type: weight))
        #expect(rules.jump(to: reading(weight, 72.3, "lb", day: 2), from: reading(weight, 72.3, "kg", day: 1), type: weight) != nil)
    }

    func theAllowanceGrowsWithTimeUpToItsCap() {
        // 20 % down is a jump a day later, not over a month; 60 % is a jump however long it took.
        #expect(rules.jump(to: reading(weight, 80, "kg", day: 2), from: reading(weight, 100, "kg", day: 1), type: weight) != nil)
        expectNil(rules.jump(to: reading(weight, 80, "kg", day: 31), from: reading(weight, 100, "kg", day: 1), type: weight))
        let years = Kit.quantity(weight, 40, "kg", Kit.utc(2030, 1, 1))
        #expect(rules.jump(to: years, from: reading(weight, 100, "kg", day: 1), type: weight) != nil)
        // Absolute allowances: 3 cm of height at once.
        expectNil(rules.jump(to: reading(height, 1.80, "m", day: 2), from: reading(height, 1.78, "m", day: 1), type: height))
        #expect(rules.jump(to: reading(height, 1.38, "m", day: 2), from: reading(height, 1.78, "m", day: 1), type: height) != nil)
    }

    func typesWithoutAnAllowanceAreNeverChecked() {
        let steps = Kit.steps(20_000, Kit.utc(2024, 5, 2)), few = Kit.steps(10, Kit.utc(2024, 5, 1))
        expectNil(rules.jump(to: steps, from: few, type: .steps))
    }
}

/// The checks ``ReadingChangeRulesTests/checks(_:)`` runs.
private let readingChangeRulesTestsChecks: [Check<ReadingChangeRulesTests>] = [
    Check("aTypoTheNextDayIsAJumpAndAnOrdinaryChangeIsNot",
          ReadingChangeRulesTests.aTypoTheNextDayIsAJumpAndAnOrdinaryChangeIsNot),
    Check("theAllowanceGrowsWithTimeUpToItsCap", ReadingChangeRulesTests.theAllowanceGrowsWithTimeUpToItsCap),
    Check("typesWithoutAnAllowanceAreNeverChecked", ReadingChangeRulesTests.typesWithoutAnAllowanceAreNeverChecked),
]
