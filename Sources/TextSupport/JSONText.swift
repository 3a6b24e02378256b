/// Where JSON text is written: a byte at a time or a run of bytes at a time.
package protocol JSONTextSink {
    mutating func append(_ byte: UInt8)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>)
}

extension JSONTextSink {
    /// Appends the bytes of an ASCII literal.
    @inlinable package mutating func append(ascii literal: StaticString) {
        literal.withUTF8Buffer { append($0) }
    }
}

/// JSON string literals with the escapes JSON requires: the one set of escape rules for every writer, the store's
/// byte-level line encoder and the text output alike.
package enum JSONText {
    /// `text` in double quotes, escaped as ``appendQuoted(_:to:)`` does.
    @inlinable package static func quoted(_ text: String) -> String {
        // Most strings need no escape at all: copy them whole.
        if !text.utf8.contains(where: mayStartEscape) { return "\"" + text + "\"" }
        var sink = ByteArraySink()
        sink.bytes.reserveCapacity(text.utf8.count + 16)
        appendQuoted(text, to: &sink)
        return String(decoding: sink.bytes, as: UTF8.self)
    }

    /// Whether `byte` may begin something to escape: a control character, `"`, `\`, or the first byte of U+2028 or
    /// U+2029.
    @inlinable package static func mayStartEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x22 || byte == 0x5C || byte == 0xE2
    }

    /// Appends `text` in double quotes, escaping `"`, `\`, the control characters (`\n`, `\r`, `\t`, else `\u00XX`)
    /// and the line and paragraph separators U+2028/U+2029 (which some JSON readers take for line ends).
    @inlinable package static func appendQuoted<Sink: JSONTextSink>(_ text: String, to out: inout Sink) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            let hexDigits: StaticString = "0123456789abcdef"
            var clean = 0
            var index = 0
            let count = bytes.count
            while index < count {
                let byte = bytes[index]
                guard mayStartEscape(byte) else {
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
                    out.append(ascii: bytes[index + 2] == 0xA8 ? "u2028" : "u2029")
                    index += 2
                default:
                    out.append(ascii: "u00")
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
}

/// JSON text collected in an array of bytes.
package struct ByteArraySink: JSONTextSink {
    /// The bytes written so far.
    package var bytes: [UInt8] = []

    /// An empty sink.
    @inlinable package init() {}

    @inlinable package mutating func append(_ byte: UInt8) { bytes.append(byte) }
    @inlinable package mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes.append(contentsOf: bytes) }
}
