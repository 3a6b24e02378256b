import TextSupport

/// The stable identity of an imported record, and the name-based UUID derived from it.
///
/// A record's identity covers everything it holds: type, source, source version, device, start, end, value and
/// unit, creation date and metadata (HealthKit gives every object its own uuid, so two records that differ in any of
/// these are two samples). When the record carries HealthKit's `HKMetadataKeySyncIdentifier`, it is the type,
/// source, sync identifier and sync version instead. Values and units are compared in a normal form (`72.40 kg` =
/// `72.4 kg`; a category value by its canonical export name), dates as instants (the offset an export writes them
/// with changes with the phone's zone), so a type kept generically today gets the same identity once the catalogue
/// types it. For elements other than `Record` (workouts, activity summaries), their attributes (`@duration`, ...)
/// are part of it too, those that hold an export date as the instant (a clinical record's `receivedDate` is written
/// with the offset of the day the export was made), and a workout's totals (`@totalDistance`, `@totalEnergyBurned`
/// and their units) not at all: iOS 16 moved them from the attributes into `WorkoutStatistics` children, so an
/// export from before and one from after name the same workout alike. Records that are identical in all of this are told apart by their occurrence number in the
/// import (``occurrence(_:of:)``): the first has the identity's UUID, the second the UUID of (identity, 2), ...
///
/// The UUID is a version-5 (SHA-1, name-based) UUID of that identity in the library's own namespace, so importing the
/// same record again, from the same or a newer export, gives the same UUID.
///
/// Builds before this identity (``legacyUUID(for:)``) left out creation date, source version, device and metadata.
/// Their stores need no conversion: when the importer reads a month of the store it derives each stored sample's
/// identity afresh from the fields the sample holds (``IdentityIndex``), which is the record's identity under this
/// rule whatever UUID the sample was stored under.
struct RecordIdentity {
    /// The library's namespace for imported samples.
    static let namespace: [UInt8] = [
        0x5B, 0x2E, 0x8F, 0x61, 0x0C, 0x3A, 0x4E, 0x7B, 0x9D, 0x14, 0x6A, 0xC2, 0x38, 0xF0, 0x57, 0x11,
    ]
    static let syncIdentifierKey = "HKMetadataKeySyncIdentifier"
    static let syncVersionKey = "HKMetadataKeySyncVersion"
    /// Prefix of the metadata keys that hold the attributes of an element other than `Record` (`@duration`).
    static let attributePrefix = "@"
    /// The metadata key naming the element of a sample kept from an element other than `Record`.
    static let elementKey = attributePrefix + "element"
    /// The metadata key holding the children of an element kept as written; not part of the identity.
    static let childrenKey = attributePrefix + "children"
    /// The namespace of identities that cover everything a record holds (this rule; ``namespace`` is the older
    /// rule's, which ``legacyUUID(for:)`` keeps).
    static let fullNamespace: [UInt8] = [
        0x9C, 0x41, 0x07, 0xD2, 0x6E, 0x85, 0x4B, 0x3F, 0xA1, 0x5D, 0x22, 0xE8, 0x7B, 0x90, 0x0C, 0x64,
    ]
    /// A UUID for samples whose identity is not computed yet.
    static let placeholder = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    let catalogue: SampleTypeCatalogue
    /// The namespace followed by the identity's fields: strings prefixed with their length (LEB128), numbers as
    /// 8 raw bytes.
    private var key: [UInt8] = []
    /// The length of the last key's padded prefix (0: none, a sync identity), and the last prefix hashed with its
    /// SHA-1 state.
    private var prefixLength = 0
    private var lastPrefix: (bytes: [UInt8], state: SHA1.State)?
    private let metadataText = ByteBuffer(capacity: 256)
    private var unitCache: [String: String] = [:]
    private var typeCache: [String: SampleType?] = [:]

    init(catalogue: SampleTypeCatalogue) {
        self.catalogue = catalogue
        key.reserveCapacity(512)
    }

