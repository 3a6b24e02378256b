import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

/// The import's byte-level line writer must write exactly what ``SampleLineCodec`` writes.
struct SampleLineWriterTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: sampleLineWriterTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static let uuid = UUID(uuidString: "0A21E1F8-C36C-595A-93FC-0C247A3E6EFF")!

    /// The writer's line (body plus sequence ending) and the codec's, for `sample` in `zone`.
    private func lines(_ sample: Sample, zone: String, sequence: UInt64 = 42) throws -> (writer: String, codec: String) {
        let timeZone = IndependentTestKit.zone(zone)
        var writer = SampleLineWriter(catalogue: .standard, timeZone: timeZone)
        let buffer = ByteBuffer(capacity: 16)
        writer.appendBody(of: sample, to: buffer)
        SampleLineWriter.appendSequenceEnding(sequence, to: buffer)
        let codec = SampleLineCodec(catalogue: .standard, timeZone: timeZone)
        return (String(decoding: buffer.bytes, as: UTF8.self), codec.encode(sample, sequence: sequence))
    }

    private func sample(_ value: SampleValue, type: String = "HKQuantityTypeIdentifierDietaryWater", start: Date, end: Date? = nil,
                        source: String = "hkctl", metadata: [String: MetadataValue] = [:], version: String? = nil,
                        device: String? = nil) -> Sample {
        Sample(uuid: SampleLineWriterTests.uuid, typeIdentifier: type, start: start, end: end ?? start, value: value,
               source: source, created: (end ?? start).addingTimeInterval(0.25), metadata: metadata, sourceVersion: version,
               device: device)
    }

    private static let zones = ["UTC", "America/Los_Angeles", "Europe/Paris", "Asia/Kolkata", "Pacific/Chatham",
                                "America/St_Johns", "Etc/GMT+5", "Australia/Lord_Howe"]

    @Test(arguments: zones)
    func datesAroundTransitionsAndFractionsMatchTheCodec(zone: String) throws {
        // Both 2024 transitions of the northern and southern hemispheres, each second around them, and some
        // far-off years (the writer hands years outside 0...9999 to ISODate).
        var instants: [Date] = []
        for base in [1_710_054_000.0, 1_730_613_600.0, 1_711_846_800.0, 1_712_422_800.0, 1_728_183_600.0] {
            for step in stride(from: -7200.0, through: 7200.0, by: 900.0) { instants.append(Date(timeIntervalSince1970: base + step)) }
        }
        instants += [-62_135_596_800, -62_198_755_200, 253_402_300_799, 253_402_300_800, 0, -1, 1e9 + 0.001, 1e9 + 0.999]
            .map { Date(timeIntervalSince1970: $0) }
        for instant in instants {
            let value = sample(.quantity(Quantity(0.5, try HealthUnit(parsing: "L"))), start: instant, end: instant.addingTimeInterval(61.5))
            let (writer, codec) = try lines(value, zone: zone)
            expectEqual(writer, codec)
        }
    }

    func escapedStringsMatchTheCodec() throws {
        let awkward = ["Jane’s iPhone", "quote \" back\\slash", "tab\tline\nreturn\r", "bell\u{07} esc\u{1B} nul\u{00}",
                       "separators \u{2028} and \u{2029}", "emoji 🫀 and é", "\u{2027}\u{202A}", ""]
        let start = Date(timeIntervalSince1970: 1_717_243_200)
        for text in awkward {
            let values: [Sample] = [
                sample(.generic(value: text, unit: text), type: "HKQuantityTypeIdentifierSomethingNew", start: start, source: text,
                       metadata: [text: .string(text), "z": .number(1.5), "a": .number(-3)], version: text, device: text),
                sample(.generic(value: "12", unit: nil), type: "HKDataType\(text)", start: start, source: text),
            ]
            for value in values {
                let (writer, codec) = try lines(value, zone: "UTC")
                expectEqual(writer, codec)
            }
        }
    }

    func valuesOfEveryKindMatchTheCodec() throws {
        let start = Date(timeIntervalSince1970: 1_717_243_200.123)
        let values: [Sample] = [
            sample(.quantity(Quantity(72.40, try HealthUnit(parsing: "kg"))), type: "HKQuantityTypeIdentifierBodyMass", start: start),
            sample(.quantity(Quantity(1e-7, try HealthUnit(parsing: "g"))), type: "HKQuantityTypeIdentifierDietaryIron", start: start),
            sample(.quantity(Quantity(123_456_789_012_345, try HealthUnit(parsing: "count"))), type: "HKQuantityTypeIdentifierStepCount", start: start),
            sample(.quantity(Quantity(2e15, try HealthUnit(parsing: "count"))), type: "HKQuantityTypeIdentifierStepCount", start: start),
            sample(.category(3), type: "HKCategoryTypeIdentifierSleepAnalysis", start: start, end: start.addingTimeInterval(3600)),
            sample(.category(99), type: "HKCategoryTypeIdentifierSleepAnalysis", start: start),
            sample(.category(1), type: "HKCategoryTypeIdentifierNotCatalogued", start: start),
            sample(.generic(value: "HKCategoryValueSleepAnalysisAsleepFuture", unit: nil), type: "HKCategoryTypeIdentifierSleepAnalysis", start: start),
        ]
        for value in values {
            let (writer, codec) = try lines(value, zone: "Europe/Paris", sequence: UInt64.max)
            expectEqual(writer, codec)
        }
    }

    /// Samples of two types over several months, one longer than two days, added to `batch` in turn; each
    /// partition's expected lines, numbered from `firstSequence` in the order added.
    private func fill(_ batch: inout EncodedSampleBatch, count: Int, offset: Int = 0,
                      firstSequence: UInt64 = 1000) throws -> [String: [String]] {
        var writer = SampleLineWriter(catalogue: .standard, timeZone: .gmt)
        let codec = SampleLineCodec(catalogue: .standard, timeZone: .gmt)
        var expected: [String: [String]] = [:]
        var namer = JSONFileStore.PartitionNamer()
        let may = Date(timeIntervalSince1970: 1_714_521_600)
        for index in 0..<count {
            // Alternating types and months, and one sample longer than two days.
            let type = index % 3 == 0 ? "HKQuantityTypeIdentifierStepCount" : "HKQuantityTypeIdentifierDietaryWater"
            let start = may.addingTimeInterval(Double(index + offset) * 86_400 * 1.7)
            let end = index == 7 ? start.addingTimeInterval(3 * 86_400) : start
            let unit = try HealthUnit(parsing: type == "HKQuantityTypeIdentifierDietaryWater" ? "mL" : "count")
            let value = Sample(uuid: UUID(), typeIdentifier: type, start: start, end: end, value: .quantity(Quantity(Double(index), unit)),
                               source: "hkctl", created: end)
            batch.append(value, writer: &writer)
            expected[namer.path(for: value), default: []].append(codec.encode(value, sequence: firstSequence + UInt64(index)))
        }
        return expected
    }

    /// Each partition of `batch` rendered from `firstSequence`, by path.
    private func rendered(_ batch: EncodedSampleBatch, firstSequence: UInt64 = 1000) -> [String: String] {
        var texts: [String: String] = [:]
        for (index, partition) in batch.partitions.enumerated() {
            let out = ByteBuffer(capacity: 8)
            batch.render(partition: index, firstSequence: firstSequence, into: out)
            texts[partition.path] = String(decoding: out.bytes, as: UTF8.self)
        }
        return texts
    }

    func aBatchNumbersItsLinesInSampleOrderAcrossPartitions() throws {
        var batch = EncodedSampleBatch()
        let expected = try fill(&batch, count: 30)
        expectEqual(batch.count, 30)
        expectEqual(Set(batch.partitions.map(\.path)), Set(expected.keys))
        #expect(batch.partitions.contains { $0.path.hasSuffix("/long.jsonl") })
        expectEqual(rendered(batch), expected.mapValues { $0.map { $0 + "\n" }.joined() })
    }

    /// A batch writes every partition's lines into one buffer from the pool, the one the batch before handed back;
    /// a batch copied with lines removed leaves that buffer to the original, so it goes back to the pool once.
    func aBatchFillsThePoolsBufferAndHandsItBackOnce() throws {
        let pool = ByteBufferPool(limit: 1 << 20)
        var first = EncodedSampleBatch(pool: pool)
        let expectedFirst = try fill(&first, count: 40)
        expectEqual(rendered(first), expectedFirst.mapValues { $0.map { $0 + "\n" }.joined() })
        let firstBuffer = try #require(first.bytes)
        first.recycle(into: pool)

        // Fewer, other lines into the same memory: nothing of the first batch's shows.
        var second = EncodedSampleBatch(pool: pool)
        let expectedSecond = try fill(&second, count: 11, offset: 5)
        #expect(second.bytes === firstBuffer, "the second batch takes the buffer the first handed back")
        expectEqual(rendered(second), expectedSecond.mapValues { $0.map { $0 + "\n" }.joined() })

        var trimmed = second
        let dropped = Set(second.partitions[0].keys.map(\.uuid))
        let removed = trimmed.removeLines { _, key in dropped.contains(key.uuid) }
        expectEqual(removed.values.reduce(0, +), dropped.count)
        #expect(trimmed.bytes !== firstBuffer, "the copy writes its lines into a buffer of its own")
        expectEqual(Set(trimmed.partitions.map(\.path)), Set(second.partitions.dropFirst().map(\.path)))
        // The rest keep their lines, numbered afresh in the order they were added.
        var kept: [String: [String]] = [:]
        var codec = SampleLineCodec(catalogue: .standard, timeZone: .gmt)
        for (path, text) in rendered(trimmed, firstSequence: 1) {
            kept[path] = try text.split(separator: "\n").map { line in
                let sample = try Array(line.utf8).withUnsafeBufferPointer { try codec.decode($0) }
                return codec.encode(sample, sequence: 0)
            }
        }
        let unnumbered = try expectedSecond.filter { $0.key != second.partitions[0].path }.mapValues { lines in
            try lines.map { line in
                let sample = try Array(line.utf8).withUnsafeBufferPointer { try codec.decode($0) }
                return codec.encode(sample, sequence: 0)
            }
        }
        expectEqual(kept, unnumbered)
        expectEqual(second.count, 11, "the original keeps its lines")
        expectEqual(rendered(second), expectedSecond.mapValues { $0.map { $0 + "\n" }.joined() })
        second.recycle(into: pool)
        #expect(pool.take() === firstBuffer)
        #expect(pool.take() == nil, "the buffer went back once")
    }

    func quotingMatchesJSONTextOnRandomStrings() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [Unicode.Scalar] = ["a", "\"", "\\", "\n", "\r", "\t", "\u{01}", "\u{1F}", "\u{7F}", "’", "\u{2028}",
                                          "\u{2029}", "\u{2030}", "é", "🫀", " "]
        for _ in 0..<500 {
            var text = ""
            for _ in 0..<Int.random(in: 0..<24, using: &generator) {
                text.unicodeScalars.append(alphabet.randomElement(using: &generator)!)
            }
            let buffer = ByteBuffer(capacity: 8)
            JSONBytes.appendQuoted(text, to: buffer)
            expectEqual(String(decoding: buffer.bytes, as: UTF8.self), JSONText.quoted(text), "\(text.debugDescription)")
        }
    }

    /// The metadata keys' order by bytes where that is certain, else by `<`: the same order as `<` (which the codec
    /// writes), for keys that share prefixes, differ in ASCII or not, and hold combining marks that compose with the
    /// character before them.
    func theMetadataKeyOrderIsStringOrder() {
        let keys = ["", "a", "b", "ab", "abc", "abd", "HAEAggregation", "HAEReceivedThrough", "HAE:note", "HAE:Note",
                    "HKMetadataKeySyncIdentifier", "HKMetadataKeySyncVersion", "e", "e\u{301}", "\u{E9}", "ez", "e\u{301}z",
                    "a\u{300}b", "\u{E0}a", "z\u{308}", "Jane’s", "Jane's", "\r\n", "\r", "\n", "@children", "~", "\u{7F}",
                    "ä", "a\u{308}", "ab\u{301}", "ac", "A", "Z", "é\u{301}"]
        for a in keys {
            for b in keys {
                expectEqual(SampleLineWriter.precedes(a, b), (a < b), "\(a.debugDescription) \(b.debugDescription)")
            }
        }
    }
}

/// The checks ``SampleLineWriterTests/checks(_:)`` runs.
private let sampleLineWriterTestsChecks: [Check<SampleLineWriterTests>] = [
    Check("escapedStringsMatchTheCodec", SampleLineWriterTests.escapedStringsMatchTheCodec),
    Check("valuesOfEveryKindMatchTheCodec", SampleLineWriterTests.valuesOfEveryKindMatchTheCodec),
    Check("aBatchNumbersItsLinesInSampleOrderAcrossPartitions",
          SampleLineWriterTests.aBatchNumbersItsLinesInSampleOrderAcrossPartitions),
    Check("aBatchFillsThePoolsBufferAndHandsItBackOnce", SampleLineWriterTests.aBatchFillsThePoolsBufferAndHandsItBackOnce),
    Check("quotingMatchesJSONTextOnRandomStrings", SampleLineWriterTests.quotingMatchesJSONTextOnRandomStrings),
    Check("theMetadataKeyOrderIsStringOrder", SampleLineWriterTests.theMetadataKeyOrderIsStringOrder),
]
