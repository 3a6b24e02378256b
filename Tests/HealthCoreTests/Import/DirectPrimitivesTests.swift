import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

extension ImportTests {
    /// The small parts the direct import path stands on, each against the general code it replaces.
    struct DirectPrimitivesTests {
        /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
        /// build a tenth of a `@Test` apiece (README.md, "Development").
        @Test(arguments: directPrimitivesTestsChecks)
        func checks(_ check: Check<Self>) async throws {
            try await check.run(on: Self())
        }

        /// Numbers copied as written must be exactly what ``NumberFormatting/json(_:)`` writes for them.
        func canonicalNumbersAreWhatTheStoreWouldWrite() {
            var texts = ["0", "1", "59", "3.757", "0.05032", "0.001", "0.0001", "152.9", "72.40", "007", "1e2", "-3", "+3",
                         "1.", ".5", "0.10", "123456789012345", "1234567890123456", "12345678901234.5", "0.00123456789012345",
                         "99999999999999.9", "1.0", "10", "100.25", ""]
            var generator = SystemRandomNumberGenerator()
            for _ in 0..<5000 {
                let digits = Int.random(in: 1...16, using: &generator)
                var text = String(UInt64.random(in: 0...UInt64.max, using: &generator)).prefix(digits)
                if Bool.random(using: &generator) {
                    let point = Int.random(in: 0...text.count, using: &generator)
                    text.insert(".", at: text.index(text.startIndex, offsetBy: point))
                    if point == 0 { text = "0" + text }
                }
                texts.append(String(text))
            }
            var copied = 0
            for text in texts {
                let bytes = Array(text.utf8)
                let canonical = bytes.withUnsafeBufferPointer { DirectRecordEncoder.isCanonicalNumber($0) }
                guard canonical else { continue }
                copied += 1
                let number: Double? = bytes.withUnsafeBufferPointer { DecimalParser.parse($0) }
                expectEqual(number.map(NumberFormatting.json), text, "\(text) would be copied but the store writes it otherwise")
            }
            #expect(copied > 1000)
            for text in ["72.40", "007", "1e2", "-3", "1.", "0.0001", "1234567890123456", "1.0"] {
                #expect(!Array(text.utf8).withUnsafeBufferPointer { DirectRecordEncoder.isCanonicalNumber($0) }, "\(text)")
            }
        }

        /// Export dates read directly give ``ExportDateParser``'s instant, and anything else is left to it.
        func exportDatesReadAsTheGeneralParserReadsThem() throws {
            var encoder = DirectRecordEncoder(catalogue: .standard, storeCatalogue: .standard)
            let accepted = ["2024-03-10 01:59:00 -0800", "2024-03-10 01:59:00 -0800", "2024-03-11 00:00:00 +0000",
                            "1900-01-01 00:00:00 -0100", "2999-12-31 23:59:59 +0000", "2024-02-29 23:59:59 -1800", "2024-12-31 23:00:00 +0530", "2023-01-01 07:32:08 -0000"]
            for text in accepted {
                let bytes = Array(text.utf8)
                let direct = try #require(bytes.withUnsafeBufferPointer { encoder.instant($0) }, "\(text)")
                let general = try #require(ExportDateParser.parse(text))
                expectEqual(Double(direct.seconds), general.timeIntervalSince1970, "\(text)")
            }
            let refused = ["2024-03-10T01:59:00-08:00", "2024-03-10 01:59:00.5 -0800", "2024-03-10 01:59:00 Z", "2023-02-29 00:00:00 -0800",
                           "1899-12-31 23:00:00 +0000", "1900-01-01 00:00:00 +1800", "3000-01-01 00:00:00 +0000", "2024-13-01 00:00:00 +0000", "2024-06-30 23:59:60 +0000", "2024-03-10 24:00:00 -0800",
                           "2024-03-10 01:59:00 -1900", "2024-03-10 01:59:00 -0860", "2024-0a-10 01:59:00 -0800", "20150616071916-0700", ""]
            for text in refused {
                expectNil(Array(text.utf8).withUnsafeBufferPointer { encoder.instant($0) }, "\(text)")
            }
        }