    /// Whether the key being built leaves the amount out (``looseUUID(for:)``), and the amount it left out.
    private var leavingAmountOut = false
    private var amountLeftOut: Double?

    /// The UUID of `sample`'s identity with its amount left out (the unit it is counted in kept: the type's canonical
    /// unit when it has one), that amount, and the unit the amount was written in (``HealthUnit/unitString``); nil for
    /// a sample without an amount or with a sync identifier. The same sample exported before and after the phone's
    /// units changed, its amounts printed to six significant digits as the Health app prints them (`160 lb`, then
    /// `72.5748 kg`), gives the same loose UUID, amounts ``sameAmount(_:_:floor:)`` takes for one, and two written units
    /// (``IdentityPartition/matchLoosely(_:hold:)``).
    mutating func looseUUID(for sample: Sample) -> LooseKey? {
        leavingAmountOut = true
        amountLeftOut = nil
        defer { leavingAmountOut = false }
        let uuid = uuid(for: sample)
        guard let amount = amountLeftOut else { return nil }
        let unit: String
        switch sample.value {
        case let .quantity(quantity): unit = quantity.unit.unitString
        case let .generic(_, written): unit = written.map { canonicalUnit($0) } ?? ""
        case .category: return nil
        }
        return LooseKey(uuid: uuid, amount: amount, unit: unit)
    }

    /// A record's identity without its amount, the amount, and the unit it was written in (``looseUUID(for:)``).
    struct LooseKey {
        var uuid: UUID
        var amount: Double
        var unit: String
    }

    /// Whether two amounts of one record, counted in one unit, can be the same amount printed to six significant
    /// digits in two units: they differ by at most a hundred-thousandth of the larger (each print is within half a unit
    /// of its sixth digit, at most five millionths of it), or by at most `floor` (a unit with an offset: 32.0001 °F is
    /// within 0.00003 °C of 0 °C, far more than a hundred-thousandth of it).
    static func sameAmount(_ a: Double, _ b: Double, floor: Double = 0) -> Bool {
        a == b || abs(a - b) <= max(1.000001e-5 * max(abs(a), abs(b)), floor)
    }

    /// Appends a record's amount, or the mark of an amount left out (``looseUUID(for:)``).
    private mutating func appendAmount(_ amount: Double) {
        guard leavingAmountOut else { return append(number: amount) }
        key.append(UInt8(ascii: "q"))
        amountLeftOut = amount
    }

    /// The UUID of `sample`'s identity (its first occurrence).
    mutating func uuid(for sample: Sample) -> UUID {
        buildKey(sample)
        guard prefixLength > 0 else { return key.withUnsafeBytes { RecordIdentity.uuid(ofKey: $0) } }
        // The prefix (type, source, version, device) repeats from sample to sample: resume from its state.
        let blocks = prefixLength / 64
        let state: SHA1.State
        if let last = lastPrefix, last.bytes.count == prefixLength, last.bytes.elementsEqual(key[0..<prefixLength]) {
            state = last.state
        } else {
            state = key.withUnsafeBytes { SHA1.state(after: blocks, of: $0) }
            lastPrefix = (Array(key[0..<prefixLength]), state)
        }
        return key.withUnsafeBytes { RecordIdentity.uuid(digest: SHA1.hash($0, from: state, skipping: blocks)) }
    }

    /// The UUID the rule of builds before creation dates, source versions, devices and metadata were part of the
    /// identity gave `sample` (type, source, start, end, value and unit, or the sync identifier and version).
    /// Records that share it and differ otherwise are look-alikes (``LookAlikeFinder``).
    mutating func legacyUUID(for sample: Sample) -> UUID {
        buildLegacyKey(sample)
        return key.withUnsafeBytes { RecordIdentity.uuid(ofKey: $0) }
    }

