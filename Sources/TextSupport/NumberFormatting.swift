/// The one place that turns numbers into text for JSON, CSV and tables.
package enum NumberFormatting {
    /// Shortest text that reads back as the same double, without a trailing `.0` on whole numbers.
    @inlinable package static func json(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return "\(value)"
    }

    /// A value for people: at most `fractionDigits` decimals, trailing zeros removed, thousands separated in every
    /// number of four or more digits (`1,500`, `12,345`): one rule for tables, charts, the dashboard and trends.
    package static func human(_ value: Double, fractionDigits: Int = 2) -> String {
        guard value.isFinite else { return "\(value)" }
        var text = decimal(value, fractionDigits: fractionDigits)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return groupingThousands(text)
    }

    /// A value for people with exactly `fractionDigits` decimals (`71.0`, `2,500.50`), thousands grouped as in
    /// ``human(_:fractionDigits:)``: for labels that must share one format, such as an axis's ticks.
    package static func grouped(_ value: Double, fractionDigits: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        return groupingThousands(decimal(value, fractionDigits: fractionDigits))
    }

    /// `-1234.5` → `-1,234.5`; a negative zero (`-0`, `-0.00`) loses its sign.
    private static func groupingThousands(_ number: String) -> String {
        var text = number
        var negative = text.hasPrefix("-")
        if negative { text.removeFirst() }
        if negative && text.allSatisfy({ $0 == "0" || $0 == "." }) { negative = false }
        let parts = text.split(separator: ".", maxSplits: 1)
        var integer = String(parts[0])
        if integer.utf8.count > 3 {
            var grouped: [UInt8] = []
            let digits = Array(integer.utf8)
            for (index, digit) in digits.enumerated() {
                if index > 0 && (digits.count - index) % 3 == 0 { grouped.append(UInt8(ascii: ",")) }
                grouped.append(digit)
            }
            integer = String(decoding: grouped, as: UTF8.self)
        }
        // `String(parts[1])`, not the Substring itself: `String + Substring` is the generic `+`, whose first call
        // looks up a protocol conformance by scanning the binary's 4,000 of them (176 k instructions, 13 % of an add).
        let result = parts.count > 1 ? integer + "." + String(parts[1]) : integer
        return negative ? "-" + result : result
    }

    /// `String(format: "%.Nf", value)` for N up to 3 and magnitudes below 10^15, computed exactly from the
    /// double's bits with ties to even, as C's printf rounds; nil outside that range.
    package static func fixed(_ value: Double, fractionDigits: Int) -> String? {
        guard (0...3).contains(fractionDigits), value.isFinite, abs(value) < 1e15 else { return nil }
        let scale: UInt64 = [1, 10, 100, 1000][fractionDigits]
        let magnitude = abs(value)
        var units: UInt64 = 0  // the value in units of 10^-fractionDigits
        if magnitude >= .leastNormalMagnitude {
            // magnitude = significand * 2^-shift exactly, with a 53-bit significand; below 10^15 the shift is positive.
            let significand = magnitude.significandBitPattern | (1 << 52)
            let shift = 52 - Int(magnitude.exponent)
            let scaled = significand * scale  // below 2^63
            if shift < 64 {
                units = scaled >> UInt64(shift)
                let remainder = scaled & ((1 << UInt64(shift)) - 1)
                let half: UInt64 = 1 << UInt64(shift - 1)
                if remainder > half || (remainder == half && units & 1 == 1) { units += 1 }
            }
        }
        var digits = Array(String(units).utf8)
        if digits.count <= fractionDigits {
            digits = [UInt8](repeating: UInt8(ascii: "0"), count: fractionDigits + 1 - digits.count) + digits
        }
        if fractionDigits > 0 { digits.insert(UInt8(ascii: "."), at: digits.count - fractionDigits) }
        if value.sign == .minus { digits.insert(UInt8(ascii: "-"), at: 0) }
        return String(decoding: digits, as: UTF8.self)
    }
}
