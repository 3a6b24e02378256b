@testable import HKCtlCommands
import Testing
import TestKit

/// ``DerivedFigure``: derived figures lose arithmetic noise, never a digit a person could mean.
struct DerivedFigureTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: derivedFigureTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    func roundsToTwoMoreDecimalsThanTablesShow() {
        expectEqual(DerivedFigure.text(72.1 - 72.3, unitString: "kg"), "-0.2")
        expectEqual(DerivedFigure.text((72.3 + 72.1) / 2, unitString: "kg"), "72.2")
        expectEqual(DerivedFigure.text(72.123456, unitString: "kg"), "72.123")
        expectEqual(DerivedFigure.text(8002.499999999999, unitString: "count"), "8002.5")
        expectEqual(DerivedFigure.text(3 * 29.5735295625, unitString: "mL"), "88.72")
        expectEqual(DerivedFigure.text(0.21499999999999997, unitString: "%"), "0.215")
        expectEqual(DerivedFigure.text(1.23456789, unitString: "km"), "1.2346")
        expectEqual(DerivedFigure.seconds(25_800.000000001), "25800")
        expectEqual(DerivedFigure.ratio(0.85826771653), "0.8583")
    }

    func leavesHugeAndNonFiniteValuesAndDropsNegativeZero() {
        expectEqual(DerivedFigure.rounded(1e17, decimals: 3), 1e17)
        expectEqual(DerivedFigure.rounded(-0.0001, decimals: 2), 0)
        expectEqual(DerivedFigure.text(-0.0001, unitString: "kg"), "0")
        expectEqual(DerivedFigure.rounded(.infinity, decimals: 2), .infinity)
    }
}

/// The checks ``DerivedFigureTests/checks(_:)`` runs.
private let derivedFigureTestsChecks: [Check<DerivedFigureTests>] = [
    Check("roundsToTwoMoreDecimalsThanTablesShow", DerivedFigureTests.roundsToTwoMoreDecimalsThanTablesShow),
    Check("leavesHugeAndNonFiniteValuesAndDropsNegativeZero",
          DerivedFigureTests.leavesHugeAndNonFiniteValuesAndDropsNegativeZero),
]
