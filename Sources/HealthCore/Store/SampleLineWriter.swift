#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TextSupport

/// Writes a sample's store line as bytes, exactly as ``SampleLineCodec/encode(_:sequence:)`` spells it, without
/// building Strings: the import's bulk write path.
///
/// It writes the line up to, not including, its `,"seq":N}` ending (``appendSequenceEnding(_:to:)``), so a batch can
/// be encoded before the store hands out its change numbers. Strings that repeat from line to line (type, source,
/// unit, version, device) are escaped once and copied after that. Samples with a workout or correlation detail, and
/// dates outside the years 0 to 9999, go through ``SampleLineCodec`` itself.
struct SampleLineWriter {
    let catalogue: SampleTypeCatalogue
    let timeZone: ZoneRules
    private let codec: SampleLineCodec
    private let fixedOffset: Int?
    private var type = QuotedText()
    private var source = QuotedText()
    private var unit = QuotedText()
    private var version = QuotedText()
    private var device = QuotedText()
    /// Metadata keys quoted, by their UTF-8 (the same few keys on every line of an import).
    private var quotedKeys: [(key: [UInt8], quoted: [UInt8])] = []
    private var lastType: (identifier: String, type: SampleType?)?
    /// The zone's offset over the stretch of time around the last date written.
    private var offsets: ZoneOffsets
    /// The last creation date written and its text (an import gives every sample the same one).
    private var lastCreated: Date?
    private var createdText: [UInt8] = []
    /// The array the metadata entries of a line are sorted in, kept with its room from line to line.
    private var scratch: [(key: String, value: MetadataValue)] = []
    /// The last metadata number written and its text (the sync version is 1 on every line of an import).
    private var lastNumber: (bits: UInt64, text: String)?
    /// The dates' writer, which keeps the last day and offset spelled (a line's dates usually fall on one day).
    private var dates = ISODateSpeller()