    /// The UUID of the `number`th (from 2) of records that are identical in everything, the first of which has
    /// `base` as its UUID.
    static func occurrence(_ number: Int, of base: UUID) -> UUID {
        var bytes = fullNamespace
        bytes.append(UInt8(ascii: "#"))
        withUnsafeBytes(of: base.uuid) { bytes.append(contentsOf: $0) }
        appendField(Int64(number), to: &bytes)
        return bytes.withUnsafeBytes { uuid(ofKey: $0) }
    }

    /// Pads `key` with zero bytes to a whole number of SHA-1 blocks (64 bytes): the prefix that ends there (type,
    /// source, version, device) repeats from record to record, so its state can be kept and resumed.
    static func padToBlock(_ key: inout [UInt8]) {
        let rest = key.count % 64
        if rest != 0 { key.append(contentsOf: repeatElement(0, count: 64 - rest)) }
    }

    /// Appends an optional string field: `0` when absent, else `1` and the field.
    static func appendOptionalField(_ text: String?, to key: inout [UInt8]) {
        if let text {
            key.append(1)
            appendField(text, to: &key)
        } else {
            key.append(0)
        }
    }

    /// The UUID of an identity key: the namespace followed by the identity's fields.
    static func uuid(ofKey key: UnsafeRawBufferPointer) -> UUID {
        uuid(digest: SHA1.hash(key))
    }

    /// The UUID of a SHA-1 digest: its first 16 bytes, marked as a version-5 UUID.
    static func uuid(digest: SHA1.State) -> UUID {
        var uuid = UUID.placeholderBytes
        withUnsafeMutableBytes(of: &uuid) { bytes in
            bytes.storeBytes(of: digest.0.bigEndian, toByteOffset: 0, as: UInt32.self)
            bytes.storeBytes(of: digest.1.bigEndian, toByteOffset: 4, as: UInt32.self)
            bytes.storeBytes(of: digest.2.bigEndian, toByteOffset: 8, as: UInt32.self)
            bytes.storeBytes(of: digest.3.bigEndian, toByteOffset: 12, as: UInt32.self)
            bytes[6] = (bytes[6] & 0x0F) | 0x50
            bytes[8] = (bytes[8] & 0x3F) | 0x80
        }
        return UUID(uuid: uuid)
    }

    private mutating func buildKey(_ sample: Sample) {
        let sample = RecordIdentity.exportForm(sample)
        key.removeAll(keepingCapacity: true)
        prefixLength = 0
        key.append(contentsOf: RecordIdentity.fullNamespace)
        append(sample.typeIdentifier)
        append(sample.source)
        if !sample.metadata.isEmpty, case let .string(identifier)? = sample.metadata[RecordIdentity.syncIdentifierKey] {
            key.append(UInt8(ascii: "s"))
            append(identifier)
            appendMetadata(sample.metadata[RecordIdentity.syncVersionKey])
            return
        }
        RecordIdentity.appendOptionalField(sample.sourceVersion, to: &key)
        RecordIdentity.appendOptionalField(sample.device, to: &key)
        // The metadata as the store's line writes it (`,"metadata":{…}`, keys sorted; the element's children left
        // out), as a field: it is part of the prefix, which repeats from record to record.
        metadataText.removeAll()
        if !sample.metadata.isEmpty {
            var first = true
            let workout = RecordIdentity.isWorkout(sample)
            for name in sample.metadata.keys.sorted() where name != RecordIdentity.childrenKey {
                if workout && RecordIdentity.workoutTotals.contains(name) { continue }
                metadataText.append(first ? ",\"metadata\":{" as StaticString : "," as StaticString)
                first = false
                JSONBytes.appendQuoted(name, to: metadataText)
                metadataText.append(UInt8(ascii: ":"))
                switch sample.metadata[name]! {
                case let .string(text):
                    if let instant = RecordIdentity.attributeInstant(name, text) {
                        metadataText.append("@" as StaticString)
                        metadataText.append(String(instant))
                    } else {
                        JSONBytes.appendQuoted(text, to: metadataText)
                    }
                case let .number(number): metadataText.append(NumberFormatting.json(number))
                }
            }
            if !first { metadataText.append(UInt8(ascii: "}")) }
        }
        RecordIdentity.appendLength(metadataText.count, to: &key)
        key.append(contentsOf: metadataText.bytes)
        RecordIdentity.padToBlock(&key)
        prefixLength = key.count
        append(Int64((sample.start.timeIntervalSince1970 * 1000).rounded()))
        append(Int64((sample.end.timeIntervalSince1970 * 1000).rounded()))
        appendValue(sample.value, type: sample.typeIdentifier, canonical: true)
        append(Int64((sample.created.timeIntervalSince1970 * 1000).rounded()))
        appendAttributes(sample)
    }

