import Foundation
import Testing
import TestKit
@testable import HealthCore

extension ImportTests {
    /// A Health Auto Export file parsed a window of its bytes at a time (``HAEByteWindow``) against the whole bytes
    /// parsed at once: the same metrics, points, other elements and recognised aggregation, and the same failure
    /// with its line and column; what the window cannot hold (an element longer than it, a stream longer or shorter
    /// than its size) is parsed whole.
    struct HAEByteWindowTests {
        /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
        /// build a tenth of a `@Test` apiece (README.md, "Development").
        @Test(arguments: hAEByteWindowTestsChecks)
        func checks(_ check: Check<Self>) async throws {
            try await check.run(on: Self())
        }

        /// Small windows: a page read at a time, so a payload of a few hundred kB is read and released many times.
        static let small = HAEByteWindow.Sizes(chunk: 4096, ahead: 4096, behind: 4096)

        /// Hands out `bytes` in reads of at most `step` bytes (a stream shorter or longer than a size is made by
        /// giving other bytes than the size says).
        final class ChunkReader: ByteReader {
            let bytes: [UInt8]
            let step: Int
            var offset = 0
            init(_ bytes: [UInt8], step: Int) {
                self.bytes = bytes
                self.step = step
            }
            func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
                let count = min(step, buffer.count, bytes.count - offset)
                guard count > 0 else { return 0 }
                bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
                offset += count
                return count
            }
        }

