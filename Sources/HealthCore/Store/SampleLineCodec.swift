#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TextSupport

/// Turns samples into the store's one-line JSON form and back.
///
/// A line has a stable key order:
/// `{"uuid":…,"type":…,"start":…,"end":…,"value":…,"unit":…,"source":…,"sourceVersion":…,"device":…,"created":…,"metadata":{…}}`
/// (`sourceVersion`, `device` and `metadata` only when present).
/// Quantities carry `value` (a number) and `unit`; category values are written by their HealthKit case name
/// (`"value":"asleepCore"`) when the catalogue knows the type, else as the raw number without a unit.
struct SampleLineCodec {
    let catalogue: SampleTypeCatalogue
    /// The zone whose offsets written dates carry (readability only: the instant is what counts).
    let timeZone: ZoneRules
    private var unitCache: [String: HealthUnit] = [:]
    /// The unit of the line last decoded with one: lines of a type repeat it, and its text is the one String
    /// ``lastUnit`` keeps, so comparing is cheaper than hashing it into ``unitCache``.
    private var lastParsedUnit: (text: String, unit: HealthUnit)?
    /// The `seq` of the line last decoded (0 for lines written before sequences existed).
    private(set) var lastSequence: UInt64 = 0
    private var lastType: (bytes: [UInt8], text: String)?
    private var lastSource: (bytes: [UInt8], text: String)?
    private var lastUnit: (bytes: [UInt8], text: String)?
    /// A device's description and a source's version repeat from line to line as its type and source do: one String
    /// for each run of them, not one each (`changes` of ten years' store held 2.5 GB, now 2.1).
    private var lastVersion: (bytes: [UInt8], text: String)?
    private var lastDevice: (bytes: [UInt8], text: String)?
    /// The raw values of the category words met so far on lines of one type (the type of the category line last
    /// decoded): the catalogue's lookup and ``SampleType/categoryValue(named:)`` once for each word, not for each
    /// line (a year of sleep is 7,800 lines of a handful of words).
    private var categoryWords: (type: String, raws: [String: Int])?

    init(catalogue: SampleTypeCatalogue, timeZone: ZoneRules) {
        self.catalogue = catalogue
        self.timeZone = timeZone
    }

    /// The sample's line, without the trailing newline; `sequence` is the store's change number for it.
    func encode(_ sample: Sample, sequence: UInt64? = nil) -> String {
        var line = "{\"uuid\":\"\(sample.uuid.lowercasedText)\",\"type\":\(JSONText.quoted(sample.typeIdentifier))"
        line += ",\"start\":\"\(ISODate.format(sample.start, in: timeZone))\",\"end\":\"\(ISODate.format(sample.end, in: timeZone))\""
        switch sample.value {
        case _ where sample.detail?.omitsValue == true:
            break
        case let .quantity(quantity):
            line += ",\"value\":\(NumberFormatting.json(quantity.value)),\"unit\":\(JSONText.quoted(quantity.unit.unitString))"
        case let .generic(value, unit):
            line += ",\"value\":\(JSONText.quoted(value))"
            if let unit { line += ",\"unit\":\(JSONText.quoted(unit))" }
            line += ",\"generic\":true"
        case let .category(raw):
            if let value = catalogue.type(identifier: sample.typeIdentifier)?.categoryValue(raw: raw) {
                line += ",\"value\":\(JSONText.quoted(value.name))"
            } else {
                line += ",\"value\":\(raw)"
            }
        }
        line += ",\"source\":\(JSONText.quoted(sample.source))"
        if let version = sample.sourceVersion { line += ",\"sourceVersion\":\(JSONText.quoted(version))" }
        if let device = sample.device { line += ",\"device\":\(JSONText.quoted(device))" }
        line += ",\"created\":\"\(ISODate.format(sample.created, in: timeZone))\""
        if !sample.metadata.isEmpty {
            let entries = sample.metadata.keys.sorted().map { key -> String in
                switch sample.metadata[key]! {
                case let .string(text): return JSONText.quoted(key) + ":" + JSONText.quoted(text)
                case let .number(number): return JSONText.quoted(key) + ":" + NumberFormatting.json(number)
                }
            }
            line += ",\"metadata\":{" + entries.joined(separator: ",") + "}"
        }
        if let detail = sample.detail { line += detail.lineField(timeZone: timeZone) }
        if let sequence { line += ",\"seq\":\(sequence)" }
        return line + "}"
    }

