import Foundation

/// The one place that turns numbers into text for JSON, CSV and tables.
package enum NumberFormatting {
    /// Shortest text that reads back as the same double, without a trailing `.0` on whole numbers.
    package static func json(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return "\(value)"
    }

    /// A value for people: at most `fractionDigits` decimals, trailing zeros removed, thousands separated.
    package static func human(_ value: Double, fractionDigits: Int = 2) -> String {
        guard value.isFinite else { return "\(value)" }
        var text = String(format: "%.\(fractionDigits)f", value)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        if text == "-0" { text = "0" }
        let negative = text.hasPrefix("-")
        if negative { text.removeFirst() }
        let parts = text.split(separator: ".", maxSplits: 1)
        var integer = String(parts[0])
        if integer.count > 4 {
            var grouped = ""
            for (index, character) in integer.reversed().enumerated() {
                if index > 0 && index % 3 == 0 { grouped.append(",") }
                grouped.append(character)
            }
            integer = String(grouped.reversed())
        }
        let result = parts.count > 1 ? integer + "." + parts[1] : integer
        return negative ? "-" + result : result
    }
}
