import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Issue 29, item 4: a typed metadata value is a number only when the text is that number's canonical spelling.
struct MetadataValueTests {
    @Test(arguments: ["42", "0", "-3", "0.5", "-0.25", "1.1", "0.001", "1e+20", "1e-05", "123456789012345", "1.7976931348623157e+308"])
    func canonicalSpellingsAreNumbers(text: String) {
        let value = MetadataValue(typed: text)
        expectEqual(value, .number(Double(text)!))
        expectEqual(value.text, text)
    }

    @Test(arguments: ["007", "01234", "1.10", "1.0", "+5", "-0", ".5", "5.", "1e20", "1E+20", "0.00001", " 42", "42 ", "0x10", "inf",
                      "nan", "1_000", "1,5", "٤٢", "1234567890123456789", "", "abc", "2024-03-10 01:59:00 -0800", "120 count/min"])
    func everyOtherTextStaysAsTyped(text: String) {
        let value = MetadataValue(typed: text)
        expectEqual(value, .string(text))
        expectEqual(value.text, text)
    }

    /// Whatever a number is, its text reads back as the same number: the Health XML export relies on it.
    @Test func aNumbersTextReadsBackAsTheSameNumber() {
        var generator = SystemRandomNumberGenerator()
        var numbers: [Double] = [0, 1, -1, 0.1, 1e15, 1e15 - 1, 1e-7, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -.greatestFiniteMagnitude]
        for _ in 0..<2000 { numbers.append(Double(bitPattern: generator.next() & ~(0x7FF << 52) | (UInt64.random(in: 900...1150) << 52))) }
        for number in numbers {
            let text = MetadataValue.number(number).text
            expectEqual(MetadataValue(typed: text), .number(number), "\(number): \(text)")
        }
    }
}
