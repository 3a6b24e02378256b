import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

/// The fixed-point formatter rounds exactly as C's printf does, which `human` used to call.
struct NumberFormattingTests {
    @Test func fixedMatchesPrintfOnTiesAndRandomValues() throws {
        var values: [Double] = [0, -0.0, 0.5, 1.5, 2.5, -2.5, 0.125, 0.375, 1.005, 2.675, 0.0005, 0.0015, 999.9995,
                                123456789.125, 1e-300, -1e-9, .leastNonzeroMagnitude, 4503599627370495.5 / 8, 1e15 - 1, 72.4, 8002, 1e14 + 0.5]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let magnitude = pow(10, Double.random(in: -6...15, using: &generator))
            values.append(Double.random(in: -magnitude...magnitude, using: &generator))
            // Halves and quarters of thousandths: the ties printf breaks to even.
            values.append(Double(Int.random(in: -4_000_000...4_000_000, using: &generator)) / 8000)
        }
        for value in values where abs(value) < 1e15 {
            for digits in 0...3 {
                let expected = String(format: "%.\(digits)f", value)
                expectEqual(NumberFormatting.fixed(value, fractionDigits: digits), expected, "\(value) with \(digits) digits")
            }
        }
        expectNil(NumberFormatting.fixed(1e15, fractionDigits: 2))
        expectNil(NumberFormatting.fixed(1, fractionDigits: 4))
    }

    @Test(arguments: [(8002.0, 2, "8,002"), (18002.5, 0, "18,002"), (1234.5, 2, "1,234.5"), (999.0, 0, "999"), (-12345.678, 2, "-12,345.68"), (0.004, 2, "0"),
                      (-0.004, 2, "0"), (1_000_000, 0, "1,000,000"), (99999.995, 2, "99,999.99"), (99999.996, 2, "100,000"), (72.4, 1, "72.4"),
                      (.infinity, 2, "inf")])
    func humanGroupsThousandsAndDropsTrailingZeros(value: Double, digits: Int, expected: String) {
        expectEqual(NumberFormatting.human(value, fractionDigits: digits), expected)
    }

    @Test(arguments: [(71.0, 1, "71.0"), (2500.0, 0, "2,500"), (12500.5, 2, "12,500.50"), (-0.0, 1, "0.0"), (-0.04, 1, "0.0"),
                      (-1234.5, 1, "-1,234.5"), (0.25, 2, "0.25")])
    func groupedKeepsItsDecimals(value: Double, digits: Int, expected: String) {
        expectEqual(NumberFormatting.grouped(value, fractionDigits: digits), expected)
    }
}
