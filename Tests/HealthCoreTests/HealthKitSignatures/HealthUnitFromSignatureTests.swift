import Testing
import TestKit
import HealthCore

/// `HealthUnit(from:)` is HealthKit's `HKUnit(from:)`: it does not throw, and it stops the program for a string that is
/// not a unit, as HealthKit's raises; text from people goes through the throwing `HealthUnit(parsing:)`.
struct HealthUnitFromSignatureTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: healthUnitFromSignatureTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    func aUnitStringInCodeNeedsNoTry() {
        // HealthKit's line, ported by the prefix alone: `let unit = HKUnit(from: "mg/dL")`.
        let unit = HealthUnit(from: "mg/dL")
        expectEqual(unit, HealthUnit.gramUnit(with: .milli).unitDivided(by: .literUnit(with: .deci)))
        expectEqual(HealthUnit(from: "count/min").unitString, "count/min")
    }

    func aMalformedUnitStringInCodeStopsTheProgram() async throws {
        #if os(Linux)
        let outcome = try TrapProbe.run("malformed unit", filter: "HealthUnitFromSignatureTests/malformedUnitProbe")
        #expect(outcome.trapped, "\(outcome)")
        #else
        await #expect(processExitsWith: .failure) {
            _ = HealthUnit(from: "furlong/fortnight")
        }
        #endif
    }

    /// Run only in the child process of ``aMalformedUnitStringInCodeStopsTheProgram()`` (TestKit's `TrapProbe`).
    @Test(.enabled(if: TrapProbe.requested == "malformed unit", "runs only in a trap probe's own process"))
    func malformedUnitProbe() {
        TrapProbe.reached()
        _ = HealthUnit(from: "furlong/fortnight")
    }

    func textFromPeopleIsParsedWithAnErrorThatSaysWhatIsWrong() {
        #expect(throws: UnitError.unknownUnit("furlong")) { try HealthUnit(parsing: "furlong") }
        #expect(throws: UnitError.malformed("mL/", reason: "it ends where a unit was expected")) {
            try HealthUnit(parsing: "mL/")
        }
    }
}

/// The checks ``HealthUnitFromSignatureTests/checks(_:)`` runs.
private let healthUnitFromSignatureTestsChecks: [Check<HealthUnitFromSignatureTests>] = [
    Check("aUnitStringInCodeNeedsNoTry", HealthUnitFromSignatureTests.aUnitStringInCodeNeedsNoTry),
    Check("aMalformedUnitStringInCodeStopsTheProgram",
          HealthUnitFromSignatureTests.aMalformedUnitStringInCodeStopsTheProgram),
    Check("textFromPeopleIsParsedWithAnErrorThatSaysWhatIsWrong",
          HealthUnitFromSignatureTests.textFromPeopleIsParsedWithAnErrorThatSaysWhatIsWrong),
]
