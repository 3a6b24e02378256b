import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

/// A byte stream over an array, handing out at most `chunk` bytes per read (to exercise buffer refills).
final class ArrayByteReader: ByteReader {
    private let bytes: [UInt8]
    private let chunk: Int
    private var offset = 0

    init(_ bytes: [UInt8], chunk: Int = .max) {
        self.bytes = bytes
        self.chunk = chunk
    }

    convenience init(_ text: String, chunk: Int = .max) { self.init(Array(text.utf8), chunk: chunk) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - offset, chunk)
        guard count > 0 else { return 0 }
        bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
        offset += count
        return count
    }
}

extension ImportTests {
    struct XMLByteScannerTests {
        /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
        /// build a tenth of a `@Test` apiece (README.md, "Development").
        @Test(arguments: xMLByteScannerTestsChecks)
        func checks(_ check: Check<Self>) async throws {
            try await check.run(on: Self())
        }

        struct Seen: Equatable {
            var kind: String
            var name: String
            var attributes: [String]
            var line: Int
        }

        private func scan(_ text: String, bufferSize: Int = 1 << 20, chunk: Int = .max) throws -> (tags: [Seen], problems: [XMLByteScanner.Problem]) {
            let scanner = XMLByteScanner(reader: ArrayByteReader(text, chunk: chunk), bufferSize: bufferSize)
            var tags: [Seen] = []
            var problems: [XMLByteScanner.Problem] = []
            try scanner.scan(onTag: { tag in
                let kind = tag.kind == .open ? "open" : tag.kind == .close ? "close" : "empty"
                tags.append(Seen(kind: kind, name: tag.nameText, attributes: tag.attributes.map { "\($0.nameText)=\($0.value)" }, line: tag.line))
            }, onProblem: { problems.append($0) })
            return (tags, problems)
        }

        func reportsTagsAttributesAndLines() throws {
            let text = "<?xml version=\"1.0\"?>\n<a x=\"1\" y='two'>\n <b z=\"&lt;3&gt;\"/>\n</a>\n"
            let result = try scan(text)
            expectEqual(result.tags, [
                Seen(kind: "open", name: "a", attributes: ["x=1", "y=two"], line: 2),
                Seen(kind: "empty", name: "b", attributes: ["z=<3>"], line: 3),
                Seen(kind: "close", name: "a", attributes: [], line: 4),
            ])
            #expect(result.problems.isEmpty)
        }

        func skipsTheInternalDTDEvenWhenItIsMalformed() throws {
            let text = ImportTestSupport.export("", dtd: ImportTestSupport.malformedDTD)
            let result = try scan(text)
            expectEqual(result.tags.map(\.name), ["HealthData", "ExportDate", "Me", "HealthData"])
            #expect(result.problems.isEmpty)
        }

        func skipsCommentsCDATAAndStrayControlBytes() throws {
            let text = "<r>\u{0B}<!-- <x/> -->\n<![CDATA[<y/>]]>\u{0B}\u{0B}<z a=\"b\u{0B}c\"/></r>"
            let result = try scan(text)
            expectEqual(result.tags.map(\.name), ["r", "z", "r"])
            expectEqual(result.tags[1].attributes, ["a=bc"])
        }

        func sameResultWhateverTheBufferAndReadSizes() throws {
            let body = (0..<200).map { ImportTestSupport.record(value: String($0), metadata: $0 % 3 == 0 ? [("HKTimeZone", "Europe/Berlin")] : []) }
            let text = ImportTestSupport.export(body.joined(separator: "\n"))
            let whole = try scan(text)
            for (bufferSize, chunk) in [(64, 7), (256, 1), (4096, 333)] {
                let small = try scan(text, bufferSize: bufferSize, chunk: chunk)
                expectEqual(small.tags, whole.tags)
                expectEqual(small.problems, whole.problems)
            }
            expectEqual(whole.tags.filter { $0.name == "Record" && $0.kind != "close" }.count, 200)
        }