    /// Workouts, correlations and states of mind: the identity of their export form, whether they were imported or
    /// logged (so two states of mind that differ only in valence, labels or associations are two records).
    private static func exportForm(_ sample: Sample) -> Sample {
        sample.detail == nil ? sample
            : sample.detail?.workout != nil ? WorkoutExportForm.generic(sample)
            : sample.detail?.correlation != nil ? CorrelationExportForm.generic(sample, members: [], timeZone: .gmt)
            : StateOfMindExportForm.generic(sample)
    }

    /// The attributes of an element other than `Record` (`@duration`, ...), by name (a workout's totals left out,
    /// dates as instants).
    private mutating func appendAttributes(_ sample: Sample) {
        if !sample.metadata.isEmpty, sample.metadata[RecordIdentity.elementKey] != nil {
            let workout = RecordIdentity.isWorkout(sample)
            for name in sample.metadata.keys.sorted() where name.hasPrefix(RecordIdentity.attributePrefix) && name != RecordIdentity.childrenKey {
                if workout && RecordIdentity.workoutTotals.contains(name) { continue }
                append(name)
                if case let .string(text)? = sample.metadata[name], let instant = RecordIdentity.attributeInstant(name, text) {
                    key.append(UInt8(ascii: "d"))
                    append(instant)
                } else {
                    appendMetadata(sample.metadata[name])
                }
            }
        }
    }

    /// A workout's totals as the attributes of exports before iOS 16 held them (``RecordIdentity``).
    static let workoutTotals: Set<String> = ["@totalDistance", "@totalDistanceUnit", "@totalEnergyBurned", "@totalEnergyBurnedUnit",
                                             "@totalSwimmingStrokeCount", "@totalSwimmingStrokeCountUnit",
                                             "@totalFlightsClimbed", "@totalFlightsClimbedUnit"]

    /// Whether `sample` (in its export form) is a workout element.
    private static func isWorkout(_ sample: Sample) -> Bool {
        if case .string(WorkoutExportForm.element)? = sample.metadata[elementKey] { return true }
        return false
    }

    /// The instant (milliseconds since 1970) an element's attribute names, when it holds an export date.
    private static func attributeInstant(_ name: String, _ text: String) -> Int64? {
        guard name.utf8.first == UInt8(ascii: "@"), text.utf8.count >= 19, let date = ExportDateParser.parse(text) else { return nil }
        return Int64((date.timeIntervalSince1970 * 1000).rounded())
    }

    private mutating func buildLegacyKey(_ sample: Sample) {
        let sample = RecordIdentity.exportForm(sample)
        key.removeAll(keepingCapacity: true)
        prefixLength = 0
        key.append(contentsOf: RecordIdentity.namespace)
        append(sample.typeIdentifier)
        append(sample.source)
        if !sample.metadata.isEmpty, case let .string(identifier)? = sample.metadata[RecordIdentity.syncIdentifierKey] {
            key.append(UInt8(ascii: "s"))
            append(identifier)
            appendMetadata(sample.metadata[RecordIdentity.syncVersionKey])
            return
        }
        append(Int64((sample.start.timeIntervalSince1970 * 1000).rounded()))
        append(Int64((sample.end.timeIntervalSince1970 * 1000).rounded()))
        appendValue(sample.value, type: sample.typeIdentifier, canonical: false)
        appendAttributes(sample)
    }

