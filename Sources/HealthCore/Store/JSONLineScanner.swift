#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small, strict JSON reader over the bytes of one line, for the store's hot read path.
///
/// It reads objects key by key without building dictionaries, so a store line decodes in about a microsecond.
/// It accepts any valid JSON (whitespace, escapes, nested values), not only what the store writes.
struct JSONLineScanner {
    enum Failure: Error, CustomStringConvertible {
        case invalid(String)
        var description: String {
            switch self { case let .invalid(text): return "invalid JSON: \(text)" }
        }
    }

    let bytes: UnsafeBufferPointer<UInt8>
    var index: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        self.index = 0
    }

    private func fail(_ what: String) -> Failure { .invalid("\(what) at byte \(index + 1)") }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    var atEnd: Bool { index >= bytes.count }

    mutating func peek() -> UInt8? {
        skipWhitespace()
        return index < bytes.count ? bytes[index] : nil
    }

    mutating func expect(_ byte: UInt8) throws {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else {
            throw fail("expected '\(Character(Unicode.Scalar(byte)))'")
        }
        index += 1
    }

    /// Calls `body` with each key of an object; `body` must consume the value.
    mutating func readObject(_ body: (inout JSONLineScanner, String) throws -> Void) throws {
        try readObjectRawKeys { scanner, raw in
            try body(&scanner, raw.map { String(decoding: $0, as: UTF8.self) } ?? scanner.lastEscapedKey)
        }
    }

    /// The last key that had escapes (rare); set before `readObjectRawKeys` calls its body with nil.
    private(set) var lastEscapedKey = ""

    /// Like ``readObject(_:)`` but hands over each key's bytes without building a String (nil when the key has
    /// escapes; then ``lastEscapedKey`` holds it).
    mutating func readObjectRawKeys(_ body: (inout JSONLineScanner, UnsafeBufferPointer<UInt8>?) throws -> Void) throws {
        try expect(UInt8(ascii: "{"))
        if peek() == UInt8(ascii: "}") { index += 1; return }
        while true {
            let raw = try readPlainStringBytes()
            if raw == nil { lastEscapedKey = try readString() }
            try expect(UInt8(ascii: ":"))
            try body(&self, raw)
            skipWhitespace()
            guard index < bytes.count else { throw fail("unterminated object") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return }
            throw fail("expected ',' or '}'")
        }
    }

    /// The bytes of a string without escapes (the common case), or nil (position unchanged) when it has escapes.
    mutating func readPlainStringBytes() throws -> UnsafeBufferPointer<UInt8>? {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a string") }
        let start = index + 1
        guard let base = bytes.baseAddress, start <= bytes.count,
              let found = memchr(base + start, Int32(UInt8(ascii: "\"")), bytes.count - start) else {
            throw fail("unterminated string")
        }
        let end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<end])
        if memchr(base + start, Int32(UInt8(ascii: "\\")), end - start) != nil { return nil }
        // A control character: readString then reports it.
        if JSONLineScanner.holdsControlCharacter(UnsafeBufferPointer(start: base + start, count: end - start)) { return nil }
        index = end + 1
        return slice
    }

    /// Whether any byte of `bytes` is below 0x20, eight bytes at a time (``holdsByteBelow0x20(_:)``).
    @inline(__always)
    static func holdsControlCharacter(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while offset + 8 <= bytes.count {
            if holdsByteBelow0x20(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) { return true }
            offset += 8
        }
        while offset < bytes.count {
            if base[offset] < 0x20 { return true }
            offset += 1
        }
        return false
    }

    /// Whether a byte of `word` is below 0x20: exactly when `(word - 0x20…20) & ~word & 0x80…80` is not zero (each
    /// byte below 0x20 borrows into its top bit; a byte with its top bit set is masked out by `~word`, and a borrow
    /// only passes on from a byte that was below 0x20).
    @inline(__always)
    static func holdsByteBelow0x20(_ word: UInt64) -> Bool {
        (word &- 0x2020_2020_2020_2020) & ~word & 0x8080_8080_8080_8080 != 0
    }

    /// Whether a byte of `word` is `byte`: exactly when a byte of `word ^ byte…byte` is zero, which
    /// `(v - 0x01…01) & ~v & 0x80…80` tells, as ``holdsByteBelow0x20(_:)`` tells a byte below 0x20.
    @inline(__always)
    static func holds(_ byte: UInt8, in word: UInt64) -> Bool {
        let others = word ^ (0x0101_0101_0101_0101 &* UInt64(byte))
        return (others &- 0x0101_0101_0101_0101) & ~others & 0x8080_8080_8080_8080 != 0
    }

    mutating func readString() throws -> String {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a string") }
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw fail("control character in string") }
            index += 1
        }
        var raw = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: raw, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw fail("unterminated escape") }
                let escaped = bytes[index]
                index += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): raw.append(escaped)
                case UInt8(ascii: "b"): raw.append(0x08)
                case UInt8(ascii: "f"): raw.append(0x0C)
                case UInt8(ascii: "n"): raw.append(0x0A)
                case UInt8(ascii: "r"): raw.append(0x0D)
                case UInt8(ascii: "t"): raw.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try readHex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw fail("unpaired surrogate")
                        }
                        index += 2
                        let low = try readHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail("unpaired surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw fail("invalid \\u escape") }
                    raw.append(contentsOf: Array(String(Character(unicode)).utf8))
                default:
                    throw fail("invalid escape")
                }
            default:
                if byte < 0x20 { throw fail("control character in string") }
                raw.append(byte)
            }
        }
        throw fail("unterminated string")
    }

    private mutating func readHex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            index += 1
            let digit: UInt32
            switch byte {
            case 48...57: digit = UInt32(byte - 48)
            case 65...70: digit = UInt32(byte - 55)
            case 97...102: digit = UInt32(byte - 87)
            default: throw fail("invalid hex digit")
            }
            value = value * 16 + digit
        }
        return value
    }

    mutating func readNumber() throws -> Double {
        skipWhitespace()
        let start = index
        // Fast path: [-]digits[.digits] with at most 15 significant digits is exact as mantissa / 10^n.
        var cursor = index
        let negative = cursor < bytes.count && bytes[cursor] == UInt8(ascii: "-")
        if negative { cursor += 1 }
        var mantissa: Int64 = 0, digits = 0, fractionDigits = 0, seenPoint = false
        while cursor < bytes.count {
            let byte = bytes[cursor]
            if byte >= 48 && byte <= 57 {
                mantissa = mantissa &* 10 &+ Int64(byte - 48)
                digits += 1
                if seenPoint { fractionDigits += 1 }
            } else if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else {
                break
            }
            cursor += 1
        }
        let next = cursor < bytes.count ? bytes[cursor] : 0
        if digits > 0, digits <= 15, next != UInt8(ascii: "e"), next != UInt8(ascii: "E"),
           !(seenPoint && fractionDigits == 0) {
            index = cursor
            let value = fractionDigits == 0 ? Double(mantissa) : Double(mantissa) / JSONLineScanner.powersOfTen[fractionDigits]
            return negative ? -value : value
        }
        while index < bytes.count, JSONLineScanner.isNumberByte(bytes[index]) { index += 1 }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let first = text.utf8.first, first == UInt8(ascii: "-") || (48...57).contains(first),
              let value = Double(text), value.isFinite else {
            index = start
            throw fail("expected a number")
        }
        return value
    }

    private static let powersOfTen: [Double] = (0...22).map { pow(10, Double($0)) }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 48...57, UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
            return true
        default:
            return false
        }
    }

    mutating func readLiteral(_ word: String) -> Bool {
        skipWhitespace()
        let utf8 = Array(word.utf8)
        guard index + utf8.count <= bytes.count else { return false }
        for (offset, byte) in utf8.enumerated() where bytes[index + offset] != byte { return false }
        index += utf8.count
        return true
    }

    /// How deep arrays and objects may nest in a value that is skipped: far more than any line the store writes, few
    /// enough that a hostile line (thousands of `[`) cannot exhaust the stack of this recursive reader.
    static let nestingLimit = 64

    /// Skips any JSON value.
    ///
    /// - Parameter depth: How deep the value lies in arrays and objects already being skipped.
    mutating func skipValue(depth: Int = 0) throws {
        guard let byte = peek() else { throw fail("expected a value") }
        if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "["), depth >= JSONLineScanner.nestingLimit {
            throw fail("arrays and objects nested more than \(JSONLineScanner.nestingLimit) deep")
        }
        switch byte {
        case UInt8(ascii: "\""): _ = try readString()
        case UInt8(ascii: "{"): try readObject { scanner, _ in try scanner.skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            index += 1
            if peek() == UInt8(ascii: "]") { index += 1; return }
            while true {
                try skipValue(depth: depth + 1)
                if peek() == UInt8(ascii: ",") { index += 1; continue }
                try expect(UInt8(ascii: "]"))
                return
            }
        case UInt8(ascii: "t"): if !readLiteral("true") { throw fail("invalid literal") }
        case UInt8(ascii: "f"): if !readLiteral("false") { throw fail("invalid literal") }
        case UInt8(ascii: "n"): if !readLiteral("null") { throw fail("invalid literal") }
        default: _ = try readNumber()
        }
    }
}
