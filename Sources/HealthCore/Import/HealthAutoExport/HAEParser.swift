/// Reads a Health Auto Export payload (`{"data": {"metrics": [...], "workouts": [...], ...}}`) into metrics and
/// points with ``JSONCursor``: no tree, dates parsed straight from the bytes, repeated strings made once.
struct HAEParser {
    /// What a payload held.
    struct Parsed: Sendable {
        var metrics: [HAEMetric] = []
        var others: [HAEOtherItem] = []
        /// Keys of `data` that are not arrays (ignored), by name.
        var ignored: [String] = []
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var lastStrings: [(bytes: [UInt8], text: String)] = []
    /// When the bytes are read as the parse goes (``HAEByteWindow``): told where each element starts.
    private let window: HAEByteWindow?

    /// Stretches of points read on another thread, for a large payload (``HAEPointsAhead``), and where the parser next
    /// looks at them.
    private let ahead: HAEPointsAhead?
    private var aheadTrigger = Int.max
    /// How deep a point of a metric's `data` array lies: `{"data": {"metrics": [{"data": [`.
    static let pointDepth = 5

    /// Parses `bytes`; when they hold at least three pieces of `pieceSize` bytes, on two threads (``HAEPointsAhead``).
    init(_ bytes: UnsafeBufferPointer<UInt8>, pieceSize: Int = HAEPointsAhead.standardPieceSize) {
        self.bytes = bytes
        window = nil
        ahead = HAEPointsAhead(bytes: bytes, window: nil, pieceSize: pieceSize, depth: HAEParser.pointDepth)
    }

    /// Parses the bytes of `window`, which it reads as the parse comes to them.
    init(window: HAEByteWindow, pieceSize: Int = HAEPointsAhead.standardPieceSize) {
        bytes = window.bytes
        self.window = window
        ahead = HAEPointsAhead(bytes: window.bytes, window: window, pieceSize: pieceSize, depth: HAEParser.pointDepth)
    }

    /// A parser of one stretch of points (``HAEPointsAhead``): one thread.
    private init(stretchOf bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        window = nil
        ahead = nil
    }

    /// The points of a stretch of `bytes` (``readStretch(from:until:depth:)``), read by a parser of its own.
    static func stretch(of bytes: UnsafeBufferPointer<UInt8>, from start: Int, until limit: Int, depth: Int) -> HAEPointsAhead.Stretch {
        var parser = HAEParser(stretchOf: bytes)
        return parser.readStretch(from: start, until: limit, depth: depth)
    }

    /// How many stretches read ahead the parse took and dropped (for tests).
    var stretches: (taken: Int, dropped: Int) { (ahead?.taken ?? 0, ahead?.dropped ?? 0) }

    /// Whether the bytes start like a Health Auto Export payload: an object whose first key is `data`, holding an
    /// object (looked at in the first bytes only).
    static func looksLikePayload(_ head: [UInt8]) -> Bool {
        head.withUnsafeBufferPointer { bytes in
            var cursor = JSONCursor(bytes)
            guard cursor.peek() == UInt8(ascii: "{") else { return false }
            _ = try? cursor.expect(UInt8(ascii: "{"), "")
            guard cursor.peek() == UInt8(ascii: "\""), let key = try? cursor.rawString(), JSONCursor.equals(key, "data"),
                  (try? cursor.expect(UInt8(ascii: ":"), "")) != nil else { return false }
            return cursor.peek() == UInt8(ascii: "{")
        }
    }

    /// Parses the whole payload.
    ///
    /// - Throws: ``JSONCursor/Failure`` for invalid JSON or a payload that is not HAE's shape.
    mutating func parse() throws -> Parsed {
        if let ahead {
            try ahead.start()
            aheadTrigger = ahead.trigger
        }
        defer { ahead?.finish() }
        var parsed = Parsed()
        var sawData = false
        var cursor = JSONCursor(bytes)
        try cursor.readObject { cursor, key in
            guard JSONCursor.equals(key, "data") else { return try cursor.skipValue() }
            sawData = true
            guard cursor.peek() == UInt8(ascii: "{") else {
                throw cursor.failure("'data' must be an object holding 'metrics', 'workouts', ...; found \(cursor.describeNext())")
            }
            try readData(&cursor, into: &parsed)
        }
        guard cursor.peek() == nil else { throw cursor.failure("more JSON follows the payload's closing '}'") }
        guard sawData else {
            throw cursor.failure("the object has no 'data' key; a Health Auto Export payload is {\"data\": {\"metrics\": [...]}}", at: 0)
        }
        return parsed
    }

