/// Records of an export read by ``DirectRecordEncoder``, in input order, handed from the reading thread to the
/// storing thread in one piece; ``DirectLineComposer`` turns each into its identity and store line there.
final class DirectRecordGroup: @unchecked Sendable {
    /// One record: numbers of its fields in ``fields``, its value and dates.
    struct Record {
        /// The type's number in ``DirectFieldTable/typeNames`` and its field.
        var type: Int32
        var typeField: Int32
        var source: Int32
        /// -1 when absent.
        var version: Int32
        var device: Int32
        /// The unit of a quantity, or the value of a category (its stored name and export name).
        var valueField: Int32
        var isQuantity: Bool
        var number: Double
        /// A quantity's value in its type's canonical unit, to 12 significant digits, and that unit's field: what its
        /// identity holds (``RecordIdentity``), so that the same sample exported in another unit is the same record.
        var identityNumber: Double
        var identityUnit: Int32
        /// Whole seconds since 1970.
        var start: Int64
        var end: Int64
        var created: Int64
        /// In ``bytes``: the value as written when it is already in the store's form (else empty), then the
        /// `,"metadata":{…}` part (or nothing); `extraStart..<valueEnd` and `valueEnd..<extraEnd`.
        var extraStart: Int32
        var valueEnd: Int32
        var extraEnd: Int32
    }

    /// How many records a group holds before it is handed over.
    static let capacity = 512

    let bytes = ByteBuffer(capacity: 1 << 14)
    var records: [Record] = []
    /// The strings its records refer to; set when it is handed over.
    var fields: DirectFieldTable?

    init() {
        records.reserveCapacity(DirectRecordGroup.capacity)
    }

    var count: Int { records.count }
    var isFull: Bool { records.count >= DirectRecordGroup.capacity }
}
