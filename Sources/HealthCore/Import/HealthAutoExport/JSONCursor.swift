import TextSupport

/// A forward-only JSON reader over bytes, written for Health Auto Export payloads: it never builds a tree, so a
/// caller walks the structure it expects and skips the rest. Strings are decoded only when asked for, numbers are
/// read with ``DecimalParser`` (exact to the last bit), and object keys are compared as bytes.
///
/// Use it inside `withUnsafeBufferPointer` on the bytes: it holds the pointer, not a copy.
struct JSONCursor {
    /// Why the bytes are not the JSON expected, with the 1-based line and column.
    struct Failure: Error, Equatable {
        var line: Int
        var column: Int
        var reason: String
    }

    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var position = 0
    /// How deep arrays and objects nest at most (a hostile input cannot exhaust the stack).
    static let nestingLimit = 64
    private var depth = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        // A UTF-8 byte order mark is allowed before the value.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
    }

    /// A cursor at `position` of `bytes`, where an element of an array `depth` arrays and objects deep starts, on line
    /// `line` (a stretch of the array read ahead of the cursor that reads the rest: ``HAEPointsAhead``).
    init(_ bytes: UnsafeBufferPointer<UInt8>, at position: Int, depth: Int, line: Int) {
        self.bytes = bytes
        self.position = position
        self.depth = depth
        self.line = line
    }

    /// How many arrays and objects the position is inside.
    var nesting: Int { depth }

    /// Moves on to `position`, `lines` lines further, past bytes read by another cursor (``HAEPointsAhead``).
    mutating func jump(to position: Int, linesFurther lines: Int) {
        self.position = position
        line += lines
    }

    /// Reads elements of the array this cursor is inside with `body`, from the start of one, until one starts at or
    /// after `limit`, the array ends, or an element or what follows it cannot be read: a stretch of the array read ahead
    /// of the cursor that reads the rest (``HAEPointsAhead``), which never reports an error. Returns how many elements
    /// were read whole (each followed by `,` or `]`; what `body` added for a later one is the caller's to drop), and
    /// where the stretch ends: the start of the next element, or the array's `]`, and its line.
    mutating func readElements(until limit: Int, _ body: (inout JSONCursor) throws -> Void)
        -> (count: Int, end: Int, line: Int, closed: Bool) {
        var count = 0
        while true {
            skipSpace()
            let (start, startLine) = (position, line)
            guard start < limit else { return (count, start, startLine, false) }
            do { try body(&self) } catch { return (count, start, startLine, false) }
            switch peek() {
            case UInt8(ascii: ","):
                position += 1
                count += 1
            case UInt8(ascii: "]"):
                return (count + 1, position, line, true)
            default:
                return (count, start, startLine, false)
            }
        }
    }

    /// The line and column of `offset` (counted only when an error is reported).
    func location(of offset: Int) -> (line: Int, column: Int) {
        var line = 1, lineStart = 0
        var index = 0
        let end = min(offset, bytes.count)
        while index < end {
            if bytes[index] == 0x0A { line += 1; lineStart = index + 1 }
            index += 1
        }
        return (line, end - lineStart + 1)
    }

    /// The 1-based line of the current position (newlines occur only in white space: strings refuse them).
    private(set) var line = 1

    func failure(_ reason: String, at offset: Int? = nil) -> Failure {
        let (line, column) = location(of: offset ?? position)
        return Failure(line: line, column: column, reason: reason)
    }

    @inline(__always) mutating func skipSpace() {
        while position < bytes.count {
            let byte = bytes[position]
            if byte == 0x0A {
                line += 1
            } else if byte != 0x20 && byte != 0x0D && byte != 0x09 {
                return
            }
            position += 1
        }
    }

    /// The next byte that is not white space, not consumed; nil at the end.
    @inline(__always) mutating func peek() -> UInt8? {
        skipSpace()
        return position < bytes.count ? bytes[position] : nil
    }

    /// What the next value is, for messages.
    mutating func describeNext() -> String {
        guard let byte = peek() else { return "the end of the input" }
        switch byte {
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
        case UInt8(ascii: "n"): return "null"
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return "a number"
        default: return "'\(String(decoding: [byte], as: UTF8.self))'"
        }
    }

    mutating func expect(_ byte: UInt8, _ what: String) throws {
        guard peek() == byte else { throw failure("expected \(what), found \(describeNext())") }
        position += 1
    }

    /// Calls `body` with each key of the object that starts here (as raw bytes, escapes undecoded), positioned at
    /// its value, which `body` must read or skip.
    mutating func readObject(_ body: (inout JSONCursor, UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        try expect(UInt8(ascii: "{"), "an object '{'")
        depth += 1
        defer { depth -= 1 }
        guard depth <= JSONCursor.nestingLimit else { throw failure("arrays and objects nest more than \(JSONCursor.nestingLimit) deep") }
        if peek() == UInt8(ascii: "}") { position += 1; return }
        while true {
            guard peek() == UInt8(ascii: "\"") else { throw failure("expected a key in quotes, found \(describeNext())") }
            let key = try rawString()
            try expect(UInt8(ascii: ":"), "':' after a key")
            skipSpace()
            try body(&self, key)
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"): position += 1; return
            default: throw failure("expected ',' or '}' in an object, found \(describeNext())")
            }
        }
    }

    /// Calls `body` for each element of the array that starts here, positioned at it; `body` must read or skip it.
    mutating func readArray(_ body: (inout JSONCursor) throws -> Void) throws {
        try expect(UInt8(ascii: "["), "an array '['")
        depth += 1
        defer { depth -= 1 }
        guard depth <= JSONCursor.nestingLimit else { throw failure("arrays and objects nest more than \(JSONCursor.nestingLimit) deep") }
        if peek() == UInt8(ascii: "]") { position += 1; return }
        while true {
            skipSpace()
            try body(&self)
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; return
            default: throw failure("expected ',' or ']' in an array, found \(describeNext())")
            }
        }
    }

    /// The bytes of the string that starts here, between its quotes, escapes left as written; checks that it ends.
    mutating func rawString() throws -> UnsafeBufferPointer<UInt8> {
        try expect(UInt8(ascii: "\""), "a string")
        let start = position
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return UnsafeBufferPointer(rebasing: bytes[start..<position - 1])
            }
            if byte == UInt8(ascii: "\\") { position += 2; continue }
            if byte < 0x20 { throw failure("a control character inside a string (escape it as \\u00XX)") }
            position += 1
        }
        throw failure("a string is not closed", at: start - 1)
    }

    /// The string that starts here, decoded (escapes, UTF-8 checked).
    mutating func readString() throws -> String {
        let start = position
        let raw = try rawString()
        return try JSONCursor.decode(raw) ?? { throw failure("the string is not valid UTF-8 or has a bad escape", at: start) }()
    }

    /// The text of raw string bytes, or nil when an escape or the UTF-8 is invalid.
    static func decode(_ raw: UnsafeBufferPointer<UInt8>) -> String? {
        guard raw.contains(UInt8(ascii: "\\")) else { return String(validating: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var index = 0
        func hex(_ at: Int) -> UInt32? {
            guard at + 4 <= raw.count else { return nil }
            var value: UInt32 = 0
            for offset in 0..<4 {
                let c = raw[at + offset]
                let digit: UInt32
                switch c {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(c - 48)
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(c - 87)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(c - 55)
                default: return nil
                }
                value = value << 4 | digit
            }
            return value
        }
        while index < raw.count {
            let byte = raw[index]
            guard byte == UInt8(ascii: "\\") else { out.append(byte); index += 1; continue }
            guard index + 1 < raw.count else { return nil }
            let kind = raw[index + 1]
            index += 2
            switch kind {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(kind)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard var scalar = hex(index) else { return nil }
                index += 4
                if scalar >= 0xD800 && scalar < 0xDC00 {
                    guard index + 6 <= raw.count, raw[index] == UInt8(ascii: "\\"), raw[index + 1] == UInt8(ascii: "u"),
                          let low = hex(index + 2), low >= 0xDC00 && low < 0xE000 else { return nil }
                    index += 6
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                } else if scalar >= 0xDC00 && scalar < 0xE000 {
                    return nil
                }
                guard let unicode = Unicode.Scalar(scalar) else { return nil }
                out.append(contentsOf: Array(String(Character(unicode)).utf8))
            default: return nil
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    /// The number that starts here (JSON's grammar, checked).
    mutating func readNumber() throws -> Double {
        skipSpace()
        let start = position
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
        let digitsStart = position
        while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 { position += 1 }
        guard position > digitsStart else { throw failure("expected a number, found \(describeNext())", at: start) }
        guard bytes[digitsStart] != UInt8(ascii: "0") || position == digitsStart + 1 else {
            throw failure("a number starts with a 0 followed by digits (JSON numbers have no leading zeros)", at: start)
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            let fraction = position
            while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 { position += 1 }
            guard position > fraction else { throw failure("a number has no digits after its '.'", at: start) }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            let exponent = position
            while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 { position += 1 }
            guard position > exponent else { throw failure("a number has no digits in its exponent", at: start) }
        }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<position])
        guard let value = DecimalParser.parse(text) ?? Double(String(decoding: text, as: UTF8.self)) else {
            throw failure("the number '\(String(decoding: text, as: UTF8.self))' cannot be read", at: start)
        }
        return value
    }

    /// Reads `literal` (`true`, `false`, `null`) here.
    mutating func readLiteral(_ literal: StaticString) throws {
        skipSpace()
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count,
              memcmpBytes(bytes.baseAddress! + position, literal.utf8Start, count) else {
            throw failure("expected a value, found \(describeNext())")
        }
        position += count
    }

    private func memcmpBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        for index in 0..<count where a[index] != b[index] { return false }
        return true
    }

    /// A scalar value, or the raw JSON text of an array or object.
    mutating func readScalar() throws -> JSONScalar {
        switch peek() {
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "n"): try readLiteral("null"); return .null
        case UInt8(ascii: "t"): try readLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try readLiteral("false"); return .bool(false)
        case UInt8(ascii: "{"), UInt8(ascii: "["): return .json(try rawValueText())
        default: return .number(try readNumber())
        }
    }

    /// The JSON text of the value that starts here, as written (checked).
    mutating func rawValueText() throws -> String {
        skipSpace()
        let start = position
        try skipValue()
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
    }

    /// Skips the value that starts here, checking its syntax.
    mutating func skipValue() throws {
        switch peek() {
        case UInt8(ascii: "{"): try readObject { cursor, _ in try cursor.skipValue() }
        case UInt8(ascii: "["): try readArray { cursor in try cursor.skipValue() }
        case UInt8(ascii: "\""): _ = try readString()
        case UInt8(ascii: "n"): try readLiteral("null")
        case UInt8(ascii: "t"): try readLiteral("true")
        case UInt8(ascii: "f"): try readLiteral("false")
        default: _ = try readNumber()
        }
    }

    /// Whether the raw key bytes equal `text` (ASCII).
    @inline(__always) static func equals(_ key: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard key.count == count else { return false }
        let other = text.utf8Start
        for index in 0..<count where key[index] != other[index] { return false }
        return true
    }
}

/// A JSON value the reader keeps: a scalar, or an array or object as its JSON text.
enum JSONScalar: Equatable, Sendable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    /// An array or object, as written.
    case json(String)

    /// How the value reads in a message.
    var described: String {
        switch self {
        case let .string(text): return "'\(text)'"
        case let .number(number): return NumberFormatting.json(number)
        case let .bool(value): return value ? "true" : "false"
        case .null: return "null"
        case let .json(text): return text.count > 40 ? String(text.prefix(40)) + "..." : text
        }
    }
}
