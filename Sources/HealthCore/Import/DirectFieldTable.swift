/// The strings of direct records (types, sources, versions, devices, units, category values) in their two encoded
/// forms: quoted for the store line and length-prefixed for the identity key. Records refer to them by number.
///
/// The reading thread adds to a ``Builder``; each ``DirectRecordGroup`` carries a snapshot taken when it is handed
/// over, which never changes after, so the storing thread reads it without locks.
final class DirectFieldTable: @unchecked Sendable {
    /// Where a field's forms lie in ``bytes``: `[start, keyStart)` quoted, `[keyStart, end)` the key field.
    struct Field {
        var start: Int32
        var keyStart: Int32
        var end: Int32

        /// The length of the key field.
        var length: Int { Int(end - keyStart) }
    }

    let bytes: [UInt8]
    let fields: [Field]
    /// Type identifiers by type number (``DirectRecordGroup/Record/type``).
    let typeNames: [String]

    init(bytes: [UInt8], fields: [Field], typeNames: [String]) {
        self.bytes = bytes
        self.fields = fields
        self.typeNames = typeNames
    }

    /// The growing table of the reading thread.
    struct Builder {
        private var bytes: [UInt8] = []
        private var fields: [Field] = []
        private var typeNames: [String] = []
        private var snapshot: DirectFieldTable?

        /// Adds `text` (its key field from `keyText`, when given) and returns its number.
        mutating func add(_ text: String, key keyText: String? = nil) -> Int32 {
            snapshot = nil
            let start = Int32(bytes.count)
            let buffer = ByteBuffer(capacity: text.utf8.count + 8)
            JSONBytes.appendQuoted(text, to: buffer)
            bytes.append(contentsOf: buffer.bytes)
            let keyStart = Int32(bytes.count)
            RecordIdentity.appendField(keyText ?? text, to: &bytes)
            fields.append(Field(start: start, keyStart: keyStart, end: Int32(bytes.count)))
            return Int32(fields.count - 1)
        }

        /// Adds a type identifier and returns its type number.
        mutating func addType(_ identifier: String) -> Int32 {
            snapshot = nil
            typeNames.append(identifier)
            return Int32(typeNames.count - 1)
        }

        /// The table as it stands.
        mutating func table() -> DirectFieldTable {
            if let snapshot { return snapshot }
            let table = DirectFieldTable(bytes: bytes, fields: fields, typeNames: typeNames)
            snapshot = table
            return table
        }
    }
}
