import TextSupport

/// Parses the dates of Apple Health exports straight from bytes, without building strings.
///
/// Accepted: `2024-03-10 01:59:00 -0800` (every export since iOS 9), the same with fractional seconds, `T` or a
/// `±HH:MM`/`Z` offset (the library's own Health XML and ISO 8601), and the compact iOS 8 form `20150616071916-0700`.
/// The instant is kept exactly; the offset only places it.
enum ExportDateParser {
    /// The instant, or nil when the bytes are not such a date, name an impossible one (or one before 1900), or an
    /// instant the store does not keep (``StorableValues``).
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        parse(bytes, keptOnly: true)
    }

    /// Why `text` is no date a record can have, for a rejection: `the startDate '…' is …`.
    static func whyNotADate(_ text: String) -> String {
        var bytes = Array(text.utf8)
        let kept = bytes.withUnsafeMutableBufferPointer { parse(UnsafeBufferPointer($0), keptOnly: false) } != nil
        return kept ? "outside the dates the store keeps (1900-01-01 to 2999-12-31 UTC)" : "not a date like 2024-03-10 01:59:00 -0800"
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, keptOnly: Bool) -> Date? {
        let count = bytes.count
        @inline(__always) func digit(_ index: Int) -> Int? {
            guard index < count else { return nil }
            let value = Int(bytes[index]) - 48
            return value >= 0 && value <= 9 ? value : nil
        }
        @inline(__always) func number(_ index: Int, _ length: Int) -> Int? {
            var value = 0
            for offset in 0..<length {
                guard let d = digit(index + offset) else { return nil }
                value = value * 10 + d
            }
            return value
        }
        let year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
        var index: Int
        if count >= 8, bytes[4] == UInt8(ascii: "-") {
            guard let y = number(0, 4), bytes[7] == UInt8(ascii: "-"), let mo = number(5, 2), let d = number(8, 2),
                  count > 10, bytes[10] == UInt8(ascii: " ") || bytes[10] == UInt8(ascii: "T"),
                  let h = number(11, 2), count > 13, bytes[13] == UInt8(ascii: ":"), let mi = number(14, 2),
                  count > 16, bytes[16] == UInt8(ascii: ":"), let s = number(17, 2)
            else { return nil }
            (year, month, day, hour, minute, second) = (y, mo, d, h, mi, s)
            index = 19
        } else {
            guard let y = number(0, 4), let mo = number(4, 2), let d = number(6, 2), let h = number(8, 2),
                  let mi = number(10, 2), let s = number(12, 2)
            else { return nil }
            (year, month, day, hour, minute, second) = (y, mo, d, h, mi, s)
            index = 14
        }
        var fraction = 0.0
        if index < count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 0.1
            let start = index
            while let d = digit(index) {
                fraction += Double(d) * scale
                scale /= 10
                index += 1
            }
            if index == start { return nil }
        }
        if index < count, bytes[index] == UInt8(ascii: " ") { index += 1 }
        guard index < count else { return nil }
        var offset = 0
        if bytes[index] == UInt8(ascii: "Z") {
            index += 1
        } else {
            let sign: Int
            switch bytes[index] {
            case UInt8(ascii: "+"): sign = 1
            case UInt8(ascii: "-"): sign = -1
            default: return nil
            }
            guard let hours = number(index + 1, 2) else { return nil }
            index += 3
            if index < count, bytes[index] == UInt8(ascii: ":") { index += 1 }
            guard let minutes = number(index, 2) else { return nil }
            index += 2
            guard hours <= 18, minutes < 60 else { return nil }
            offset = sign * (hours * 3600 + minutes * 60)
        }
        guard index == count, year >= 1900, (1...12).contains(month), day >= 1,
              day <= ISODate.daysInMonth(year: year, month: month), hour < 24, minute < 60, second < 61
        else { return nil }
        let days = ISODate.daysFromCivil(year, month, day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        // An instant the store cannot keep (1900-01-01 00:30 +0100 is still 1899 in UTC) is no date a record can have.
        guard !keptOnly || StorableValues.contains(unixSeconds: Int64(seconds)) else { return nil }
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// Parses text (used for values already decoded to strings).
    static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { parse($0) }
    }

    /// Formats `date` the way exports write it: `2024-03-10 01:59:00 -0800`, with milliseconds only when present.
    static func format(_ date: Date, offsetSeconds: Int) -> String {
        // 2024-03-10T01:59:00[.123]-08:00 → 2024-03-10 01:59:00[.123] -0800, in bytes (the text is ASCII): an
        // export of ten years spells 7.6 M dates.
        var bytes = Array(ISODate.format(date, offsetSeconds: offsetSeconds).utf8)
        for index in bytes.indices where bytes[index] == UInt8(ascii: "T") { bytes[index] = UInt8(ascii: " ") }
        let zone = bytes.suffix(6).filter { $0 != UInt8(ascii: ":") }
        bytes.removeLast(min(6, bytes.count))
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: zone)
        return String(decoding: bytes, as: UTF8.self)
    }
}
