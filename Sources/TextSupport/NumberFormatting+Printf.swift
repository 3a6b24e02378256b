#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The C `printf` conversions hkctl's output uses (what `String(format:)` gave, without Foundation), each with the
/// same text: integers zero-padded (`%02d`, `%02llx`, `%04X`), fixed decimals (`%.1f`, `%3.0f`) and significant
/// digits (`%.16g`).
extension NumberFormatting {
    /// `value` in `radix`, zero-padded after any minus sign to at least `width` characters: `String(format: "%02d")`
    /// is `zeroPadded(value, width: 2)`, `"%04X"` is `zeroPadded(value, width: 4, radix: 16, uppercase: true)`.
    package static func zeroPadded<Integer: BinaryInteger>(_ value: Integer, width: Int, radix: Int = 10,
                                                          uppercase: Bool = false) -> String {
        let digits = String(value.magnitude, radix: radix, uppercase: uppercase)
        let sign = value < 0 ? "-" : ""
        return sign + String(repeating: "0", count: max(0, width - sign.count - digits.count)) + digits
    }

    /// `value` with exactly `fractionDigits` decimals, rounded from its exact binary value with ties to even, padded
    /// with spaces on the left to at least `width` characters: `String(format: "%<width>.<fractionDigits>f", value)`.
    package static func decimal(_ value: Double, fractionDigits: Int, width: Int = 0) -> String {
        let text = fixed(value, fractionDigits: fractionDigits) ?? printf("%.*f", precision: fractionDigits, value)
        return String(repeating: " ", count: max(0, width - text.utf8.count)) + text
    }

    /// `value` with at most `digits` significant digits, in C's `%g` form (trailing zeros removed, an exponent
    /// below 10^-4 or from 10^digits on): `String(format: "%.<digits>g", value)`.
    package static func significant(_ value: Double, digits: Int) -> String {
        printf("%.*g", precision: digits, value)
    }

    /// The C library's conversion of one double with a precision (`format` has one `*` precision and one double).
    private static func printf(_ format: String, precision: Int, _ value: Double) -> String {
        precondition((0...100).contains(precision), "precision out of range: \(precision)")
        // The longest result: a sign, 309 integer digits, a point and the decimals (or an exponent).
        var buffer = [CChar](repeating: 0, count: 320 + precision)
        let count = withVaList([Int32(precision), value]) { arguments in
            buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, format, arguments) }
        }
        precondition(count >= 0 && Int(count) < buffer.count, "vsnprintf(\(format)) failed: \(count)")
        return String(decoding: buffer[..<Int(count)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