        func recoversFromMalformedTagsWithTheirLineNumbers() throws {
            let text = "<r>\n<a x=\"1\" y=>\n<b/>\n<c x=\"unterminated/>\n<d/>\n<e x=\"1\" / >\n</r>\n"
            let result = try scan(text)
            expectEqual(result.tags.map(\.name), ["r", "b", "d", "r"])
            expectEqual(result.problems.map(\.line), [2, 4, 6])
        }

        func reportsAFileCutInsideATag() throws {
            let result = try scan("<r>\n<a x=\"1\"\n y=\"2")
            expectEqual(result.tags.map(\.name), ["r"])
            expectEqual(result.problems, [XMLByteScanner.Problem(line: 2, message: "the file ends inside this markup (it is truncated)")])
        }

        func toleratesSpacesInAttributeNames() throws {
            // iOS 8 exports wrote metadata keys with spaces as attribute names.
            let result = try scan("<Record type=\"x\" Was User Entered=\"1\"/>")
            expectEqual(result.tags.first?.attributes, ["type=x", "Was User Entered=1"])
        }

        /// Issue 29, item 10: a tag is flagged exactly when its bytes are not well-formed UTF-8, wherever the bad
        /// byte sits (name, attribute name, value, before or after an entity), whatever the buffer's refills.
        func flagsTagsWhoseBytesAreNotUTF8() throws {
            let t = { (text: String) in Array(text.utf8) }
            let bad: [[UInt8]] = [[0xE9], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80], [0xFF]]
            var tags: [([UInt8], Bool)] = [
                (t("<a x=\"café ’ 🙂\" y=\"plain\"/>"), false),
                (t("<ü x=\"1\"/>"), false),
                (t("<a x=\"") + Array(repeating: UInt8(ascii: "z"), count: 37) + t("é\"/>"), false),
            ]
            for sequence in bad {
                // After a well-formed non-ASCII attribute, in a later one; at a name's end before '=' or spaces.
                tags.append((t("<a x=\"’\" y=\"caf") + sequence + t("\"/>"), true))
                tags.append((t("<a x=\"é\" n") + sequence + t("=\"1\"/>"), true))
                tags.append((t("<a x") + sequence + t(" =\"1\" y=\"’\">"), true))
                tags.append((t("<né x=\"1\" y=\"") + sequence + t("\">"), true))
                tags.append((t("<a x=\"caf") + sequence + t("\"/>"), true))
                tags.append((t("<a x=\"&amp;") + sequence + t("&lt;\" y=\"ok\"/>"), true))
                tags.append((t("<a n") + sequence + t("me=\"1\"/>"), true))
                tags.append((t("<n") + sequence + t(" x=\"1\">"), true))
                tags.append((t("<a x=\"") + Array(repeating: UInt8(ascii: "z"), count: 21) + sequence + t("\"/>"), true))
            }
            let bytes: [UInt8] = tags.flatMap { tag -> [UInt8] in tag.0 + [0x0A] }
            for chunk in [1, 7, 64, Int.max] {
                let scanner = XMLByteScanner(reader: ArrayByteReader(bytes, chunk: chunk), bufferSize: 64)
                var flags: [Bool] = []
                try scanner.scan(onTag: { flags.append($0.hasInvalidUTF8) }, onProblem: { Issue.record("\($0)") })
                expectEqual(flags, tags.map(\.1), "chunk \(chunk)")
            }
        }

