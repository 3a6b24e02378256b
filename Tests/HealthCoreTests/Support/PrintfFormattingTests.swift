import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

/// The number helpers that replace `String(format:)` give exactly its text, rounding included.
struct PrintfFormattingTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: printfFormattingTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// Ties in decimal that are and are not ties in binary, negatives, zeros, large and tiny magnitudes.
    static let doubles: [Double] = [
        0, -0.0, 0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.05, 0.15, 0.25, 0.35, 0.45, 1.005, 2.675, 0.125, 0.375, -0.125,
        1.25, 1.35, 99.95, 99.5, 100.5, 0.045, 9.995, -9.995, 12.345, 0.001, 0.0005, -0.0004, 1e-7, .leastNonzeroMagnitude,
        123_456.789, 999_999.95, 1e14 + 0.5, 1e15, 1e15 + 1, 4.5e15, 1e16, 12_345_678_901_234_568, 1e20, 1e300,
        -1e300, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNormalMagnitude, .pi, -.pi, 2 / 3.0,
        .infinity, -.infinity, .nan,
    ]

    @Test(arguments: doubles)
    func fixedDecimalsAsPrintf(value: Double) {
        for digits in 0...6 {
            expectEqual(NumberFormatting.decimal(value, fractionDigits: digits), String(format: "%.\(digits)f", value),
                        "\(value) with \(digits) digits")
        }
        expectEqual(NumberFormatting.decimal(value, fractionDigits: 0, width: 3), String(format: "%3.0f", value))
        expectEqual(NumberFormatting.decimal(value, fractionDigits: 1, width: 8), String(format: "%8.1f", value))
    }

    func fixedDecimalsAsPrintfOverManyValues() {
        var generator = IndependentTestKit.SeededGenerator(seed: 42)
        for _ in 0..<20_000 {
            // Values with few decimals (where ties happen) and arbitrary doubles over many magnitudes.
            let tenths = Double(Int64.random(in: -1_000_000...1_000_000, using: &generator)) / 1000
            let wide = Double.random(in: -1...1, using: &generator) * pow(10, Double(Int.random(in: -8...20, using: &generator)))
            for value in [tenths, wide, tenths * 100 / 7] {
                let digits = Int.random(in: 0...4, using: &generator)
                expectEqual(NumberFormatting.decimal(value, fractionDigits: digits), String(format: "%.\(digits)f", value))
            }
        }
    }

    @Test(arguments: doubles)
    func significantDigitsAsPrintf(value: Double) {
        expectEqual(NumberFormatting.significant(value, digits: 16), String(format: "%.16g", value))
        expectEqual(NumberFormatting.significant(value, digits: 3), String(format: "%.3g", value))
    }

    func zeroPaddedIntegersAsPrintf() {
        for value in [0, 1, 5, 9, 10, 59, 99, 100, 12_345, -1, -5, -10, -123, Int(Int32.max), Int(Int32.min) + 1] {
            expectEqual(NumberFormatting.zeroPadded(value, width: 2), String(format: "%02d", value), "\(value)")
            expectEqual(NumberFormatting.zeroPadded(value, width: 4), String(format: "%04d", value), "\(value)")
        }
        for byte in UInt8.min...UInt8.max {
            expectEqual(NumberFormatting.zeroPadded(byte, width: 2, radix: 16, uppercase: true), String(format: "%02X", byte))
        }
        for value: UInt32 in [0, 0x7F, 0xE9, 0x2010, 0xFFFD, 0x1F600, 0x10FFFF] {
            expectEqual(NumberFormatting.zeroPadded(value, width: 4, radix: 16, uppercase: true), String(format: "%04X", value))
        }
        for value: UInt64 in [0, 1, 0xa, 0xff, 0x103, 0xfff, 0xffff_ffff, 0xdead_beef_0000] {
            expectEqual(NumberFormatting.zeroPadded(value, width: 2, radix: 16), String(format: "%02llx", value))
        }
    }
}

/// The checks ``PrintfFormattingTests/checks(_:)`` runs.
private let printfFormattingTestsChecks: [Check<PrintfFormattingTests>] = [
    Check("fixedDecimalsAsPrintfOverManyValues", PrintfFormattingTests.fixedDecimalsAsPrintfOverManyValues),
    Check("zeroPaddedIntegersAsPrintf", PrintfFormattingTests.zeroPaddedIntegersAsPrintf),
]
