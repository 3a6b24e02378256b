#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TextSupport

/// Reads plain quantity and category `Record`s of an Apple Health export straight from the XML attribute bytes into
/// compact ``DirectRecordGroup/Record``s, without building a ``Sample``: ``DirectLineComposer`` then writes exactly the
/// identity key and store line that ``ExportRecordMapper``, ``RecordIdentity`` and ``SampleLineWriter`` make of the
/// same record.
///
/// It takes only records it can read without a doubt: a catalogued quantity or category type, the attributes
/// `type`, `sourceName`, `sourceVersion`, `device`, `unit`, `value`, `creationDate`, `startDate` and `endDate`
/// each at most once, dates written `2024-03-10 01:59:00 -0800`, a value and unit the type accepts, and empty
/// `MetadataEntry` children without sync identifiers or versions, `@` keys, repeated keys or values in a locale's own digits (a
/// number marked `hkctlType="number"`, ``MetadataEntryForm``, in ASCII digits), all of it well-formed UTF-8. Anything
/// else (including every record that would be rejected) is refused, and the caller reads the record the general way,
/// which gives the same result it always gave.
struct DirectRecordEncoder {
    private final class TypeInfo {
        let number: Int32
        let field: Int32
        let type: SampleType
        /// What the store's catalogue calls it, for category value names.
        let storeType: SampleType
        let maximumDuration: Double
        let canonicalUnit: HealthUnit?
        /// The field of ``canonicalUnit``'s text (-1 without one).
        let canonicalField: Int32
        let validRange: ClosedRange<Double>?
        /// Category values by their id in `values`: their field, or -1 when unknown.
        var categories: [Int: Int32] = [:]
        init(number: Int32, field: Int32, type: SampleType, storeType: SampleType, canonicalField: Int32) {
            self.number = number
            self.field = field
            self.canonicalField = canonicalField
            self.type = type
            self.storeType = storeType
            maximumDuration = type.maximumDuration ?? .infinity
            canonicalUnit = type.canonicalUnit
            validRange = type.validRange
        }
    }

    private struct UnitInfo {
        var unit: HealthUnit
        var field: Int32
    }

    /// The bytes last seen in one attribute and the cache id they have: fields repeat from record to record, and
    /// comparing with the last is cheaper than a lookup.
    private struct Memo {
        let bytes = ByteBuffer(capacity: 64)
        var id = -1

        @inline(__always)
        func matches(_ raw: UnsafeBufferPointer<UInt8>) -> Bool {
            id >= 0 && raw.count == bytes.count && (raw.isEmpty || memcmp(bytes.base, raw.baseAddress!, raw.count) == 0)
        }

        mutating func remember(_ raw: UnsafeBufferPointer<UInt8>, id: Int) {
            bytes.removeAll()
            bytes.append(raw)
            self.id = id
        }
    }

    /// A string attribute (source, version) as a field of the table: the field for each cached string, and the
    /// last one seen (``memo``: only bytes a record that passed every check of ``begin(_:)`` held).
    private struct FieldCache {
        var names = ByteStringCache(capacity: 4096)
        var fields: [Int32] = []
        var memo = Memo()

        mutating func field(_ attribute: XMLAttribute, table: inout DirectFieldTable.Builder) -> Int32 {
            let raw = attribute.rawValue
            if memo.matches(raw) { return fields[memo.id] }
            if let id = names.id(raw), id < fields.count {
                memo.remember(raw, id: id)
                return fields[id]
            }
            let (id, text) = names.lookup(raw) { _ in attribute.value }
            guard let id else { return table.add(text) }
            while fields.count <= id { fields.append(table.add(names.text(fields.count))) }
            return fields[id]
        }
    }

    /// An export date: the instant in whole seconds and the offset it was written with.
    struct ExportInstant: Equatable {
        var seconds: Int64
        var offset: Int
    }

    private let catalogue: SampleTypeCatalogue
    private let storeCatalogue: SampleTypeCatalogue
    private var table = DirectFieldTable.Builder()
    private var typeNames = ByteStringCache(capacity: 1024)
    private var types: [TypeInfo?] = []
    private var unitNames = ByteStringCache(capacity: 1024)
    private var units: [UnitInfo?] = []
    private var sources = FieldCache()
    private var versions = FieldCache()
    private var deviceNames = ExportDeviceCache()
    /// -1: no device; -2: not looked at yet.
    private var devices: [Int32] = []
    private var keys = ByteStringCache(capacity: 4096)
    private var values = ByteStringCache(capacity: 8192)
    private var typeMemo = Memo(), unitMemo = Memo()
    private let syncIdentifierKey = RecordIdentity.syncIdentifierKey
    private let syncVersionKey = RecordIdentity.syncVersionKey
    private let attributePrefix = RecordIdentity.attributePrefix
    /// The last device attribute read as written (address included) and its field: devices repeat from record to
    /// record.
    private let lastDevice = ByteBuffer(capacity: 256)
    private var lastDeviceField: Int32 = -2
    /// Whether the last unit checked against the last type is of its dimension and is its canonical unit.
    /// `scale` is the factor a conversion to the canonical unit multiplies by, when neither unit has an offset.
    private var lastPair: (type: Int32, unit: Int32, compatible: Bool, same: Bool, scale: Double?) = (-1, -1, false, false, nil)
    /// The last export day read (its ten bytes `2024-03-10`) and its days since 1970.
    private var lastExportDay: (head: UInt64, tail: UInt16, days: Int) = (0, 0, 0)

