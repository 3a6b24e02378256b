import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

extension ImportTests {
    /// Session 19's review of the HAE direct path (``HAEDirectPoints``): crafted payloads imported with the direct path
    /// against a store that reads every batch back and one that builds every point as a sample
    /// (``HAEFastPathTests/compare(_:batchSize:reference:)``: receipts and files, uuids aside).
    struct S19ReviewHAEDirectTests {
        /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
        /// build a tenth of a `@Test` apiece (README.md, "Development").
        @Test(arguments: s19ReviewHAEDirectTestsChecks)
        func checks(_ check: Check<Self>) async throws {
            try await check.run(on: Self())
        }

        typealias Fast = HAEFastPathTests

        /// A payload of metrics, each `(name, units, points)`, the points' JSON objects as written.
        static func payload(_ metrics: [(String, String, [String])]) -> String {
            "{\"data\":{\"metrics\":[" + metrics.map { name, units, points in
                "{\"name\":\"\(name)\",\"units\":\"\(units)\",\"data\":[" + points.joined(separator: ",\n") + "]}"
            }.joined(separator: ",\n") + "]}}"
        }

        /// `2024-05-10 HH:MM:00 +0200`, `minute` minutes after 08:00.
        static func at(_ minute: Int) -> String {
            let hour = 8 + minute / 60, rest = minute % 60
            return "2024-05-10 \(hour < 10 ? "0" : "")\(hour):\(rest < 10 ? "0" : "")\(rest):00 +0200"
        }

        /// Numbers as a hostile or careless writer spells them: exponents, 16 to 19 digits (the exact quotient), 20
        /// digits, trailing zeros, negative zero, whole numbers beyond 2^53, ties between two doubles, the largest
        /// double, values below the quotient's range.
        static let oddNumbers = ["1e-7", "1E2", "0.30000000000000004", "0.1", "-0", "-0.0", "0.0", "12.50", "12.500000000000000",
                                 "9007199254740993", "9007199254740992", "12345678901234567890", "1234567890123456789",
                                 "4503599627370496.5", "4503599627370497.5", "2251799813685248.25", "1125899906842624.125",
                                 "0.000123456789012345678", "0.00048828125000000001", "0.99999999999999999", "1.0000000000000001",
                                 "72.400000000000006", "99.999999999999986", "1e300", "1.7976931348623157e308", "-1",
                                 "5e-324", "123456789012.34567", "0.1000000000000000055511151231257827"]

        static func oddPayload() -> String {
            // Points the direct path must leave to the builder, as it would build or refuse them: a time in the future,
            // fractions of a second, an offset of +05:45, the year 1, a key twice, a number as text, a source that is a
            // number, null or empty, an unknown key, a unit on the point, a source with a control character or a
            // bidirectional mark, a merged source over 200 characters.
            let merged = (0..<30).map { "Watch \($0)" }.joined(separator: "|")
            let odd = ["{\"date\":\"2025-06-01 08:00:00 +0200\",\"qty\":5,\"source\":\"Watch\"}",
                       "{\"date\":\"2024-05-10 09:00:00.500 +0200\",\"qty\":5,\"source\":\"Watch\"}",
                       "{\"date\":\"2024-05-10 13:46:00 +0545\",\"qty\":5,\"source\":\"Watch\"}",
                       "{\"date\":\"0001-05-10 09:02:00 +0000\",\"qty\":5,\"source\":\"Watch\"}",
                       "{\"date\":\"\(at(40))\",\"qty\":5,\"qty\":6,\"source\":\"Watch\"}",
                       "{\"date\":\"\(at(41))\",\"qty\":\"12\",\"source\":\"Watch\"}",
                       "{\"date\":\"\(at(42))\",\"qty\":7,\"source\":12}",
                       "{\"date\":\"\(at(43))\",\"qty\":7,\"source\":null}",
                       "{\"date\":\"\(at(44))\",\"qty\":7,\"source\":\"\"}",
                       "{\"date\":\"\(at(45))\",\"qty\":7,\"source\":\"Watch\",\"foo\":1}",
                       "{\"date\":\"\(at(46))\",\"qty\":7,\"source\":\"Watch\",\"units\":\"count\"}",
                       "{\"date\":\"\(at(47))\",\"qty\":7,\"source\":\"Wa\\u0007tch\"}",
                       "{\"date\":\"\(at(48))\",\"qty\":7,\"source\":\"Wa\u{200F}tch\"}",
                       "{\"date\":\"\(at(49))\",\"qty\":7,\"source\":\"\(merged)\"}",
                       "{\"date\":\"\(at(50))\"}", "{\"qty\":3}", "{}"]
            let steps = oddNumbers.enumerated().map { "{\"date\":\"\(at($0.offset))\",\"qty\":\($0.element),\"source\":\"Watch\"}" } + odd
            let energy = oddNumbers.enumerated().map { "{\"qty\":\($0.element),\"date\":\"\(at($0.offset))\"}" }
            let oxygen = ["97.123456789012345", "100", "0.5", "100.00000000000001", "12.50", "95"].enumerated().map {
                "{\"date\":\"\(at($0.offset))\",\"qty\":\($0.element),\"source\":\"Watch\"}"
            }
            let hearts = [("60.000000000000007", "72.400000000000006", "90.99999999999999"), ("61", "61", "61"),
                          ("61", "61.0000000000000001", "61"), ("1e1", "7.2e1", "1.1e2"), ("80", "70", "90"), ("-0", "0", "0"),
                          ("55.5", "66.6", "77.7")]
            let heart = hearts.enumerated().map { index, figures in
                "{\"Min\":\(figures.0),\"Avg\":\(figures.1),\"Max\":\(figures.2),\"date\":\"\(at(index))\",\"source\":\"Watch\"}"
            } + ["{\"qty\":70,\"date\":\"\(at(30))\"}", "{\"Avg\":70,\"Min\":null,\"Max\":80,\"date\":\"\(at(31))\"}",
                 "{\"Avg\":70,\"Min\":60,\"date\":\"\(at(32))\"}", "{\"Avg\":400,\"Min\":60,\"Max\":900,\"date\":\"\(at(33))\"}",
                 "{\"Avg\":70,\"Min\":69.99,\"Max\":70.01,\"date\":\"2024-05-10 09:34:17 +0200\"}"]
            return payload([("step_count", "count", steps), ("active_energy", "kcal", energy),
                            ("blood_oxygen_saturation", "%", oxygen), ("heart_rate", "count/min", heart)])
        }