    /// The raw value of the category value `word` names for `type`.
    ///
    /// - Throws: A description when the catalogue does not know the type or the type has no such value.
    private mutating func categoryRaw(_ word: String, type: String) throws -> Int {
        if categoryWords?.type != type { categoryWords = (type, [:]) }
        if let raw = categoryWords?.raws[word] { return raw }
        guard let category = try? catalogue.type(identifier: type)?.categoryValue(named: word) else {
            throw LineError("'\(word)' is not a value of \(type)")
        }
        categoryWords?.raws[word] = category.rawValue
        return category.rawValue
    }

    /// Decodes one line (without its newline).
    ///
    /// - Throws: A description of what is wrong with the line.
    mutating func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws -> Sample {
        var scanner = JSONLineScanner(bytes)
        var uuid: UUID?, type: String?, start: Date?, end: Date?, created: Date?, source: String?
        var sourceVersion: String?, device: String?, generic = false
        var sequence: UInt64 = 0
        var number: Double?, word: String?, unitText: String?
        var metadata: [String: MetadataValue] = [:]
        var detail: SampleDetail?
        func date(_ scanner: inout JSONLineScanner, _ key: String) throws -> Date {
            if let raw = try scanner.readPlainStringBytes() {
                if let date = ISODate.parse(bytes: raw) { return date }
                throw LineError("'\(key)' is not a date with an offset: \(String(decoding: raw, as: UTF8.self))")
            }
            let text = try scanner.readString()
            guard let date = ISODate.parse(text) else { throw LineError("'\(key)' is not a date with an offset: \(text)") }
            return date
        }
        // A field named twice is damage, not "the last one wins": the positional reader (QuantityLineParser) reads a
        // line's first start and end, and must never see another sample in it than this decoder does.
        var seen: UInt32 = 0
        try scanner.readObjectRawKeys { scanner, raw in
            let key = raw.map(SampleLineCodec.key) ?? .other
            if key != .other {
                let bit: UInt32 = 1 << UInt32(key.rawValue)
                guard seen & bit == 0 else {
                    throw LineError("'\(raw.map { String(decoding: $0, as: UTF8.self) } ?? "")' appears twice; a sample names each field once")
                }
                seen |= bit
            }
            switch key {
            case .uuid:
                if let raw = try scanner.readPlainStringBytes(), let value = SampleLineCodec.uuid(raw) {
                    uuid = value
                } else {
                    let text = try scanner.readString()
                    guard let value = UUID(uuidString: text) else { throw LineError("'uuid' is not a UUID: \(text)") }
                    uuid = value
                }
            case .type: type = try SampleLineCodec.interned(&scanner, &lastType)
            case .start: start = try date(&scanner, "start")
            case .end: end = try date(&scanner, "end")
            case .created: created = try date(&scanner, "created")
            case .source: source = try SampleLineCodec.interned(&scanner, &lastSource)
            case .sourceVersion: sourceVersion = try SampleLineCodec.interned(&scanner, &lastVersion)
            case .device: device = try SampleLineCodec.interned(&scanner, &lastDevice)
            case .generic: generic = scanner.readLiteral("true") || !scanner.readLiteral("false")
            case .unit: unitText = try SampleLineCodec.interned(&scanner, &lastUnit)
            case .value:
                if scanner.peek() == UInt8(ascii: "\"") { word = try scanner.readString() } else {
                    number = try scanner.readNumber()
                }
            case .metadata:
                try scanner.readObject { scanner, key in
                    if scanner.peek() == UInt8(ascii: "\"") {
                        metadata[key] = .string(try scanner.readString())
                    } else {
                        metadata[key] = .number(try scanner.readNumber())
                    }
                }
            case .seq:
                let number = try scanner.readNumber()
                guard let whole = ChangeNumbers.exact(number) else {
                    throw LineError("'seq' must be a whole number from 0 to \(ChangeNumbers.maximum)")
                }
                sequence = whole
            case .workout, .correlation, .stateOfMind:
                detail = try SampleDetail.decodeField(raw.map(SampleLineCodec.key) ?? .other, from: &scanner)
            case .other:
                try scanner.skipValue()
            }
        }
        scanner.skipWhitespace()
        guard scanner.atEnd else { throw LineError("unexpected text after the object") }
        lastSequence = sequence
        guard let uuid, let type, let start, let end, let source else {
            throw LineError("a sample needs uuid, type, start, end and source")
        }
        let value: SampleValue
        if generic {
            guard let text = word ?? number.map(NumberFormatting.json) else { throw LineError("a generic sample needs a value") }
            value = .generic(value: text, unit: unitText)
        } else if let word {
            value = .category(try categoryRaw(word, type: type))
        } else if let number, let unitText {
            value = .quantity(Quantity(number, try unit(unitText)))
        } else if let number, let raw = Int(exactly: number) {
            value = .category(raw)
        } else if let detail, detail.omitsValue {
            value = .category(0)
        } else {
            throw LineError("a sample needs a value")
        }
        return Sample(uuid: uuid, typeIdentifier: type, start: start, end: end, value: value, source: source,
                      created: created ?? start, metadata: metadata, sourceVersion: sourceVersion, device: device,
                      detail: detail)
    }