    // The record being read.
    private var record = DirectRecordGroup.Record(type: 0, typeField: 0, source: 0, version: -1, device: -1, valueField: 0,
                                                  isQuantity: true, number: 0, identityNumber: 0, identityUnit: 0,
                                                  start: 0, end: 0, created: 0,
                                                  extraStart: 0, valueEnd: 0, extraEnd: 0)
    private let valueBytes = ByteBuffer(capacity: 32)
    /// The record's metadata entries: the value's text, and whether it is a number (written in its canonical
    /// spelling, unquoted).
    private var metadata: [(key: String, value: String, isNumber: Bool)] = []
    /// The cache ids of the key and value of a record's only metadata entry, when both are cached.
    private var onlyEntry: Int?
    /// The `,"metadata":{…}` text of records with one entry, by the ids of its key and value.
    private var singleEntries: [Int: [UInt8]] = [:]
    /// Whether metadata keys (by cache id) leave the record direct: not a sync identifier, not an `@` key.
    private var keysAllowed: [Bool] = []

    /// Creates an encoder.
    ///
    /// - Parameters:
    ///   - catalogue: The types the import gives a typed value (the importer's catalogue).
    ///   - storeCatalogue: The store's catalogue, which names category values in its lines.
    init(catalogue: SampleTypeCatalogue, storeCatalogue: SampleTypeCatalogue) {
        self.catalogue = catalogue
        self.storeCatalogue = storeCatalogue
    }

    /// The strings the records read so far refer to.
    mutating func fields() -> DirectFieldTable { table.table() }

    // MARK: - Record

    /// Encodes a `Record` start tag; false when the record must be read the general way.
    mutating func begin(_ tag: XMLTag) -> Bool {
        if tag.hasInvalidUTF8 { return false }
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
        // A source the memo holds passed these checks as the last record's (the same bytes, the same answer).
        guard let typeA, let sourceA, let startA, let endA, !typeA.needsDecoding,
              sources.memo.matches(sourceA.rawValue) || Self.plainText(sourceA, limit: TextRules.sourceNameLimit),
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
        valueBytes.removeAll()
        switch info.type.kind {
        case .quantity:
            guard let valueA, let unitA, let unit = unitInfo(unitA), let number = DecimalParser.parse(valueA.rawValue),
                  accepts(number, in: unit, for: info)
            else { return false }
            if DirectRecordEncoder.isCanonicalNumber(valueA.rawValue) { valueBytes.append(valueA.rawValue) }
            record.isQuantity = true
            record.number = number
            record.valueField = unit.field
            // Its identity's value, as ``RecordIdentity`` gives it: in the canonical unit (``accepts`` found the
            // conversion), to 12 significant digits.
            if info.canonicalUnit == nil {
                (record.identityNumber, record.identityUnit) = (number, unit.field)
            } else if lastPair.same {
                (record.identityNumber, record.identityUnit) = (HealthUnit.roundedToPrecision(number), info.canonicalField)
            } else if let scale = lastPair.scale {
                (record.identityNumber, record.identityUnit) = (HealthUnit.roundedToPrecision(number * scale), info.canonicalField)
            } else {
                guard let canonical = info.canonicalUnit, let converted = try? unit.unit.convert(number, to: canonical) else { return false }
                (record.identityNumber, record.identityUnit) = (converted, info.canonicalField)
            }
        case .category:
            guard let valueA, let value = category(valueA, of: info) else { return false }
            record.isQuantity = false
            record.valueField = value
        case .characteristic, .workout, .correlation:
            return false  // never in a catalogue: a record of it is not a plain sample
        }
        record.type = info.number
        record.typeField = info.field
        record.source = sources.field(sourceA, table: &table)
        record.version = versionA.map { versions.field($0, table: &table) } ?? -1
        record.device = deviceA.map { device($0) } ?? -1
        record.start = startAt.seconds
        record.end = endAt.seconds
        record.created = createdAt.seconds
        metadata.removeAll(keepingCapacity: true)
        onlyEntry = nil
        return true
    }