        func oddNumbersGiveTheSameStoreAsEveryBatchReadAndAsSamplesBuilt() throws {
            let odd = Self.oddPayload()
            for batchSize in [3, 20_000] {
                for reference in [Fast.Reference.everyBatchRead, .samplesBuilt] {
                    let counts = try Fast.compare([.json(odd, name: "odd.json"), .json(odd, name: "odd-again.json")],
                                                  batchSize: batchSize, reference: reference)
                    #expect(counts.direct > 40, "\(counts)")
                }
            }
        }

        /// The same point twice in one payload with another value (in one metric, and in the metric sent twice), the
        /// same time with its source spelled in NFC and in NFD, a Kelvin sign: the later one stands, as when every
        /// batch is read, whether the copies share a batch or not.
        func aPointResentInThePayloadWithAnotherValue() throws {
            let nfc = "Caf\u{E9} Watch", nfd = "Cafe\u{301} Watch"
            let first = (0..<12).map { "{\"date\":\"\(Self.at($0))\",\"qty\":\(10 + $0),\"source\":\"Watch\"}" }
            let again = (0..<12).map { "{\"date\":\"\(Self.at($0))\",\"qty\":\($0 % 2 == 0 ? 10 + $0 : 100 + $0),\"source\":\"Watch\"}" }
            let inside = ["{\"date\":\"\(Self.at(20))\",\"qty\":5,\"source\":\"Watch\"}",
                          "{\"date\":\"\(Self.at(20))\",\"qty\":6,\"source\":\"Watch\"}",
                          "{\"date\":\"\(Self.at(21))\",\"qty\":7,\"source\":\"\(nfc)\"}",
                          "{\"date\":\"\(Self.at(21))\",\"qty\":7,\"source\":\"\(nfd)\"}",
                          "{\"date\":\"\(Self.at(22))\",\"qty\":8,\"source\":\"\u{212A}elvin\"}",
                          "{\"date\":\"\(Self.at(22))\",\"qty\":9,\"source\":\"Kelvin\"}"]
            let heart = ["{\"Min\":60,\"Avg\":70,\"Max\":80,\"date\":\"\(Self.at(0))\",\"source\":\"Watch\"}",
                         "{\"Min\":70,\"Avg\":70,\"Max\":70,\"date\":\"\(Self.at(0))\",\"source\":\"Watch\"}",
                         "{\"Min\":61,\"Avg\":71,\"Max\":81,\"date\":\"\(Self.at(1))\",\"source\":\"Watch\"}",
                         "{\"Min\":62,\"Avg\":71,\"Max\":81,\"date\":\"\(Self.at(1))\",\"source\":\"Watch\"}"]
            let text = Self.payload([("step_count", "count", first + inside), ("heart_rate", "count/min", heart),
                                     ("step_count", "count", again)])
            for batchSize in [1, 4, 7, 20_000] {
                try Fast.compare([.json(text, name: "twice.json")], batchSize: batchSize, reference: .everyBatchRead)
                try Fast.compare([.json(text, name: "twice.json")], batchSize: batchSize, reference: .samplesBuilt)
            }
        }

