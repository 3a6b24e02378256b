import TextSupport

/// A JSON value read whole, for the small nested objects of a Health Auto Export workout (totals as
/// `{"qty", "units"}`, series, routes). Strings that read as HAE dates are kept as dates too.
enum HAEJSONTree: Sendable {
    case object([(key: String, value: HAEJSONTree)])
    case array([HAEJSONTree])
    case scalar(HAEValue)

    /// Parses `text` (one JSON value).
    static func parse(_ text: String) throws -> HAEJSONTree {
        var bytes = Array(text.utf8)
        return try bytes.withUnsafeMutableBufferPointer { buffer in
            var cursor = JSONCursor(UnsafeBufferPointer(buffer))
            return try read(&cursor)
        }
    }

    private static func read(_ cursor: inout JSONCursor) throws -> HAEJSONTree {
        switch cursor.peek() {
        case UInt8(ascii: "{"):
            var fields: [(key: String, value: HAEJSONTree)] = []
            try cursor.readObject { cursor, key in
                guard let name = JSONCursor.decode(key) else { throw cursor.failure("a key is not valid UTF-8") }
                fields.append((name, try read(&cursor)))
            }
            return .object(fields)
        case UInt8(ascii: "["):
            var items: [HAEJSONTree] = []
            try cursor.readArray { cursor in items.append(try read(&cursor)) }
            return .array(items)
        case UInt8(ascii: "\""):
            let raw = try cursor.rawString()
            if raw.count >= 19, raw[4] == UInt8(ascii: "-"), raw[10] == UInt8(ascii: " ") || raw[10] == UInt8(ascii: "T"),
               let date = ExportDateParser.parse(raw) {
                return .scalar(.date(date, offset: HAEParser.offset(raw) ?? 0))
            }
            guard let text = JSONCursor.decode(raw) else { throw cursor.failure("a string is not valid UTF-8 or has a bad escape") }
            return .scalar(.string(text))
        case UInt8(ascii: "n"): try cursor.readLiteral("null"); return .scalar(.null)
        case UInt8(ascii: "t"): try cursor.readLiteral("true"); return .scalar(.bool(true))
        case UInt8(ascii: "f"): try cursor.readLiteral("false"); return .scalar(.bool(false))
        default: return .scalar(.number(try cursor.readNumber()))
        }
    }

    /// The value of `key` when this is an object that has it.
    subscript(key: String) -> HAEJSONTree? {
        guard case let .object(fields) = self else { return nil }
        for field in fields where field.key == key { return field.value }
        return nil
    }

    var number: Double? {
        if case let .scalar(.number(value)) = self { return value }
        return nil
    }

    var text: String? {
        if case let .scalar(.string(value)) = self { return value }
        return nil
    }

    var date: Date? {
        if case let .scalar(.date(value, _)) = self { return value }
        return nil
    }

    var bool: Bool? {
        if case let .scalar(.bool(value)) = self { return value }
        return nil
    }

    var items: [HAEJSONTree]? {
        if case let .array(items) = self { return items }
        return nil
    }

    /// `{"qty": 1.5, "units": "km"}`: the number and its unit string.
    var quantity: (qty: Double, units: String)? {
        guard let qty = self["qty"]?.number else { return nil }
        return (qty, self["units"]?.text ?? "")
    }

    /// The value as JSON text (dates written as HAE writes them), compact and with each object's keys in byte order:
    /// the same value re-sent with its keys in another order or other spacing (the app's dictionaries have no fixed
    /// order) gives the same text, so it is the same point.
    var json: String {
        switch self {
        case let .object(fields):
            let sorted = fields.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) }
            return "{" + sorted.map { JSONText.quoted($0.key) + ":" + $0.value.json }.joined(separator: ",") + "}"
        case let .array(items): return "[" + items.map(\.json).joined(separator: ",") + "]"
        case let .scalar(value): return HAESampleBuilder.json(value)
        }
    }
}
