import Foundation
import Testing
import TestKit
import TextSupport
@testable import HealthCore

/// `export --format healthxml` spells each sample's dates in bytes and each device once per store (ten years'
/// export 66 s before, the dates a fifth of it and the devices a quarter), and `export --format csv` quotes its fields
/// as the command line's CSV does, doubling quotes byte by byte (a search character by character was 40 % of it):
/// the text must be what it was, and every CSV field must read back.
struct HealthXMLSpellingTests {
    @Test(arguments: healthXMLSpellingTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit

    /// The spelling before (session 46): through Strings.
    private static func formerSpelling(_ date: Date, offsetSeconds: Int) -> String {
        var text = ISODate.format(date, offsetSeconds: offsetSeconds).replacingOccurrences(of: "T", with: " ")
        let zone = text.suffix(6)
        text.removeLast(6)
        return text + " " + zone.replacingOccurrences(of: ":", with: "")
    }

    func datesAreSpelledAsBefore() {
        var random = Kit.SeededGenerator(seed: 47)
        let offsets = [0, 3_600, -8 * 3_600, 19_800, 20_700, -9_000, 14 * 3_600, -12 * 3_600, 1_234]
        for index in 0..<3_000 {
            var seconds = Double(Int64.random(in: -2_000_000_000...5_000_000_000, using: &random))
            if index % 3 == 0 { seconds += Double(Int.random(in: 1..<1_000, using: &random)) / 1_000 }
            let date = Date(timeIntervalSince1970: seconds)
            let offset = offsets[index % offsets.count]
            expectEqual(ExportDateParser.format(date, offsetSeconds: offset), Self.formerSpelling(date, offsetSeconds: offset))
        }
        expectEqual(ExportDateParser.format(Kit.utc(2024, 3, 10, 9, 59), offsetSeconds: -8 * 3_600), "2024-03-10 01:59:00 -0800")
    }

    /// Keeps what it is given.
    private final class Memory: ExportDestination {
        var text = ""
        func write(_ text: String) throws { self.text += text }
        func finish() throws {}
    }

    /// Samples of three devices (and none) in turn: each record names its own sample's device.
    func eachRecordNamesItsOwnDevice() throws {
        let devices: [String?] = ["name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,1",
                                  "name:iPhone, manufacturer:Apple Inc., model:iPhone", nil, "name:Scale, model:Body+"]
        var samples: [Sample] = []
        for index in 0..<40 {
            var sample = Kit.quantity(.water, Double(100 + index), "mL", Kit.utc(2024, 6, 1, index % 24, index))
            sample.device = devices[index % devices.count]
            samples.append(sample)
        }
        let output = Memory()
        _ = try SampleExporter(store: InMemorySampleStore(samples), timeZone: .gmt)
            .export(types: nil, interval: OperationTestKit.everything, format: .healthxml, exportDate: Kit.utc(2024, 7, 1),
                    to: output)
        let records = output.text.split(separator: "\n").filter { $0.hasPrefix(" <Record ") }
        expectEqual(records.count, 40)
        for record in records {
            let value = try #require(record.firstMatch(of: /value="([0-9]+)"/)).output.1
            let index = Int(value)! - 100
            if let device = devices[index % devices.count] {
                let expected = XMLText.escape(DeviceDescription(normalized: device).exportText)
                #expect(record.contains(" device=\"\(expected)\""), "\(record)")
            } else {
                #expect(!record.contains(" device="), "\(record)")
            }
        }
    }
}

extension HealthXMLSpellingTests {
    /// The fields of one CSV row (RFC 4180), as a reader takes them.
    private static func fields(ofRow row: String) -> [String] {
        var fields: [String] = [], field: [UInt8] = [], quoted = false, index = 0
        let bytes = Array(row.utf8)
        while index < bytes.count {
            let byte = bytes[index]
            if quoted {
                if byte == 0x22 {
                    if index + 1 < bytes.count, bytes[index + 1] == 0x22 { field.append(0x22); index += 1 } else { quoted = false }
                } else {
                    field.append(byte)
                }
            } else if byte == 0x22 {
                quoted = true
            } else if byte == 0x2C {
                fields.append(String(decoding: field, as: UTF8.self))
                field = []
            } else {
                field.append(byte)
            }
            index += 1
        }
        fields.append(String(decoding: field, as: UTF8.self))
        return fields
    }