    /// Whether an attribute's text certainly passes ``TextRules``: no refused character, and at most `limit` bytes
    /// (scalars, when it holds entities to decode). Anything else is left to the general reading, which rejects the
    /// record.
    @inline(__always)
    private static func plainText(_ attribute: XMLAttribute, limit: Int = .max) -> Bool {
        if attribute.needsDecoding {
            let text = attribute.value
            return TextRules.firstRefused(in: text) == nil && text.unicodeScalars.count <= limit
        }
        return attribute.rawValue.count <= limit && !TextRules.containsRefused(utf8: attribute.rawValue)
    }

    /// Adds a `MetadataEntry` child of the record begun; false when the record must be read the general way.
    mutating func addMetadata(_ tag: XMLTag) -> Bool {
        if tag.hasInvalidUTF8 { return false }
        var keyA: XMLAttribute?, valueA: XMLAttribute?, typeA: XMLAttribute?
        for attribute in tag.attributes {
            if XMLText.equals(attribute.name, "key") {
                keyA = attribute
            } else if XMLText.equals(attribute.name, "value") {
                valueA = attribute
            } else if XMLText.equals(attribute.name, "hkctlType") {
                typeA = attribute
            } else {
                return false
            }
        }
        guard let keyA, Self.plainText(keyA), valueA.map({ Self.plainText($0) }) ?? true else { return false }
        let (keyID, name) = keys.lookup(keyA.rawValue) { _ in keyA.value }
        // Sync identifiers and versions (HealthKit's rule: the greatest version is kept, a version needs an identifier)
        // and `@` keys change the identity; a repeated key is left to the general reading.
        let allowed: Bool
        if let keyID, keyID < keysAllowed.count {
            allowed = keysAllowed[keyID]
        } else {
            allowed = !name.hasPrefix(attributePrefix) && name != syncIdentifierKey && name != syncVersionKey
            if let keyID, keyID == keysAllowed.count { keysAllowed.append(allowed) }
        }
        guard allowed, !metadata.contains(where: { $0.key == name }) else { return false }
        if let typeA {
            // A number, in ASCII digits; anything else marked is left to the general reading.
            guard XMLText.equals(typeA.rawValue, "number"), let valueA, let number = DecimalParser.parse(valueA.rawValue) else { return false }
            metadata.append((name, NumberFormatting.json(number), true))
            onlyEntry = nil
            return true
        }
        var valueID: Int? = -1
        var value = ""
        if let valueA {
            (valueID, value) = values.lookup(valueA.rawValue) { _ in valueA.value }
            // A number in a locale's own digits is stored in ASCII digits: the general reading does that.
            if valueA.rawValue.contains(where: { $0 >= 0x80 }), LocalizedDigits.folded(value) != nil { return false }
        }
        metadata.append((name, value, false))
        if metadata.count == 1, let keyID, let valueID, singleEntries.count < 4096 || singleEntries[keyID << 32 | (valueID + 1)] != nil {
            onlyEntry = keyID << 32 | (valueID + 1)
        } else {
            onlyEntry = nil
        }
        return true
    }

