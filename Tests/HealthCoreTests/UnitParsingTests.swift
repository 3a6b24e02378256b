import Testing
import TestKit
@testable import HealthCore

struct UnitParsingTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: unitParsingTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    @Test(arguments: [
        ("mL", "mL"), ("ml", "mL"), ("L", "L"), ("kg", "kg"), ("count/min", "count/min"),
        ("mg/dL", "mg/dL"), ("mL/(kg*min)", "mL/min·kg"), ("kcal/(kg*hr)", "kcal/hr·kg"), ("m/s^2", "m/s^2"),
        ("mmol<180.1558800000541>/L", "mmol<180.1558800000541>/L"), ("µg", "mcg"), ("fl_oz_us", "fl_oz_us"),
    ])
    func printsCanonicalSpelling(input: String, canonical: String) throws {
        try expectEqual(HealthUnit(parsing: input).unitString, canonical)
        try expectEqual(HealthUnit(parsing: canonical).unitString, canonical)
    }

    func convertsPoundsToKilogramsExactly() throws {
        let value = try HealthUnit(parsing: "lb").convert(160, to: HealthUnit(parsing: "kg"))
        expectEqual(value, 72.5747792)
    }

    func rejectsIncompatibleUnitsNamingBoth() throws {
        #expect(throws: UnitError.incompatible("mL", "kg")) {
            try HealthUnit(parsing: "mL").convert(1, to: HealthUnit(parsing: "kg"))
        }
    }
}

/// The checks ``UnitParsingTests/checks(_:)`` runs.
private let unitParsingTestsChecks: [Check<UnitParsingTests>] = [
    Check("convertsPoundsToKilogramsExactly", UnitParsingTests.convertsPoundsToKilogramsExactly),
    Check("rejectsIncompatibleUnitsNamingBoth", UnitParsingTests.rejectsIncompatibleUnitsNamingBoth),
]
