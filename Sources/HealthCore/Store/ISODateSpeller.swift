/// The store's spelling of an instant (``ISODate/format(_:offsetSeconds:)``: `2024-03-10T01:59:00-08:00`, with
/// `.250` before the offset when there are milliseconds) written straight into a byte buffer by raw stores. The
/// day (`2024-03-10T`) and the offset (`-08:00`) are spelled once and copied while they repeat, as they do from
/// one line of an import to the next.
struct ISODateSpeller {
    /// The last local day spelled: days since 1970-01-01 and its 11 bytes (`2024-03-10T`) as 8 + 4.
    private var day: (days: Int64, text: (UInt64, UInt32)) = (.min, (0, 0))
    /// The last offset spelled: seconds east of UTC and its 6 bytes (`-08:00`) in the low bytes of 8.
    private var offset: (seconds: Int, text: UInt64) = (.min, 0)

    /// Appends the local time `millisecondsOfDay` (0 to 86,399,999) of local day `days` (since 1970-01-01) at
    /// `offsetSeconds` east of UTC.
    ///
    /// - Returns: False, with nothing written, for a year outside 0 to 9999 or an offset of 100 hours or more,
    ///   which the caller writes with ``ISODate/format(_:offsetSeconds:)``.
    mutating func append(days: Int64, millisecondsOfDay: Int, offsetSeconds: Int, to out: ByteBuffer) -> Bool {
        if days != day.days {
            let (year, month, dayOfMonth) = ISODate.civil(fromDays: Int(days))
            guard year >= 0, year <= 9999 else { return false }
            var bytes: (UInt64, UInt32) = (0, 0)
            withUnsafeMutableBytes(of: &bytes) { raw in
                let text = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                Self.storeTwoDigits(year / 100, at: text)
                Self.storeTwoDigits(year % 100, at: text + 2)
                text[4] = UInt8(ascii: "-")
                Self.storeTwoDigits(month, at: text + 5)
                text[7] = UInt8(ascii: "-")
                Self.storeTwoDigits(dayOfMonth, at: text + 8)
                text[10] = UInt8(ascii: "T")
            }
            day = (days, bytes)
        }
        if offsetSeconds != offset.seconds {
            let magnitude = abs(offsetSeconds)
            guard magnitude < 100 * 3600 else { return false }
            var bytes: UInt64 = 0
            withUnsafeMutableBytes(of: &bytes) { raw in
                let text = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                text[0] = offsetSeconds < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
                Self.storeTwoDigits(magnitude / 3600, at: text + 1)
                text[3] = UInt8(ascii: ":")
                Self.storeTwoDigits(magnitude / 60 % 60, at: text + 4)
            }
            offset = (offsetSeconds, bytes)
        }
        let seconds = millisecondsOfDay / 1000
        let millis = millisecondsOfDay % 1000
        out.reserve(32)
        let start = out.base + out.count
        let raw = UnsafeMutableRawPointer(start)
        raw.storeBytes(of: day.text.0, as: UInt64.self)
        raw.storeBytes(of: day.text.1, toByteOffset: 8, as: UInt32.self)
        Self.storeTwoDigits(seconds / 3600, at: start + 11)
        start[13] = UInt8(ascii: ":")
        Self.storeTwoDigits(seconds / 60 % 60, at: start + 14)
        start[16] = UInt8(ascii: ":")
        Self.storeTwoDigits(seconds % 60, at: start + 17)
        var length = 19
        if millis != 0 {
            start[19] = UInt8(ascii: ".")
            start[20] = UInt8(truncatingIfNeeded: millis / 100) &+ 0x30
            Self.storeTwoDigits(millis % 100, at: start + 21)
            length = 23
        }
        raw.storeBytes(of: offset.text, toByteOffset: length, as: UInt64.self)
        out.advance(length + 6)
        return true
    }

    /// Stores `value` (0 to 99) as two digits at `text`.
    @inline(__always)
    private static func storeTwoDigits(_ value: Int, at text: UnsafeMutablePointer<UInt8>) {
        text[0] = UInt8(truncatingIfNeeded: value / 10) &+ 0x30
        text[1] = UInt8(truncatingIfNeeded: value % 10) &+ 0x30
    }
}
