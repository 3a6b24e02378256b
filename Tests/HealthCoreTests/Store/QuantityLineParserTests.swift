import Foundation
import Testing
import TestKit
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
        expectEqual(fields.start, ISODate.parse("2024-06-01T08:00:00+02:00"))
        expectEqual(fields.end, ISODate.parse("2024-06-01T08:00:00.250+02:00"))
        expectEqual(fields.value, 0.5)
        expectEqual(fields.sequence, 42)
        expectEqual(Array(Array(line.utf8)[fields.source]), Array("hkctl".utf8))
    }

    /// A Health Auto Export period total is marked by its metadata's `HAEAggregation` naming a minute, hour, day or
    /// week (as ``MergedSample/isPeriodTotal(_:)`` reads a decoded sample's); the mark is read whatever else the
    /// metadata holds, and a key written twice counts as a decoder keeps it (the last entry).
    @Test(arguments: [
        (#"{"HAEAggregation":"day"}"#, true), (#"{"HAEAggregation":"minute"}"#, true), (#"{"HAEAggregation":"hour"}"#, true),
        (#"{"HAEAggregation":"week"}"#, true), (#"{"HAEAggregation":"month"}"#, false), (#"{"HAEAggregation":"days"}"#, false),
        (#"{"HAEAggregation":"Day"}"#, false), (#"{"HAEAggregation":1}"#, false), (#"{"HAEAggregatio":"day"}"#, false),
        (#"{"note":"day"}"#, false), (#"{}"#, false), (#"{"HKWasUserEntered":1,"HAEAggregation":"hour","x":"y"}"#, true),
        (#"{"HAEAggregation":"day","HAEAggregation":"other"}"#, false), (#"{"HAEAggregation":"other","HAEAggregation":"week"}"#, true),
        (#"{"HAEAggregation":"day","HAEAggregation":2}"#, false),
    ])
    func readsThePeriodTotalMark(metadata: String, marked: Bool) throws {
        let text = line.replacingOccurrences(of: #","seq":42"#, with: #","metadata":\#(metadata),"seq":42"#)
        let fields = try #require(parse(text), "the line is in the plain shape: \(text)")
        expectEqual(fields.isPeriodTotal, marked, "\(metadata)")
        // The full decoder agrees, where it keeps one entry per key.
        if metadata.components(separatedBy: "HAEAggregation").count == 2 {
            var codec = SampleLineCodec(catalogue: .standard, timeZone: .gmt)
            let sample = try Array(text.utf8).withUnsafeBufferPointer { try codec.decode($0) }
            expectEqual(MergedSample.isPeriodTotal(sample), marked, "\(metadata)")
        }
        // Marks are remembered per text: the same parser reads a line without one afterwards as unmarked.
        var parser = QuantityLineParser()
        let names = ReadingNames()
        let both = [text, line, text.replacingOccurrences(of: "c870d14d", with: "d870d14d")].map { text in
            Array(text.utf8).withUnsafeBufferPointer { parser.parse($0, names: names)?.isPeriodTotal }
        }
        expectEqual(both, [marked, false, marked])
    }

    private func parse(_ text: String, window: DateInterval) -> QuantityLineParser.Parsed {
        var parser = QuantityLineParser()
        return Array(text.utf8).withUnsafeBufferPointer { parser.parse($0, names: ReadingNames(), window: window) }
    }

    /// The line's sample runs from 06:00:00 to 06:00:00.250 UTC.
    @Test(arguments: [
        ("2024-06-01T05:00:00Z", "2024-06-01T06:00:00Z", false), ("2024-06-01T06:00:00.250Z", "2024-06-01T07:00:00Z", true),
        ("2024-06-01T06:00:00.100Z", "2024-06-01T06:00:00.200Z", true), ("2024-06-01T05:00:00Z", "2024-06-01T06:00:00.001Z", true),
        ("2024-06-01T06:00:00.251Z", "2024-06-02T00:00:00Z", false), ("2024-05-01T00:00:00Z", "2024-05-31T00:00:00Z", false),
    ])
    func linesOutsideTheWindowAreRecognisedByTheirDates(from: String, to: String, inside: Bool) throws {
        let window = DateInterval(start: try #require(ISODate.parse(from)), end: try #require(ISODate.parse(to)))
        switch parse(line, window: window) {
        case .fields(let fields): #expect(inside && fields.sequence == 42)
        case .outsideWindow: #expect(!inside)
        case .unreadable: Issue.record("the line is in the plain shape")
        }
    }

    @Test func aMomentOnTheWindowsEndIsOutside() throws {
        let moment = line.replacingOccurrences(of: "08:00:00.250+02:00", with: "08:00:00+02:00")
        let start = try #require(ISODate.parse("2024-06-01T06:00:00Z"))
        guard case .outsideWindow = parse(moment, window: DateInterval(start: start.addingTimeInterval(-60), end: start))
        else { Issue.record("a sample at the window's end is outside it"); return }
        guard case .fields = parse(moment, window: DateInterval(start: start, end: start.addingTimeInterval(60)))
        else { Issue.record("a sample at the window's start is inside it"); return }
    }

    @Test func damageAfterTheDatesMattersOnlyInsideTheWindow() throws {
        let damaged = line.replacingOccurrences(of: #""source":"hkctl""#, with: #""source":hkctl"#)
        let june = DateInterval(start: try #require(ISODate.parse("2024-06-01T00:00:00Z")), duration: 86_400)
        let may = DateInterval(start: try #require(ISODate.parse("2024-05-01T00:00:00Z")), duration: 86_400)
        guard case .unreadable = parse(damaged, window: june) else { Issue.record("inside: the full reader decides"); return }
        guard case .outsideWindow = parse(damaged, window: may) else { Issue.record("outside: skipped"); return }
        let badStart = line.replacingOccurrences(of: "2024-06-01T08:00:00+02:00", with: "2024-06-31T08:00:00+02:00")
        guard case .unreadable = parse(badStart, window: may) else { Issue.record("a bad date is never skipped"); return }
    }

    @Test func aFarLineIsSkippedByItsDaysWithoutCheckingItsUUIDAndTimes() throws {
        let june = DateInterval(start: try #require(ISODate.parse("2024-06-01T00:00:00Z")), duration: 86_400)
        let may = DateInterval(start: try #require(ISODate.parse("2024-05-01T00:00:00Z")), duration: 86_400)
        let damages = [
            line.replacingOccurrences(of: "c870d14d-90fb", with: "c870d14d-90fz"),
            line.replacingOccurrences(of: #""start":"2024-06-01T08:00:00+02:00""#, with: #""start":"2024-06-01T08:61:00+02:00""#),
            line.replacingOccurrences(of: "08:00:00.250+02:00", with: "08:00:00.250+02:7x"),
        ]
        for damaged in damages {
            guard case .unreadable = parse(damaged, window: june) else { Issue.record("inside: \(damaged)"); continue }
            guard case .outsideWindow = parse(damaged, window: may) else { Issue.record("far outside: \(damaged)"); continue }
        }
    }

    /// The day test alone must never drop a sample that overlaps the window, at any offset the form allows:
    /// random samples written at offsets up to ±18:59, against windows a few days around them.
    @Test func theDayTestNeverDropsAnOverlappingSample() throws {
        var generator = IndependentTestKit.SeededGenerator(seed: 11)
        let origin = try #require(ISODate.parse("2024-06-01T00:00:00Z")).timeIntervalSince1970
        let offsets = [-68_340, -50_400, -43_200, -3_600, 0, 1_800, 46_800, 50_400, 68_340]
        var outside = 0
        for _ in 0..<4_000 {
            let start = origin + Double(Int.random(in: -3 * 86_400...3 * 86_400, using: &generator))
            let end = start + [0, 1, 60, 3_600, 86_400][Int.random(in: 0..<5, using: &generator)]
            let windowStart = origin + Double(Int.random(in: -4 * 86_400...4 * 86_400, using: &generator))
            let window = DateInterval(start: Date(timeIntervalSince1970: windowStart),
                                      duration: [1, 3_600, 86_400, 3 * 86_400][Int.random(in: 0..<4, using: &generator)])
            let startText = ISODate.format(Date(timeIntervalSince1970: start),
                                           offsetSeconds: offsets.randomElement(using: &generator)!)
            let endText = ISODate.format(Date(timeIntervalSince1970: end),
                                         offsetSeconds: offsets.randomElement(using: &generator)!)
            let text = line.replacingOccurrences(of: "2024-06-01T08:00:00+02:00", with: startText)
                .replacingOccurrences(of: "2024-06-01T08:00:00.250+02:00", with: endText)
            let overlaps = QuantityReading.overlaps(start: Date(timeIntervalSince1970: start),
                                                    end: Date(timeIntervalSince1970: end), window)
            switch parse(text, window: window) {
            case .fields: #expect(overlaps, "\(startText) – \(endText) in \(window)")
            case .outsideWindow:
                #expect(!overlaps, "\(startText) – \(endText) in \(window)")
                outside += 1
            case .unreadable: Issue.record("unreadable: \(text)")
            }
        }
        #expect(outside > 1_000, "the windows should leave many samples outside")
    }

    /// Validation before an add relies on this: a line the positional reader accepts is one the full decoder
    /// accepts, with the same dates and value. Random byte changes, deletions and insertions in a writer's line.
    @Test func acceptsOnlyLinesTheDecoderAccepts() throws {
        let metadataLine = line.replacingOccurrences(of: #","seq":42"#, with: #","metadata":{"k":"v","n":-1.5e2},"seq":42"#)
        var generator = IndependentTestKit.SeededGenerator(seed: 7)
        let alphabet = Array(#"0123456789abcdefABCDEF-+:.,"{}[]\ eETZ/é"#.utf8) + [0x00, 0x0A, 0xC3, 0xFF]
        var accepted = 0
        for round in 0..<20_000 {
            var bytes = Array((round % 2 == 0 ? line : metadataLine).utf8)
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let position = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[position] = alphabet.randomElement(using: &generator)!
                case 1: bytes.remove(at: position)
                default: bytes.insert(alphabet.randomElement(using: &generator)!, at: position)
                }
            }
            var parser = QuantityLineParser()
            var codec = SampleLineCodec(catalogue: .standard, timeZone: .gmt)
            let fields = bytes.withUnsafeBufferPointer { parser.parse($0, names: ReadingNames()) }
            guard let fields else { continue }
            accepted += 1
            let decoded = bytes.withUnsafeBufferPointer { line -> Sample? in
                StoreLineReader.checkSampleLine(line, codec: &codec).sample
            }
            let text = String(decoding: bytes, as: UTF8.self)
            guard let sample = decoded else { Issue.record("accepted but not decodable: \(text)"); continue }
            #expect(sample.start == fields.start && sample.end == fields.end, "\(text)")
            expectEqual(sample.value.quantity?.value, fields.value, "\(text)")
        }
        #expect(accepted > 100, "some mutants (in a value's digits, say) stay valid")
    }

    @Test func agreesWithTheCodecOnLinesItAccepts() throws {
        let codec = SampleLineCodec(catalogue: .standard, timeZone: IndependentTestKit.zone("Europe/Paris"))
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
        ("escape inside the source", #""source":"hkctl""#, #""source":"hk\nctl""#),
        ("raw control character", #""source":"hkctl""#, "\"source\":\"hk\u{01}ctl\""),
        ("bad uuid", "c870d14d-90fb", "c870d14d_90fb"),
        ("garbage in created", #""created":"2024-06-01T08:00:04.120+02:00""#, #""created":"2024-06-01T0x:00:04.120+02:00""#),
        ("missing created", #","created":"2024-06-01T08:00:04.120+02:00""#, ""),
        ("nested metadata", #","seq":42}"#, #","metadata":{"a":{"b":1}},"seq":42}"#),
        ("metadata with a boolean", #","seq":42}"#, #","metadata":{"a":true},"seq":42}"#),
        ("metadata key with an escape", #","seq":42}"#, #","metadata":{"a\"b":1},"seq":42}"#),
        ("metadata without its brace", #","seq":42}"#, #","metadata":{"a":1,"seq":42}"#),
        ("metadata number ending in a point", #","seq":42}"#, #","metadata":{"a":1.},"seq":42}"#),
        ("metadata entry without a value", #","seq":42}"#, #","metadata":{"a":},"seq":42}"#),
        ("text after the object", #""seq":42}"#, #""seq":42} x"#),
        ("seq with a sign", #""seq":42"#, #""seq":-42"#),
        ("string value", #""value":0.5"#, #""value":"0.5""#),
        ("value with a plus", #""value":0.5"#, #""value":+0.5"#),
        ("value ending in a point", #""value":0.5"#, #""value":5."#),
        ("escaped source", #""source":"hkctl""#, #""source":"hk\"ctl""#),
        ("unknown unit", #""unit":"L""#, #""unit":"litre""#),
        ("keys in another order", #""unit":"L","source":"hkctl""#, #""source":"hkctl","unit":"L""#),
        ("impossible date", #""start":"2024-06-01T08"#, #""start":"2024-02-30T08"#),
    ])
    func handsOtherShapesToTheFullReader(label: String, from: String, to: String) {
        let changed = line.replacingOccurrences(of: from, with: to)
        #expect(changed != line, "\(label): the replacement must apply")
        expectNil(parse(changed), "\(label)")
    }

    @Test(arguments: [#"{}"#, #"{"HKMetadataKeyHeartRateMotionContext":"0"}"#, #"{"a":1,"b":"x","c":-2.5e3}"#,
                      #"{"HKMetadataKeySyncIdentifier":"Jane’s 7","HKWasUserEntered":1}"#])
    func skipsMetadataTheCodecAccepts(metadata: String) throws {
        let text = line.replacingOccurrences(of: #","seq":42}"#, with: #","metadata":"# + metadata + #","seq":42}"#)
        let fields = try #require(parse(text))
        var codec = SampleLineCodec(catalogue: .standard, timeZone: IndependentTestKit.zone("UTC"))
        let sample = try Array(text.utf8).withUnsafeBufferPointer { try codec.decode($0) }
        #expect(fields.sequence == 42 && fields.value == 0.5 && sample.metadata.count == metadata.filter { $0 == ":" }.count)
    }

    @Test func remembersEmptyTexts() throws {
        let text = line.replacingOccurrences(of: #""device":"name:Phone""#, with: #""sourceVersion":"","device":"""#)
        var parser = QuantityLineParser()
        let names = ReadingNames()
        for _ in 0..<3 {
            let fields = try #require(Array(text.utf8).withUnsafeBufferPointer { parser.parse($0, names: names) })
            expectEqual(fields.sequence, 42)
        }
    }

    @Test func readsNonASCIINamesAsTheCodecDoes() throws {
        let text = line.replacingOccurrences(of: #""source":"hkctl""#, with: #""source":"Jane’s iPhone 🍎""#)
        let fields = try #require(parse(text))
        let bytes = Array(text.utf8)
        expectEqual(String(decoding: bytes[fields.source], as: UTF8.self), "Jane’s iPhone 🍎")
        var codec = SampleLineCodec(catalogue: .standard, timeZone: IndependentTestKit.zone("UTC"))
        let sample = try bytes.withUnsafeBufferPointer { try codec.decode($0) }
        #expect(sample.source == "Jane’s iPhone 🍎" && sample.start == fields.start && fields.value == 0.5)
    }

    @Test(arguments: [[0xFF], [0xC3], [0xC0, 0xA9], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
                      [0xE2, 0x80]] as [[UInt8]])
    func refusesIllFormedUTF8(_ garbage: [UInt8]) {
        var bytes = Array(line.utf8)
        let at = bytes.firstIndex(of: UInt8(ascii: "k"))! // inside "hkctl"
        bytes.insert(contentsOf: garbage, at: at)
        var parser = QuantityLineParser()
        expectNil(bytes.withUnsafeBufferPointer { parser.parse($0, names: ReadingNames()) })
    }
}

/// The word-at-a-time uuid check accepts what the full decoder's uuid reader accepts, at every position.
struct UUIDCheckTests {
    private func check(_ text: String) -> Bool {
        Array(text.utf8).withUnsafeBufferPointer { QuantityLineParser.isUUID($0.baseAddress!) }
    }

    private func decoderAccepts(_ text: String) -> Bool {
        Array(text.utf8).withUnsafeBufferPointer { SampleLineCodec.uuid($0) != nil }
    }

    /// The key read from a uuid's text is the key of the uuid's bytes, in either case, so both order alike.
    @Test func keysFromTextMatchKeysFromBytes() throws {
        var keys: [(text: UUIDKey, bytes: UUIDKey)] = []
        for text in ["00000000-0000-0000-0000-000000000000", "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
                     "0a1b2c3d-4e5f-6A7B-8C9D-aEbFcdef0189"] + (0..<500).map({ _ in UUID().uuidString }) {
            for spelling in [text, text.lowercased(), text.uppercased()] {
                let uuid = try #require(UUID(uuidString: spelling))
                let fromText = Array(spelling.utf8).withUnsafeBufferPointer { UUIDKey(checkedText: $0.baseAddress!) }
                expectEqual(fromText, UUIDKey(uuid), "\(spelling)")
                keys.append((fromText, UUIDKey(uuid)))
            }
        }
        for (a, b) in zip(keys, keys.dropFirst()) { expectEqual((a.text < b.text), (a.bytes < b.bytes)) }
    }

    @Test func agreesWithTheDecoderAtEveryPosition() {
        let valid = "0a1b2c3d-4e5f-6A7B-8C9D-aEbFcdef0189"
        #expect(check(valid) && decoderAccepts(valid))
        for _ in 0..<50 { #expect(check(UUID().uuidString) && check(UUID().uuidString.lowercased())) }
        for position in 0..<36 {
            for bad in ["/", ":", "@", "G", "`", "g", "-", " ", "é"] {
                var characters = Array(valid)
                if characters[position] == Character(bad) { continue }
                characters[position] = Character(bad)
                let text = String(characters)
                guard text.utf8.count == 36 else { continue }
                #expect(!check(text) && !decoderAccepts(text), "\(text)")
            }
        }
    }
}

/// The validator behind the fast readers agrees with the standard library's UTF-8 decoder.
struct UTF8ValidationTests {
    /// The offset the standard library's decoder stops at, or nil when it decodes everything.
    private func reference(_ bytes: [UInt8]) -> Int? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case let .scalarValue(scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }

    @Test func agreesWithTheStandardLibraryOnRandomBytes() {
        var generator = SystemRandomNumberGenerator()
        let pieces: [[UInt8]] = [Array("abcdefgh".utf8), Array("é".utf8), Array("’".utf8), Array("🍎".utf8), [0x80], [0xC0],
                                 [0xE0, 0xA0], [0xED, 0xA0, 0x80], [0xF4, 0x90], [0xF0, 0x9F, 0x8D], [0xFF], [0xC2, 0xA9]]
        for _ in 0..<5_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                bytes += Bool.random(using: &generator) ? pieces.randomElement(using: &generator)!
                    : [UInt8.random(in: 0...255, using: &generator)]
            }
            let found = bytes.withUnsafeBufferPointer { buffer in
                buffer.baseAddress.flatMap { UTF8Validation.firstInvalidOffset($0, count: buffer.count) }
            }
            expectEqual(found, reference(bytes), "\(bytes)")
        }
    }

    @Test func findsTheOffsetAfterALongASCIIRun() {
        let bytes = Array(String(repeating: "a", count: 21).utf8) + [0xE2, 0x80, 0x99, 0xFF] + Array("tail".utf8)
        expectEqual(bytes.withUnsafeBufferPointer { UTF8Validation.firstInvalidOffset($0.baseAddress!, count: $0.count) }, 24)
        #expect(Array("Jane’s iPhone".utf8).withUnsafeBufferPointer { UTF8Validation.isValid($0) })
    }
}

/// Word-at-a-time comparison agrees with comparing arrays, at every length and every differing position.
struct ByteComparisonTests {
    @Test func agreesWithArrayEquality() {
        for length in 0...40 {
            let a = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            #expect(a.withUnsafeBufferPointer { p in a.withUnsafeBufferPointer { ByteComparison.equal(p.baseAddress ?? UnsafePointer(bitPattern: 8)!, $0.baseAddress ?? UnsafePointer(bitPattern: 8)!, length) } })
            for position in 0..<length {
                var b = a
                b[position] ^= 0x01
                let equal = a.withUnsafeBufferPointer { p in b.withUnsafeBufferPointer { ByteComparison.equal(p.baseAddress!, $0.baseAddress!, length) } }
                #expect(!equal, "length \(length), position \(position)")
            }
        }
    }
}

/// The insertion sort for nearly ordered readings gives exactly the standard library's stable sort, equal
/// elements (same start, end and uuid) included, whether it finishes or hands over.
struct NearlySortedTests {
    private struct Item: ChronologicallyOrdered {
        var start: Date
        var end: Date
        var uuid: UUIDKey
        var tag: Int
    }

    @Test(arguments: [0, 1, 5, 50, 10_000])
    func matchesTheStableSort(swaps: Int) {
        var generator = IndependentTestKit.SeededGenerator(seed: UInt64(swaps) + 3)
        let origin = Date(timeIntervalSince1970: 1_700_000_000)
        var items = (0..<2_000).map { index in
            // Few distinct times and uuids, so equal elements are common.
            let start = origin.addingTimeInterval(Double(index / 4) * 60)
            return Item(start: start, end: start.addingTimeInterval(Double(index % 2) * 30),
                        uuid: UUIDKey(hi: UInt64(index % 3), lo: 0), tag: index)
        }
        for _ in 0..<swaps {
            items.swapAt(Int.random(in: 0..<items.count, using: &generator), Int.random(in: 0..<items.count, using: &generator))
        }
        let expected = items.sorted()
        var sorted = items
        sorted.sortNearlySorted()
        expectEqual(sorted.map(\.tag), expected.map(\.tag))
    }
}
