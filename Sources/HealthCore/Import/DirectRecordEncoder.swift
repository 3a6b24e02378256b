import Foundation

/// Encodes plain quantity and category `Record`s of an Apple Health export straight from the XML attribute bytes:
/// the store line (from just after its uuid) and the identity key (``RecordIdentity``), without building a
/// ``Sample``. The bytes are exactly what ``ExportRecordMapper``, ``RecordIdentity`` and ``SampleLineWriter`` make of
/// the same record.
///
/// It takes only records it can encode without a doubt: a catalogued quantity or category type, the attributes
/// `type`, `sourceName`, `sourceVersion`, `device`, `unit`, `value`, `creationDate`, `startDate` and `endDate`
/// each at most once, dates written `2024-03-10 01:59:00 -0800`, a value and unit the type accepts, and
/// `MetadataEntry` children without sync identifiers, `@` keys or repeated keys. Anything else (including every
/// record that would be rejected) is refused, and the caller reads the record the general way, which gives the
/// same result it always gave.
struct DirectRecordEncoder {
    /// A string field's quoted form for the line and its form in the key.
    private final class TextInfo {
        let quoted: [UInt8]
        let keyField: [UInt8]
        init(_ text: String, key keyText: String? = nil) {
            quoted = DirectRecordEncoder.quoted(text)
            var keyField: [UInt8] = []
            RecordIdentity.appendField(keyText ?? text, to: &keyField)
            self.keyField = keyField
        }
    }

    private final class TypeInfo {
        let identifier: String
        /// Its number in this import (``DirectRecordGroup/Record/typeKey``).
        let key: Int
        let type: SampleType
        /// What the store's catalogue calls it, for category value names.
        let storeType: SampleType
        let text: TextInfo
        let maximumDuration: Double
        let canonicalUnit: HealthUnit?
        let validRange: ClosedRange<Double>?
        /// Category values by their id in `values`: the stored name and the export name for the key; nil when unknown.
        var categories: [Int: TextInfo?] = [:]
        init(_ identifier: String, key: Int, type: SampleType, storeType: SampleType) {
            self.identifier = identifier
            self.key = key
            self.type = type
            self.storeType = storeType
            text = TextInfo(identifier)
            maximumDuration = type.maximumDuration ?? .infinity
            canonicalUnit = type.canonicalUnit
            validRange = type.validRange
        }
    }

    private final class UnitInfo {
        let unit: HealthUnit
        let text: TextInfo
        init(_ unit: HealthUnit) {
            self.unit = unit
            text = TextInfo(unit.unitString)
        }
    }

    /// An export date: the instant in whole seconds and the offset it was written with.
    struct ExportInstant: Equatable {
        var seconds: Int64
        var offset: Int
    }

    private let catalogue: SampleTypeCatalogue
    private let storeCatalogue: SampleTypeCatalogue
    private var zone: ZoneOffsets
    private var typeNames = ByteStringCache(capacity: 1024)
    private var types: [TypeInfo?] = []
    private var unitNames = ByteStringCache(capacity: 1024)
    private var units: [UnitInfo?] = []
    private var sourceNames = ByteStringCache(capacity: 4096)
    private var sources: [TextInfo] = []
    private var versionNames = ByteStringCache(capacity: 4096)
    private var versions: [TextInfo] = []
    private var deviceNames = ExportDeviceCache()
    private var devices: [TextInfo?] = []
    private var keys = ByteStringCache(capacity: 4096)
    private var values = ByteStringCache(capacity: 8192)
    /// The last day turned into a calendar date.
    private var lastDay: (days: Int64, date: (year: Int, month: Int, day: Int)) = (.min, (0, 0, 0))
    /// The last export day read (its ten bytes `2024-03-10`) and its days since 1970.
    private var lastExportDay: (head: UInt64, tail: UInt16, days: Int) = (0, 0, 0)

    // The record being encoded.
    private var key: [UInt8] = []
    private let body = ByteBuffer(capacity: 2048)
    private var metadata: [(key: String, value: String)] = []
    private var type = ""
    private var typeKey = 0
    private var start: Int64 = 0
    private var end: Int64 = 0

