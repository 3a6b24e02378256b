import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

/// The store's one-line JSON form of a sample.
struct SampleLineCodecTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: sampleLineCodecTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit

    private static let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    private static let noon = Kit.utc(2024, 6, 1, 12)

    private func encode(_ sample: Sample, zone: ZoneRules = .gmt) -> String {
        SampleLineCodec(catalogue: .standard, timeZone: zone).encode(sample)
    }

    private func decode(_ line: String) throws -> Sample {
        var codec = SampleLineCodec(catalogue: .standard, timeZone: .gmt)
        return try Array(line.utf8).withUnsafeBufferPointer { try codec.decode($0) }
    }

    private func roundTrip(_ sample: Sample, zone: ZoneRules = .gmt) throws -> Sample {
        let line = encode(sample, zone: zone)
        #expect(!line.contains("\n") && !line.contains("\r"), "a store line must be one line")
        #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any], "must be valid JSON: \(line)")
        return try decode(line)
    }

    private func sample(_ value: SampleValue, type: String = SampleType.water.identifier, start: Date = noon, end: Date? = nil,
                        source: String = "hkctl", metadata: [String: MetadataValue] = [:]) -> Sample {
        Sample(uuid: SampleLineCodecTests.uuid, typeIdentifier: type, start: start, end: end ?? start, value: value,
               source: source, created: start, metadata: metadata)
    }

    private func unit(_ text: String) -> HealthUnit { try! HealthUnit(parsing: text) }

    // MARK: Exact form

    func quantityLineHasTheDocumentedShape() {
        let line = encode(sample(.quantity(Quantity(500, unit("mL")))))
        #expect(line == #"{"uuid":"e621e1f8-c36c-495a-93fc-0c247a3e6e5f","type":"HKQuantityTypeIdentifierDietaryWater","start":"2024-06-01T12:00:00+00:00","end":"2024-06-01T12:00:00+00:00","value":500,"unit":"mL","source":"hkctl","created":"2024-06-01T12:00:00+00:00"}"#)
    }

    func categoryLineUsesTheCaseName() {
        let night = sample(.category(3), type: SampleType.sleep.identifier, start: Kit.utc(2024, 5, 31, 23), end: Kit.utc(2024, 6, 1, 7))
        let line = encode(night)
        #expect(line.contains(#","value":"asleepCore","source":"#))
        #expect(!line.contains(#""unit""#))
    }

    func datesCarryTheStoresZoneOffset() throws {
        let line = encode(sample(.quantity(Quantity(1, .count()))), zone: Kit.zone("Europe/Paris"))
        #expect(line.contains(#""start":"2024-06-01T14:00:00+02:00""#))
        try expectEqual(decode(line).start, SampleLineCodecTests.noon)  // same instant
    }

    func metadataKeysAreSortedAndCaseSensitive() {
        let line = encode(sample(.quantity(Quantity(1, .count())), metadata: ["key": .number(2.5), "Key": .string("A")]))
        #expect(line.hasSuffix(#","metadata":{"Key":"A","key":2.5}}"#))
    }

    // MARK: Round trips

    @Test(arguments: [0.0, 0.1, 72.4, 500, 1e-7, 123_456_789.125, 1e20, 16.9, 0.215])
    func quantityValuesRoundTripExactly(value: Double) throws {
        let original = sample(.quantity(Quantity(value, unit("mL"))))
        try expectEqual(roundTrip(original), original)
    }

    @Test(arguments: ["mL", "count", "count/min", "kg", "lb", "mmol<180.1558800000541>/L", "mL/min·kg", "degC", "%", "fl_oz_us", "kcal/hr·kg"])
    func unitsRoundTrip(unitText: String) throws {
        let original = sample(.quantity(Quantity(1.5, unit(unitText))))
        let decoded = try roundTrip(original)
        expectEqual(decoded.value.quantity?.unit.unitString, unitText)
        expectEqual(decoded, original)
    }

    func millisecondsAndCreationDateRoundTrip() throws {
        let start = Date(timeIntervalSince1970: Kit.utc(2024, 2, 29, 23, 59, 59).timeIntervalSince1970 + 0.123)
        var original = sample(.quantity(Quantity(3, .count())), type: SampleType.steps.identifier, start: start,
                              end: start.addingTimeInterval(60.5))
        original.created = Kit.utc(2024, 3, 1, 8)
        for zone in ["UTC", "Europe/Paris", "America/New_York", "Asia/Kolkata"] {
            try expectEqual(roundTrip(original, zone: Kit.zone(zone)), original, "\(zone)")
        }
    }

    @Test(arguments: 0...5)
    func sleepValuesRoundTrip(raw: Int) throws {
        let original = sample(.category(raw), type: SampleType.sleep.identifier, start: Kit.utc(2024, 5, 31, 23),
                              end: Kit.utc(2024, 6, 1, 7))
        try expectEqual(roundTrip(original), original)
    }

    func categoryOfAnUnknownTypeRoundTripsAsARawNumber() throws {
        // A category type this catalogue does not know (a newer HealthKit type, say).
        let mindful = sample(.category(0), type: "HKCategoryTypeIdentifierHkctlTestUnknownEvent",
                             start: Kit.utc(2024, 6, 1, 8), end: Kit.utc(2024, 6, 1, 8, 10))
        let line = encode(mindful)
        #expect(line.contains(#""value":0,"source""#))
        try expectEqual(decode(line), mindful)
    }

    func metadataRoundTripsWithCaseDistinctKeys() throws {
        let metadata: [String: MetadataValue] = [
            "HKTimeZone": .string("Europe/Paris"), "Key": .string("upper"), "key": .string("lower"), "KEY": .number(3),
            "ratio": .number(0.25), "negative": .number(-2.5), "tiny": .number(1e-7), "big": .number(1e300),
            "empty": .string(""), "numeric text": .string("42"),
        ]
        let original = sample(.quantity(Quantity(1, .count())), metadata: metadata)
        let decoded = try roundTrip(original)
        expectEqual(decoded.metadata, metadata)
        expectEqual(decoded.metadata.count, 10)
        expectEqual(decoded.metadata["numeric text"], .string("42"))  // a string of digits stays a string
    }

    func escapedStringsRoundTrip() throws {
        let tricky = "He said \"hi\"\\ \n line2\ttab\r\u{01}\u{1F}\u{7F} caf\u{E9} 日本語 😀 👩‍👩‍👧 \u{2028}\u{2029} </script> / end"
        let original = sample(.quantity(Quantity(1, .count())), source: tricky, metadata: [tricky: .string(tricky), "quote\"key": .number(1)])
        let line = encode(original)
        #expect(line.contains(#"\"hi\""#))
        #expect(line.contains(#"\n line2\ttab\r\u0001\u001f"#))
        #expect(line.contains(#"\u2028\u2029"#))
        let decoded = try decode(line)
        expectEqual(decoded.source, tricky)
        expectEqual(decoded.metadata, original.metadata)
        expectEqual(decoded, original)
    }

    /// One decoder reading line after line keeps each line's own device and source version (it reuses the text of
    /// the line before when the bytes are the same): runs, changes, an absent one, an escaped one.
    func eachLineKeepsItsOwnDeviceAndVersion() throws {
        let variants: [(String?, String?)] = [("name:Watch", "10.1"), ("name:Watch", "10.1"), ("name:iPhone", "10.1"),
                                              (nil, nil), ("name:Watch", "10.2"), ("name:W\"atch", "10.2"), ("name:Watch", nil),
                                              ("name:iPhone", "17.0"), ("name:iPhone", "17.0"), ("", "")]
        var codec = SampleLineCodec(catalogue: .standard, timeZone: .gmt)
        for (index, (device, version)) in variants.enumerated() {
            var original = sample(.quantity(Quantity(Double(index), .count())), type: SampleType.steps.identifier)
            original.device = device
            original.sourceVersion = version
            let line = encode(original)
            let decoded = try Array(line.utf8).withUnsafeBufferPointer { try codec.decode($0) }
            expectEqual(decoded.device, device, "line \(index)")
            expectEqual(decoded.sourceVersion, version, "line \(index)")
            expectEqual(decoded, original)
        }
    }

    /// One codec decodes many lines and keeps the category words it has read: each line's word is still read as a
    /// value of its own line's type (a word of another type is refused wherever it comes), in any order of types
    /// and words, and an unknown word is refused each time it comes.
    func categoryWordsAreReadForEachLinesOwnType() throws {
        let sleep = SampleType.sleep.identifier, stand = CategoryTypeIdentifier.appleStandHour.rawValue
        let lines: [(type: String, word: String, raw: Int?)] = [
            (sleep, "asleepCore", 3), (sleep, "awake", 2), (sleep, "asleepCore", 3), (stand, "asleepCore", nil),
            (stand, "stood", 0), (stand, "idle", 1), (sleep, "stood", nil), (sleep, "AWAKE", 2), (sleep, "awake", 2),
            (sleep, "rem", 5), (sleep, "HKCategoryValueSleepAnalysisAsleepDeep", 4), (sleep, "nonsense", nil),
            (sleep, "nonsense", nil), (stand, "stood", 0), (sleep, "inBed", 0), ("HKCategoryTypeIdentifierNotOne", "awake", nil),
        ]
        var codec = SampleLineCodec(catalogue: .standard, timeZone: .gmt)
        for (index, line) in lines.enumerated() {
            let text = #"{"uuid":"e621e1f8-c36c-495a-93fc-0c247a3e6e5f","type":"\#(line.type)","start":"2024-06-01T01:00:00+00:00","end":"2024-06-01T02:00:00+00:00","value":"\#(line.word)","source":"hkctl"}"#
            let decoded = try? Array(text.utf8).withUnsafeBufferPointer { try codec.decode($0) }
            expectEqual(decoded?.value.categoryRawValue, line.raw, "line \(index): \(line.word) of \(line.type)")
            // A fresh codec reads the line alike.
            expectEqual((try? decode(text))?.value.categoryRawValue, line.raw, "line \(index) alone")
        }
    }

    /// One codec decodes lines whose units change from line to line and back: each line keeps its own unit.
    func eachLineKeepsItsOwnUnit() throws {
        var codec = SampleLineCodec(catalogue: .standard, timeZone: .gmt)
        for (index, text) in ["mL", "mL", "L", "mL", "fl_oz_us", "L", "L", "mL", "cL"].enumerated() {
            let original = sample(.quantity(Quantity(Double(index + 1), unit(text))))
            let line = encode(original)
            let decoded = try Array(line.utf8).withUnsafeBufferPointer { try codec.decode($0) }
            expectEqual(decoded.value.quantity?.unit.unitString, text, "line \(index)")
            expectEqual(decoded, original)
        }
    }

    /// A field the decoder knows, named twice, is damage (the positional reader, which reads a line's first start
    /// and end, must never see another sample than the decoder); an unknown key twice is skipped, as any unknown key.
    func aKnownFieldTwiceIsDamage() throws {
        let line = encode(sample(.quantity(Quantity(1, .count()))))
        for key in ["start", "end", "value", "uuid", "source", "unit", "seq", "metadata"] {
            let field: String
            switch key {
            case "start", "end": field = "\"\(key)\":\"2024-05-20T10:00:00+00:00\""
            case "value", "seq": field = "\"\(key)\":2"
            case "metadata": field = "\"metadata\":{}"
            case "uuid": field = "\"uuid\":\"00000000-0000-0000-0000-000000000002\""
            default: field = "\"\(key)\":\"x\""
            }
            // The line names every field but `seq` and `metadata` once already: those get theirs twice.
            let twice = String(line.dropLast()) + "," + field + (["seq", "metadata"].contains(key) ? "," + field : "") + "}"
            #expect(throws: (any Error).self, "\(key) twice") { try decode(twice) }
        }
        expectEqual(try decode(String(line.dropLast()) + ",\"note\":1,\"note\":2}"), sample(.quantity(Quantity(1, .count()))))
    }

    // MARK: Lines written by others

    func decodesEscapesItDoesNotWriteItself() throws {
        let line = #"{"uuid":"e621e1f8-c36c-495a-93fc-0c247a3e6e5f","type":"HKQuantityTypeIdentifierStepCount","start":"2024-06-01T12:00:00Z","end":"2024-06-01T12:00:00Z","value":1,"unit":"count","source":"caf\u00e9 \ud83d\ude00 \/ \b\f \u0041"}"#
        try expectEqual(decode(line).source, "café 😀 / \u{8}\u{C} A")
    }

    func unknownKeysAreSkippedAndOrderDoesNotMatter() throws {
        let line = #"""
        { "extra" : {"nested":[1, 2.5e3, {"a":null}, [true, false]], "t":true}, "flag":false, "nothing":null, "list":[],
          "value" : 8000, "type":"HKQuantityTypeIdentifierStepCount", "uuid":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
          "unit":"count", "end":"2024-06-01T13:00:00+01:00", "start":"2024-06-01T11:00:00Z", "source":"import",
          "num": -1.5E-3, "text":"\"}" }
        """#.replacingOccurrences(of: "\n", with: " ") + "   "
        let decoded = try decode(line)
        expectEqual(decoded.uuid, SampleLineCodecTests.uuid)
        expectEqual(decoded.value, .quantity(Quantity(8000, .count())))
        expectEqual(decoded.start, Kit.utc(2024, 6, 1, 11))
        expectEqual(decoded.end, Kit.utc(2024, 6, 1, 12))  // 13:00+01:00
        expectEqual(decoded.created, decoded.start)        // created defaults to the start
        expectEqual(decoded.source, "import")
        #expect(decoded.metadata.isEmpty)
    }

    @Test(arguments: [
        ("HKCategoryValueSleepAnalysisAsleep", 1), ("HKCategoryValueSleepAnalysisAsleepREM", 5), ("inBed", 0), ("deep", 4),
    ])
    func sleepValuesWrittenWithOtherNamesDecode(word: String, raw: Int) throws {
        let line = #"{"uuid":"e621e1f8-c36c-495a-93fc-0c247a3e6e5f","type":"HKCategoryTypeIdentifierSleepAnalysis","start":"2024-05-31T23:00:00Z","end":"2024-06-01T07:00:00Z","value":"\#(word)","source":"export"}"#
        try expectEqual(decode(line).value, .category(raw))
    }

    private static let valid = #"{"uuid":"e621e1f8-c36c-495a-93fc-0c247a3e6e5f","type":"HKQuantityTypeIdentifierStepCount","start":"2024-06-01T12:00:00Z","end":"2024-06-01T12:00:00Z","value":1,"unit":"count","source":"hkctl"}"#

    func theValidLineDecodes() throws {
        try expectEqual(decode(SampleLineCodecTests.valid).value, .quantity(Quantity(1, .count())))
    }

    /// (line, why it is invalid).
    private static let invalidLines: [(String, String)] = {
        let valid = SampleLineCodecTests.valid
        func replacing(_ old: String, _ new: String) -> String { valid.replacingOccurrences(of: old, with: new) }
        var lines: [(String, String)] = []
        lines.append(("", "empty line"))
        lines.append(("[]", "not an object"))
        lines.append((#"{"uuid":"e621e1f8-c36c-495a-93fc-0c247a3e6e5f","type":"#, "truncated"))
        lines.append((replacing(#""uuid":"e621e1f8-c36c-495a-93fc-0c247a3e6e5f","#, ""), "no uuid"))
        lines.append((replacing(#""source":"hkctl""#, #""note":"x""#), "no source"))
        lines.append((replacing(#""type":"HKQuantityTypeIdentifierStepCount","#, ""), "no type"))
        lines.append((replacing("e621e1f8-c36c", "not-a-uuid"), "bad uuid"))
        lines.append((replacing(#""start":"2024-06-01T12:00:00Z""#, #""start":"2024-06-01T12:00:00""#), "no offset"))
        lines.append((replacing(#""start":"2024-06-01T12:00:00Z""#, #""start":"2023-02-29T12:00:00Z""#), "impossible date"))
        lines.append((replacing(#""unit":"count""#, #""unit":"furlong""#), "unknown unit"))
        lines.append((replacing(#""value":1,"unit":"count","#, #""value":1.5,"#), "fraction without unit"))
        lines.append((replacing(#""value":1,"#, ""), "no value"))
        lines.append((replacing(#""value":1"#, #""value":NaN"#), "NaN"))
        lines.append((replacing(#""value":1"#, #""value":+1"#), "leading plus"))
        lines.append((replacing(#""value":1"#, #""value":1e999"#), "overflow"))
        lines.append((valid + " x", "text after the object"))
        lines.append((valid + "}", "extra brace"))
        lines.append((replacing(#""source":"hkctl""#, #""source":"a\xb""#), "invalid escape"))
        lines.append((replacing(#""source":"hkctl""#, #""source":"\ud83d""#), "lone surrogate"))
        lines.append((replacing(#""source":"hkctl""#, #""source":"\u12""#), "short unicode escape"))
        lines.append((replacing(#","source""#, #""source""#), "missing comma"))
        lines.append((#"{"uuid":"e621e1f8-c36c-495a-93fc-0c247a3e6e5f","type":"HKCategoryTypeIdentifierSleepAnalysis","start":"2024-05-31T23:00:00Z","end":"2024-06-01T07:00:00Z","value":"napping","source":"x"}"#, "unknown sleep value"))
        return lines
    }()

    @Test(arguments: SampleLineCodecTests.invalidLines)
    func invalidLinesThrow(line: String, why: String) {
        #expect(throws: (any Error).self, "\(why)") { try decode(line) }
    }

    func rawControlCharactersInStringsAreNotJSON() {
        // RFC 8259 §7: characters below U+0020 must be escaped inside strings; a raw tab makes the line invalid JSON.
        let line = SampleLineCodecTests.valid.replacingOccurrences(of: #""source":"hkctl""#, with: "\"source\":\"a\tb\"")
        expectNil((try? JSONSerialization.jsonObject(with: Data(line.utf8))), "Foundation refuses it too")
        #expect(throws: (any Error).self) { try decode(line) }
    }

    func jsonQuotingEscapesWhatJSONRequires() {
        #expect(JSONText.quoted("a\"b") == #""a\"b""#)
        #expect(JSONText.quoted("back\\slash") == #""back\\slash""#)
        #expect(JSONText.quoted("\u{01}") == #""\u0001""#)
        #expect(JSONText.quoted("\u{2028}") == #""\u2028""#)
        expectEqual(JSONText.quoted("é😀"), "\"é😀\"")  // other text stays as UTF-8
    }
}

/// The checks ``SampleLineCodecTests/checks(_:)`` runs.
private let sampleLineCodecTestsChecks: [Check<SampleLineCodecTests>] = [
    Check("aKnownFieldTwiceIsDamage", SampleLineCodecTests.aKnownFieldTwiceIsDamage),
    Check("eachLineKeepsItsOwnDeviceAndVersion", SampleLineCodecTests.eachLineKeepsItsOwnDeviceAndVersion),
    Check("categoryWordsAreReadForEachLinesOwnType", SampleLineCodecTests.categoryWordsAreReadForEachLinesOwnType),
    Check("eachLineKeepsItsOwnUnit", SampleLineCodecTests.eachLineKeepsItsOwnUnit),
    Check("quantityLineHasTheDocumentedShape", SampleLineCodecTests.quantityLineHasTheDocumentedShape),
    Check("categoryLineUsesTheCaseName", SampleLineCodecTests.categoryLineUsesTheCaseName),
    Check("datesCarryTheStoresZoneOffset", SampleLineCodecTests.datesCarryTheStoresZoneOffset),
    Check("metadataKeysAreSortedAndCaseSensitive", SampleLineCodecTests.metadataKeysAreSortedAndCaseSensitive),
    Check("millisecondsAndCreationDateRoundTrip", SampleLineCodecTests.millisecondsAndCreationDateRoundTrip),
    Check("categoryOfAnUnknownTypeRoundTripsAsARawNumber",
          SampleLineCodecTests.categoryOfAnUnknownTypeRoundTripsAsARawNumber),
    Check("metadataRoundTripsWithCaseDistinctKeys", SampleLineCodecTests.metadataRoundTripsWithCaseDistinctKeys),
    Check("escapedStringsRoundTrip", SampleLineCodecTests.escapedStringsRoundTrip),
    Check("decodesEscapesItDoesNotWriteItself", SampleLineCodecTests.decodesEscapesItDoesNotWriteItself),
    Check("unknownKeysAreSkippedAndOrderDoesNotMatter",
          SampleLineCodecTests.unknownKeysAreSkippedAndOrderDoesNotMatter),
    Check("theValidLineDecodes", SampleLineCodecTests.theValidLineDecodes),
    Check("rawControlCharactersInStringsAreNotJSON", SampleLineCodecTests.rawControlCharactersInStringsAreNotJSON),
    Check("jsonQuotingEscapesWhatJSONRequires", SampleLineCodecTests.jsonQuotingEscapesWhatJSONRequires),
]
