import Foundation
import Testing
import TestKit
@testable import HealthCore

extension ImportTests {
    /// A large Health Auto Export payload parsed on two threads (``HAEPointsAhead``: stretches of points read ahead
    /// and taken where the parser meets them) against the same bytes parsed on one: the same metrics, points, fields,
    /// values and lines, the same other elements, and the same failure with its line and column, whatever falls on a
    /// cut (a string holding `},{`, a point's nested objects, a workout, the end of a metric, a bad point).
    struct HAEPointsAheadTests {
        /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
        /// build a tenth of a `@Test` apiece (README.md, "Development").
        @Test(arguments: hAEPointsAheadTestsChecks)
        func checks(_ check: Check<Self>) async throws {
            try await check.run(on: Self())
        }

        /// Piece sizes small enough to cut test payloads many times, at many different places.
        static let pieceSizes = [61, 200, 777, 4096]

        /// Everything a parse gives, as text (numbers by their bits), or its failure.
        static func parsed(_ bytes: [UInt8], pieceSize: Int) -> (text: String, stretches: (taken: Int, dropped: Int)) {
            bytes.withUnsafeBufferPointer { buffer in
                var parser = HAEParser(buffer, pieceSize: pieceSize)
                do {
                    return (described(try parser.parse()), parser.stretches)
                } catch {
                    return ("failed: \(error)", parser.stretches)
                }
            }
        }

        static func described(_ parsed: HAEParser.Parsed) -> String {
            func value(_ value: HAEValue) -> String {
                switch value {
                case let .number(number): return "n\(number.bitPattern)"
                case let .date(date, offset): return "d\(date.timeIntervalSinceReferenceDate.bitPattern)\(offset)"
                default: return "\(value)"
                }
            }
            var lines: [String] = []
            for metric in parsed.metrics {
                lines.append("metric \(metric.name) \(metric.units) line \(metric.line) points \(metric.points.count)")
                for point in metric.points {
                    lines.append("  \(point.line): " + point.fields.map { "\($0.key)=\(value($0.value))" }.joined(separator: " "))
                }
            }
            for item in parsed.others {
                lines.append("\(item.array) line \(item.line) \(String(describing: item.start)) \(String(describing: item.end)) \(item.json)")
            }
            lines.append("ignored \(parsed.ignored)")
            return lines.joined(separator: "\n")
        }