    /// The type identifier of the record being encoded.
    var typeIdentifier: String { type }

    /// Creates an encoder.
    ///
    /// - Parameters:
    ///   - catalogue: The types the import gives a typed value (the importer's catalogue).
    ///   - storeCatalogue: The store's catalogue, which names category values in its lines.
    ///   - timeZone: The store's zone, in which its lines write dates.
    init(catalogue: SampleTypeCatalogue, storeCatalogue: SampleTypeCatalogue, timeZone: TimeZone) {
        self.catalogue = catalogue
        self.storeCatalogue = storeCatalogue
        zone = ZoneOffsets(timeZone: timeZone)
        key.reserveCapacity(512)
    }

    // MARK: - Record

    /// Encodes a `Record` start tag; false when the record must be read the general way.
    mutating func begin(_ tag: XMLTag) -> Bool {
        var typeA: XMLAttribute?, unitA: XMLAttribute?, valueA: XMLAttribute?, sourceA: XMLAttribute?
        var versionA: XMLAttribute?, deviceA: XMLAttribute?, startA: XMLAttribute?, endA: XMLAttribute?
        var createdA: XMLAttribute?
        var seen: UInt16 = 0
        for attribute in tag.attributes {
            let name = attribute.name
            let bit: UInt16
            switch name.count {
            case 4 where XMLText.equals(name, "type"): typeA = attribute; bit = 1
            case 4 where XMLText.equals(name, "unit"): unitA = attribute; bit = 2
            case 5 where XMLText.equals(name, "value"): valueA = attribute; bit = 4
            case 6 where XMLText.equals(name, "device"): deviceA = attribute; bit = 8
            case 7 where XMLText.equals(name, "endDate"): endA = attribute; bit = 16
            case 9 where XMLText.equals(name, "startDate"): startA = attribute; bit = 32
            case 10 where XMLText.equals(name, "sourceName"): sourceA = attribute; bit = 64
            case 12 where XMLText.equals(name, "creationDate"): createdA = attribute; bit = 128
            case 13 where XMLText.equals(name, "sourceVersion"): versionA = attribute; bit = 256
            default: return false
            }
            if seen & bit != 0 { return false }
            seen |= bit
        }
        guard let typeA, let sourceA, let startA, let endA, !typeA.needsDecoding,
              let info = typeInfo(typeA.rawValue),
              let startAt = instant(startA.rawValue),
              let endAt = instant(endA.rawValue),
              endAt.seconds >= startAt.seconds
        else { return false }
        let createdAt: ExportInstant
        if let createdA {
            guard let instant = instant(createdA.rawValue) else { return false }
            createdAt = instant
        } else {
            createdAt = endAt
        }
        if Double(endAt.seconds - startAt.seconds) > info.maximumDuration { return false }

        key.removeAll(keepingCapacity: true)
        body.removeAll()
        metadata.removeAll(keepingCapacity: true)
        key.append(contentsOf: RecordIdentity.namespace)
        key.append(contentsOf: info.text.keyField)
        let source = self.source(sourceA)
        key.append(contentsOf: source.keyField)
        RecordIdentity.appendField(startAt.seconds * 1000, to: &key)
        RecordIdentity.appendField(endAt.seconds * 1000, to: &key)

        literal("\",\"type\":")
        body.append(info.text.quoted)
        literal(",\"start\":\"")
        guard appendDate(startAt, startA.rawValue) else { return false }
        literal("\",\"end\":\"")
        guard appendDate(endAt, endA.rawValue) else { return false }
        literal("\",\"value\":")
        switch info.type.kind {
        case .quantity:
            guard let valueA, let unitA, let unit = unitInfo(unitA), let number = DecimalParser.parse(valueA.rawValue),
                  DirectRecordEncoder.accepts(number, in: unit.unit, canonical: info.canonicalUnit, range: info.validRange)
            else { return false }
            if DirectRecordEncoder.isCanonicalNumber(valueA.rawValue) {
                body.append(valueA.rawValue)
            } else {
                body.append(NumberFormatting.json(number))
            }
            literal(",\"unit\":")
            body.append(unit.text.quoted)
            RecordIdentity.appendField(number: number, to: &key)
            key.append(contentsOf: unit.text.keyField)
        case .category:
            guard let valueA, let value = category(valueA, of: info) else { return false }
            body.append(value.quoted)
            key.append(UInt8(ascii: "t"))
            key.append(contentsOf: value.keyField)
            key.append(0)
        }
        literal(",\"source\":")
        body.append(source.quoted)
        if let versionA {
            literal(",\"sourceVersion\":")
            body.append(version(versionA).quoted)
        }
        if let deviceA, let device = device(deviceA) {
            literal(",\"device\":")
            body.append(device.quoted)
        }
        literal(",\"created\":\"")
        guard appendDate(createdAt, createdA?.rawValue ?? endA.rawValue) else { return false }
        body.append(UInt8(ascii: "\""))
        type = info.identifier
        typeKey = info.key
        start = startAt.seconds
        end = endAt.seconds
        return true
    }