    private mutating func readData(_ cursor: inout JSONCursor, into parsed: inout Parsed) throws {
        try cursor.readObject { cursor, key in
            let name = String(decoding: key, as: UTF8.self)
            guard cursor.peek() == UInt8(ascii: "[") else {
                // The arrays hkctl reads must be arrays (or null): a payload whose metrics are not read must not
                // look like an import of nothing.
                if name == "metrics" || name == HAEWorkouts.array, cursor.peek() != UInt8(ascii: "n") {
                    throw cursor.failure("'\(name)' must be an array; found \(cursor.describeNext())")
                }
                if cursor.peek() != UInt8(ascii: "n") { parsed.ignored.append(name) }
                return try cursor.skipValue()
            }
            if name == "metrics" {
                try cursor.readArray { cursor in parsed.metrics.append(try readMetric(&cursor)) }
            } else {
                try cursor.readArray { cursor in parsed.others.append(try readOther(&cursor, array: name)) }
            }
        }
    }

    private mutating func readMetric(_ cursor: inout JSONCursor) throws -> HAEMetric {
        try window?.advance(to: cursor.position)
        let line = cursor.line
        guard cursor.peek() == UInt8(ascii: "{") else {
            throw cursor.failure("an element of 'metrics' must be an object with 'name', 'units' and 'data'; found \(cursor.describeNext())")
        }
        var metric = HAEMetric(name: "", units: "", points: HAEPointList(), line: line)
        var sawName = false
        try cursor.readObject { cursor, key in
            if JSONCursor.equals(key, "name") {
                guard cursor.peek() == UInt8(ascii: "\"") else { throw cursor.failure("a metric's 'name' must be a string") }
                metric.name = try cursor.readString()
                sawName = true
            } else if JSONCursor.equals(key, "units") {
                if cursor.peek() == UInt8(ascii: "\"") { metric.units = try cursor.readString() } else { try cursor.skipValue() }
            } else if JSONCursor.equals(key, "data") {
                guard cursor.peek() == UInt8(ascii: "[") else {
                    throw cursor.failure("a metric's 'data' must be an array of points; found \(cursor.describeNext())")
                }
                try cursor.readArray { cursor in
                    // A stretch read ahead on another thread is taken where it starts (``HAEPointsAhead``).
                    if cursor.position >= aheadTrigger, let ahead {
                        let closed = try ahead.meet(&cursor, points: &metric.points)
                        aheadTrigger = ahead.trigger
                        if closed { return }
                    }
                    try readPoint(&cursor, into: &metric.points)
                }
                metric.points.trim()
            } else {
                try cursor.skipValue()
            }
        }
        guard sawName else { throw cursor.failure("the metric at line \(line) has no 'name'") }
        return metric
    }

    /// The points of a metric's `data` array from `start`, where one starts `depth` deep, to the first that starts at
    /// or after `limit`, the array's end, or the first that cannot be read whole (``HAEPointsAhead``). Lines are
    /// counted from 0 at `start`.
    mutating func readStretch(from start: Int, until limit: Int, depth: Int) -> HAEPointsAhead.Stretch {
        var cursor = JSONCursor(bytes, at: start, depth: depth, line: 0)
        var points = HAEPointList()
        let read = cursor.readElements(until: limit) { cursor in try readPoint(&cursor, into: &points) }
        points.truncate(toPoints: read.count)
        guard read.count > 0 else { return HAEPointsAhead.Stretch(points: points, end: start, lines: 0, closed: false) }
        return HAEPointsAhead.Stretch(points: points, end: read.end, lines: read.line, closed: read.closed)
    }

    private mutating func readPoint(_ cursor: inout JSONCursor, into points: inout HAEPointList) throws {
        try window?.advance(to: cursor.position)
        let isObject = cursor.peek() == UInt8(ascii: "{")  // past the spaces before it: its line
        points.startPoint(line: cursor.line)
        guard isObject else {
            // Kept so that it is counted as refused with its line, not silently skipped.
            try HAEParser.valueKey.withUnsafeBufferPointer { points.addField($0, .json(try cursor.rawValueText())) }
            return
        }
        try cursor.readObject { cursor, key in
            points.addField(key, try readValue(&cursor))
        }
    }

    /// The field name of a point that is not an object.
    private static let valueKey = Array("@value".utf8)