    /// The keys of a sample line.
    enum Key: Int {
        case uuid, type, start, end, created, source, sourceVersion, device, generic, unit, value, metadata, seq, other
        case workout, correlation, stateOfMind
    }

    private static let keys: [(bytes: [UInt8], key: Key)] = {
        let names: [(String, Key)] = [
            ("uuid", .uuid), ("type", .type), ("start", .start), ("end", .end), ("created", .created),
            ("source", .source), ("sourceVersion", .sourceVersion), ("device", .device), ("generic", .generic),
            ("unit", .unit), ("value", .value), ("metadata", .metadata), ("seq", .seq),
            ("workout", .workout), ("correlation", .correlation), ("stateOfMind", .stateOfMind),
        ]
        return names.map { (Array($0.0.utf8), $0.1) }
    }()

    static func key(_ raw: UnsafeBufferPointer<UInt8>) -> Key {
        for candidate in keys where candidate.bytes.count == raw.count {
            if candidate.bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, raw.baseAddress!, raw.count) == 0 }) {
                return candidate.key
            }
        }
        return .other
    }

    /// Reads a string, reusing the previous line's `String` when the bytes are the same (types, sources and units
    /// repeat on almost every line of a partition).
    private static func interned(_ scanner: inout JSONLineScanner, _ last: inout (bytes: [UInt8], text: String)?) throws -> String {
        guard let raw = try scanner.readPlainStringBytes() else { return try scanner.readString() }
        if let last, last.bytes.count == raw.count,
           raw.isEmpty || last.bytes.withUnsafeBufferPointer({ memcmp($0.baseAddress!, raw.baseAddress!, raw.count) == 0 }) {
            return last.text
        }
        let text = String(decoding: raw, as: UTF8.self)
        last = (Array(raw), text)
        return text
    }

    /// Parses a canonical 36-character UUID from bytes without building a String (either case; dashes after the 8th,
    /// 12th, 16th and 20th digits). A table look-up per digit, no branch per digit: a search by uuid parses the uuid
    /// of every line of the store (``UUIDLineFilter``).
    static func uuid(_ bytes: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard bytes.count == 36, let p = bytes.baseAddress else { return nil }
        if p[8] != 45 || p[13] != 45 || p[18] != 45 || p[23] != 45 { return nil }
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var invalid: UInt8 = 0
        hexDigitValues.withUnsafeBufferPointer { table in
            withUnsafeMutableBytes(of: &raw) { out in
                var source = 0
                for index in 0..<16 {
                    if source == 8 || source == 13 || source == 18 || source == 23 { source += 1 }
                    let high = table[Int(p[source])], low = table[Int(p[source + 1])]
                    invalid |= high | low
                    out[index] = high &<< 4 | low
                    source += 2
                }
            }
        }
        return invalid & 0x10 == 0 ? UUID(uuid: raw) : nil
    }

    /// Each byte's value as a hexadecimal digit, 0x10 for a byte that is not one.
    private static let hexDigitValues: [UInt8] = (0...255).map { byte -> UInt8 in
        switch byte {
        case 48...57: return UInt8(byte - 48)
        case 97...102: return UInt8(byte - 87)
        case 65...70: return UInt8(byte - 55)
        default: return 0x10
        }
    }

    private mutating func unit(_ text: String) throws -> HealthUnit {
        if let lastParsedUnit, lastParsedUnit.text == text { return lastParsedUnit.unit }
        let unit: HealthUnit
        if let cached = unitCache[text] {
            unit = cached
        } else {
            guard let parsed = try? HealthUnit(parsing: text) else { throw LineError("unknown unit '\(text)'") }
            unitCache[text] = parsed
            unit = parsed
        }
        lastParsedUnit = (text, unit)
        return unit
    }
}

/// Why a store line could not be read.
struct LineError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
