import Foundation
import Testing
@testable import HealthCore

/// The positional reader takes only lines in the writer's exact shape and hands everything else to the full
/// decoder, so that both readers accept and refuse the same lines.
struct QuantityLineParserTests {
    private let line = #"{"uuid":"c870d14d-90fb-4277-8398-61fd8dfe863f","type":"HKQuantityTypeIdentifierDietaryWater","start":"2024-06-01T08:00:00+02:00","end":"2024-06-01T08:00:00.250+02:00","value":0.5,"unit":"L","source":"hkctl","device":"name:Phone","created":"2024-06-01T08:00:04.120+02:00","seq":42}"#

    private func parse(_ text: String) -> QuantityLineParser.Fields? {
        var parser = QuantityLineParser()
        let names = ReadingNames()
        return Array(text.utf8).withUnsafeBufferPointer { parser.parse($0, names: names) }
    }

    @Test func readsTheWritersLine() throws {
        let fields = try #require(parse(line))
        #expect(fields.start == ISODate.parse("2024-06-01T08:00:00+02:00"))
        #expect(fields.end == ISODate.parse("2024-06-01T08:00:00.250+02:00"))
        #expect(fields.value == 0.5)
        #expect(fields.sequence == 42)
        #expect(Array(Array(line.utf8)[fields.source]) == Array("hkctl".utf8))
    }

    @Test func agreesWithTheCodecOnLinesItAccepts() throws {
        let codec = SampleLineCodec(catalogue: .standard, timeZone: TimeZone(identifier: "Europe/Paris")!)
        for value in [0.1, 250, 1e-3, 72.4, 123456.789] {
            let sample = Sample(typeIdentifier: SampleType.water.identifier, start: TestSupport.date("2024-03-31T01:30:00Z"),
                                end: TestSupport.date("2024-03-31T01:30:00.5Z"), value: .quantity(Quantity(value, try HealthUnit(parsing: "mL"))),
                                source: "Health app", created: TestSupport.date("2024-03-31T02:00:00Z"))
            let text = codec.encode(sample, sequence: 7)
            let fields = try #require(parse(text), "\(text)")
            #expect(fields.start == sample.start && fields.end == sample.end && fields.value == value && fields.sequence == 7)
        }
    }

    @Test(arguments: [
        ("non-ASCII byte", #""source":"hkctl""#, "\"source\":\"hkctl\u{e9}\""),
        ("bad uuid", "c870d14d-90fb", "c870d14d_90fb"),
        ("garbage in created", #""created":"2024-06-01T08:00:04.120+02:00""#, #""created":"2024-06-01T0x:00:04.120+02:00""#),
        ("missing created", #","created":"2024-06-01T08:00:04.120+02:00""#, ""),
        ("metadata", #","seq":42}"#, #","metadata":{"a":1},"seq":42}"#),
        ("text after the object", #""seq":42}"#, #""seq":42} x"#),
        ("seq with a sign", #""seq":42"#, #""seq":-42"#),
        ("string value", #""value":0.5"#, #""value":"0.5""#),
        ("escaped source", #""source":"hkctl""#, #""source":"hk\"ctl""#),
        ("unknown unit", #""unit":"L""#, #""unit":"litre""#),
        ("keys in another order", #""unit":"L","source":"hkctl""#, #""source":"hkctl","unit":"L""#),
        ("impossible date", #""start":"2024-06-01T08"#, #""start":"2024-02-30T08"#),
    ])
    func handsOtherShapesToTheFullReader(label: String, from: String, to: String) {
        let changed = line.replacingOccurrences(of: from, with: to)
        #expect(changed != line, "\(label): the replacement must apply")
        #expect(parse(changed) == nil, "\(label)")
    }
}
