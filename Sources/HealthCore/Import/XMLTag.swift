#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One attribute of a tag, as spans of the scanner's buffer; valid only while the tag handler runs.
struct XMLAttribute {
    /// The name's bytes.
    let name: UnsafeBufferPointer<UInt8>
    /// The value's bytes between the quotes, not yet unescaped.
    let rawValue: UnsafeBufferPointer<UInt8>
    /// Whether the value holds `&` or control characters and must go through ``XMLText/decode(_:)``.
    let needsDecoding: Bool

    /// The value with entities replaced (`&lt;` → `<`, `&#183;` → `·`) and control characters removed.
    var value: String { needsDecoding ? XMLText.decode(rawValue) : String(decoding: rawValue, as: UTF8.self) }

    /// The name as text.
    var nameText: String { String(decoding: name, as: UTF8.self) }
}

/// A start, end or empty-element tag found by ``XMLByteScanner``; valid only while the tag handler runs.
struct XMLTag {
    enum Kind {
        /// `<Record ...>`
        case open
        /// `</Record>`
        case close
        /// `<Record .../>`
        case empty
    }

    let kind: Kind
    /// The element name's bytes.
    let name: UnsafeBufferPointer<UInt8>
    /// The attributes in document order (empty for a closing tag).
    let attributes: UnsafeBufferPointer<XMLAttribute>
    /// The 1-based line the tag starts on.
    let line: Int
    /// Whether the tag's bytes (its name, attribute names or values) are not well-formed UTF-8: text read from it
    /// would hold U+FFFD where those bytes were, so whatever it describes is refused rather than read.
    let hasInvalidUTF8: Bool

    init(kind: Kind, name: UnsafeBufferPointer<UInt8>, attributes: UnsafeBufferPointer<XMLAttribute>, line: Int,
         hasInvalidUTF8: Bool = false) {
        self.kind = kind
        self.name = name
        self.attributes = attributes
        self.line = line
        self.hasInvalidUTF8 = hasInvalidUTF8
    }

    /// The element name as text.
    var nameText: String { String(decoding: name, as: UTF8.self) }
}

/// Byte-level helpers for XML text.
enum XMLText {
    /// Whether `bytes` equals the ASCII text `literal`.
    @inline(__always)
    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        let count = bytes.count
        guard count == literal.utf8CodeUnitCount else { return false }
        let other = UnsafeRawPointer(literal.utf8Start)
        guard count >= 4, let base = bytes.baseAddress else {
            for index in 0..<count where bytes[index] != other.load(fromByteOffset: index, as: UInt8.self) { return false }
            return true
        }
        // Two overlapping words (first and last four or eight bytes) cover names of 4 to 16 bytes.
        let raw = UnsafeRawPointer(base)
        if count <= 8 {
            return raw.loadUnaligned(as: UInt32.self) == other.loadUnaligned(as: UInt32.self)
                && raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self) == other.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        }
        if count <= 16 {
            return raw.loadUnaligned(as: UInt64.self) == other.loadUnaligned(as: UInt64.self)
                && raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self) == other.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        }
        return memcmp(raw, other, count) == 0
    }

    /// Unescapes an attribute value: the five named entities and numeric character references; tabs and line
    /// breaks become spaces (XML's attribute-value normalisation) and other control characters, such as the stray
    /// `\u{0B}` of iOS 16 exports, are dropped. An unknown entity is kept as written.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20 {
                if byte == 0x09 || byte == 0x0A || byte == 0x0D { output.append(0x20) }
                index += 1
                continue
            }
            guard byte == UInt8(ascii: "&") else {
                output.append(byte)
                index += 1
                continue
            }
            var end = index + 1
            while end < bytes.count, end - index <= 12, bytes[end] != UInt8(ascii: ";") { end += 1 }
            guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else {
                output.append(byte)
                index += 1
                continue
            }
            let entity = UnsafeBufferPointer(rebasing: bytes[(index + 1)..<end])
            if let replacement = replacement(for: entity) {
                output.append(contentsOf: replacement)
                index = end + 1
            } else {
                output.append(byte)
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func replacement(for entity: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        if equals(entity, "lt") { return [UInt8(ascii: "<")] }
        if equals(entity, "gt") { return [UInt8(ascii: ">")] }
        if equals(entity, "amp") { return [UInt8(ascii: "&")] }
        if equals(entity, "quot") { return [UInt8(ascii: "\"")] }
        if equals(entity, "apos") { return [UInt8(ascii: "'")] }
        guard entity.count >= 2, entity[0] == UInt8(ascii: "#") else { return nil }
        var value: UInt32 = 0
        let hex = entity[1] == UInt8(ascii: "x") || entity[1] == UInt8(ascii: "X")
        let digits = entity[(hex ? 2 : 1)...]
        guard !digits.isEmpty else { return nil }
        for byte in digits {
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where hex: digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F") where hex: digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = value * (hex ? 16 : 10) + digit
            if value > 0x10FFFF { return nil }
        }
        guard let scalar = Unicode.Scalar(value), value >= 0x20 || value == 0x09 || value == 0x0A || value == 0x0D else {
            return []
        }
        if value < 0x20 { return [UInt8(value)] }
        return Array(String(Character(scalar)).utf8)
    }

    /// Escapes text for an attribute value in double quotes.
    static func escape(_ text: String) -> String {
        var needs = false
        for byte in text.utf8 where byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
            || byte == UInt8(ascii: "\"") || byte < 0x20 {
            needs = true
            break
        }
        guard needs else { return text }
        // Byte by byte (the bytes of a scalar above ASCII are all above it too, and pass unchanged): appending scalar
        // by scalar to a String was a third of an export of a store whose devices are written `<<HKDevice: …>, …>`.
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count + 16)
        func append(_ entity: StaticString) { entity.withUTF8Buffer { result.append(contentsOf: $0) } }
        var text = text
        text.withUTF8 { utf8 in
            for byte in utf8 {
                switch byte {
                case UInt8(ascii: "&"): append("&amp;")
                case UInt8(ascii: "<"): append("&lt;")
                case UInt8(ascii: ">"): append("&gt;")
                case UInt8(ascii: "\""): append("&quot;")
                case 0x09: append("&#9;")
                case 0x0A: append("&#10;")
                case 0x0D: append("&#13;")
                default:
                    if byte < 0x20 { continue }
                    result.append(byte)
                }
            }
        }
        return String(decoding: result, as: UTF8.self)
    }
}