        /// A payload of `seed`'s making: metrics of points of every shape the parser reads, strings and nested values
        /// that look like the start of a point, points that are no objects, many keys (some not UTF-8), CRLF and
        /// indented lines, empty metrics and a workout with a route; with `broken`, one fault somewhere in it.
        static func randomPayload(seed: UInt64, broken: Bool) -> [UInt8] {
            var state = seed &+ 0x9E37_79B9_7F4A_7C15
            func next(_ bound: Int) -> Int {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Int((state >> 33) % UInt64(bound))
            }
            let spaces = ["", " ", "\n", "\r\n", "\n    ", " \n\t"]
            func space() -> String { spaces[next(spaces.count)] }
            let looksLikeAPoint = ["},{", "}, {", "}  ,  {", "\\\"},{\\\"qty\\\":1", "}]},{\\\"name\\\":\\\"x\\\",\\\"data\\\":[{"]
            var metrics: [String] = []
            for metricNumber in 0..<(1 + next(4)) {
                var points: [String] = []
                let count = next(5) == 0 ? 0 : next(400)
                for index in 0..<count {
                    let date = "\"2024-03-\(10 + index % 18) \(10 + index % 14):\(10 + index % 50):00 +0\(index % 3)00\""
                    switch next(13) {
                    case 0: points.append("\(next(1000))")
                    case 1: points.append("\"" + looksLikeAPoint[next(looksLikeAPoint.count)] + "\"")
                    case 2:
                        points.append("{\"date\":\(date),\"note\":\"" + looksLikeAPoint[next(looksLikeAPoint.count)] + "\",\"qty\":\(next(90))}")
                    case 3:
                        points.append("{\"date\":\(date),\"extra\":{\"a\":[1,{\"b\":2},{\"c\":[{\"d\":null},{}]}]},\"qty\":-0}")
                    case 4:
                        points.append("{\(space())\"Min\"\(space()):\(space())\(next(60)),\(space())\"Avg\":\(next(90)).5,\"Max\":1e2,"
                                      + "\(space())\"date\":\(date),\"source\":\"Jane’s Watch|Jane’s iPhone\"\(space())}")
                    case 5:
                        // Keys of their own: more than the list keeps as bytes, one of them not UTF-8.
                        points.append("{\"date\":\(date),\"k\(next(30))\":true,\"\u{FF}\(next(2))\":false,\"qty\":\(next(9))}")
                    case 6: points.append("{}")
                    case 8: points.append("{\"date\":\(date),\"note\":\"" + String(repeating: "ab", count: 400 + next(800)) + "\",\"qty\":1}")
                    case 7: points.append("{\"date\":\"2024-03-01 10:\(10 + next(50)):00.\(100 + next(900)) +0130\",\"qty\":0.1}")
                    default:
                        points.append("{\"qty\":\(next(300)),\"date\":\(date),\"source\":\"Watch \(next(3))\"}")
                    }
                }
                let name = ["step_count", "heart_rate", "active_energy", "walking_running_distance"][metricNumber % 4]
                metrics.append("{\(space())\"name\":\"\(name)\",\"units\":\"count\",\"data\":[\(space())"
                               + points.joined(separator: "," + space()) + "\(space())]\(space())}")
            }
            let route = (0..<next(50)).map { "{\"lat\":\($0),\"lon\":1,\"timestamp\":\"2024-03-10 10:00:00 +0100\"}" }
            var text = "{\"data\":{\"metrics\":[" + metrics.joined(separator: ",\n") + "],\n\"workouts\":[{\"name\":\"Walk\","
                + "\"start\":\"2024-03-10 09:00:00 +0100\",\"route\":[" + route.joined(separator: ",") + "]}]}}"
            if broken {
                let faults = ["", ";", "}", "{", "\"", ",]", "x", "\\u12", "\u{1}"]
                var bytes = Array(text.utf8)
                let at = next(bytes.count)
                let fault = faults[next(faults.count)]
                if fault.isEmpty {
                    bytes.removeSubrange(at...)
                } else {
                    bytes.replaceSubrange(at..<min(bytes.count, at + 1), with: Array(fault.utf8))
                }
                return bytes
            }
            // Bytes that are not UTF-8 in keys, as a phone could never write but a file can hold: two of them read as
            // the same name (U+FFFD).
            text = text.replacingOccurrences(of: "\u{FF}", with: "\u{1F}")
            var bytes = Array(text.utf8)
            for index in bytes.indices where bytes[index] == 0x1F { bytes[index] = index % 2 == 0 ? 0xFF : 0xFE }
            return bytes
        }

        func aPayloadParsedOnTwoThreadsIsTheSameAsOnOne() throws {
            var taken = 0, dropped = 0
            for seed in 0..<60 as Range<UInt64> {
                let bytes = HAEPointsAheadTests.randomPayload(seed: seed, broken: false)
                let alone = HAEPointsAheadTests.parsed(bytes, pieceSize: 0)
                #expect(alone.stretches.taken == 0)
                #expect(!alone.text.hasPrefix("failed"), "seed \(seed): \(alone.text)")
                for pieceSize in HAEPointsAheadTests.pieceSizes where bytes.count / 3 >= pieceSize {
                    let both = HAEPointsAheadTests.parsed(bytes, pieceSize: pieceSize)
                    expectEqual(both.text, alone.text, "seed \(seed), pieces of \(pieceSize) bytes")
                    taken += both.stretches.taken
                    dropped += both.stretches.dropped
                }
            }
            // Both happen: stretches met where they start, and stretches from cuts the parser never stands at.
            #expect(taken > 300, "stretches taken: \(taken), dropped: \(dropped)")
            #expect(dropped > 20, "stretches taken: \(taken), dropped: \(dropped)")
        }

        func aFaultyPayloadFailsOnTwoThreadsAsOnOne() throws {
            for seed in 0..<80 as Range<UInt64> {
                let bytes = HAEPointsAheadTests.randomPayload(seed: seed, broken: true)
                let alone = HAEPointsAheadTests.parsed(bytes, pieceSize: 0)
                for pieceSize in HAEPointsAheadTests.pieceSizes where bytes.count / 3 >= pieceSize {
                    expectEqual(HAEPointsAheadTests.parsed(bytes, pieceSize: pieceSize).text, alone.text,
                                "seed \(seed), pieces of \(pieceSize) bytes")
                }
            }
        }