    /// A point's value: numbers, strings (dates parsed), null, or nested JSON as text.
    private mutating func readValue(_ cursor: inout JSONCursor) throws -> HAEValue {
        switch cursor.peek() {
        case UInt8(ascii: "\""):
            let raw = try cursor.rawString()
            // A second of 60 is no time HAE writes (HealthKit's clock has no leap seconds): left as text, so the
            // point is refused with its date.
            if raw.count >= 19, raw[4] == UInt8(ascii: "-"), raw[10] == UInt8(ascii: " ") || raw[10] == UInt8(ascii: "T"),
               !(raw[17] == UInt8(ascii: "6") && raw[18] == UInt8(ascii: "0")), let date = ExportDateParser.parse(raw) {
                return .date(date, offset: HAEParser.offset(raw) ?? 0)
            }
            return .string(try text(raw, cursor: cursor))
        case UInt8(ascii: "n"): try cursor.readLiteral("null"); return .null
        case UInt8(ascii: "t"): try cursor.readLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try cursor.readLiteral("false"); return .bool(false)
        case UInt8(ascii: "{"), UInt8(ascii: "["): return .json(try cursor.rawValueText())
        default: return try HAEParser.number(&cursor)
        }
    }

    /// The number that starts here, or its text when no double holds it (`1e400`): no infinity reaches a store line
    /// as a number (JSON has none, and the line would be unreadable); a `qty` written so is refused as no number.
    static func number(_ cursor: inout JSONCursor) throws -> HAEValue {
        cursor.skipSpace()
        let start = cursor.position
        let number = try cursor.readNumber()
        if number.isFinite { return .number(number) }
        return .json(String(decoding: UnsafeBufferPointer(rebasing: cursor.bytes[start..<cursor.position]), as: UTF8.self))
    }

    /// The decoded text of raw string bytes; the last few distinct strings are kept, so a source name repeated on
    /// every point is made once.
    private mutating func text(_ raw: UnsafeBufferPointer<UInt8>, cursor: JSONCursor) throws -> String {
        for entry in lastStrings where entry.bytes.withUnsafeBufferPointer({ HAEPointList.same($0, raw) }) { return entry.text }
        guard let text = JSONCursor.decode(raw) else {
            throw cursor.failure("a string is not valid UTF-8 or has a bad escape")
        }
        if lastStrings.count == 8 { lastStrings.removeFirst() }
        lastStrings.append((Array(raw), text))
        return text
    }

    /// The offset of a date `... +1100` (or `+11:00`, `Z`) in seconds.
    static func offset(_ raw: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = raw.count
        if raw[count - 1] == UInt8(ascii: "Z") { return 0 }
        // The last four digits (colons skipped), read from the end: `hhmm` as one number.
        var digits = 0, hhmm = 0, scale = 1
        var index = count - 1
        while index > 0, digits < 4 {
            let byte = raw[index]
            if byte >= 0x30 && byte <= 0x39 {
                hhmm += (Int(byte) - 48) * scale
                scale *= 10
                digits += 1
            } else if byte != UInt8(ascii: ":") {
                return nil
            }
            index -= 1
        }
        guard digits == 4, raw[index] == UInt8(ascii: "+") || raw[index] == UInt8(ascii: "-") else { return nil }
        let seconds = hhmm / 100 * 3600 + hhmm % 100 * 60
        return raw[index] == UInt8(ascii: "-") ? -seconds : seconds
    }

    private mutating func readOther(_ cursor: inout JSONCursor, array: String) throws -> HAEOtherItem {
        try window?.advance(to: cursor.position)
        let line = cursor.line
        let startPosition = cursor.position
        var item = HAEOtherItem(array: array, json: "", line: line)
        if cursor.peek() == UInt8(ascii: "{") {
            try cursor.readObject { cursor, key in
                let isStart = JSONCursor.equals(key, "start") || JSONCursor.equals(key, "date") || JSONCursor.equals(key, "startDate")
                let isEnd = JSONCursor.equals(key, "end") || JSONCursor.equals(key, "endDate")
                guard isStart || isEnd else { return try cursor.skipValue() }
                if case let .date(date, offset) = try readValue(&cursor) {
                    if isStart, item.start == nil { item.start = (date, offset) }
                    if isEnd { item.end = (date, offset) }
                }
            }
        } else {
            try cursor.skipValue()
        }
        item.json = String(decoding: UnsafeBufferPointer(rebasing: cursor.bytes[startPosition..<cursor.position]), as: UTF8.self)
        return item
    }
}