        /// The same file twice, a grown re-send, the same day pushed through a program, and an export's records
        /// before and after: every step as when every batch is read.
        func resendsAndAnExportAroundTheDirectPath() throws {
            let base = (0..<40).map { "{\"date\":\"\(Self.at($0 * 3))\",\"qty\":\(20 + $0),\"source\":\"Jane’s iPhone\"}" }
            let grown = (0..<60).map { "{\"date\":\"\(Self.at($0 * 3))\",\"qty\":\($0 % 7 == 0 ? 99 : 20 + $0),\"source\":\"Jane’s iPhone\"}" }
            let heart = (0..<40).map { "{\"Min\":\(50 + $0),\"Avg\":\(60 + $0),\"Max\":\(70 + $0),\"date\":\"\(Self.at($0 * 3))\"}" }
            let one = Self.payload([("step_count", "count", base), ("heart_rate", "count/min", heart)])
            let two = Self.payload([("step_count", "count", grown), ("heart_rate", "count/min", heart)])
            let steps = (0..<10).map { index in
                ImportTestSupport.record(value: "\(100 + index)", start: "2024-05-10 \(8 + index / 6):\(index % 6)0:00 +0200",
                                         end: "2024-05-10 \(8 + index / 6):\(index % 6)5:00 +0200")
            }.joined(separator: "\n")
            let export = ImportTestSupport.export(steps)
            for batchSize in [17, 20_000] {
                try Fast.compare([.json(one, name: "a.json"), .json(one, name: "a.json"), .json(two, name: "b.json"),
                                  .push(two, through: "Health Auto Export"), .xml(export), .json(one, name: "a.json")],
                                 batchSize: batchSize, reference: .everyBatchRead)
            }
            try Fast.compare([.xml(export), .json(two, name: "b.json"), .json(one, name: "a.json")], batchSize: 17,
                             reference: .everyBatchRead)
        }

        /// A source name of 200 scalars in NFC is fine; the same name in NFD is 300 scalars, over
        /// ``TextRules/sourceNameLimit``, and is refused when it comes alone. After its NFC twin it must be refused too:
        /// whether a point is stored cannot hang on the point before it.
        func aSourceTooLongInNFDIsRefusedAfterItsNFCTwinToo() throws {
            let nfc = String(repeating: "\u{E9}", count: 100) + String(repeating: "a", count: 100)
            let nfd = String(repeating: "e\u{301}", count: 100) + String(repeating: "a", count: 100)
            expectEqual(nfc, nfd)
            expectNil(TextRules.sourceNameProblem(nfc))
            #expect(TextRules.sourceNameProblem(nfd) != nil)
            func imported(_ sources: [String]) throws -> ImportReceipt {
                let points = sources.enumerated().map { "{\"date\":\"\(Self.at($0.offset))\",\"qty\":\(10 + $0.offset),\"source\":\"\($0.element)\"}" }
                return try ImportTestSupport.withTemporaryDirectory { folder in
                    try HealthImporter(store: HAEFastPathTests.store(folder + "/s"), timeZone: HAEFastPathTests.berlin)
                        .importHealthAutoExport(HealthAutoExportPayload(bytes: Array(Self.payload([("step_count", "count", points)]).utf8),
                                                                        name: "p.json"), receivedThrough: nil)
                }
            }
            let alone = try imported([nfd])
            expectEqual(alone.counts[HealthAutoExportTests.steps]?.rejected, 1)
            let after = try imported([nfc, nfd])
            expectEqual(after.counts[HealthAutoExportTests.steps]?.added, 1)
            expectEqual(after.counts[HealthAutoExportTests.steps]?.rejected, 1)
        }

        /// The memo's byte comparison: canonical twins of the same byte length (`ḋ` with a dot below, `ḍ` with a dot
        /// above) are equal Strings and different bytes; texts of other lengths and the same text are told apart as
        /// the element-by-element comparison tells them.
        func theSourceMemoComparesBytesNotStrings() {
            let above = "\u{1E0B}\u{323}", below = "\u{1E0D}\u{307}"
            #expect(above == below && above.utf8.count == below.utf8.count)
            #expect(!HAESampleBuilder.sameBytes(above, below))
            for (a, b) in [("Jane’s Apple Watch", "Jane’s Apple Watch"), ("Jane’s Apple Watch", "Jane’s Apple Watcg"),
                           ("", ""), ("", "a"), ("Watch|iPhone", "Watch|iPhon"), (above, above)] {
                expectEqual(HAESampleBuilder.sameBytes(a, b), a.utf8.elementsEqual(b.utf8), "\(a) and \(b)")
            }
        }