    /// Adds a `MetadataEntry` child of the record begun; false when the record must be read the general way.
    mutating func addMetadata(_ tag: XMLTag) -> Bool {
        var keyA: XMLAttribute?, valueA: XMLAttribute?
        for attribute in tag.attributes {
            if XMLText.equals(attribute.name, "key") {
                keyA = attribute
            } else if XMLText.equals(attribute.name, "value") {
                valueA = attribute
            } else {
                return false
            }
        }
        guard let keyA else { return false }
        let name = keys.lookup(keyA.rawValue) { _ in keyA.value }.string
        // Sync identifiers and `@` keys change the identity; a repeated key is left to the general reading.
        guard !name.hasPrefix(RecordIdentity.attributePrefix), name != RecordIdentity.syncIdentifierKey,
              !metadata.contains(where: { $0.key == name })
        else { return false }
        metadata.append((name, valueA.map { value in values.lookup(value.rawValue) { _ in value.value }.string } ?? ""))
        return true
    }

    /// Finishes the record begun and adds it to `group`.
    mutating func finish(into group: DirectRecordGroup) {
        if !metadata.isEmpty {
            metadata.sort { $0.key < $1.key }
            literal(",\"metadata\":{")
            for (index, entry) in metadata.enumerated() {
                if index > 0 { body.append(UInt8(ascii: ",")) }
                JSONBytes.appendQuoted(entry.key, to: body)
                body.append(UInt8(ascii: ":"))
                JSONBytes.appendQuoted(entry.value, to: body)
            }
            body.append(UInt8(ascii: "}"))
        }
        group.append(type: type, typeKey: typeKey, start: start, end: end, key: key, body: body)
    }

    // MARK: - Fields

    private mutating func typeInfo(_ bytes: UnsafeBufferPointer<UInt8>) -> TypeInfo? {
        guard let id = typeNames.lookup(bytes, decode: { String(decoding: $0, as: UTF8.self) }).id else { return nil }
        while types.count <= id {
            let identifier = typeNames.text(types.count)
            if let type = catalogue.type(identifier: identifier), let storeType = storeCatalogue.type(identifier: identifier) {
                types.append(TypeInfo(identifier, key: types.count + 1, type: type, storeType: storeType))
            } else {
                types.append(nil)
            }
        }
        return types[id]
    }

    private mutating func unitInfo(_ attribute: XMLAttribute) -> UnitInfo? {
        guard let id = unitNames.lookup(attribute.rawValue, decode: { _ in attribute.value }).id else { return nil }
        while units.count <= id {
            if let unit = try? HealthUnit(parsing: unitNames.text(units.count)) {
                units.append(UnitInfo(unit))
            } else {
                units.append(nil)
            }
        }
        return units[id]
    }

    private mutating func source(_ attribute: XMLAttribute) -> TextInfo {
        let (id, text) = sourceNames.lookup(attribute.rawValue) { _ in attribute.value }
        guard let id else { return TextInfo(text) }
        while sources.count <= id { sources.append(TextInfo(sourceNames.text(sources.count))) }
        return sources[id]
    }