    private mutating func append(_ text: String) { RecordIdentity.appendField(text, to: &key) }

    private mutating func append(_ number: Int64) { RecordIdentity.appendField(number, to: &key) }

    private mutating func append(number value: Double) { RecordIdentity.appendField(number: value, to: &key) }

    /// Appends a string field to a key: its UTF-8 length (LEB128), then its bytes.
    static func appendField(_ text: String, to key: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            appendLength(bytes.count, to: &key)
            key.append(contentsOf: bytes)
        }
    }

    /// Appends a length as LEB128.
    static func appendLength(_ length: Int, to key: inout [UInt8]) {
        var length = length
        while length >= 0x80 {
            key.append(UInt8(truncatingIfNeeded: length) | 0x80)
            length >>= 7
        }
        key.append(UInt8(length))
    }

    /// Appends an integer field (an instant in milliseconds) to a key: 8 bytes, little-endian.
    static func appendField(_ number: Int64, to key: inout [UInt8]) {
        withUnsafeBytes(of: number.littleEndian) { key.append(contentsOf: $0) }
    }

    /// Appends a number field to a key: `n`, then the double's bits (negative zero as zero).
    static func appendField(number value: Double, to key: inout [UInt8]) {
        key.append(UInt8(ascii: "n"))
        appendField(Int64(bitPattern: (value == 0 ? 0 : value).bitPattern), to: &key)
    }

    private mutating func appendMetadata(_ value: MetadataValue?) {
        switch value {
        case let .string(text)?:
            if let number = DecimalParser.parse(text) { append(number: number) } else {
                key.append(UInt8(ascii: "t"))
                append(text)
            }
        case let .number(number)?: append(number: number)
        case nil: key.append(UInt8(ascii: "-"))
        }
    }

    /// - Parameter canonical: Whether a quantity counts in its type's canonical unit, to 12 significant digits (the
    ///   identity: an export made after the phone's units changed, lb to kg, writes every value anew); else as
    ///   written (the older rule's ``legacyUUID(for:)``).
    private mutating func appendValue(_ value: SampleValue, type identifier: String, canonical: Bool) {
        switch value {
        case let .quantity(quantity):
            if canonical, let unit = categoryType(identifier)?.canonicalUnit, quantity.unit.isCompatible(with: unit),
               let converted = try? quantity.unit.convert(quantity.value, to: unit) {
                appendAmount(quantity.unit == unit ? HealthUnit.roundedToPrecision(converted) : converted)
                append(unit.unitString)
                return
            }
            appendAmount(quantity.value)
            append(quantity.unit.unitString)
        case let .category(raw):
            // By canonical export name, as a generic sample of a type not yet catalogued would say it.
            key.append(UInt8(ascii: "t"))
            append(categoryType(identifier)?.categoryValue(raw: raw)?.exportNames.first ?? String(raw))
            append("")
        case let .generic(text, unit):
            if let number = DecimalParser.parse(text) { appendAmount(number) } else {
                key.append(UInt8(ascii: "t"))
                append(text)
            }
            append(unit.map { canonicalUnit($0) } ?? "")
        }
    }

    private mutating func categoryType(_ identifier: String) -> SampleType? {
        if let known = typeCache[identifier] { return known }
        let type = catalogue.type(identifier: identifier)
        typeCache[identifier] = type
        return type
    }

    private mutating func canonicalUnit(_ text: String) -> String {
        if let known = unitCache[text] { return known }
        let canonical = HealthUnit.parse(text)?.unitString ?? text
        if unitCache.count < 1024 { unitCache[text] = canonical }
        return canonical
    }
}

private extension UUID {
    static let placeholderBytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
}