        /// ``HAEHashSet`` against `Set<Int>`: zero, negative hashes, hashes equal in their low bits (one probe chain),
        /// re-inserts, growth from empty and from a given capacity, and room made ahead (`reserve(adding:)`, which
        /// rehashes what is there) between insertions.
        func theRunsHashSetAgreesWithASet() {
            var generator = IndependentTestKit.SeededGenerator(seed: 1_919)
            for capacity in [0, 1, 7, 300] {
                var ours = HAEHashSet(minimumCapacity: capacity)
                var reference = Set<Int>()
                for step in 0..<5_000 {
                    let value: Int
                    switch step % 5 {
                    case 0: value = Int.random(in: Int.min...Int.max, using: &generator)
                    case 1: value = Int.random(in: -40...40, using: &generator) << 40
                    case 2: value = Int.random(in: -3...3, using: &generator)
                    case 3: value = reference.randomElement(using: &generator) ?? 0
                    default: value = Int.random(in: -2_000...2_000, using: &generator) * 1_048_576
                    }
                    if step % 997 == 0 {
                        ours.reserve(adding: [0, 1, 3_000][step % 3])
                        expectEqual(ours.count, reference.count)
                        expectEqual(ours.slotWord(value) == 0 && ours.contains(value) && value != 0, false, "slot of \(value)")
                    }
                    expectEqual(ours.insert(value), reference.insert(value).inserted, "insert \(value)")
                    let probe = Int.random(in: -3...3, using: &generator) << 44
                    expectEqual(ours.contains(probe), reference.contains(probe), "contains \(probe)")
                }
                expectEqual(ours.count, reference.count)
                #expect(reference.allSatisfy { ours.contains($0) })
            }
        }

        /// The real payloads in ../shared (read in place), alone, twice and one after the other, in small and whole
        /// batches, against the path that reads every batch.
        func sharedRealPayloadsGiveTheSameStoreAsEveryBatchRead() throws {
            let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("shared/fixtures/health-auto-export").path
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
            guard !names.isEmpty else {
                print("S19ReviewHAEDirectTests: skipped, ../shared/fixtures/health-auto-export is absent")
                return
            }
            // Each alone into an empty store (the direct path's case: a batch holding sleep, or near a month already
            // stored, is read whole), then one after the other and back (each again), whole and in batches that end
            // inside metrics (each batch writes and syncs).
            let all = try names.map { Fast.Step.json(try String(contentsOfFile: folder + "/" + $0, encoding: .utf8), name: $0) }
            var direct = 0
            for step in all { direct += try Fast.compare([step], batchSize: 20_000, reference: .everyBatchRead).direct }
            #expect(direct > 0)
            direct += try Fast.compare(all + all.reversed(), batchSize: 20_000, reference: .everyBatchRead).direct
            direct += try Fast.compare(all, batchSize: 1_500, reference: .everyBatchRead).direct
            #expect(direct > 0)
        }
    }
}

/// The checks ``ImportTests.S19ReviewHAEDirectTests/checks(_:)`` runs.
private let s19ReviewHAEDirectTestsChecks: [Check<ImportTests.S19ReviewHAEDirectTests>] = [
    Check("oddNumbersGiveTheSameStoreAsEveryBatchReadAndAsSamplesBuilt",
          ImportTests.S19ReviewHAEDirectTests.oddNumbersGiveTheSameStoreAsEveryBatchReadAndAsSamplesBuilt),
    Check("aPointResentInThePayloadWithAnotherValue",
          ImportTests.S19ReviewHAEDirectTests.aPointResentInThePayloadWithAnotherValue),
    Check("resendsAndAnExportAroundTheDirectPath",
          ImportTests.S19ReviewHAEDirectTests.resendsAndAnExportAroundTheDirectPath),
    Check("aSourceTooLongInNFDIsRefusedAfterItsNFCTwinToo",
          ImportTests.S19ReviewHAEDirectTests.aSourceTooLongInNFDIsRefusedAfterItsNFCTwinToo),
    Check("theSourceMemoComparesBytesNotStrings",
          ImportTests.S19ReviewHAEDirectTests.theSourceMemoComparesBytesNotStrings),
    Check("theRunsHashSetAgreesWithASet", ImportTests.S19ReviewHAEDirectTests.theRunsHashSetAgreesWithASet),
    Check("sharedRealPayloadsGiveTheSameStoreAsEveryBatchRead",
          ImportTests.S19ReviewHAEDirectTests.sharedRealPayloadsGiveTheSameStoreAsEveryBatchRead),
]