    func csvFieldsReadBack() throws {
        var random = Kit.SeededGenerator(seed: 49)
        let pieces = ["a", "\"", ",", "\n", "\r", "é", "e\u{301}", "\"\u{301}", "日本", " ", "{\"k\":\"v, w\"}", "🏃🏽‍♀️"]
        for _ in 0..<500 {
            let row = (0..<Int.random(in: 1...6, using: &random)).map { _ in
                (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)] }.joined()
            }
            let text = CSVText.row(row)
            expectEqual(Self.fields(ofRow: text).map { Array($0.utf8) }, row.map { Array($0.utf8) }, "\(text)")
        }
        expectEqual(CSVText.row(["plain", "a,b", "say \"hi\""]), "plain,\"a,b\",\"say \"\"hi\"\"\"")
        // A quote a combining mark follows is one character with it: still doubled.
        expectEqual(CSVText.row(["\"\u{301}x"]), "\"\"\"\u{301}x\"")
    }
}

extension HealthXMLSpellingTests {
    /// The escape before (session 46): scalar by scalar into a String.
    private static func formerEscape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\t": result += "&#9;"
            case "\n": result += "&#10;"
            case "\r": result += "&#13;"
            default:
                if scalar.value < 0x20 { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    func attributeTextIsEscapedAsBefore() {
        var random = Kit.SeededGenerator(seed: 50)
        let pieces = ["a", "&", "<", ">", "\"", "'", "\t", "\n", "\r", "\r\n", "\u{1}", "\u{1F}", "\u{7F}", "é", "e\u{301}",
                      "日本", "🏃🏽‍♀️", "<<HKDevice: 0x0>, name:Apple Watch>", "&amp;"]
        for _ in 0..<1_000 {
            let text = (0..<Int.random(in: 0...8, using: &random)).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &random)] }
                .joined()
            expectEqual(Array(XMLText.escape(text).utf8), Array(Self.formerEscape(text).utf8), "\(text.debugDescription)")
        }
    }
}

extension HealthXMLSpellingTests {
    /// A GPX track's name and type escape every markup byte, also one a combining mark follows.
    func gpxTextEscapesEveryMarkupByte() {
        expectEqual(GPXWriter.escape("Run & <walk> \"5k\" 'easy'"), "Run &amp; &lt;walk&gt; &quot;5k&quot; &apos;easy&apos;")
        expectEqual(GPXWriter.escape("a<\u{301}b&\u{300}"), "a&lt;\u{301}b&amp;\u{300}")
        expectEqual(GPXWriter.escape("日本 🏃🏽‍♀️ é"), "日本 🏃🏽‍♀️ é")
    }
}

/// The checks ``HealthXMLSpellingTests/checks(_:)`` runs.
private let healthXMLSpellingTestsChecks: [Check<HealthXMLSpellingTests>] = [
    Check("datesAreSpelledAsBefore", HealthXMLSpellingTests.datesAreSpelledAsBefore),
    Check("eachRecordNamesItsOwnDevice", HealthXMLSpellingTests.eachRecordNamesItsOwnDevice),
    Check("csvFieldsReadBack", HealthXMLSpellingTests.csvFieldsReadBack),
    Check("attributeTextIsEscapedAsBefore", HealthXMLSpellingTests.attributeTextIsEscapedAsBefore),
    Check("gpxTextEscapesEveryMarkupByte", HealthXMLSpellingTests.gpxTextEscapesEveryMarkupByte),
]
