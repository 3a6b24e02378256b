import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

/// ``ShortestDecimal`` writes what `Double.description` writes, byte for byte, for every double it takes.
struct ShortestDecimalTests {
    private func written(_ value: Double) -> String? {
        let buffer = ByteBuffer(capacity: 64)
        guard ShortestDecimal.append(value, to: buffer) else { return nil }
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    @Test(arguments: [
        (72.4, "72.4"), (0.1 + 0.2, "0.30000000000000004"), (0.001, "0.001"), (-2.5, "-2.5"), (1.0 / 3, "0.3333333333333333"),
        (123456789012.5, "123456789012.5"), (0.0015, "0.0015"), (99.99, "99.99"), (5.000000000000001, "5.000000000000001"),
    ])
    func writesTheShortestDecimal(value: Double, text: String) {
        expectEqual(written(value), text)
        expectEqual(value.description, text)
    }

    /// Whole numbers, exponents, powers of two and what lies outside 2^-10 to 2^49 are left to `description`.
    @Test(arguments: [0.0, 72.0, 1e-5, 0x1p-11 * 1.5, 0x1p49 + 0.5, 0.5, 0.25, 1e300, .infinity, .nan, -0.0, 2.0])
    func leavesOtherDoublesToDescription(value: Double) {
        expectNil(written(value))
    }

    /// Random doubles of every kind the importers write: bit patterns, short decimals as the apps send them (`72.4`,
    /// `0.00288`), 17-digit ones, and every binade from 2^-12 to 2^51 with its edges (its powers of two, their
    /// neighbours, the binade's last double). Each one the writer takes must be spelled as `description` spells it,
    /// and ``JSONBytes/appendNumber(_:to:)`` as ``NumberFormatting/json(_:)`` for all of them.
    @Test func everyDoubleItTakesIsSpelledAsDescriptionSpellsIt() {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = []
        for _ in 0..<20_000 {
            values.append(Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator)))
            let digits = Int.random(in: 1...9_999_999, using: &generator)
            let scale = Int.random(in: 1...9, using: &generator)
            values.append(Double("\(digits)e-\(scale)")!)
            values.append(-Double.random(in: 0...300, using: &generator))
            let power = Double(sign: .plus, exponent: Int.random(in: -12...51, using: &generator), significand: 1)
            let inside = power * Double.random(in: 1..<2, using: &generator)
            values += [inside, Double(String(format: "%.15g", inside))!, power.nextUp, power.nextDown,
                       (power * 2).nextDown, power.nextUp.nextUp, power + power / 2]
        }
        var taken = 0
        let buffer = ByteBuffer(capacity: 64)
        for value in values {
            if let text = written(value) {
                taken += 1
                expectEqual(text, value.description, "\(value.bitPattern)")
            }
            buffer.removeAll()
            JSONBytes.appendNumber(value, to: buffer)
            expectEqual(String(decoding: buffer.bytes, as: UTF8.self), NumberFormatting.json(value), "\(value.bitPattern)")
        }
        // Most of them are in its range: a writer that took none would pass the comparisons alone.
        #expect(taken > values.count / 2)
    }
}
