import Testing
import TestKit
@testable import HKCtlCommands

/// `CSV.row` reads each field through its contiguous UTF-8; it must join and quote exactly as its previous definition
/// (the String's `utf8` view walked byte by byte) did.
struct CSVRowTests {
    /// The previous definition, kept as the reference.
    private static func previousRow(_ fields: [String]) -> String {
        var bytes: [UInt8] = []
        for (index, field) in fields.enumerated() {
            if index > 0 { bytes.append(0x2C) }
            if field.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) {
                bytes.append(0x22)
                for byte in field.utf8 {
                    if byte == 0x22 { bytes.append(0x22) }
                    bytes.append(byte)
                }
                bytes.append(0x22)
            } else {
                bytes.append(contentsOf: field.utf8)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Every row of up to three fields over an alphabet of the bytes that need quoting, plain letters, a combining
    /// accent, a character outside the BMP and a bridged (non-native) string's kind of text, and a few long fields.
    @Test func rowsAreThePreviousDefinitionsRows() {
        let pieces = ["", "a", ",", "\"", "\n", "\r", "é", "e\u{301}", "🫀", "Zoë’s \"watch\", 2", "\r\n"]
        var fields: [String] = []
        for first in pieces {
            for second in pieces { fields.append(first + second) }
        }
        var checked = 0
        for first in fields.prefix(40) {
            for second in fields {
                for row in [[first], [first, second], [second, "", first], [String(repeating: first + second, count: 20)]] {
                    expectEqual(CSV.row(row), Self.previousRow(row), "\(row)")
                    checked += 1
                }
            }
        }
        #expect(CSV.row([]) == "" && checked > 10_000)
    }
}