        /// Everything a parse gives, as text.
        static func described(_ payload: HealthAutoExportPayload) -> String {
            var lines: [String] = []
            for metric in payload.parsed.metrics {
                lines.append("metric \(metric.name) \(metric.units) line \(metric.line)")
                for point in metric.points {
                    lines.append("  \(point.line): " + point.fields.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
                }
            }
            for item in payload.parsed.others {
                lines.append("\(item.array) line \(item.line) \(String(describing: item.start)) \(String(describing: item.end)) \(item.json)")
            }
            lines.append("ignored \(payload.parsed.ignored)")
            lines.append("\(payload.aggregation) \(payload.offsets.sorted()) \(payload.dayStarts)")
            return lines.joined(separator: "\n")
        }

        /// Two days of minute-level points (heart rate spread over lines), a workout and a key that is not an array.
        static func payloadText(longPoint: Bool = false) -> String {
            var text = HAEFastPathTests.minutePayload(days: 1, seed: 11, unit: 1)
            text.removeLast(2)
            let note = longPoint ? ",\"note\":\"" + String(repeating: "x", count: 3 * 4096) + "\"" : ""
            text += ",\n\"workouts\":[{\"name\":\"Walk\",\"start\":\"2024-03-30 09:00:00 +0100\",\"end\":\"2024-03-30 09:40:00 +0100\""
                + note + "}],\n\"version\":2}}"
            return text
        }

        static func streamed(_ bytes: [UInt8], size: Int? = nil, step: Int = 1000) throws -> (HealthAutoExportPayload, wholeRead: Bool) {
            var wholeRead = false
            let payload = try HealthAutoExportPayload(streaming: ChunkReader(bytes, step: step), size: size ?? bytes.count,
                                                      name: "payload.json", sizes: small) {
                wholeRead = true
                return bytes
            }
            return (payload, wholeRead)
        }

        func aPayloadReadAWindowAtATimeParsesAsTheWholeBytesAndGivesBackWhatItPassed() throws {
            let bytes = Array(HAEByteWindowTests.payloadText().utf8)
            #expect(bytes.count > 50 * 4096)
            let whole = try HealthAutoExportPayload(bytes: bytes, name: "payload.json")
            let (payload, wholeRead) = try HAEByteWindowTests.streamed(bytes)
            #expect(!wholeRead)
            expectEqual(HAEByteWindowTests.described(payload), HAEByteWindowTests.described(whole))
            #expect(payload.parsed.others.count == 1 && payload.parsed.metrics.count == 4)

            // The window itself: everything read once, and all but the last few pages given back.
            let window = try #require(try HAEByteWindow(ChunkReader(bytes, step: 1000), size: bytes.count, sizes: HAEByteWindowTests.small))
            var parser = HAEParser(window: window)
            _ = try parser.parse()
            #expect(window.filled == bytes.count && window.exact)
            #expect(window.released > bytes.count - 4 * 4096)
        }

        /// With the standard sizes a payload of several huge pages gets a buffer on a 2 MB boundary (on Linux, where
        /// it asks for huge pages) and gives back whole 2 MB pages, and still parses every point.
        func aLargePayloadIsGivenBackInWholeHugePages() throws {
            let point = Array("{\"qty\":12,\"date\":\"2024-03-29 10:00:00 +0100\",\"source\":\"Watch\"},\n".utf8)
            let count = 200_000
            var bytes = Array("{\"data\":{\"metrics\":[{\"name\":\"step_count\",\"units\":\"count\",\"data\":[".utf8)
            bytes.reserveCapacity(bytes.count + count * point.count + 16)
            for _ in 0..<count { bytes += point }
            bytes.removeLast(2)
            bytes += Array("]}]}}".utf8)
            #expect(bytes.count > 6 * HAEByteWindow.hugePage)
            let window = try #require(try HAEByteWindow(ChunkReader(bytes, step: 1 << 20), size: bytes.count))
            var parser = HAEParser(window: window)
            let parsed = try parser.parse()
            expectEqual(parsed.metrics.first?.points.count, count)
            #expect(window.filled == bytes.count && window.exact)
            #expect(window.released > bytes.count - 8 * HAEByteWindow.hugePage)
            #if os(Linux)
            expectEqual(UInt(bitPattern: window.bytes.baseAddress!) % UInt(HAEByteWindow.hugePage), 0)
            expectEqual(window.released % HAEByteWindow.hugePage, 0)
            #endif
        }

        func anElementLongerThanTheWindowOrAStreamOfAnotherSizeIsParsedWhole() throws {
            let long = Array(HAEByteWindowTests.payloadText(longPoint: true).utf8)
            let (payload, wholeRead) = try HAEByteWindowTests.streamed(long)
            #expect(wholeRead)
            #expect(HAEByteWindowTests.described(payload) == HAEByteWindowTests.described(try HealthAutoExportPayload(bytes: long, name: "payload.json")))

            // A file that grew or shrank while it was read: its size said otherwise.
            let bytes = Array(HAEByteWindowTests.payloadText().utf8)
            let whole = HAEByteWindowTests.described(try HealthAutoExportPayload(bytes: bytes, name: "payload.json"))
            for size in [bytes.count - 1, bytes.count + 1, bytes.count - 4096] {
                let (payload, wholeRead) = try HAEByteWindowTests.streamed(bytes, size: size)
                #expect(wholeRead, "size \(size)")
                expectEqual(HAEByteWindowTests.described(payload), whole)
            }
        }

        func anInvalidPayloadReadAWindowAtATimeFailsAsTheWholeBytesDo() throws {
            let bytes = Array(HAEByteWindowTests.payloadText().utf8)
            // A bad value deep in (past many released pages), and the payload cut short.
            var broken = bytes
            let at = broken.count * 3 / 4
            let comma = try #require(broken[at...].firstIndex(of: UInt8(ascii: ",")))
            broken[comma] = UInt8(ascii: ";")
            for invalid in [broken, Array(bytes.prefix(bytes.count - 10))] {
                var expected: ImportError?
                do { _ = try HealthAutoExportPayload(bytes: invalid, name: "payload.json") } catch let error as ImportError { expected = error }
                let wanted = try #require(expected)
                #expect(throws: wanted) { _ = try HAEByteWindowTests.streamed(invalid) }
            }
        }
    }
}

/// The checks ``ImportTests.HAEByteWindowTests/checks(_:)`` runs.
private let hAEByteWindowTestsChecks: [Check<ImportTests.HAEByteWindowTests>] = [
    Check("aPayloadReadAWindowAtATimeParsesAsTheWholeBytesAndGivesBackWhatItPassed",
          ImportTests.HAEByteWindowTests.aPayloadReadAWindowAtATimeParsesAsTheWholeBytesAndGivesBackWhatItPassed),
    Check("aLargePayloadIsGivenBackInWholeHugePages",
          ImportTests.HAEByteWindowTests.aLargePayloadIsGivenBackInWholeHugePages),
    Check("anElementLongerThanTheWindowOrAStreamOfAnotherSizeIsParsedWhole",
          ImportTests.HAEByteWindowTests.anElementLongerThanTheWindowOrAStreamOfAnotherSizeIsParsedWhole),
    Check("anInvalidPayloadReadAWindowAtATimeFailsAsTheWholeBytesDo",
          ImportTests.HAEByteWindowTests.anInvalidPayloadReadAWindowAtATimeFailsAsTheWholeBytesDo),
]
