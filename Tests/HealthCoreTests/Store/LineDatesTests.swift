import Foundation
import Testing
import TestKit
@testable import HealthCore

/// A read of the samples overlapping a range (``JSONFileStore/forEachSample(ofType:overlapping:_:)``, which library
/// queries and an import's look for stored samples use) passes over the lines that plainly lie outside the range,
/// judged by the start and end at the line's beginning (``LineDates``), instead of decoding each: the month of two days
/// before the range's start, read for the samples reaching into it, was decoded whole, and an import of ten years read
/// every month's file twice. What the read hands over must not change.
struct LineDatesTests {
    @Test(arguments: lineDatesTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit
    private typealias Ops = OperationTestKit

    private static func peek(_ line: String) -> (start: Date, end: Date)? {
        Array(line.utf8).withUnsafeBufferPointer { LineDates.peek($0) }
    }

    func theDatesAreThoseTheDecoderReads() throws {
        var random = Kit.SeededGenerator(seed: 47)
        for zone in [ZoneRules.gmt, Kit.zone("America/Los_Angeles"), Kit.zone("Asia/Kolkata")] {
            let codec = SampleLineCodec(catalogue: .standard, timeZone: zone)
            for index in 0..<300 {
                var start = Kit.utc(2024, 1, 1).addingTimeInterval(Double(Int.random(in: 0..<(400 * 86_400), using: &random)))
                if index % 3 == 0 { start.addTimeInterval(Double(Int.random(in: 1..<1_000, using: &random)) / 1_000) }
                let end = index % 4 == 0 ? start : start.addingTimeInterval(Double(Int.random(in: 1..<200_000, using: &random)))
                let sample = index % 5 == 0 ? Kit.sleep(3, start, max(end, start.addingTimeInterval(60)))
                    : Kit.quantity(.water, 250, "mL", start, end)
                let line = codec.encode(sample, sequence: UInt64(index + 1))
                var decoder = codec
                let decoded = try Array(line.utf8).withUnsafeBufferPointer { try decoder.decode($0) }
                let peeked = try #require(Self.peek(line), "\(line)")
                #expect(peeked.start == decoded.start && peeked.end == decoded.end, "\(line)")
            }
        }
    }

    func linesOfAnotherShapeAreDecoded() {
        let line = "{\"uuid\":\"1332c702-7f1a-4b2c-9d3e-0123456789ab\",\"type\":\"HKQuantityTypeIdentifierDietaryWater\","
            + "\"start\":\"2024-06-01T08:00:00+02:00\",\"end\":\"2024-06-01T08:00:00.250+02:00\",\"value\":250}"
        let peeked = Self.peek(line)
        #expect(peeked?.start == Kit.utc(2024, 6, 1, 6) && peeked?.end == Kit.utc(2024, 6, 1, 6).addingTimeInterval(0.25))
        for other in [
            line.replacingOccurrences(of: "{\"uuid\":", with: "{ \"uuid\":"),
            line.replacingOccurrences(of: ",\"type\":", with: ", \"type\":"),
            line.replacingOccurrences(of: "Dietary", with: "Dietary\\u0057"),
            line.replacingOccurrences(of: "\"start\":\"2024-06-01T08", with: "\"start\":\"2024-06-01X08"),
            line.replacingOccurrences(of: "T08:00:00.250", with: "T08:00:00\\u002e250"),
            line.replacingOccurrences(of: "\"end\"", with: "\"until\""),
            "{\"type\":\"HKQuantityTypeIdentifierDietaryWater\",\"uuid\":\"1332c702-7f1a-4b2c-9d3e-0123456789ab\"}",
            String(line.prefix(120)), "", "{",
        ] {
            #expect(Self.peek(other) == nil, "\(other)")
        }
    }

    /// Samples of a type around month ends (some over two days, in `long.jsonl`), read for random ranges: the same
    /// samples as a filter of all of them; a damaged line outside the range no longer stops the read, one inside does.
    /// A quote, a backslash or a control character at every position of the type and the dates (the peek passes over
    /// plain bytes eight at a time): the peek reads the dates only where every byte before the closing quote is plain.
    func eachByteOfTheTypeAndDatesIsLookedAt() {
        let type = "HKQuantityTypeIdentifierStepCount"
        let start = "2024-06-01T12:00:00+00:00", end = "2024-06-01T12:30:00+00:00"
        func line(_ type: String, _ start: String, _ end: String) -> String {
            #"{"uuid":"e621e1f8-c36c-495a-93fc-0c247a3e6e5f","type":"\#(type)","start":"\#(start)","end":"\#(end)","value":1}"#
        }
        expectEqual(Self.peek(line(type, start, end)).map { [$0.start, $0.end] }, [ISODate.parse(start)!, ISODate.parse(end)!])
        for field in 0..<3 {
            let text = [type, start, end][field]
            for position in 0..<text.utf8.count {
                for byte: UInt8 in [0x5C, 0x01, 0x1F, 0x0A] {
                    var bytes = Array(text.utf8)
                    bytes[position] = byte
                    let changed = String(decoding: bytes, as: UTF8.self)
                    let fields = [field == 0 ? changed : type, field == 1 ? changed : start, field == 2 ? changed : end]
                    #expect(Self.peek(line(fields[0], fields[1], fields[2])) == nil,
                            "byte \(byte) at \(position) of field \(field) is not plain")
                }
                // Printable bytes are plain: a type changed anywhere still peeks (dates changed no longer parse).
                if field == 0 {
                    var bytes = Array(text.utf8)
                    bytes[position] = UInt8(ascii: "~")
                    #expect(Self.peek(line(String(decoding: bytes, as: UTF8.self), start, end)) != nil, "~ at \(position)")
                }
            }
        }
    }