        /// Minute-level points read through a small window and small pieces: the window keeps what the thread reads
        /// (``HAEByteWindow/keptFrom``) and the payload is the one parsed whole on one thread.
        func aPayloadReadAWindowAtATimeOnTwoThreadsIsTheSame() throws {
            let bytes = Array(HAEByteWindowTests.payloadText().utf8)
            let whole = try HealthAutoExportPayload(bytes: bytes, name: "payload.json", pieceSize: 0)
            // Pieces shorter than a heart-rate point: the thread's last point often crosses what the window has read.
            for pieceSize in [256, 4096, 10_000, 33_333] {
                var wholeRead = false
                let streamed = try HealthAutoExportPayload(streaming: HAEByteWindowTests.ChunkReader(bytes, step: 1000), size: bytes.count,
                                                           name: "payload.json", sizes: HAEByteWindowTests.small,
                                                           pieceSize: pieceSize) {
                    wholeRead = true
                    return bytes
                }
                #expect(!wholeRead, "pieces of \(pieceSize) bytes")
                expectEqual(HAEByteWindowTests.described(streamed), HAEByteWindowTests.described(whole), "pieces of \(pieceSize) bytes")
            }
            // Random payloads, some of their points longer than what the window reads past a piece: the thread's
            // last point is cut short, and the parser reads it.
            for seed in 0..<20 as Range<UInt64> {
                let bytes = HAEPointsAheadTests.randomPayload(seed: seed, broken: seed % 3 == 0)
                let alone = HAEPointsAheadTests.parsed(bytes, pieceSize: 0).text
                for pieceSize in [512, 2048] where bytes.count / 3 >= pieceSize {
                    let streamed: String
                    do {
                        let payload = try HealthAutoExportPayload(streaming: HAEByteWindowTests.ChunkReader(bytes, step: 1000), size: bytes.count,
                                                                  name: "payload.json", sizes: HAEByteWindowTests.small, pieceSize: pieceSize) {
                            // A payload that fails is parsed whole again, for its error's line and column.
                            if seed % 3 != 0 { Issue.record("seed \(seed), pieces of \(pieceSize) bytes: read whole") }
                            return bytes
                        }
                        streamed = HAEPointsAheadTests.described(payload.parsed)
                    } catch let error as ImportError {
                        guard case let .invalidHealthAutoExport(_, line, column, reason) = error else { throw error }
                        streamed = "failed: \(JSONCursor.Failure(line: line, column: column, reason: reason))"
                    }
                    expectEqual(streamed, alone, "seed \(seed), pieces of \(pieceSize) bytes")
                }
            }
            let (text, stretches) = HAEPointsAheadTests.parsed(bytes, pieceSize: 4096)
            expectEqual(text, HAEPointsAheadTests.parsed(bytes, pieceSize: 0).text)
            #expect(stretches.taken * 4096 > bytes.count / 3, "a third of the payload read ahead: \(stretches)")
        }

        /// The place a stretch starts: a `{` after `,` after `}`, spaces between.
        func aStretchStartsWhereAnObjectFollowsAnother() {
            func start(_ text: String, from: Int = 0) -> Int? {
                Array(text.utf8).withUnsafeBufferPointer { HAEPointsAhead.pointStart(in: $0, from: from, before: $0.count) }
            }
            expectEqual(start("[{\"a\":1},{\"a\":2}]"), 9)
            expectEqual(start("[{\"a\":1} ,\r\n\t{\"a\":2}]"), 13)
            expectEqual(start("[{\"a\":1},{\"a\":2},{\"a\":3}]", from: 10), 17)
            #expect(start("[1,{\"a\":2}]") == nil)
            #expect(start("{\"a\":{\"b\":{}}}") == nil)
            #expect(start("[{\"a\":1}{\"a\":2}]") == nil)
        }
    }
}

/// The checks ``ImportTests.HAEPointsAheadTests/checks(_:)`` runs.
private let hAEPointsAheadTestsChecks: [Check<ImportTests.HAEPointsAheadTests>] = [
    Check("aPayloadParsedOnTwoThreadsIsTheSameAsOnOne", ImportTests.HAEPointsAheadTests.aPayloadParsedOnTwoThreadsIsTheSameAsOnOne),
    Check("aFaultyPayloadFailsOnTwoThreadsAsOnOne", ImportTests.HAEPointsAheadTests.aFaultyPayloadFailsOnTwoThreadsAsOnOne),
    Check("aPayloadReadAWindowAtATimeOnTwoThreadsIsTheSame",
          ImportTests.HAEPointsAheadTests.aPayloadReadAWindowAtATimeOnTwoThreadsIsTheSame),
    Check("aStretchStartsWhereAnObjectFollowsAnother", ImportTests.HAEPointsAheadTests.aStretchStartsWhereAnObjectFollowsAnother),
]
