#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TextSupport

/// Writes the identity key and store line of ``DirectRecordGroup/Record``s on the storing thread: byte for byte
/// what ``RecordIdentity`` and ``SampleLineWriter`` make of the samples the records stand for.
struct DirectLineComposer {
    /// One group's bytes, for the duration of its storing.
    struct View {
        /// ``DirectFieldTable/bytes`` and ``DirectFieldTable/fields``.
        var table: UnsafeBufferPointer<UInt8>
        var fields: UnsafeBufferPointer<DirectFieldTable.Field>
        /// ``DirectRecordGroup/bytes``.
        var extra: UnsafeBufferPointer<UInt8>
    }

    private var zone: ZoneOffsets
    /// The dates' writer, which keeps the last local day and offset spelled.
    private var dates = ISODateSpeller()
    private let key = ByteBuffer(capacity: 512)
    private let namespace = RecordIdentity.fullNamespace
    /// SHA-1 states after the prefix of keys (namespace, type, source, version, device and metadata, padded to whole
    /// blocks), the most recently added first.
    private var prefixStates: [(type: Int32, source: Int32, version: Int32, device: Int32, metadata: [UInt8], blocks: Int,
                                state: SHA1.State)] = []

    /// Creates a composer for a store whose lines write dates in `timeZone`.
    init(timeZone: ZoneRules) {
        zone = ZoneOffsets(timeZone: timeZone)
    }

    /// The UUID of the record's identity with its amount left out, the amount and its written unit, as
    /// ``RecordIdentity/looseUUID(for:)`` gives them; nil for a record without an amount.
    mutating func looseUUID(of record: DirectRecordGroup.Record, in view: View) -> RecordIdentity.LooseKey? {
        guard record.isQuantity else { return nil }
        // The unit as written (a key field: its length, then its bytes), in HealthKit's spelling.
        var field = keyField(record.valueField, view)[...]
        while let first = field.first, first & 0x80 != 0 { field = field.dropFirst() }
        let written = String(decoding: field.dropFirst(), as: UTF8.self)
        return RecordIdentity.LooseKey(uuid: uuid(of: record, in: view, leavingAmountOut: true), amount: record.identityNumber,
                                       unit: HealthUnit.parse(written)?.unitString ?? written)
    }

    /// The UUID of the record's identity (``RecordIdentity``), its first occurrence; with `leavingAmountOut`, of its
    /// identity without its amount (``looseUUID(of:in:)``).
    mutating func uuid(of record: DirectRecordGroup.Record, in view: View, leavingAmountOut: Bool = false) -> UUID {
        key.removeAll()
        // The prefix (namespace, type, source, version, device, padded to whole blocks) repeats from record to
        // record: its SHA-1 state is kept and the key's rest hashed from there.
        var blocks = 0
        var state = SHA1.initialState
        let metadata = UnsafeBufferPointer(rebasing: view.extra[Int(record.valueEnd)..<Int(record.extraEnd)])
        if let index = prefixStates.firstIndex(where: {
            $0.type == record.typeField && $0.source == record.source && $0.version == record.version && $0.device == record.device
                && $0.metadata.count == metadata.count
                && (metadata.isEmpty || $0.metadata.withUnsafeBufferPointer { memcmp($0.baseAddress!, metadata.baseAddress!, metadata.count) == 0 })
        }) {
            blocks = prefixStates[index].blocks
            state = prefixStates[index].state
            key.reserve(blocks * 64)
            key.advance(blocks * 64)
        } else {
            namespace.withUnsafeBufferPointer { key.append($0) }
            key.append(keyField(record.typeField, view))
            key.append(keyField(record.source, view))
            appendOptional(record.version, view)
            appendOptional(record.device, view)
            var length = metadata.count
            while length >= 0x80 {
                key.append(UInt8(truncatingIfNeeded: length) | 0x80)
                length >>= 7
            }
            key.append(UInt8(length))
            key.append(metadata)
            let rest = key.count % 64
            if rest != 0 {
                key.reserve(64 - rest)
                for _ in rest..<64 { key.appendReserved(0) }
            }
            blocks = key.count / 64
            state = SHA1.state(after: blocks, of: UnsafeRawBufferPointer(key.bytes))
            if prefixStates.count == 16 { prefixStates.removeLast() }
            prefixStates.insert((record.typeField, record.source, record.version, record.device, Array(metadata), blocks, state), at: 0)
        }
        appendInteger(record.start * 1000)
        appendInteger(record.end * 1000)
        if record.isQuantity && leavingAmountOut {
            key.append(UInt8(ascii: "q"))
            key.append(keyField(record.identityUnit, view))
        } else if record.isQuantity {
            key.append(UInt8(ascii: "n"))
            let number = record.identityNumber
            appendInteger(Int64(bitPattern: (number == 0 ? 0 : number).bitPattern))
            key.append(keyField(record.identityUnit, view))
        } else {
            key.append(UInt8(ascii: "t"))
            key.append(keyField(record.valueField, view))
            key.append(0)
        }
        appendInteger(record.created * 1000)
        return RecordIdentity.uuid(digest: SHA1.hash(UnsafeRawBufferPointer(key.bytes), from: state, skipping: blocks))
    }