    init(catalogue: SampleTypeCatalogue, timeZone: ZoneRules) {
        self.catalogue = catalogue
        self.timeZone = timeZone
        codec = SampleLineCodec(catalogue: catalogue, timeZone: timeZone)
        offsets = ZoneOffsets(timeZone: timeZone)
        // A zone without transitions (UTC, Etc/GMT+5) has one offset for every instant.
        fixedOffset = timeZone.isFixed ? timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: 0)) : nil
    }

    /// Appends `sample`'s line without its `,"seq":N}` ending.
    ///
    /// - Parameter adding: A metadata entry written as if it were in the sample's metadata (it replaces one of the same
    ///   key): the line of the sample with that entry set, without copying the sample.
    mutating func appendBody(of sample: Sample, adding: (key: String, value: MetadataValue)? = nil, to out: ByteBuffer) {
        if let adding, sample.detail != nil {
            var copy = sample
            copy.metadata[adding.key] = adding.value
            appendBody(of: copy, to: out)
            return
        }
        if sample.detail != nil {
            let line = codec.encode(sample)
            out.append(String(line.dropLast()))
            return
        }
        appendHead(uuid: sample.uuid, type: sample.typeIdentifier, start: sample.start, end: sample.end, to: out)
        switch sample.value {
        case let .quantity(quantity):
            appendQuantity(quantity.value, unit: quantity.unit.unitString, to: out)
        case let .generic(value, unitText):
            append(",\"value\":", to: out)
            JSONBytes.appendQuoted(value, to: out)
            if let unitText {
                append(",\"unit\":", to: out)
                unit.append(unitText, to: out)
            }
            append(",\"generic\":true", to: out)
        case let .category(raw):
            append(",\"value\":", to: out)
            if let value = sampleType(sample.typeIdentifier)?.categoryValue(raw: raw) {
                JSONBytes.appendQuoted(value.name, to: out)
            } else {
                out.append(String(raw))
            }
        }
        appendTail(source: sample.source, sourceVersion: sample.sourceVersion, device: sample.device, created: sample.created, to: out)
        if !sample.metadata.isEmpty || adding != nil {
            append(",\"metadata\":{", to: out)
            var first = true
            // Keys in String order, as the codec writes them (the entries sorted, so no key is looked up again).
            var entries = scratch
            scratch = []
            entries.append(contentsOf: sample.metadata)
            if let adding {
                if let index = entries.firstIndex(where: { $0.key == adding.key }) {
                    entries[index].value = adding.value
                } else {
                    entries.append(adding)
                }
            }
            entries.sort { SampleLineWriter.precedes($0.key, $1.key) }
            for (key, value) in entries {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                appendQuotedKey(key, to: out)
                out.append(UInt8(ascii: ":"))
                switch value {
                case let .string(text): JSONBytes.appendQuoted(text, to: out)
                case let .number(number):
                    if lastNumber?.bits != number.bitPattern { lastNumber = (number.bitPattern, NumberFormatting.json(number)) }
                    out.append(lastNumber!.text)
                }
            }
            entries.removeAll(keepingCapacity: true)
            scratch = entries
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Appends a line's start, `{"uuid":"…","type":"…","start":"…","end":"…"`, up to its value.
    mutating func appendHead(uuid: UUID, type identifier: String, start: Date, end: Date, to out: ByteBuffer) {
        append("{\"uuid\":\"", to: out)
        SampleLineWriter.appendUUID(uuid, to: out)
        append("\",\"type\":", to: out)
        type.append(identifier, to: out)
        append(",\"start\":\"", to: out)
        appendDate(start, to: out)
        append("\",\"end\":\"", to: out)
        appendDate(end, to: out)
        out.append(UInt8(ascii: "\""))
    }

    /// Appends a quantity's `,"value":…,"unit":"…"` (the unit as ``HealthUnit/unitString``).
    mutating func appendQuantity(_ value: Double, unit unitText: String, to out: ByteBuffer) {
        append(",\"value\":", to: out)
        JSONBytes.appendNumber(value, to: out)
        append(",\"unit\":", to: out)
        unit.append(unitText, to: out)
    }

    /// Appends a line's part after its value: `,"source":…` with the version and device when there are any, and
    /// `,"created":"…"`; the metadata, if any, comes next.
    mutating func appendTail(source name: String, sourceVersion: String?, device deviceName: String?, created: Date, to out: ByteBuffer) {
        append(",\"source\":", to: out)
        source.append(name, to: out)
        if let text = sourceVersion {
            append(",\"sourceVersion\":", to: out)
            version.append(text, to: out)
        }
        if let text = deviceName {
            append(",\"device\":", to: out)
            device.append(text, to: out)
        }
        append(",\"created\":\"", to: out)
        if created != lastCreated {
            let start = out.count
            appendDate(created, to: out)
            createdText = Array(UnsafeBufferPointer(rebasing: out.bytes[start..<out.count]))
            lastCreated = created
        } else {
            createdText.withUnsafeBufferPointer { out.append($0) }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Appends the `,"seq":N}` that ends a line whose body ``appendBody(of:to:)`` wrote.
    static func appendSequenceEnding(_ sequence: UInt64, to out: ByteBuffer) {
        out.append(",\"seq\":")
        JSONBytes.appendDecimal(sequence, to: out)
        out.append(UInt8(ascii: "}"))
    }

    // MARK: - Fields

    /// Appends a metadata key as ``JSONBytes/appendQuoted(_:to:)`` does, from its quoted bytes once it was seen.
    private mutating func appendQuotedKey(_ key: String, to out: ByteBuffer) {
        let found: [UInt8]? = key.utf8.withContiguousStorageIfAvailable { bytes in
            for entry in quotedKeys where entry.key.count == bytes.count
                && (bytes.isEmpty || entry.key.withUnsafeBufferPointer { memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }) {
                return entry.quoted
            }
            return nil
        } ?? nil
        if let found {
            found.withUnsafeBufferPointer { out.append($0) }
            return
        }
        let start = out.count
        JSONBytes.appendQuoted(key, to: out)
        if quotedKeys.count < 32 {
            quotedKeys.append((Array(key.utf8), Array(UnsafeBufferPointer(rebasing: out.bytes[start..<out.count]))))
        }
    }

    private mutating func sampleType(_ identifier: String) -> SampleType? {
        if let lastType, lastType.identifier == identifier { return lastType.type }
        let type = catalogue.type(identifier: identifier)
        lastType = (identifier, type)
        return type
    }

    /// Appends `uuid` in lowercase hexadecimal with dashes, as a line spells it.
    static func appendUUID(_ uuid: UUID, to out: ByteBuffer) {
        out.reserve(40)
        uuid.writeLowercasedText(to: UnsafeMutableRawPointer(out.base + out.count))
        out.advance(36)
    }

    /// ``ZoneRules/secondsFromGMT(for:)`` of `date`, looked up again only past the zone's next transition.
    private mutating func offset(_ date: Date) -> Int {
        if let fixedOffset { return fixedOffset }
        return offsets.offset(at: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    /// Whether key `a` sorts before `b` as `a < b` does: decided by their bytes where that is certain (they agree in
    /// ASCII up to a first differing ASCII byte that no non-ASCII byte follows, or one is the other followed by ASCII:
    /// no normalisation can change what decides), else by `<` (metadata keys are ASCII and differ early).
    static func precedes(_ a: String, _ b: String) -> Bool {
        let byBytes = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y -> Bool? in
                let common = min(x.count, y.count)
                var index = 0
                while index < common, x[index] == y[index] {
                    if x[index] >= 0x80 { return nil }
                    index += 1
                }
                if index == common {
                    if x.count == y.count { return false }
                    let longer = x.count > y.count ? x : y
                    return longer[common] < 0x80 ? x.count < y.count : nil
                }
                guard x[index] < 0x80, y[index] < 0x80, index + 1 >= x.count || x[index + 1] < 0x80,
                      index + 1 >= y.count || y[index + 1] < 0x80 else { return nil }
                return x[index] < y[index]
            } ?? nil
        } ?? nil
        return byBytes ?? (a < b)
    }

    /// ``ISODate/format(_:in:)`` as bytes.
    private mutating func appendDate(_ date: Date, to out: ByteBuffer) {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        // Whole minutes, as the text spells it (``ISODate/format(_:offsetSeconds:)``): local mean time's seconds
        // (+00:09:21) would otherwise move the instant the line names.
        let offsetSeconds = offset(date) / 60 * 60
        let local = milliseconds + Int64(offsetSeconds) * 1000
        let days = local >= 0 ? local / 86_400_000 : (local - 86_400_000 + 1) / 86_400_000
        let millisOfDay = Int(local - days * 86_400_000)
        if !dates.append(days: days, millisecondsOfDay: millisOfDay, offsetSeconds: offsetSeconds, to: out) {
            out.append(ISODate.format(date, offsetSeconds: offsetSeconds))
        }
    }

    @inline(__always)
    private func append(_ literal: StaticString, to out: ByteBuffer) { out.append(literal) }
}

/// A string field's quoted form, kept for the next line that has the same string.
private struct QuotedText {
    private var text: String?
    private let bytes = ByteBuffer(capacity: 256)

    mutating func append(_ value: String, to out: ByteBuffer) {
        if text != value {
            bytes.removeAll()
            JSONBytes.appendQuoted(value, to: bytes)
            text = value
        }
        out.append(bytes.bytes)
    }
}
