import Foundation
import Testing
import TestKit
@testable import HealthCore

extension ImportTests {
    /// Session 19's review of ``DecimalParser``'s exact quotient (numbers of 16 to 19 digits without an exponent):
    /// against `Double(String)`, bit for bit, on random digits, on every binade's edges the quotient handles, and on
    /// exact ties between two doubles (which round to the even one).
    struct S19ReviewDecimalParserTests {
        /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
        /// build a tenth of a `@Test` apiece (README.md, "Development").
        @Test(arguments: s19ReviewDecimalParserTestsChecks)
        func checks(_ check: Check<Self>) async throws {
            try await check.run(on: Self())
        }

        /// `x` rounded to `digits` significant digits, written without an exponent (`0.000…` or `123…`).
        static func plain(_ x: Double, digits: Int) -> String {
            let scientific = String(format: "%.\(digits - 1)e", x)
            let parts = scientific.split(separator: "e")
            let exponent = Int(parts[1])!
            var mantissa = parts[0].replacingOccurrences(of: ".", with: "")
            let negative = mantissa.hasPrefix("-")
            if negative { mantissa.removeFirst() }
            let point = exponent + 1
            var text: String
            if point <= 0 {
                text = "0." + String(repeating: "0", count: -point) + mantissa
            } else if point >= mantissa.count {
                text = mantissa + String(repeating: "0", count: point - mantissa.count)
            } else {
                text = String(mantissa.prefix(point)) + "." + String(mantissa.dropFirst(point))
            }
            return (negative ? "-" : "") + text
        }

        static func check(_ text: String, _ failures: inout [String]) {
            let expected = Double(text)
            let got = DecimalParser.parse(text)
            if expected?.bitPattern != got?.bitPattern, !(expected == nil && got == nil) {
                failures.append("\(text): \(String(describing: got)) for \(String(describing: expected))")
            }
        }

        func randomLongDigitsReadAsTheStandardLibraryReadsThem() {
            var generator = IndependentTestKit.SeededGenerator(seed: 19)
            var failures: [String] = []
            for _ in 0..<20_000 {
                let count = Int.random(in: 16...19, using: &generator)
                var digits = String(Int.random(in: 1...9, using: &generator))
                for _ in 1..<count { digits += String(Int.random(in: 0...9, using: &generator)) }
                let point = Int.random(in: -3...count, using: &generator)
                let text: String
                if point <= 0 {
                    text = "0." + String(repeating: "0", count: -point) + digits
                } else if point == count {
                    text = digits
                } else {
                    text = String(digits.prefix(point)) + "." + String(digits.dropFirst(point))
                }
                Self.check(text, &failures)
                Self.check("-" + text, &failures)
            }
            #expect(failures.isEmpty, "\(failures.prefix(10))")
        }

        func binadeEdgesReadAsTheStandardLibraryReadsThem() {
            var failures: [String] = []
            var generator = IndependentTestKit.SeededGenerator(seed: 1919)
            for exponent in -14...55 {
                let power = Double(sign: .plus, exponent: exponent, significand: 1)
                var values = [power, power.nextUp, power.nextDown, power.nextUp.nextUp, power.nextDown.nextDown]
                // A quarter, a half and three quarters of a step either side of the power (the half being a tie).
                for fraction in [0.25, 0.5, 0.75] {
                    values.append(power + power.ulp * fraction)
                    values.append(power - power.nextDown.ulp * fraction)
                }
                for _ in 0..<20 { values.append(power * Double.random(in: 1..<2, using: &generator)) }
                for value in values where value.isFinite && value > 0 {
                    for digits in 16...19 { Self.check(Self.plain(value, digits: digits), &failures) }
                }
            }
            #expect(failures.isEmpty, "\(failures.prefix(10))")
        }

        /// The exact decimal of the point halfway between a double of [2^49, 2^53) and the next (at most 19 digits):
        /// ties go to the even significand, as strtod rounds them.
        func exactTiesRoundToEven() {
            var failures: [String] = []
            var generator = IndependentTestKit.SeededGenerator(seed: 2019)
            for binade in 49...52 {
                let fraction = 53 - binade
                var five: UInt64 = 1
                for _ in 0..<fraction { five *= 5 }
                for _ in 0..<2_000 {
                    let low = Double(sign: .plus, exponent: binade, significand: Double.random(in: 1..<2, using: &generator))
                    // low = m · 2^(binade - 52); the midpoint is (2m + 1) · 2^(binade - 53) = (2m + 1) · 5^f / 10^f.
                    let m = UInt64(low.significandBitPattern) | (1 << 52)
                    let scaled = (2 * m + 1) * five
                    let digits = String(scaled)
                    let text = String(digits.dropLast(fraction)) + "." + String(digits.suffix(fraction))
                    Self.check(text, &failures)
                }
            }
            #expect(failures.isEmpty, "\(failures.prefix(10))")
        }
    }
}

/// The checks ``ImportTests.S19ReviewDecimalParserTests/checks(_:)`` runs.
private let s19ReviewDecimalParserTestsChecks: [Check<ImportTests.S19ReviewDecimalParserTests>] = [
    Check("randomLongDigitsReadAsTheStandardLibraryReadsThem",
          ImportTests.S19ReviewDecimalParserTests.randomLongDigitsReadAsTheStandardLibraryReadsThem),
    Check("binadeEdgesReadAsTheStandardLibraryReadsThem",
          ImportTests.S19ReviewDecimalParserTests.binadeEdgesReadAsTheStandardLibraryReadsThem),
    Check("exactTiesRoundToEven", ImportTests.S19ReviewDecimalParserTests.exactTiesRoundToEven),
]
