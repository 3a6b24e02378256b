/// JSON text written straight into a byte buffer: the store's one set of string escapes (``JSONText/quoted(_:)``
/// renders through it) and the decimal formatting the store's lines use.
enum JSONBytes {
    private static let hexDigits: StaticString = "0123456789abcdef"

    /// Appends `text` in double quotes, escaping `"`, `\`, the
    /// control characters (`\n`, `\r`, `\t`, else `\u00XX`) and the line and paragraph separators U+2028/U+2029.
    static func appendQuoted(_ text: String, to out: ByteBuffer) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var clean = 0
            var index = 0
            let count = bytes.count
            while index < count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0xE2 else {
                    index += 1
                    continue
                }
                if byte == 0xE2 {
                    guard index + 2 < count, bytes[index + 1] == 0x80, bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9 else {
                        index += 1
                        continue
                    }
                }
                out.append(UnsafeBufferPointer(rebasing: bytes[clean..<index]))
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case 0x22, 0x5C: out.append(byte)
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                case 0xE2:
                    out.append(bytes[index + 2] == 0xA8 ? "u2028" : "u2029")
                    index += 2
                default:
                    out.append("u00")
                    out.append(hexDigits.utf8Start[Int(byte >> 4)])
                    out.append(hexDigits.utf8Start[Int(byte & 0x0F)])
                }
                index += 1
                clean = index
            }
            out.append(UnsafeBufferPointer(rebasing: bytes[clean..<count]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Appends a non-negative `value` in decimal, zero-padded to at least `width` digits.
    static func appendDigits(_ value: Int, width: Int, to out: ByteBuffer) {
        var length = 1
        var limit = 10
        while value >= limit && length < 19 {
            length += 1
            limit = limit &* 10
        }
        length = max(length, width)
        out.reserve(length)
        var rest = value
        let digits = out.base + out.count
        for position in stride(from: length - 1, through: 0, by: -1) {
            digits[position] = UInt8(truncatingIfNeeded: rest % 10) &+ 0x30
            rest /= 10
        }
        out.advance(length)
    }

    /// Appends two digits of `value` (0 to 99) after ``ByteBuffer/reserve(_:)`` made room.
    @inline(__always)
    static func appendTwoDigits(_ value: Int, to out: ByteBuffer) {
        out.appendReserved(UInt8(truncatingIfNeeded: value / 10) &+ 0x30)
        out.appendReserved(UInt8(truncatingIfNeeded: value % 10) &+ 0x30)
    }

    /// Appends `value` in decimal.
    static func appendDecimal(_ value: UInt64, to out: ByteBuffer) {
        if value <= UInt64(Int.max) {
            appendDigits(Int(value), width: 1, to: out)
        } else {
            out.append(String(value))
        }
    }
}
