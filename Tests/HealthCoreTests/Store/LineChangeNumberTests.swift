import Foundation
import Testing
import TestKit
@testable import HealthCore

/// A line's change number is read from its end (``LineChangeNumber``) only when the line ends as hkctl writes it;
/// every other ending gives nil, and the reader decodes the line.
struct LineChangeNumberTests {
    @Test(arguments: lineChangeNumberTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static func peek(_ line: String) -> UInt64? {
        Array(line.utf8).withUnsafeBufferPointer { LineChangeNumber.peek($0) }
    }

    func theWritersEndingIsReadAndNothingElse() {
        let start = "{\"uuid\":\"23582995-f199-5a7b-abf8-a7ae198bdeca\",\"value\":66"
        expectEqual(Self.peek(start + ",\"seq\":295484}"), 295_484)
        expectEqual(Self.peek(start + ",\"seq\":0}"), 0)
        expectEqual(Self.peek(start + ",\"seq\":9007199254740991}"), ChangeNumbers.maximum)
        expectEqual(Self.peek(start + ",\"seq\":9007199254740992}"), nil, "past the largest change number")
        expectEqual(Self.peek(start + ",\"seq\":12345678901234567}"), nil, "17 digits")
        expectEqual(Self.peek(start + ",\"seq\":0295484}"), nil, "a leading zero")
        expectEqual(Self.peek(start + ",\"seq\":295484 }"), nil, "a space")
        expectEqual(Self.peek(start + ",\"seq\":295484"), nil, "no closing brace")
        expectEqual(Self.peek(start + ",\"seq\":}"), nil, "no digits")
        expectEqual(Self.peek(start + ",\"seq\":2.5}"), nil, "a fraction")
        expectEqual(Self.peek(start + ",\"seq\":-5}"), nil, "a sign")
        expectEqual(Self.peek(start + ",\"metadata\":{\"seq\":5}}"), nil, "a metadata key")
        expectEqual(Self.peek(start + ",\"note\":\"a,\\\"seq\\\":5}"), nil, "inside a string")
        expectEqual(Self.peek(start + "}"), nil, "no change number")
        expectEqual(Self.peek("\"seq\":5}"), nil, "no comma before the key")
        expectEqual(Self.peek(",\"seq\":5}"), 5)
        expectEqual(Self.peek(""), nil)
        // The codec's own lines, whatever the sample.
        let codec = SampleLineCodec(catalogue: .standard, timeZone: .gmt)
        for sequence: UInt64 in [1, 10, 99, 1_000_000, ChangeNumbers.maximum] {
            let line = codec.encode(TestSupport.quantitySample(.water, 250, "mL", start: "2024-06-01T08:00:00Z"), sequence: sequence)
            expectEqual(Self.peek(line), sequence)
        }
    }
}

private let lineChangeNumberTestsChecks: [Check<LineChangeNumberTests>] = [
    Check("theWritersEndingIsReadAndNothingElse", LineChangeNumberTests.theWritersEndingIsReadAndNothingElse),
]