        /// Harder random tags: tabs, returns and line feeds around '=' and in names, both quotes (the other one inside a
        /// value), entities, control bytes, overlong, surrogate, cut-short and stray sequences just before '=' or the
        /// closing quote, long runs across the buffer, attributes right after a closing quote; read in chunks of 1 to
        /// all bytes through buffers of 64 and 200. A tag is flagged exactly when its bytes as a whole are not UTF-8.
        func flagsNastyRandomTags() throws {
            var generator = SystemRandomNumberGenerator()
            func r(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }
            let high: [[UInt8]] = [Array("é".utf8), Array("’".utf8), Array("🙂".utf8), [0xC3], [0xA9], [0xE2, 0x80], [0xF0, 0x9F],
                                   [0x80], [0xFF], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80], [0xE2], [0xBF, 0xBF],
                                   [0xF0, 0x9F, 0x99], [0xC2, 0xA0], [0xEF, 0xBB, 0xBF]]
            func piece(_ extra: [[UInt8]]) -> [UInt8] {
                switch r(0...9) {
                case 0...3: return Array("abZ9".utf8).shuffled(using: &generator).prefix(r(1...4)).map { $0 }
                case 4...6: return high[r(0...high.count - 1)]
                case 7: return Array(repeating: UInt8(ascii: "z"), count: r(0...80))
                default: return extra.isEmpty ? [UInt8(ascii: "q")] : extra[r(0...extra.count - 1)]
                }
            }
            let spaces: [[UInt8]] = [[0x20], [0x09], [0x0A], [0x0D], [0x20, 0x20]]
            func ws(_ range: ClosedRange<Int>) -> [UInt8] { (0..<r(range)).flatMap { _ in spaces[r(0...spaces.count - 1)] } }
            var tags: [[UInt8]] = []
            for _ in 0..<2000 {
                var tag: [UInt8] = [UInt8(ascii: "<")]
                for _ in 0..<r(1...3) { tag += piece([]) }
                if tag.count == 1 { tag += [UInt8(ascii: "n")] }
                var afterQuote = false
                for _ in 0..<r(0...5) {
                    tag += afterQuote && r(0...3) == 0 ? [] : ws(1...2)
                    var name: [UInt8] = piece([])
                    if name.isEmpty { name = [UInt8(ascii: "k")] }
                    for _ in 0..<r(0...2) { name += piece([[0x20], Array("/".utf8), Array("'".utf8), Array("\"".utf8)]) }
                    tag += name + ws(0...2) + [UInt8(ascii: "=")] + ws(0...2)
                    let quote: UInt8 = r(0...1) == 0 ? UInt8(ascii: "\"") : UInt8(ascii: "'")
                    let other: UInt8 = quote == UInt8(ascii: "'") ? UInt8(ascii: "\"") : UInt8(ascii: "'")
                    tag.append(quote)
                    for _ in 0..<r(0...6) {
                        tag += piece([Array("&amp;".utf8), Array("&#233;".utf8), [other], Array("=/>".utf8), [0x09], [0x0A], [0x20], [0x01]])
                    }
                    if r(0...2) == 0 { tag += high[r(0...high.count - 1)] }
                    tag.append(quote)
                    afterQuote = true
                }
                tag += ws(0...1) + (r(0...1) == 0 ? Array("/>".utf8) : Array(">".utf8))
                tags.append(tag)
            }
            let expected = tags.map { String(validating: $0, as: UTF8.self) == nil }
            #expect(expected.contains(true) && expected.contains(false))
            let bytes: [UInt8] = tags.flatMap { tag -> [UInt8] in tag + Array("text\n".utf8) }
            for chunk in [1, 13, 64, Int.max] {
                for size in [64, 200] {
                    let scanner = XMLByteScanner(reader: ArrayByteReader(bytes, chunk: chunk), bufferSize: size)
                    var flags: [Bool] = []
                    try scanner.scan(onTag: { flags.append($0.hasInvalidUTF8) }, onProblem: { Issue.record("\($0)") })
                    expectEqual(flags.count, expected.count, "chunk \(chunk) size \(size)")
                    for (index, (flag, want)) in zip(flags, expected).enumerated() where flag != want {
                        Issue.record("chunk \(chunk) size \(size): tag \(index) \(tags[index]) flagged \(flag)")
                        break
                    }
                }
            }
        }

        /// Random tags whose names and values mix ASCII, well-formed sequences and stray bytes from 0x80: a tag is
        /// flagged exactly when its bytes as a whole are not UTF-8 (the standard library's reading).
        func flagsRandomTagsAsTheirWholeBytesRead() throws {
            var generator = SystemRandomNumberGenerator()
            let pieces: [[UInt8]] = [Array("ab".utf8), Array("Z9".utf8), Array("é".utf8), Array("’".utf8), Array("🙂".utf8),
                                     [0xC3], [0xA9], [0xE2, 0x80], [0xF0, 0x9F], [0x80], [0xFF], [0xED, 0xA0, 0x80]]
            func text(_ parts: Int) -> [UInt8] {
                var bytes: [UInt8] = []
                for _ in 0..<parts {
                    let odd = Int.random(in: 0..<4, using: &generator) == 0
                    bytes += odd ? pieces[Int.random(in: 0..<pieces.count, using: &generator)] : pieces[0]
                }
                return bytes
            }
            var tags: [[UInt8]] = []
            for _ in 0..<400 {
                var tag: [UInt8] = [UInt8(ascii: "<")] + text(Int.random(in: 1...3, using: &generator))
                for _ in 0..<Int.random(in: 0...4, using: &generator) {
                    tag += [0x20]
                    tag += text(Int.random(in: 1...3, using: &generator))
                    tag += Array("=\"".utf8)
                    tag += text(Int.random(in: 0...20, using: &generator))
                    tag += [UInt8(ascii: "\"")]
                }
                tags.append(tag + Array("/>".utf8))
            }
            let expected = tags.map { String(validating: $0, as: UTF8.self) == nil }
            #expect(expected.contains(true) && expected.contains(false), "the draw holds tags of both kinds")
            let bytes: [UInt8] = tags.flatMap { tag -> [UInt8] in tag + [0x0A] }
            for chunk in [5, Int.max] {
                let scanner = XMLByteScanner(reader: ArrayByteReader(bytes, chunk: chunk), bufferSize: 64)
                var flags: [Bool] = []
                try scanner.scan(onTag: { flags.append($0.hasInvalidUTF8) }, onProblem: { Issue.record("\($0)") })
                expectEqual(flags, expected, "chunk \(chunk)")
            }
        }
    }
}