    private mutating func version(_ attribute: XMLAttribute) -> TextInfo {
        let (id, text) = versionNames.lookup(attribute.rawValue) { _ in attribute.value }
        guard let id else { return TextInfo(text) }
        while versions.count <= id { versions.append(TextInfo(versionNames.text(versions.count))) }
        return versions[id]
    }

    private mutating func device(_ attribute: XMLAttribute) -> TextInfo? {
        let (id, text) = deviceNames.device(attribute)
        guard let id else { return text.map { TextInfo($0) } }
        while devices.count <= id { devices.append(nil) }
        if devices[id] == nil, let text { devices[id] = TextInfo(text) }
        return devices[id]
    }

    private mutating func category(_ attribute: XMLAttribute, of info: TypeInfo) -> TextInfo? {
        let (id, text) = values.lookup(attribute.rawValue) { _ in attribute.value }
        guard let id else { return nil }
        if let known = info.categories[id] { return known }
        var result: TextInfo?
        if let raw = try? info.type.categoryValue(named: text).rawValue, let stored = info.storeType.categoryValue(raw: raw) {
            result = TextInfo(stored.name, key: info.type.categoryValue(raw: raw)?.exportNames.first ?? String(raw))
        }
        info.categories[id] = .some(result)
        return result
    }

    // MARK: - Values and dates

    /// Whether `value` in `unit` passes the checks ``Sample/validated(as:now:timeZone:)`` makes of a quantity of a
    /// type with this canonical unit and valid range.
    static func accepts(_ value: Double, in unit: HealthUnit, canonical: HealthUnit?, range: ClosedRange<Double>?) -> Bool {
        guard value.isFinite, value >= 0 || unit.offset != 0 else { return false }
        guard let canonical else { return true }
        guard unit.isCompatible(with: canonical) else { return false }
        guard let range else { return true }
        guard let inCanonical = try? unit.convert(value, to: canonical) else { return false }
        return range.contains(inCanonical)
    }

