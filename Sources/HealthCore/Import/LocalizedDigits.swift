/// Numbers and dates written with a locale's own digits: a phone set to Arabic, Persian, Hindi, Bengali, Thai,
/// Burmese (and others) can write `٢٠٠٠-٠٢-٠١` or `۷۲٫۴` in its export.
///
/// Any Unicode decimal digit (general category Nd) is read as its ASCII digit, and the Arabic decimal separator
/// (U+066B) as `.`. Only text whose other characters are all ASCII is folded (numbers, dates, `120 count/min`), so
/// words in a script that has its own digits (a place name with a house number) stay as written.
enum LocalizedDigits {
    /// The Arabic decimal separator.
    private static let decimalSeparator: Unicode.Scalar = "\u{066B}"

    /// `text` with its digits in ASCII, or nil when it has no non-ASCII digit or holds other non-ASCII characters.
    static func folded(_ text: String) -> String? {
        var result = ""
        var sawDigit = false
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                result.unicodeScalars.append(scalar)
            } else if let digit = asciiDigit(scalar) {
                result.unicodeScalars.append(digit)
                sawDigit = true
            } else if scalar == decimalSeparator {
                result.append(".")
            } else {
                return nil
            }
        }
        return sawDigit ? result : nil
    }

    /// The bytes (UTF-8) with their digits in ASCII; nil as for ``folded(_:)``. Quick for ASCII bytes.
    static func folded(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.contains(where: { $0 >= 0x80 }) else { return nil }
        return folded(String(decoding: bytes, as: UTF8.self))
    }

    /// `text` with its digits in ASCII when ``folded(_:)`` folds it, else `text`.
    static func ascii(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= 0x80 }) else { return text }
        return folded(text) ?? text
    }

    /// The ASCII digit of a non-ASCII decimal digit.
    static func asciiDigit(_ scalar: Unicode.Scalar) -> Unicode.Scalar? {
        let properties = scalar.properties
        guard properties.numericType == .decimal, let value = properties.numericValue, value >= 0, value <= 9 else { return nil }
        return Unicode.Scalar(UInt8(48 + Int(value)))
    }
}