    /// Finishes the record begun and adds it to `group`.
    mutating func finish(into group: DirectRecordGroup) {
        let bytes = group.bytes
        record.extraStart = Int32(bytes.count)
        bytes.append(valueBytes.bytes)
        record.valueEnd = Int32(bytes.count)
        if metadata.count == 1, let onlyEntry, let known = singleEntries[onlyEntry] {
            bytes.append(known)
        } else if !metadata.isEmpty {
            let start = bytes.count
            metadata.sort { $0.key < $1.key }
            bytes.append(",\"metadata\":{" as StaticString)
            for (index, entry) in metadata.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONBytes.appendQuoted(entry.key, to: bytes)
                bytes.append(UInt8(ascii: ":"))
                if entry.isNumber { bytes.append(entry.value) } else { JSONBytes.appendQuoted(entry.value, to: bytes) }
            }
            bytes.append(UInt8(ascii: "}"))
            if metadata.count == 1, let onlyEntry {
                singleEntries[onlyEntry] = Array(UnsafeBufferPointer(rebasing: bytes.bytes[start...]))
            }
        }
        record.extraEnd = Int32(bytes.count)
        group.records.append(record)
    }

    // MARK: - Fields

    private mutating func typeInfo(_ bytes: UnsafeBufferPointer<UInt8>) -> TypeInfo? {
        if typeMemo.matches(bytes) { return types[typeMemo.id] }
        if let id = typeNames.id(bytes), id < types.count {
            typeMemo.remember(bytes, id: id)
            return types[id]
        }
        guard let id = typeNames.lookup(bytes, decode: { String(decoding: $0, as: UTF8.self) }).id else { return nil }
        while types.count <= id {
            let identifier = typeNames.text(types.count)
            if let type = catalogue.type(identifier: identifier), let storeType = storeCatalogue.type(identifier: identifier) {
                types.append(TypeInfo(number: table.addType(identifier), field: table.add(identifier), type: type,
                                      storeType: storeType, canonicalField: type.canonicalUnit.map { table.add($0.unitString) } ?? -1))
            } else {
                types.append(nil)
            }
        }
        return types[id]
    }

    private mutating func unitInfo(_ attribute: XMLAttribute) -> UnitInfo? {
        if unitMemo.matches(attribute.rawValue) { return units[unitMemo.id] }
        if let id = unitNames.id(attribute.rawValue), id < units.count {
            unitMemo.remember(attribute.rawValue, id: id)
            return units[id]
        }
        guard let id = unitNames.lookup(attribute.rawValue, decode: { _ in attribute.value }).id else { return nil }
        while units.count <= id {
            if let unit = try? HealthUnit(parsing: unitNames.text(units.count)) {
                units.append(UnitInfo(unit: unit, field: table.add(unit.unitString)))
            } else {
                units.append(nil)
            }
        }
        return units[id]
    }

    private mutating func device(_ attribute: XMLAttribute) -> Int32 {
        let raw = attribute.rawValue
        if lastDeviceField != -2, raw.count > 0, lastDevice.count == raw.count, memcmp(lastDevice.base, raw.baseAddress!, raw.count) == 0 {
            return lastDeviceField
        }
        let (id, text) = deviceNames.device(attribute)
        guard let id else { return text.map { table.add($0) } ?? -1 }
        while devices.count <= id { devices.append(-2) }
        if devices[id] == -2 { devices[id] = text.map { table.add($0) } ?? -1 }
        lastDevice.removeAll()
        lastDevice.append(raw)
        lastDeviceField = devices[id]
        return devices[id]
    }

    private mutating func category(_ attribute: XMLAttribute, of info: TypeInfo) -> Int32? {
        if let id = values.id(attribute.rawValue), let known = info.categories[id] { return known < 0 ? nil : known }
        let (id, text) = values.lookup(attribute.rawValue) { _ in attribute.value }
        guard let id else { return nil }
        if let known = info.categories[id] { return known < 0 ? nil : known }
        var field: Int32 = -1
        if let raw = try? info.type.categoryValue(named: text).rawValue, let stored = info.storeType.categoryValue(raw: raw) {
            field = table.add(stored.name, key: info.type.categoryValue(raw: raw)?.exportNames.first ?? String(raw))
        }
        info.categories[id] = field
        return field < 0 ? nil : field
    }

    // MARK: - Values and dates

    /// Whether `value` in `unit` passes the checks ``Sample/validated(as:now:timeZone:)`` makes of a quantity.
    private mutating func accepts(_ value: Double, in unit: UnitInfo, for info: TypeInfo) -> Bool {
        guard value.isFinite, value >= 0 || unit.unit.offset != 0 else { return false }
        guard let canonical = info.canonicalUnit else { return true }
        if lastPair.type != info.number || lastPair.unit != unit.field {
            // A factor converts only within a dimension: not offsets, nor decibels to pressures (logarithmic).
            let linear = unit.unit.offset == 0 && canonical.offset == 0 && unit.unit.dimension == canonical.dimension
            lastPair = (info.number, unit.field, unit.unit.isCompatible(with: canonical), unit.unit == canonical,
                        linear ? unit.unit.factor / canonical.factor : nil)
        }
        guard lastPair.compatible else { return false }
        guard let range = info.validRange else { return true }
        // In the canonical unit already, the conversion would give the value back.
        if lastPair.same { return range.contains(value) }
        if let scale = lastPair.scale {
            // The conversion is this product rounded to 12 significant digits: far enough from the bounds, the
            // rounding cannot move it across one.
            let product = value * scale
            let slack = abs(product) * 1e-9
            if product - slack >= range.lowerBound && product + slack <= range.upperBound { return true }
            if product + slack < range.lowerBound || product - slack > range.upperBound { return false }
        }
        guard let inCanonical = try? unit.unit.convert(value, to: canonical) else { return false }
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
        let seconds = Int64(days * 86_400 + hour * 3600 + minute * 60 + second - offset)
        guard StorableValues.contains(unixSeconds: seconds) else { return nil }
        return ExportInstant(seconds: seconds, offset: offset)
    }

    /// The two digits at `index`, or a negative number when they are not digits.
    @inline(__always)
    private static func twoDigits(_ p: UnsafePointer<UInt8>, _ index: Int) -> Int {
        let high = p[index] &- 48, low = p[index + 1] &- 48
        return high < 10 && low < 10 ? Int(high) * 10 + Int(low) : -10_000
    }
}
