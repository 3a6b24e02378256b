import Foundation
import Testing
@testable import HealthCore
import TestKit

/// The word-at-a-time search for control characters in a plain string's bytes, against a byte-by-byte one, and the
/// string reads that use it.
struct JSONLineScannerControlTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: jSONLineScannerControlTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// Every length up to 40, one byte of each kind at every position (the others printable, or bytes with the top
    /// bit set that a borrow must not turn into a find), and random words of all bytes.
    func findsAControlCharacterWhereverItLies() {
        let probes: [UInt8] = [0x00, 0x01, 0x0A, 0x1F, 0x20, 0x21, 0x7F, 0x80, 0x9F, 0xA0, 0xDF, 0xE0, 0xFF]
        for filler: UInt8 in [0x41, 0x20, 0xA0, 0xFF, 0x80] {
            for length in 0...40 {
                for position in 0..<max(length, 1) {
                    for probe in probes {
                        var bytes = [UInt8](repeating: filler, count: length)
                        if length > 0 { bytes[position] = probe }
                        let found = bytes.withUnsafeBufferPointer { JSONLineScanner.holdsControlCharacter($0) }
                        expectEqual(found, bytes.contains { $0 < 0x20 }, "filler \(filler), \(bytes)")
                    }
                }
            }
        }
        var random = IndependentTestKit.SeededGenerator(seed: 4_802)
        for _ in 0..<2_000 {
            let bytes = (0..<Int.random(in: 0...24, using: &random)).map { _ in UInt8.random(in: 0x18...0xFF, using: &random) }
            let found = bytes.withUnsafeBufferPointer { JSONLineScanner.holdsControlCharacter($0) }
            expectEqual(found, bytes.contains { $0 < 0x20 }, "\(bytes)")
        }
    }

    /// A plain read of a string passes a string holding a control character on to the full read, which refuses it.
    func aControlCharacterInALongStringIsRefused() throws {
        for position in [0, 7, 8, 15, 16, 30] {
            var text = Array(#""abcdefghijklmnopqrstuvwxyz0123456789""#.utf8)
            text[1 + position] = 0x09
            let plain = try text.withUnsafeBufferPointer { buffer -> Bool in
                var scanner = JSONLineScanner(buffer)
                return try scanner.readPlainStringBytes() != nil
            }
            #expect(!plain, "a tab at \(position) is not plain")
        }
        let text = Array(#""abcdefghijklmnopqrstuvwxyz0123456789""#.utf8)
        let read = try text.withUnsafeBufferPointer { buffer -> String? in
            var scanner = JSONLineScanner(buffer)
            return try scanner.readPlainStringBytes().map { String(decoding: $0, as: UTF8.self) }
        }
        expectEqual(read, "abcdefghijklmnopqrstuvwxyz0123456789")
    }
}

/// The checks ``JSONLineScannerControlTests/checks(_:)`` runs.
private let jSONLineScannerControlTestsChecks: [Check<JSONLineScannerControlTests>] = [
    Check("findsAControlCharacterWhereverItLies", JSONLineScannerControlTests.findsAControlCharacterWhereverItLies),
    Check("aControlCharacterInALongStringIsRefused", JSONLineScannerControlTests.aControlCharacterInALongStringIsRefused),
]