    /// Whether `bytes` are already what ``NumberFormatting/json(_:)`` writes for the number they spell: plain
    /// digits without a sign, leading zeros or trailing fraction zeros, at most 15 significant digits (so the
    /// shortest text that reads back is these digits), and at least 0.001 when below 1 (so it is not written with an
    /// exponent).
    static func isCanonicalNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = bytes.count
        guard count > 0, count <= 17 else { return false }
        var index = 0
        while index < count, bytes[index] &- 48 < 10 { index += 1 }
        let integerDigits = index
        guard integerDigits > 0 else { return false }
        if integerDigits > 1 && bytes[0] == UInt8(ascii: "0") { return false }
        if index == count { return integerDigits <= 15 }
        guard bytes[index] == UInt8(ascii: "."), index + 1 < count else { return false }
        index += 1
        let fractionStart = index
        while index < count, bytes[index] &- 48 < 10 { index += 1 }
        guard index == count, bytes[count - 1] != UInt8(ascii: "0") else { return false }
        if bytes[0] == UInt8(ascii: "0") {
            var zeros = 0
            while bytes[fractionStart + zeros] == UInt8(ascii: "0") { zeros += 1 }
            return zeros <= 2 && count - fractionStart - zeros <= 15
        }
        return integerDigits + (count - fractionStart) <= 15
    }

    /// Reads `2024-03-10 01:59:00 -0800` exactly (the form of every export since iOS 9), with the checks of
    /// ``ExportDateParser``; nil for anything else (and for leap seconds), which the general reading then handles.
    mutating func instant(_ bytes: UnsafeBufferPointer<UInt8>) -> ExportInstant? {
        guard bytes.count == 25, let p = bytes.baseAddress, p[4] == UInt8(ascii: "-"), p[7] == UInt8(ascii: "-"),
              p[10] == UInt8(ascii: " "), p[13] == UInt8(ascii: ":"), p[16] == UInt8(ascii: ":"), p[19] == UInt8(ascii: " ")
        else { return nil }
        let raw = UnsafeRawPointer(p)
        let head = raw.loadUnaligned(as: UInt64.self)
        let tail = raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self)
        let days: Int
        if head == lastExportDay.head && tail == lastExportDay.tail {
            days = lastExportDay.days
        } else {
            let year = DirectRecordEncoder.twoDigits(p, 0) * 100 + DirectRecordEncoder.twoDigits(p, 2)
            let month = DirectRecordEncoder.twoDigits(p, 5), day = DirectRecordEncoder.twoDigits(p, 8)
            guard year >= 1900, year <= 9000, month >= 1, month <= 12, day >= 1,
                  day <= ISODate.daysInMonth(year: year, month: month)
            else { return nil }
            days = ISODate.daysFromCivil(year, month, day)
            lastExportDay = (head, tail, days)
        }
        let hour = DirectRecordEncoder.twoDigits(p, 11), minute = DirectRecordEncoder.twoDigits(p, 14)
        let second = DirectRecordEncoder.twoDigits(p, 17)
        let sign = p[20]
        let offsetHours = DirectRecordEncoder.twoDigits(p, 21), offsetMinutes = DirectRecordEncoder.twoDigits(p, 23)
        guard hour >= 0, hour < 24, minute >= 0, minute < 60, second >= 0, second < 60,
              sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"), offsetHours >= 0, offsetHours <= 18,
              offsetMinutes >= 0, offsetMinutes < 60
        else { return nil }
        let offset = (sign == UInt8(ascii: "-") ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60)
        return ExportInstant(seconds: Int64(days * 86_400 + hour * 3600 + minute * 60 + second - offset), offset: offset)
    }

    /// The two digits at `index`, or a negative number when they are not digits.
    @inline(__always)
    private static func twoDigits(_ p: UnsafePointer<UInt8>, _ index: Int) -> Int {
        let high = p[index] &- 48, low = p[index + 1] &- 48
        return high < 10 && low < 10 ? Int(high) * 10 + Int(low) : -10_000
    }

    /// Appends the date as ``ISODate/format(_:in:)`` writes it in the store's zone: `2024-03-10T01:59:00-08:00`.
    private mutating func appendDate(_ instant: ExportInstant, _ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let offset = zone.offset(at: instant.seconds)
        let magnitude = abs(offset)
        guard magnitude < 100 * 3600 else { return false }
        body.reserve(32)
        if offset == instant.offset {
            // Written in the store's own offset: the same digits.
            body.append(UnsafeBufferPointer(rebasing: text[0..<10]))
            body.appendReserved(UInt8(ascii: "T"))
            body.append(UnsafeBufferPointer(rebasing: text[11..<19]))
        } else {
            let local = instant.seconds + Int64(offset)
            let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
            let seconds = Int(local - days * 86_400)
            if lastDay.days != days { lastDay = (days, ISODate.civil(fromDays: Int(days))) }
            let (year, month, day) = lastDay.date
            guard year >= 1000, year <= 9999 else { return false }
            JSONBytes.appendTwoDigits(year / 100, to: body)
            JSONBytes.appendTwoDigits(year % 100, to: body)
            body.appendReserved(UInt8(ascii: "-"))
            JSONBytes.appendTwoDigits(month, to: body)
            body.appendReserved(UInt8(ascii: "-"))
            JSONBytes.appendTwoDigits(day, to: body)
            body.appendReserved(UInt8(ascii: "T"))
            JSONBytes.appendTwoDigits(seconds / 3600, to: body)
            body.appendReserved(UInt8(ascii: ":"))
            JSONBytes.appendTwoDigits(seconds / 60 % 60, to: body)
            body.appendReserved(UInt8(ascii: ":"))
            JSONBytes.appendTwoDigits(seconds % 60, to: body)
        }
        body.appendReserved(offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        JSONBytes.appendTwoDigits(magnitude / 3600, to: body)
        body.appendReserved(UInt8(ascii: ":"))
        JSONBytes.appendTwoDigits(magnitude / 60 % 60, to: body)
        return true
    }

    @inline(__always)
    private func literal(_ text: StaticString) { body.append(text) }

    private static func quoted(_ text: String) -> [UInt8] {
        let buffer = ByteBuffer(capacity: text.utf8.count + 8)
        JSONBytes.appendQuoted(text, to: buffer)
        return Array(buffer.bytes)
    }
}
