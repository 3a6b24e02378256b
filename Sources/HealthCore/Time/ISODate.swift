/// ISO 8601 dates as the store reads and writes them: `2024-06-01T08:30:00+02:00`, with milliseconds only when needed.
///
/// Formatting and parsing with an explicit offset use plain calendar arithmetic (no `DateFormatter`), so they are
/// fast enough for the store's hot paths and independent of the process's locale.
public enum ISODate: Sendable {
    /// The parts of a written date-time; `offsetSeconds` is nil when the text gave no offset.
    public struct Components: Equatable, Sendable {
        public var year: Int, month: Int, day: Int
        public var hour = 0, minute = 0, second = 0, millisecond = 0
        /// Whether the text had a time of day.
        public var hasTime = false
        /// Offset east of UTC in seconds, if the text had one.
        public var offsetSeconds: Int?

        /// Creates the parts of a date-time (a date alone at midnight, in the reader's zone, unless told otherwise).
        public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0, millisecond: Int = 0,
                    hasTime: Bool = false, offsetSeconds: Int? = nil) {
            self.year = year
            self.month = month
            self.day = day
            self.hour = hour
            self.minute = minute
            self.second = second
            self.millisecond = millisecond
            self.hasTime = hasTime
            self.offsetSeconds = offsetSeconds
        }
    }

    /// Formats `date` with the offset `zone` has at that instant.
    public static func format(_ date: Date, in zone: ZoneRules) -> String {
        format(date, offsetSeconds: zone.secondsFromGMT(for: date))
    }

    /// Formats `date` with a fixed offset east of UTC. An offset that is not whole minutes (local mean time before a
    /// zone's standard time: Paris was +00:09:21 until 1911) is written to the minute, and the clock time with it, so
    /// the text still names the exact instant (`+00:09:21` has no form in RFC 3339, and cutting the seconds off the
    /// offset alone moved the instant).
    public static func format(_ date: Date, offsetSeconds: Int) -> String {
        spell(date, offsetSeconds: offsetSeconds / 60 * 60)
    }

    /// The local date and clock time of `date` in `zone`, as a person there read them (`2024-06-01T08:30:00`, with
    /// `.mmm` when the milliseconds are not zero), without an offset: for labels and tables. Unlike
    /// ``format(_:in:)``, an offset with seconds (local mean time) moves the clock by them.
    public static func localText(_ date: Date, in zone: ZoneRules) -> String {
        let text = spell(date, offsetSeconds: zone.secondsFromGMT(for: date))
        return String(text.dropLast(6))
    }

    /// The local date of `date` in `zone` (`2024-06-01`): the first ten characters of ``localText(_:in:)``, spelled
    /// without the clock time (a bucket's label in every `stats` output).
    public static func localDayText(_ date: Date, in zone: ZoneRules) -> String {
        let offsetSeconds = zone.secondsFromGMT(for: date)
        let (year, month, day) = civil(fromDays: Int(localDay(date, offsetSeconds: offsetSeconds).days))
        guard (0...9999).contains(year) && abs(offsetSeconds) < 100 * 3600 else {
            return String(decoding: localText(date, in: zone).utf8.prefix(10), as: UTF8.self)
        }
        return String(unsafeUninitializedCapacity: 10) { buffer in
            func digit(_ value: Int) -> UInt8 { UInt8(truncatingIfNeeded: 48 + value) }
            (buffer[0], buffer[1], buffer[2], buffer[3]) = (digit(year / 1000), digit(year / 100 % 10), digit(year / 10 % 10), digit(year % 10))
            (buffer[4], buffer[5], buffer[6]) = (UInt8(ascii: "-"), digit(month / 10), digit(month % 10))
            (buffer[7], buffer[8], buffer[9]) = (UInt8(ascii: "-"), digit(day / 10), digit(day % 10))
            return 10
        }
    }

    /// The local day of `date` (days since 1970-01-01) and the milliseconds into it, `offsetSeconds` east of UTC, the
    /// instant rounded to the millisecond as it is spelled.
    private static func localDay(_ date: Date, offsetSeconds: Int) -> (days: Int64, millisOfDay: Int64) {
        let totalMilliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded()) + Int64(offsetSeconds) * 1000
        return floorDivide(totalMilliseconds, 86_400_000)
    }

    /// `date` spelled with exactly `offsetSeconds` (its seconds, if any, are left out of the text).
    private static func spell(_ date: Date, offsetSeconds: Int) -> String {
        let (days, millisOfDay) = localDay(date, offsetSeconds: offsetSeconds)
        let (year, month, day) = civil(fromDays: Int(days))
        let seconds = Int(millisOfDay / 1000)
        let millis = Int(millisOfDay % 1000)
        let offset = abs(offsetSeconds)
        if (0...9999).contains(year) && offset < 100 * 3600 {
            // The usual case, written byte by byte into one buffer.
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 29) { buffer in
                var count = 0
                func put(_ value: Int, _ width: Int) {
                    var divisor = 1
                    for _ in 1..<width { divisor *= 10 }
                    while divisor > 0 {
                        buffer[count] = UInt8(truncatingIfNeeded: 48 + value / divisor % 10)
                        count += 1
                        divisor /= 10
                    }
                }
                func put(_ byte: UInt8) {
                    buffer[count] = byte
                    count += 1
                }
                put(year, 4); put(0x2D); put(month, 2); put(0x2D); put(day, 2); put(0x54)
                put(seconds / 3600, 2); put(0x3A); put(seconds / 60 % 60, 2); put(0x3A); put(seconds % 60, 2)
                if millis != 0 { put(0x2E); put(millis, 3) }
                put(offsetSeconds < 0 ? 0x2D : 0x2B); put(offset / 3600, 2); put(0x3A); put(offset / 60 % 60, 2)
                return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
            }
        }
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T"
        text += pad(seconds / 3600, 2) + ":" + pad(seconds / 60 % 60, 2) + ":" + pad(seconds % 60, 2)
        if millis != 0 { text += "." + pad(millis, 3) }
        let sign = offsetSeconds < 0 ? "-" : "+"
        text += sign + pad(offset / 3600, 2) + ":" + pad(offset / 60 % 60, 2)
        return text
    }

    /// Parses an ISO 8601 date-time that carries an offset (`Z`, `+02:00`, `+0200`, `-0800`), as the store and
    /// Apple Health exports write them (`2024-03-10 01:59:00 -0800` is accepted too).
    ///
    /// - Returns: The instant, or nil when the text is not such a date-time.
    public static func parse(_ text: String) -> Date? {
        // From 1899, as the store writes the first instants it keeps west of Greenwich (``StorableValues``).
        guard let parts = try? components(text, earliestYear: 1899), let offset = parts.offsetSeconds else { return nil }
        return instant(parts, offsetSeconds: offset)
    }

    /// Fast path for the store's own form, `YYYY-MM-DDTHH:MM:SS[.mmm]±HH:MM`, straight from bytes; falls back to
    /// ``parse(_:)`` for anything else.
    static func parse(bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        if let p = bytes.baseAddress, let days = civilDays(p, count: bytes.count),
           let time = timeOfDay(p, count: bytes.count) {
            return date(days: days, time)
        }
        return parse(String(decoding: bytes, as: UTF8.self))
    }

    /// The day number of the last `YYYY-MM-DD` read by ``parse(bytes:days:)``, so that the many dates of one day in
    /// a partition compute their day once.
    struct DayCache {
        fileprivate var prefix: (UInt64, UInt16) = (0, 0)
        fileprivate var days: Int64 = 0
        fileprivate var filled = false
    }

    /// ``parse(bytes:)`` remembering the last calendar day in `cache`.
    static func parse(bytes: UnsafeBufferPointer<UInt8>, days cache: inout DayCache) -> Date? {
        guard let p = bytes.baseAddress, let days = day(of: p, count: bytes.count, days: &cache) else {
            return parse(bytes: bytes)
        }
        return parse(bytes: bytes, day: days)
    }

    /// The day number (days since 1970-01-01) of the calendar date that starts a date of the fixed form (25 or
    /// 29 bytes), remembered in `cache`; nil when the length is another or the date does not exist. The time and
    /// the offset are not read: ``parse(bytes:day:)`` reads them.
    @inline(__always)
    static func day(of p: UnsafePointer<UInt8>, count: Int, days cache: inout DayCache) -> Int64? {
        guard count == 25 || count == 29 else { return nil }
        let raw = UnsafeRawPointer(p)
        let prefix = (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self))
        if !cache.filled || prefix != cache.prefix {
            guard let days = civilDays(p, count: count) else { return nil }
            cache = DayCache(prefix: prefix, days: days, filled: true)
        }
        return cache.days
    }

    /// The instant of a fixed-form date whose day number ``day(of:count:days:)`` gave, or the general parse's
    /// answer when its time or offset is not in the fixed form.
    @inline(__always)
    static func parse(bytes: UnsafeBufferPointer<UInt8>, day: Int64) -> Date? {
        guard let p = bytes.baseAddress, let time = timeOfDay(p, count: bytes.count) else { return parse(bytes: bytes) }
        return date(days: day, time)
    }

    /// How far an offset the fixed form accepts can move an instant from its local time: at most 18:59, rounded
    /// up to 19 hours.
    static let largestOffsetSeconds: Double = 19 * 3600

    /// The time of day of the fixed form: seconds since midnight, milliseconds and the offset in seconds.
    private typealias TimeOfDay = (seconds: Int, millisecond: Int, offset: Int)

    /// The day number of the `YYYY-MM-DD` that starts a 25- or 29-byte date, or nil when it is not a valid date.
    @inline(__always)
    private static func civilDays(_ p: UnsafePointer<UInt8>, count: Int) -> Int64? {
        guard count == 25 || count == 29 else { return nil }
        // Each digit's value; any non-digit makes `bad` non-zero (bytes below '0' wrap around to large values).
        var bad: UInt8 = 0
        @inline(__always) func d(_ i: Int) -> Int {
            let value = p[i] &- 48
            bad |= value > 9 ? 1 : 0
            return Int(value)
        }
        let year = d(0) * 1000 + d(1) * 100 + d(2) * 10 + d(3)
        let month = d(5) * 10 + d(6), day = d(8) * 10 + d(9)
        // From 1899: the first instants kept (1900-01-01 00:00 UTC, ``StorableValues``) are 1899 west of Greenwich.
        guard bad == 0, year >= 1899, p[4] == 45, p[7] == 45, month >= 1, month <= 12, day >= 1,
              day <= daysInMonth(year: year, month: month) else { return nil }
        return Int64(daysFromCivil(year, month, day))
    }

    /// `THH:MM:SS[.mmm]±HH:MM` after the date of a 25- or 29-byte date, or nil when it is not valid.
    ///
    /// Reads the time and the offset eight bytes at a time: `HH:MM:SS` from byte 11, and the last eight bytes,
    /// which end in `±HH:MM` in both lengths.
    @inline(__always)
    private static func timeOfDay(_ p: UnsafePointer<UInt8>, count: Int) -> TimeOfDay? {
        guard count == 25 || count == 29, p[10] == 84 else { return nil }
        let raw = UnsafeRawPointer(p)
        /// Whether the bytes under `mask` (0xFF per byte) are ASCII digits; `mask` keeps them in place.
        @inline(__always) func digits(_ word: UInt64, _ mask: UInt64) -> UInt64? {
            let high = mask & 0xF0F0_F0F0_F0F0_F0F0, low = mask & 0x0F0F_0F0F_0F0F_0F0F
            let values = word & low
            guard word & high == 0x3030_3030_3030_3030 & high,
                  (values &+ (0x0606_0606_0606_0606 & low)) & high == 0 else { return nil }
            return values
        }
        @inline(__always) func pair(_ values: UInt64, _ byte: Int) -> Int {
            Int((values >> UInt64(8 * byte)) & 0xFF) * 10 + Int((values >> UInt64(8 * byte + 8)) & 0xFF)
        }
        let clock = raw.loadUnaligned(fromByteOffset: 11, as: UInt64.self)  // HH:MM:SS
        let tail = raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)  // ..±HH:MM
        guard (clock >> 16) & 0xFF == 58, (clock >> 40) & 0xFF == 58, (tail >> 40) & 0xFF == 58,
              let time = digits(clock, 0xFFFF_00FF_FF00_FFFF), let offset = digits(tail, 0xFFFF_00FF_FF00_0000)
        else { return nil }
        let sign = (tail >> 16) & 0xFF
        let hour = pair(time, 0), minute = pair(time, 3), second = pair(time, 6)
        let offsetHours = pair(offset, 3), offsetMinutes = pair(offset, 6)
        var millisecond = 0
        if count == 29 {
            let a = p[20] &- 48, b = p[21] &- 48, c = p[22] &- 48
            guard p[19] == 46, a <= 9, b <= 9, c <= 9 else { return nil }
            millisecond = Int(a) * 100 + Int(b) * 10 + Int(c)
        }
        guard sign == 43 || sign == 45, hour < 24, minute < 60, second < 60, offsetHours <= 18, offsetMinutes < 60
        else { return nil }
        return (hour * 3600 + minute * 60 + second, millisecond,
                (sign == 45 ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60))
    }

    @inline(__always)
    private static func date(days: Int64, _ time: TimeOfDay) -> Date {
        let seconds = days * 86_400 + Int64(time.seconds) - Int64(time.offset)
        return Date(timeIntervalSince1970: Double(seconds) + Double(time.millisecond) / 1000)
    }

    /// The instant the components name at the given offset.
    static func instant(_ parts: Components, offsetSeconds: Int) -> Date {
        let days = Int64(daysFromCivil(parts.year, parts.month, parts.day))
        let seconds = days * 86_400 + Int64(parts.hour * 3600 + parts.minute * 60 + parts.second) - Int64(offsetSeconds)
        return Date(timeIntervalSince1970: Double(seconds) + Double(parts.millisecond) / 1000)
    }

    /// Splits an ISO 8601 text into its parts and checks that the calendar date and time exist.
    ///
    /// - Throws: ``TimeInputError/malformed(_:)`` or ``TimeInputError/impossible(_:reason:)``.
    public static func components(_ text: String) throws -> Components {
        try components(text, earliestYear: 1900)
    }

    /// ``components(_:)``, refusing years before `earliestYear`.
    static func components(_ text: String, earliestYear: Int) throws -> Components {
        var scanner = ByteScanner(Array(text.utf8))
        guard let year = scanner.digits(4), scanner.take(UInt8(ascii: "-")),
              let month = scanner.digits(2), scanner.take(UInt8(ascii: "-")),
              let day = scanner.digits(2)
        else { throw TimeInputError.malformed(text) }
        var parts = Components(year: year, month: month, day: day)
        if scanner.take(UInt8(ascii: "T")) || scanner.take(UInt8(ascii: "t")) || scanner.take(UInt8(ascii: " ")) {
            guard let hour = scanner.digits(2), scanner.take(UInt8(ascii: ":")), let minute = scanner.digits(2) else {
                throw TimeInputError.malformed(text)
            }
            parts.hasTime = true
            parts.hour = hour
            parts.minute = minute
            if scanner.take(UInt8(ascii: ":")) {
                guard let second = scanner.digits(2) else { throw TimeInputError.malformed(text) }
                parts.second = second
                if scanner.take(UInt8(ascii: ".")) || scanner.take(UInt8(ascii: ",")) {
                    var digits = 0, value = 0
                    while let digit = scanner.digit() {
                        if digits < 3 { value = value * 10 + digit }
                        digits += 1
                    }
                    guard digits > 0 else { throw TimeInputError.malformed(text) }
                    for _ in digits..<max(digits, 3) { value *= 10 }
                    parts.millisecond = value
                }
            }
            _ = scanner.take(UInt8(ascii: " "))
            parts.offsetSeconds = try offset(&scanner, text: text)
        }
        guard scanner.atEnd else { throw TimeInputError.malformed(text) }
        try check(parts, text: text, earliestYear: earliestYear)
        return parts
    }

    private static func offset(_ scanner: inout ByteScanner, text: String) throws -> Int? {
        if scanner.atEnd { return nil }
        if scanner.take(UInt8(ascii: "Z")) || scanner.take(UInt8(ascii: "z")) { return 0 }
        let sign: Int
        if scanner.take(UInt8(ascii: "+")) { sign = 1 } else if scanner.take(UInt8(ascii: "-")) { sign = -1 } else {
            throw TimeInputError.malformed(text)
        }
        guard let hours = scanner.digits(2) else { throw TimeInputError.malformed(text) }
        var minutes = 0
        if scanner.take(UInt8(ascii: ":")) {
            guard let value = scanner.digits(2) else { throw TimeInputError.malformed(text) }
            minutes = value
        } else if let value = scanner.digits(2) {
            minutes = value
        }
        guard hours <= 18, minutes < 60 else { throw TimeInputError.impossible(text, reason: "the offset is out of range") }
        return sign * (hours * 3600 + minutes * 60)
    }

    private static func check(_ parts: Components, text: String, earliestYear: Int) throws {
        guard (1...12).contains(parts.month) else {
            throw TimeInputError.impossible(text, reason: "there is no month \(parts.month)")
        }
        let days = daysInMonth(year: parts.year, month: parts.month)
        guard (1...days).contains(parts.day) else {
            throw TimeInputError.impossible(text, reason: "month \(parts.month) of \(parts.year) has \(days) days")
        }
        guard parts.hour < 24, parts.minute < 60, parts.second < 60 else {
            throw TimeInputError.impossible(text, reason: "the time of day must be between 00:00 and 23:59:59")
        }
        guard parts.year >= earliestYear else {
            throw TimeInputError.impossible(text, reason: "HealthCore keeps dates from 1900 on")
        }
    }

    /// Days in a month of the proleptic Gregorian calendar.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(_ year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The Gregorian date of a day count since 1970-01-01.
    static func civil(fromDays count: Int) -> (year: Int, month: Int, day: Int) {
        let z = count + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let quotient = a >= 0 ? a / b : (a - b + 1) / b
        return (quotient, a - quotient * b)
    }

    private static func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }
}

/// A cursor over ASCII bytes for the small fixed-format parsers.
struct ByteScanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index >= bytes.count }

    mutating func take(_ byte: UInt8) -> Bool {
        if index < bytes.count && bytes[index] == byte { index += 1; return true }
        return false
    }

    mutating func digit() -> Int? {
        guard index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 else { return nil }
        index += 1
        return Int(bytes[index - 1] - 48)
    }

    /// Exactly `count` decimal digits.
    mutating func digits(_ count: Int) -> Int? {
        let start = index
        var value = 0
        for _ in 0..<count {
            guard let digit = digit() else { index = start; return nil }
            value = value * 10 + digit
        }
        return value
    }
}
