import TextSupport

/// The character encoding an export's XML declaration names (`<?xml version="1.0" encoding="ISO-8859-1"?>`), and a
/// reader that turns such bytes into UTF-8 for the scanner, which reads UTF-8 only.
///
/// UTF-8 (also when no encoding is named, as XML says), US-ASCII, ISO-8859-1 (Latin-1) and Windows-1252 are read;
/// any other encoding, and text in UTF-16 or UTF-32, is refused with ``ImportError/unsupportedEncoding(_:encoding:)``
/// rather than read as UTF-8 with characters replaced. A UTF-8 byte order mark before a declaration of another
/// encoding is a contradiction (XML 1.0 §4.3.3), refused with ``ImportError/byteOrderMarkContradicts(_:declared:)``
/// rather than guessed at: read as the declaration says, `café` would become `cafÃ©`.
enum XMLEncoding {
    /// A single-byte encoding read by ``SingleByteTranscoder``.
    enum SingleByte {
        case latin1, windows1252
    }

    /// What to do with a stream that starts with `head`: nil to read it as it is (UTF-8), or the single-byte
    /// encoding to transcode from.
    ///
    /// - Throws: ``ImportError/unsupportedEncoding(_:encoding:)`` for other encodings,
    ///   ``ImportError/byteOrderMarkContradicts(_:declared:)`` for a UTF-8 byte order mark before a declaration of
    ///   another encoding.
    static func singleByteEncoding(of head: [UInt8], name: String) throws -> SingleByte? {
        if let wide = wideEncoding(head) { throw ImportError.unsupportedEncoding(name, encoding: wide) }
        guard let declared = declaredEncoding(head) else { return nil }
        let normalized = declared.lowercased().replacingEvery("_", with: "-")
        if head.starts(with: utf8ByteOrderMark), normalized != "utf-8", normalized != "utf8" {
            throw ImportError.byteOrderMarkContradicts(name, declared: declared)
        }
        switch normalized {
        case "utf-8", "utf8", "us-ascii", "ascii": return nil
        case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1", "iso-ir-100", "cp819", "ibm819": return .latin1
        case "windows-1252", "cp1252", "x-cp1252": return .windows1252
        default: throw ImportError.unsupportedEncoding(name, encoding: declared)
        }
    }

    /// The byte order mark of UTF-8.
    static let utf8ByteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// UTF-16 or UTF-32, by byte order mark or by the zero bytes around a leading `<`.
    static func wideEncoding(_ head: [UInt8]) -> String? {
        let start = Array(head.prefix(4))
        if start.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || start.starts(with: [0xFF, 0xFE, 0x00, 0x00])
            || start.starts(with: [0x00, 0x00, 0x00, 0x3C]) || start.starts(with: [0x3C, 0x00, 0x00, 0x00]) { return "UTF-32" }
        if start.starts(with: [0xFE, 0xFF]) || start.starts(with: [0xFF, 0xFE])
            || start.starts(with: [0x00, 0x3C]) || start.starts(with: [0x3C, 0x00]) { return "UTF-16" }
        return nil
    }

    /// The `encoding` of the XML declaration at the start of `head` (after a UTF-8 byte order mark), if any.
    static func declaredEncoding(_ head: [UInt8]) -> String? {
        var bytes = Array(head.prefix(1024))
        if bytes.starts(with: utf8ByteOrderMark) { bytes.removeFirst(3) }
        guard bytes.starts(with: Array("<?xml".utf8)) else { return nil }
        var end = 5
        while end + 1 < bytes.count, !(bytes[end] == UInt8(ascii: "?") && bytes[end + 1] == UInt8(ascii: ">")) { end += 1 }
        let declaration = Array(bytes[0..<end])
        let name = Array("encoding".utf8)
        guard let found = (0...max(0, declaration.count - name.count)).first(where: {
            declaration.count >= name.count && Array(declaration[$0..<$0 + name.count]) == name
        }) else { return nil }
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A }
        var index = found + name.count
        while index < declaration.count, isSpace(declaration[index]) { index += 1 }
        guard index < declaration.count, declaration[index] == UInt8(ascii: "=") else { return nil }
        index += 1
        while index < declaration.count, isSpace(declaration[index]) { index += 1 }
        guard index < declaration.count, declaration[index] == UInt8(ascii: "\"") || declaration[index] == UInt8(ascii: "'") else { return nil }
        let quote = declaration[index]
        let valueStart = index + 1
        var valueEnd = valueStart
        while valueEnd < declaration.count, declaration[valueEnd] != quote { valueEnd += 1 }
        guard valueEnd > valueStart, valueEnd < declaration.count else { return nil }
        return String(decoding: declaration[valueStart..<valueEnd], as: UTF8.self)
    }
}

/// Reads a stream in ISO-8859-1 or Windows-1252 as UTF-8: ASCII bytes pass through, the others become the UTF-8 of
/// the character they stand for (Windows-1252's 0x80–0x9F as Windows defines them, its five unassigned bytes as
/// the C1 controls of the same number, as web browsers read them).
final class SingleByteTranscoder: ByteReader {
    private let source: ByteReader
    private let encoding: XMLEncoding.SingleByte
    private var scratch = [UInt8](repeating: 0, count: 1 << 16)

    /// Windows-1252's characters for 0x80–0x9F.
    private static let windows1252High: [UInt16] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]

    init(_ source: ByteReader, encoding: XMLEncoding.SingleByte) {
        self.source = source
        self.encoding = encoding
    }

    /// Transcoded bytes not handed out yet (`pending[pendingStart...]`).
    private var pending: [UInt8] = []
    private var pendingStart = 0

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard buffer.count > 0 else { return 0 }
        if pendingStart == pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
            let count = try scratch.withUnsafeMutableBytes { try source.read(into: $0) }
            if count == 0 { return 0 }
            for index in 0..<count { append(scratch[index]) }
        }
        let count = min(buffer.count, pending.count - pendingStart)
        pending.withUnsafeBytes { bytes in
            buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + pendingStart, byteCount: count)
        }
        pendingStart += count
        return count
    }

    private func append(_ byte: UInt8) {
        if byte < 0x80 {
            pending.append(byte)
            return
        }
        let scalar = encoding == .windows1252 && byte < 0xA0 ? SingleByteTranscoder.windows1252High[Int(byte - 0x80)] : UInt16(byte)
        if scalar < 0x800 {
            pending.append(UInt8(0xC0 | (scalar >> 6)))
            pending.append(UInt8(0x80 | (scalar & 0x3F)))
        } else {
            pending.append(UInt8(0xE0 | (scalar >> 12)))
            pending.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
            pending.append(UInt8(0x80 | (scalar & 0x3F)))
        }
    }
}
