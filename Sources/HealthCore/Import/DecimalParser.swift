#if canImport(Glibc)
import Glibc
#endif

/// Parses decimal numbers straight from bytes.
///
/// Numbers with at most 15 significant digits and a small exponent are converted exactly with one division
/// (Clinger's fast path); anything else goes through the standard library's correctly rounded parser.
enum DecimalParser {
    private static let powers: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// The finite number the bytes spell (`72.4`, `-3`, `1.5e3`), or nil.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var index = 0
        let count = bytes.count
        guard count > 0, count < 64 else { return count == 0 ? nil : slowParse(bytes) }
        var negative = false
        if bytes[0] == UInt8(ascii: "-") || bytes[0] == UInt8(ascii: "+") {
            negative = bytes[0] == UInt8(ascii: "-")
            index = 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        var sawDigit = false
        while index < count, bytes[index] &- 48 < 10 {
            sawDigit = true
            if mantissa != 0 || bytes[index] != 48 { digits += 1 }
            mantissa = mantissa &* 10 &+ UInt64(bytes[index] &- 48)
            index += 1
        }
        if index < count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < count, bytes[index] &- 48 < 10 {
                sawDigit = true
                if mantissa != 0 || bytes[index] != 48 { digits += 1 }
                mantissa = mantissa &* 10 &+ UInt64(bytes[index] &- 48)
                scale += 1
                index += 1
            }
        }
        guard sawDigit else { return nil }
        if index < count {
            guard bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") else { return nil }
            return slowParse(bytes)
        }
        guard digits <= 15, scale <= 22 else {
            #if canImport(Glibc)
            // Up to 19 digits (a double written with 17, as the Health apps write them), exactly, else the C library.
            guard digits <= 19, let value = exactQuotient(mantissa, scale: scale) else { return slowParse(bytes) }
            return negative ? -value : value
            #else
            return slowParse(bytes)
            #endif
        }
        let value = Double(mantissa) / powers[scale]
        return negative ? -value : value
    }

    #if canImport(Glibc)
    // UInt128 needs macOS 15 on Darwin: there the C library's parser does it all.

    /// 10^0 to 10^19.
    private static let tens: [UInt64] = (0...19).map { exponent in
        var value: UInt64 = 1
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    /// `mantissa / 10^scale` rounded to the nearest double, ties to even (what `strtod` gives), for a scale of at most
    /// 19 and a quotient from 2^-11 to 2^53; nil otherwise, or when the quotient lies just below a power of two.
    ///
    /// The division's estimate is within a unit of the answer. Each double of its binade next to it, `m · 2^-s`, is
    /// the answer when `|mantissa · 2^s − m · 10^scale|` is less than half of `10^scale` (equal: `m` even), which
    /// 128-bit integers tell exactly (`mantissa · 2^s` < 2^64 · 2^63).
    static func exactQuotient(_ mantissa: UInt64, scale: Int) -> Double? {
        guard mantissa > 0, scale <= 19 else { return nil }
        let estimate = Double(mantissa) / powers[scale]
        guard estimate.isNormal, estimate < 9_007_199_254_740_992 else { return nil }
        let shift = 52 - Int(estimate.exponent)
        guard shift >= 0, shift <= 63 else { return nil }
        let scaled = UInt128(mantissa) << shift
        let power = UInt128(tens[scale])
        let significand = UInt64(estimate.significandBitPattern) | (1 << 52)
        for step in 0..<3 {
            let candidate = significand &+ UInt64(step) &- 1
            guard candidate >= 1 << 52, candidate < 1 << 53 else { continue }
            let product = UInt128(candidate) * power
            let below = scaled < product
            let difference = below ? product - scaled : scaled - product
            let twice = difference << 1
            guard twice < power || (twice == power && candidate & 1 == 0) else { continue }
            // Below a binade's first double the doubles are twice as close: the C library decides.
            if candidate == 1 << 52 && below { return nil }
            return Double(sign: .plus, exponentBitPattern: estimate.exponentBitPattern,
                          significandBitPattern: candidate & ((1 << 52) - 1))
        }
        return nil
    }
    #endif

    private static func slowParse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "+"),
                 UInt8(ascii: "e"), UInt8(ascii: "E"): continue
            default: return nil
            }
        }
        #if canImport(Glibc)
        // The C library's correctly rounded parser in the C locale, as `Double(String)` calls it, from a copy of the
        // bytes on the stack rather than a String (a 17-digit number, as the Health apps write doubles, comes here).
        // The thread reads numbers in the C locale meanwhile, whatever locale the process has set.
        if bytes.count < 64, let cLocale = DecimalParser.cLocale {
            let previous = uselocale(cLocale)
            defer { uselocale(previous) }
            let value = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { text -> Double? in
                for index in bytes.indices { text[index] = CChar(bitPattern: bytes[index]) }
                text[bytes.count] = 0
                var end: UnsafeMutablePointer<CChar>?
                let value = strtod(text.baseAddress!, &end)
                guard let end, end == text.baseAddress! + bytes.count, bytes.count > 0 else { return nil }
                return value
            }
            guard let value, value.isFinite else { return nil }
            return value
        }
        #endif
        guard let value = Double(String(decoding: bytes, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }

    #if canImport(Glibc)
    /// The C locale, made once (its numbers' decimal point is `.`).
    nonisolated(unsafe) private static let cLocale: locale_t? = newlocale(Int32(1) << LC_NUMERIC, "C", nil)
    #endif

    /// Parses text.
    static func parse(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { parse($0) }
    }
}