        /// Offsets from the stretch cache are the zone's own, forwards, backwards and across transitions.
        @Test(arguments: ["America/Los_Angeles", "Europe/London", "Australia/Lord_Howe", "Asia/Kolkata", "Europe/Moscow",
                          "America/Caracas", "Pacific/Apia", "UTC"])
        func zoneOffsetsMatchTheZone(identifier: String) throws {
            let zone = IndependentTestKit.zone(identifier)
            var offsets = ZoneOffsets(timeZone: zone)
            var instants: [Int64] = []
            var instant: Int64 = -2_208_988_800  // 1900
            while instant < 2_200_000_000 {
                instants.append(instant)
                instant += 86_400 * 7 + 3_607
            }
            // Around each transition of the last decades, second by second.
            var date = Date(timeIntervalSince1970: 1_000_000_000)
            while let next = zone.nextTransition(after: date), next.timeIntervalSince1970 < 1_900_000_000 {
                let at = Int64(next.timeIntervalSince1970)
                instants += [at - 1, at, at + 1, at - 3600, at + 3600]
                date = next
            }
            for seconds in instants + instants.reversed() {
                expectEqual(offsets.offset(at: seconds), zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))),
                            "\(identifier) at \(seconds)")
            }
        }

        /// Starting from the state after a shared first block gives the digest of the whole message.
        func sha1ResumedAfterTheFirstBlockGivesTheSameDigest() {
            for length in [64, 65, 100, 119, 120, 127, 128, 129, 200, 1000] {
                let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
                message.withUnsafeBytes { bytes in
                    let whole = SHA1.hash(bytes)
                    let resumed = SHA1.hash(bytes, from: SHA1.state(after: 1, of: bytes), skipping: 1)
                    expectEqual([whole.0, whole.1, whole.2, whole.3, whole.4], [resumed.0, resumed.1, resumed.2, resumed.3, resumed.4],
                                "\(length) bytes")
                }
            }
        }

        func uuidsAreSpelledAsFoundationSpellsThem() {
            let out = ByteBuffer()
            var uuids = [UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
                         UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)),
                         UUID(uuid: (0x09, 0x0A, 0x9A, 0xAF, 0xF0, 0x1F, 0x2E, 0xE2, 0x3D, 0xD3, 0x4C, 0xC4, 0x5B, 0xB5, 0x6A, 0xA6))]
            for _ in 0..<1000 { uuids.append(UUID()) }
            for uuid in uuids {
                out.removeAll()
                SampleLineWriter.appendUUID(uuid, to: out)
                expectEqual(String(decoding: out.bytes, as: UTF8.self), uuid.uuidString.lowercased())
            }
        }

        func uuidSetBehavesLikeASet() {
            var set = UUIDSet()
            var reference = Set<UUID>()
            var generator = SystemRandomNumberGenerator()
            let nilUUID = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
            var candidates = [nilUUID, UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1))]
            for _ in 0..<3000 { candidates.append(UUID()) }
            for index in 0..<200 {
                candidates.append(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, UInt8(index / 256), UInt8(index % 256))))
            }
            for round in 0..<10_000 {
                let uuid = candidates.randomElement(using: &generator)!
                expectEqual(set.contains(uuid), reference.contains(uuid))
                expectEqual(set.insert(uuid), reference.insert(uuid).inserted)
                // Room made ahead, smaller and larger than the set, keeps what it holds (the nil UUID too).
                if round == 500 { set.reserve(10) }
                if round == 1_000 { set.reserve(5_000) }
                if round % 2_500 == 0 { expectEqual(set.count, reference.count) }
            }
            expectEqual(set.count, reference.count)
            for uuid in candidates { expectEqual(set.contains(uuid), reference.contains(uuid)) }
            #expect(!UUIDSet().contains(nilUUID))
        }

        func keptTagsReplayAsTheyWereSeen() throws {
            let text = "<a><Record type=\"HKX\" sourceName=\"A &amp; B\" value=\"\"/><MetadataEntry key=\"k\" value=\"v\"/></a>"
            var copy = XMLTagCopy()
            var seen: [String] = []
            func describe(_ tag: XMLTag) -> String {
                tag.nameText + "@\(tag.line):" + tag.attributes.map { "\($0.nameText)=\($0.value)|\($0.needsDecoding)" }.joined(separator: ",")
            }
            let scanner = XMLByteScanner(reader: ArrayByteReader(text, chunk: 7), bufferSize: 64)
            try scanner.scan(onTag: { tag in
                guard tag.kind == .empty else { return }
                seen.append(describe(tag))
                copy.append(tag)
            }, onProblem: { _ in })
            var replayed: [String] = []
            copy.replay { replayed.append(describe($0)) }
            expectEqual(replayed, seen)
            expectEqual(seen.count, 2)
            copy.removeAll()
            #expect(copy.isEmpty)
        }

        /// Attribute names and values of every length, so the eight-byte steps end at every offset, with `&`, `<`
        /// and quotes at word boundaries.
        func attributesAreFoundWhateverTheirLength() throws {
            for length in 1...20 {
                let name = String(repeating: "n", count: length)
                let value = String(repeating: "v", count: length)
                let text = "<r \(name)=\"\(value)\" \(name)x = '\(value)&amp;' \(name)y=\"\(value)\"/><r \(name)=\"a<b\"/>"
                var tags: [[String]] = []
                var problems = 0
                let scanner = XMLByteScanner(reader: ArrayByteReader(text, chunk: 5), bufferSize: 64)
                try scanner.scan(onTag: { tag in
                    tags.append(tag.attributes.map { "\($0.nameText)=\($0.value)\($0.needsDecoding ? "!" : "")" })
                }, onProblem: { _ in problems += 1 })
                expectEqual(tags.first, ["\(name)=\(value)", "\(name)x=\(value)&!", "\(name)y=\(value)"], "\(length)")
                expectEqual(problems, 1, "a '<' inside a value is malformed (\(length))")
            }
        }
    }
}

/// The checks ``ImportTests.DirectPrimitivesTests/checks(_:)`` runs.
private let directPrimitivesTestsChecks: [Check<ImportTests.DirectPrimitivesTests>] = [
    Check("canonicalNumbersAreWhatTheStoreWouldWrite",
          ImportTests.DirectPrimitivesTests.canonicalNumbersAreWhatTheStoreWouldWrite),
    Check("exportDatesReadAsTheGeneralParserReadsThem",
          ImportTests.DirectPrimitivesTests.exportDatesReadAsTheGeneralParserReadsThem),
    Check("sha1ResumedAfterTheFirstBlockGivesTheSameDigest",
          ImportTests.DirectPrimitivesTests.sha1ResumedAfterTheFirstBlockGivesTheSameDigest),
    Check("uuidsAreSpelledAsFoundationSpellsThem",
          ImportTests.DirectPrimitivesTests.uuidsAreSpelledAsFoundationSpellsThem),
    Check("uuidSetBehavesLikeASet", ImportTests.DirectPrimitivesTests.uuidSetBehavesLikeASet),
    Check("keptTagsReplayAsTheyWereSeen", ImportTests.DirectPrimitivesTests.keptTagsReplayAsTheyWereSeen),
    Check("attributesAreFoundWhateverTheirLength",
          ImportTests.DirectPrimitivesTests.attributesAreFoundWhateverTheirLength),
]