    private func appendOptional(_ field: Int32, _ view: View) {
        if field >= 0 {
            key.append(1)
            key.append(keyField(field, view))
        } else {
            key.append(0)
        }
    }

    /// Appends the record's store line, without its `,"seq":N}` ending.
    mutating func appendLine(of record: DirectRecordGroup.Record, uuid: UUID, in view: View, to out: ByteBuffer) {
        out.append("{\"uuid\":\"" as StaticString)
        SampleLineWriter.appendUUID(uuid, to: out)
        out.append("\",\"type\":" as StaticString)
        out.append(quoted(record.typeField, view))
        out.append(",\"start\":\"" as StaticString)
        appendDate(record.start, to: out)
        out.append("\",\"end\":\"" as StaticString)
        appendDate(record.end, to: out)
        out.append("\",\"value\":" as StaticString)
        let extraStart = Int(record.extraStart), valueEnd = Int(record.valueEnd)
        if record.isQuantity {
            if valueEnd > extraStart {
                out.append(UnsafeBufferPointer(rebasing: view.extra[extraStart..<valueEnd]))
            } else {
                out.append(NumberFormatting.json(record.number))
            }
            out.append(",\"unit\":" as StaticString)
        }
        out.append(quoted(record.valueField, view))
        out.append(",\"source\":" as StaticString)
        out.append(quoted(record.source, view))
        if record.version >= 0 {
            out.append(",\"sourceVersion\":" as StaticString)
            out.append(quoted(record.version, view))
        }
        if record.device >= 0 {
            out.append(",\"device\":" as StaticString)
            out.append(quoted(record.device, view))
        }
        out.append(",\"created\":\"" as StaticString)
        appendDate(record.created, to: out)
        out.append(UInt8(ascii: "\""))
        out.append(UnsafeBufferPointer(rebasing: view.extra[valueEnd..<Int(record.extraEnd)]))
    }

    // MARK: - Parts

    @inline(__always)
    private func quoted(_ number: Int32, _ view: View) -> UnsafeBufferPointer<UInt8> {
        let field = view.fields[Int(number)]
        return UnsafeBufferPointer(rebasing: view.table[Int(field.start)..<Int(field.keyStart)])
    }

    @inline(__always)
    private func keyField(_ number: Int32, _ view: View) -> UnsafeBufferPointer<UInt8> {
        let field = view.fields[Int(number)]
        return UnsafeBufferPointer(rebasing: view.table[Int(field.keyStart)..<Int(field.end)])
    }

    private func appendInteger(_ value: Int64) {
        withUnsafeBytes(of: value.littleEndian) { key.append($0.assumingMemoryBound(to: UInt8.self)) }
    }

    /// Appends the instant as ``ISODate/format(_:in:)`` writes it in the store's zone: `2024-03-10T01:59:00-08:00`.
    private mutating func appendDate(_ seconds: Int64, to out: ByteBuffer) {
        // Whole minutes, as the text spells it (see ``SampleLineWriter``).
        let offset = zone.offset(at: seconds) / 60 * 60
        let local = seconds + Int64(offset)
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let millisOfDay = Int(local - days * 86_400) * 1000
        if !dates.append(days: days, millisecondsOfDay: millisOfDay, offsetSeconds: offset, to: out) {
            out.append(ISODate.format(Date(timeIntervalSince1970: Double(seconds)), offsetSeconds: offset))
        }
    }
}
