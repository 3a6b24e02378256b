import Foundation

/// Records of an export encoded by ``DirectRecordEncoder``, in input order, handed from the reading thread to the
/// storing thread in one piece.
///
/// Each record is its identity key (``RecordIdentity``'s bytes, namespace first) followed by its store line from
/// just after the uuid (`","type":…`) up to, not including, its `,"seq":N}` ending, all in one buffer.
final class DirectRecordGroup: @unchecked Sendable {
    /// One record's place in ``bytes`` and the facts the storing thread needs without reading its line.
    struct Record {
        /// The type identifier.
        var type: String
        /// A number for the type, the same for every record of it in one import and never 0 (so type comparisons
        /// need not compare strings).
        var typeKey: Int
        /// Start and end, in whole seconds since 1970.
        var start: Int64
        var end: Int64
        /// Where its key ends and its line body begins; where its line body ends.
        var keyEnd: Int
        var bodyEnd: Int
    }

    /// How many records a group holds before it is handed over.
    static let capacity = 512

    let bytes = ByteBuffer(capacity: 1 << 18)
    private(set) var records: [Record] = []

    init() {
        records.reserveCapacity(DirectRecordGroup.capacity)
    }

    var count: Int { records.count }
    var isFull: Bool { records.count >= DirectRecordGroup.capacity }

    /// Adds a record whose key and body were written to `key` and `body`.
    func append(type: String, typeKey: Int, start: Int64, end: Int64, key: [UInt8], body: ByteBuffer) {
        bytes.append(key)
        let keyEnd = bytes.count
        bytes.append(body.bytes)
        records.append(Record(type: type, typeKey: typeKey, start: start, end: end, keyEnd: keyEnd, bodyEnd: bytes.count))
    }

    /// Calls `body` with each record, its key and its line body, in order.
    func forEach(_ body: (Record, UnsafeRawBufferPointer, UnsafeBufferPointer<UInt8>) throws -> Void) rethrows {
        let all = bytes.bytes
        var start = 0
        for record in records {
            try body(record, UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: all[start..<record.keyEnd])),
                     UnsafeBufferPointer(rebasing: all[record.keyEnd..<record.bodyEnd]))
            start = record.bodyEnd
        }
    }
}