    func aRangeReadHandsOverWhatItDid() throws {
        try Ops.withStore { store, path in
            var random = Kit.SeededGenerator(seed: 48)
            var samples: [Sample] = []
            for index in 0..<400 {
                let start = Kit.utc(2024, 3, 25).addingTimeInterval(Double(Int.random(in: 0..<(70 * 86_400), using: &random)))
                let length: Double = index % 9 == 0 ? Double(Int.random(in: 2..<6, using: &random)) * 86_400
                    : index % 3 == 0 ? 0 : Double(Int.random(in: 60..<40_000, using: &random))
                samples.append(Kit.quantity(.water, Double(100 + index), "mL", start, start.addingTimeInterval(length)))
            }
            try store.save(samples)
            _ = try store.delete(uuids: [samples[5].uuid, samples[50].uuid], now: Ops.undoneAt)
            let all = try store.samples(ofType: SampleType.water.identifier, overlapping: Ops.everything)
            expectEqual(all.count, 398)
            for round in 0..<40 {
                let from = Kit.utc(2024, 3, 20).addingTimeInterval(Double(Int.random(in: 0..<(80 * 86_400), using: &random)))
                let interval = round % 5 == 0
                    ? DateInterval(start: Kit.utc(2024, 5, 1), end: Kit.utc(2024, 6, 1))
                    : DateInterval(start: from, duration: Double(Int.random(in: 0..<(40 * 86_400), using: &random)))
                var read: [UUID] = []
                try store.forEachSample(ofType: SampleType.water.identifier, overlapping: interval) { read.append($0.uuid) }
                expectEqual(Set(read), Set(all.filter { $0.overlaps(interval) }.map(\.uuid)), "\(interval)")
                expectEqual(read.count, Set(read).count)
            }
            // A line of April whose value is damaged, followed by one of April 30 that reaches into May: a read of May
            // (which takes April's file for samples reaching into it) passes over the damaged line, a read of the days
            // around it reports it, and so does a read of the last day of April, which passes over the line after it.
            let april = path + "/" + JSONFileStore.typeFolder(SampleType.water.identifier) + "/2024-04.jsonl"
            let codec = SampleLineCodec(catalogue: .standard, timeZone: .gmt)
            let damaged = codec.encode(Kit.quantity(.water, 1, "mL", Kit.utc(2024, 4, 10)), sequence: 9_000)
                .replacingOccurrences(of: "\"value\":1", with: "\"value\":x")
            let reaching = Kit.quantity(.water, 2, "mL", Kit.utc(2024, 4, 30, 23), Kit.utc(2024, 5, 1, 1))
            try Kit.append(damaged + "\n" + codec.encode(reaching, sequence: 9_001) + "\n", to: april)
            let withReaching = all + [reaching]
            let reopened = JSONFileStore(path: path, timeZone: .gmt)
            let may = DateInterval(start: Kit.utc(2024, 5, 1), end: Kit.utc(2024, 6, 1))
            var count = 0
            try reopened.forEachSample(ofType: SampleType.water.identifier, overlapping: may) { _ in count += 1 }
            expectEqual(count, withReaching.filter { $0.overlaps(may) }.count)
            for around in [DateInterval(start: Kit.utc(2024, 4, 9), end: Kit.utc(2024, 4, 11)),
                           DateInterval(start: Kit.utc(2024, 4, 10), end: Kit.utc(2024, 4, 10, 12))] {
                #expect(throws: StoreError.self, "\(around)") {
                    try reopened.forEachSample(ofType: SampleType.water.identifier, overlapping: around) { _ in }
                }
            }
        }
    }
}

/// The checks ``LineDatesTests/checks(_:)`` runs.
private let lineDatesTestsChecks: [Check<LineDatesTests>] = [
    Check("theDatesAreThoseTheDecoderReads", LineDatesTests.theDatesAreThoseTheDecoderReads),
    Check("linesOfAnotherShapeAreDecoded", LineDatesTests.linesOfAnotherShapeAreDecoded),
    Check("aRangeReadHandsOverWhatItDid", LineDatesTests.aRangeReadHandsOverWhatItDid),
    Check("eachByteOfTheTypeAndDatesIsLookedAt", LineDatesTests.eachByteOfTheTypeAndDatesIsLookedAt),
]
