/// A value of a Health Auto Export point: a JSON scalar, with dates read when the string is one.
enum HAEValue: Equatable, Sendable {
    case number(Double)
    case string(String)
    /// A date as HAE writes them (`2023-01-20 00:18:00 +1100`): the instant and the offset written, in seconds.
    case date(Date, offset: Int)
    case bool(Bool)
    case null
    /// An array or object, as written.
    case json(String)

    var number: Double? {
        if case let .number(value) = self { return value }
        return nil
    }

    var text: String? {
        if case let .string(value) = self { return value }
        return nil
    }

    /// How the value reads in a message.
    var described: String {
        switch self {
        case let .number(value): return JSONScalar.number(value).described
        case let .string(value): return "'\(value)'"
        case let .date(date, offset): return "'\(ExportDateParser.format(date, offsetSeconds: offset))'"
        case let .bool(value): return value ? "true" : "false"
        case .null: return "null"
        case let .json(text): return JSONScalar.json(text).described
        }
    }
}

/// One element of a metric's `data` array: its fields in the order written, and the line it starts on.
struct HAEPoint: Sendable {
    var line: Int
    var fields: [(key: String, value: HAEValue)]

    /// The value of `key` (case as written), nil when absent.
    subscript(key: String) -> HAEValue? {
        for field in fields where field.key == key { return field.value }
        return nil
    }
}

/// One element of the `metrics` array.
struct HAEMetric: Sendable {
    var name: String
    var units: String
    var points: HAEPointList
    var line: Int
}

/// One element of another array of the payload (`workouts`, `stateOfMind`, ...), kept as its JSON text.
struct HAEOtherItem: Sendable {
    var array: String
    var json: String
    var line: Int
    var start: (date: Date, offset: Int)?
    var end: (date: Date, offset: Int)?
}
