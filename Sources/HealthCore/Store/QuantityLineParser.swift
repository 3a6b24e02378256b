#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Reads start, end, value, unit and source straight from a quantity line that hkctl's own writer produced.
///
/// The writer's key order is fixed (``SampleLineCodec``), so the fields are found by position, and a string is
/// first compared with the same field of the previous line, which is almost always equal within a partition.
/// Any line of another shape (escapes, a string value, keys in another order, a bad date) gives nil, and the
/// caller decodes it fully, which also reports what is wrong with it. Every byte of an accepted line is checked
/// as the full reader would check it, except the text of `type`, `sourceVersion` and `device` (plain ASCII
/// without escapes); lines with metadata go to the full reader.
struct QuantityLineParser {
    /// Where the uuid's 36 characters start: after `{"uuid":"`.
    static let uuidOffset = 9

    /// What ``parse(_:names:)`` found; `source` is the byte range of the source's name in the line.
    struct Fields {
        var start: Date
        var end: Date
        var value: Double
        var unit: Int
        var source: Range<Int>
        var sequence: UInt64
    }

    private var days = ISODate.DayCache()
    /// The previous line's type, unit and source (none contains a quote).
    private var lastType: [UInt8] = []
    private var lastUnit: [UInt8] = []
    private var lastSource: [UInt8] = []

    /// Whether any of the `count` bytes at `base` is above ASCII, eight at a time.
    static func hasNonASCII(_ base: UnsafePointer<UInt8>, _ count: Int) -> Bool {
        let raw = UnsafeRawPointer(base)
        var offset = 0
        var bits: UInt64 = 0
        while offset + 8 <= count {
            bits |= raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        while offset < count {
            bits |= UInt64(base[offset])
            offset += 1
        }
        return bits & 0x8080_8080_8080_8080 != 0
    }

    /// Whether the 36 bytes at `p` spell a uuid (hex digits with dashes at 8, 13, 18 and 23).
    static func isUUID(_ p: UnsafePointer<UInt8>) -> Bool {
        for position in 0..<36 {
            let byte = p[position]
            if position == 8 || position == 13 || position == 18 || position == 23 {
                if byte != 0x2D { return false }
            } else if !(byte &- 48 < 10 || (byte | 0x20) &- 97 < 6) {
                return false
            }
        }
        return true
    }

    /// Reads a line, or nil when the line is not in the writer's plain shape.
    mutating func parse(_ line: UnsafeBufferPointer<UInt8>, names: ReadingNames) -> Fields? {
        guard let base = line.baseAddress else { return nil }
        let count = line.count
        var index = 0

        @inline(__always) func literal(_ text: StaticString) -> Bool {
            let length = text.utf8CodeUnitCount
            guard index + length <= count, memcmp(base + index, text.utf8Start, length) == 0 else { return false }
            index += length
            return true
        }
        /// The string at `index` up to its closing quote (which is skipped), refusing escapes. `known` holds no
        /// quote, so when the text starts with it and a quote follows, that quote is the first one.
        @inline(__always) func string(_ known: inout [UInt8]) -> Range<Int>? {
            let length = known.count
            if length > 0, index + length < count, base[index + length] == 0x22,
               known.withUnsafeBytes({ memcmp(base + index, $0.baseAddress!, length) }) == 0 {
                defer { index += length + 1 }
                return index..<(index + length)
            }
            guard index < count, let found = memchr(base + index, 0x22, count - index) else { return nil }
            let end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if end > index && base[end - 1] == 0x5C { return nil }
            defer { index = end + 1 }
            known = Array(UnsafeBufferPointer(rebasing: line[index..<end]))
            return index..<end
        }
        /// A date of the writer's fixed length (25 or 29 characters): the parse checks every character.
        @inline(__always) func date() -> Date? {
            let length = index + 25 < count && base[index + 25] == 0x22 ? 25 : 29
            guard index + length < count, base[index + length] == 0x22,
                  let date = ISODate.parse(bytes: UnsafeBufferPointer(start: base + index, count: length), days: &days)
            else { return nil }
            index += length + 1
            return date
        }

        // Bytes above ASCII need the full reader's UTF-8 check.
        guard !QuantityLineParser.hasNonASCII(base, count) else { return nil }
        guard literal("{\"uuid\":\""), index + 36 <= count, QuantityLineParser.isUUID(base + index) else { return nil }
        index += 36
        guard literal("\",\"type\":\""), string(&lastType) != nil else { return nil }
        guard literal(",\"start\":\""), let start = date(), literal(",\"end\":\""), let end = date(),
              literal(",\"value\":") else { return nil }
        let valueStart = index
        while index < count, base[index] != 0x2C { index += 1 }
        guard index < count, let value = DecimalParser.parse(UnsafeBufferPointer(start: base + valueStart, count: index - valueStart))
        else { return nil }
        index += 1
        guard literal("\"unit\":\""), let unitText = string(&lastUnit), literal(",\"source\":\""),
              let source = string(&lastSource) else { return nil }
        // The rest must be exactly what the writer puts there; metadata (and anything else) goes to the full reader.
        var scratch: [UInt8] = []
        if literal(",\"sourceVersion\":\""), string(&scratch) == nil { return nil }
        if literal(",\"device\":\""), string(&scratch) == nil { return nil }
        guard literal(",\"created\":\""), date() != nil else { return nil }
        var sequence: UInt64 = 0
        if literal(",\"seq\":") {
            let digitsStart = index
            while index < count, base[index] &- 48 < 10 { index += 1 }
            guard index > digitsStart, index - digitsStart <= 19, index - digitsStart == 1 || base[digitsStart] != 48
            else { return nil }
            for position in digitsStart..<index { sequence = sequence &* 10 &+ UInt64(base[position] &- 48) }
        }
        guard index == count - 1, base[index] == UInt8(ascii: "}") else { return nil }
        let unit = names.unit(UnsafeBufferPointer(rebasing: line[unitText]))
        guard names.parsedUnits[unit] != nil else { return nil }
        return Fields(start: start, end: end, value: value, unit: unit, source: source, sequence: sequence)
    }
}
