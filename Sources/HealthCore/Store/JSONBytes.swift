import TextSupport

/// JSON text written straight into a byte buffer: strings quoted by ``JSONText``'s one set of escape rules, and the
/// decimal formatting the store's lines use.
enum JSONBytes {
    /// Appends `text` in double quotes, escaped by ``JSONText/appendQuoted(_:to:)``'s rules.
    static func appendQuoted(_ text: String, to out: ByteBuffer) {
        var sink = out
        JSONText.appendQuoted(text, to: &sink)
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

    /// Appends `value` as ``NumberFormatting/json(_:)`` spells it: a whole number below 10^15 in digits and most
    /// other figures by ``ShortestDecimal``, written here without making a String; any other through it.
    static func appendNumber(_ value: Double, to out: ByteBuffer) {
        if value == value.rounded(), abs(value) < 1e15 {
            if value < 0 { out.append(UInt8(ascii: "-")) }
            appendDigits(Int(abs(value)), width: 1, to: out)
        } else if !ShortestDecimal.append(value, to: out) {
            out.append(NumberFormatting.json(value))
        }
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
