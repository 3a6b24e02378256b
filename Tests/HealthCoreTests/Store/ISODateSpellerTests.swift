import Foundation
import Testing
import TestKit
@testable import HealthCore

/// The byte writer of the store's dates (``ISODateSpeller``) against ``ISODate/format(_:offsetSeconds:)``, whose
/// spelling every line must keep: the same text for every day, time, millisecond and offset, in any order (its kept
/// day and offset must never leak into the next date), and a refusal (nothing written) where the text has no
/// fixed shape.
struct ISODateSpellerTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: iSODateSpellerTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// One date as `ISODate.format` spells it, and as the speller does after `speller`'s earlier dates.
    private func both(_ milliseconds: Int64, offset: Int, speller: inout ISODateSpeller, into out: ByteBuffer) -> (String, String?) {
        let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        let expected = ISODate.format(date, offsetSeconds: offset)
        let local = milliseconds + Int64(offset) * 1000
        let days = local >= 0 ? local / 86_400_000 : (local - 86_400_000 + 1) / 86_400_000
        out.removeAll()
        guard speller.append(days: days, millisecondsOfDay: Int(local - days * 86_400_000), offsetSeconds: offset, to: out) else {
            expectEqual(out.count, 0, "a refusal writes nothing")
            return (expected, nil)
        }
        return (expected, String(decoding: UnsafeBufferPointer(start: out.base, count: out.count), as: UTF8.self))
    }

    func randomDatesOffsetsAndOrdersMatchTheFormatter() {
        var random = IndependentTestKit.SeededGenerator(seed: 21)
        var speller = ISODateSpeller()
        let out = ByteBuffer(capacity: 64)
        // Offsets of real zones (whole, half and quarter hours, both signs, LMT's odd seconds) and the extremes.
        let offsets = [0, 3600, -18_000, 19_800, 20_700, -9000, 50_400, -43_200, -1_521, 99 * 3600 + 3599, -(99 * 3600 + 59 * 60)]
        var previous: Int64 = 1_700_000_000_000
        for round in 0..<20_000 {
            let milliseconds: Int64
            switch round % 4 {
            case 0: milliseconds = Int64.random(in: -62_167_219_200_000...253_402_300_799_000, using: &random)  // years 0 to 9999
            case 1: milliseconds = previous + Int64.random(in: 0...120_000, using: &random)                     // the next point
            case 2: milliseconds = previous - Int64.random(in: 0...86_400_000, using: &random)                  // back a day
            default: milliseconds = Int64.random(in: -1_000...1_000, using: &random) * 86_400_000                // midnights
                + Int64.random(in: -1...1, using: &random)
            }
            previous = milliseconds
            // The writers pass offsets in whole minutes, as the text spells them (LMT's seconds are dropped first, so
            // the text names the exact instant: ``ISODate/format(_:offsetSeconds:)``).
            let offset = offsets[Int.random(in: 0..<(round % 7 == 0 ? offsets.count : 3), using: &random)] / 60 * 60
            let (expected, written) = both(milliseconds, offset: offset, speller: &speller, into: out)
            if let written, written != expected {
                Issue.record("\(milliseconds) ms at \(offset) s: \(written), expected \(expected)")
                return
            }
            #expect(written != nil, "\(expected) is in range")
        }
    }

    func yearsOutsideTheFourDigitsAndOffsetsOfAHundredHoursAreLeftToTheFormatter() {
        var speller = ISODateSpeller()
        let out = ByteBuffer(capacity: 64)
        // Before year 0, after 9999, and an offset of 100 h: refused, and the next date is still spelled right.
        for (milliseconds, offset) in [(Int64(-62_167_219_200_001), 0), (253_402_300_800_000, 0), (0, 100 * 3600), (0, -100 * 3600)] {
            let (expected, written) = both(milliseconds, offset: offset, speller: &speller, into: out)
            expectNil(written, "\(expected)")
            let (next, nextWritten) = both(1_717_243_200_250, offset: 7200, speller: &speller, into: out)
            #expect(nextWritten == next && next == "2024-06-01T14:00:00.250+02:00")
        }
    }
}

/// The checks ``ISODateSpellerTests/checks(_:)`` runs.
private let iSODateSpellerTestsChecks: [Check<ISODateSpellerTests>] = [
    Check("randomDatesOffsetsAndOrdersMatchTheFormatter",
          ISODateSpellerTests.randomDatesOffsetsAndOrdersMatchTheFormatter),
    Check("yearsOutsideTheFourDigitsAndOffsetsOfAHundredHoursAreLeftToTheFormatter",
          ISODateSpellerTests.yearsOutsideTheFourDigitsAndOffsetsOfAHundredHoursAreLeftToTheFormatter),
]