/// The checks ``ImportTests.XMLByteScannerTests/checks(_:)`` runs.
private let xMLByteScannerTestsChecks: [Check<ImportTests.XMLByteScannerTests>] = [
    Check("reportsTagsAttributesAndLines", ImportTests.XMLByteScannerTests.reportsTagsAttributesAndLines),
    Check("skipsTheInternalDTDEvenWhenItIsMalformed",
          ImportTests.XMLByteScannerTests.skipsTheInternalDTDEvenWhenItIsMalformed),
    Check("skipsCommentsCDATAAndStrayControlBytes",
          ImportTests.XMLByteScannerTests.skipsCommentsCDATAAndStrayControlBytes),
    Check("sameResultWhateverTheBufferAndReadSizes",
          ImportTests.XMLByteScannerTests.sameResultWhateverTheBufferAndReadSizes),
    Check("recoversFromMalformedTagsWithTheirLineNumbers",
          ImportTests.XMLByteScannerTests.recoversFromMalformedTagsWithTheirLineNumbers),
    Check("reportsAFileCutInsideATag", ImportTests.XMLByteScannerTests.reportsAFileCutInsideATag),
    Check("toleratesSpacesInAttributeNames", ImportTests.XMLByteScannerTests.toleratesSpacesInAttributeNames),
    Check("flagsTagsWhoseBytesAreNotUTF8", ImportTests.XMLByteScannerTests.flagsTagsWhoseBytesAreNotUTF8),
    Check("flagsRandomTagsAsTheirWholeBytesRead", ImportTests.XMLByteScannerTests.flagsRandomTagsAsTheirWholeBytesRead),
    Check("flagsNastyRandomTags", ImportTests.XMLByteScannerTests.flagsNastyRandomTags),
]
