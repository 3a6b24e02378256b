/// JSON text written straight into a byte buffer: the byte-level twins of ``JSONText/quoted(_:)`` and of the
/// decimal formatting the store's lines use.
enum JSONBytes {
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `text` in double quotes, escaped exactly as ``JSONText/quoted(_:)`` escapes it: `"`, `\`, the
    /// control characters (`\n`, `\r`, `\t`, else `\u00XX`) and the line and paragraph separators U+2028/U+2029.
    static func appendQuoted(_ text: String, to out: inout [UInt8]) {
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
                if clean < index { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[clean..<index])) }
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case 0x22, 0x5C: out.append(byte)
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                case 0xE2:
                    out.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "2"), UInt8(ascii: "0"), UInt8(ascii: "2"),
                                            bytes[index + 2] == 0xA8 ? UInt8(ascii: "8") : UInt8(ascii: "9")])
                    index += 2
                default:
                    out.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                            hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0x0F)]])
                }
                index += 1
                clean = index
            }
            if clean < count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[clean..<count])) }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Appends a non-negative `value` in decimal, zero-padded to at least `width` digits.
    @inline(__always)
    static func appendDigits(_ value: Int, width: Int, to out: inout [UInt8]) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var rest = value
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(truncatingIfNeeded: rest % 10) &+ 0x30
                rest /= 10
            } while rest > 0 || buffer.count - start < width
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// Appends `value` in decimal.
    static func appendDecimal(_ value: UInt64, to out: inout [UInt8]) {
        if value <= UInt64(Int.max) {
            appendDigits(Int(value), width: 1, to: &out)
        } else {
            out.append(contentsOf: String(value).utf8)
        }
    }
}
