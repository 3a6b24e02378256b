#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads start, end, value, unit and source straight from a quantity line that the store's own writer produced.
///
/// The writer's key order is fixed (``SampleLineCodec``), so the fields are found by position, and a string is
/// first compared with the field's recent texts (``RecentStrings``), which almost always hold it.
/// Any line of another shape (escapes, a string value, keys in another order, a bad date) gives nil, and the
/// caller decodes it fully, which also reports what is wrong with it. Every byte of an accepted line is checked
/// as the full reader would check it (strings must be valid UTF-8 without escapes or control characters),
/// except that with a window, a line whose start and end put it outside is recognised there and not read further:
/// most such lines by the calendar days of their start and end alone, before their uuid and times are checked.
/// Metadata is checked and skipped: statistics with a metadata filter do not take this path.
struct QuantityLineParser {
    /// Where the uuid's 36 characters start: after `{"uuid":"`.
    static let uuidOffset = 9

    /// What ``parse(_:names:)`` found. `source` is the byte range of the source's name in the line, and
    /// `sourceIndex` its index in the ``ReadingNames``, or nil when the names do not hold it yet.
    struct Fields {
        var start: Date
        var end: Date
        var value: Double
        var unit: Int
        var source: Range<Int>
        var sourceIndex: Int?
        var sequence: UInt64
        /// The byte range of the device's description in the line, when it has one.
        var device: Range<Int>?
        /// Whether the metadata marks a Health Auto Export period total (``MergedSample/isPeriodTotal``).
        var isPeriodTotal = false
    }

    private var days = ISODate.DayCache()
    private var types = RecentStrings()
    private var units = RecentStrings()
    private var sources = RecentStrings()
    private var versions = RecentStrings()
    private var devices = RecentStrings()
    private var metadataKeys = RecentStrings()
    private var metadataValues = RecentStrings()

    /// Tags a metadata key: 1 for ``HAESampleBuilder/aggregationKey``, 0 for any other.
    private static func aggregationKeyTag(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
        var key = HAESampleBuilder.aggregationKey
        return key.withUTF8 { ByteComparison.same(text, $0) } ? 1 : 0
    }

    /// Tags a metadata string value: 1 for the name of a period a Health Auto Export total covers, 0 for any other.
    private static func periodNameTag(_ text: UnsafeBufferPointer<UInt8>) -> Int? {
        MergedSample.isPeriodName(text) ? 1 : 0
    }

    /// Whether the 36 bytes at `p` spell a uuid (hex digits with dashes at 8, 13, 18 and 23), checked eight
    /// bytes at a time.
    @inline(__always)
    static func isUUID(_ p: UnsafePointer<UInt8>) -> Bool {
        guard p[8] == 0x2D, p[13] == 0x2D, p[18] == 0x2D, p[23] == 0x2D else { return false }
        let raw = UnsafeRawPointer(p)
        let high: UInt64 = 0x8080_8080_8080_8080
        /// The top bit of each byte that is a hex digit; `dashes` marks bytes that are dashes instead.
        @inline(__always) func hex(at offset: Int, dashes: UInt64) -> Bool {
            let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            guard word & high == 0 else { return false }
            // For bytes below 0x80, adding (0x80 - low) sets the top bit exactly when the byte is at least low.
            let digit = (word &+ 0x5050_5050_5050_5050) & ~(word &+ 0x4646_4646_4646_4646)  // '0'...'9'
            let lower = word | 0x2020_2020_2020_2020
            let letter = (lower &+ 0x1F1F_1F1F_1F1F_1F1F) & ~(lower &+ 0x1919_1919_1919_1919)  // 'a'...'f', 'A'...'F'
            return (digit | letter | dashes) & high == high
        }
        return hex(at: 0, dashes: 0) && hex(at: 9, dashes: 0x80 << 32) && hex(at: 15, dashes: 0x80 << 24)
            && hex(at: 24, dashes: 0) && hex(at: 28, dashes: 0)
    }

    /// What ``parse(_:names:window:)`` made of a line.
    enum Parsed {
        /// A line in the writer's plain shape.
        case fields(Fields)
        /// A sample that does not overlap the window (``QuantityReading/overlaps(_:)``): only the fields up to
        /// `end` were read, and of the uuid, start and end perhaps only the calendar days were checked.
        case outsideWindow
        /// Not in the writer's plain shape: the full decoder must read it.
        case unreadable
    }

    /// Whether a sample whose start and end fall on local calendar days `startDay` and `endDay` (days since
    /// 1970-01-01) lies outside `window` at any offset the fixed form allows: it starts at or after the window's
    /// end, or ends before its start (``QuantityReading/overlaps(_:)``).
    @inline(__always)
    static func isOutside(startDay: Int64, endDay: Int64, _ window: DateInterval) -> Bool {
        // A local day d covers the instants [d·86400 − 19 h, (d + 1)·86400 + 19 h) whatever the offset.
        Double(startDay) * 86_400 - ISODate.largestOffsetSeconds >= window.end.timeIntervalSince1970
            || (Double(endDay) + 1) * 86_400 + ISODate.largestOffsetSeconds <= window.start.timeIntervalSince1970
    }

    /// The date of the writer's fixed length (25 or 29 characters) at `p`, followed by its closing quote within
    /// `available` bytes, and its day number; its time and offset are not read yet.
    @inline(__always)
    private static func datedText(_ p: UnsafePointer<UInt8>, available: Int, _ days: inout ISODate.DayCache)
        -> (text: UnsafeBufferPointer<UInt8>, day: Int64)? {
        let length = 25 < available && p[25] == 0x22 ? 25 : 29
        guard length < available, p[length] == 0x22, let day = ISODate.day(of: p, count: length, days: &days)
        else { return nil }
        return (UnsafeBufferPointer(start: p, count: length), day)
    }

    /// Whether `text` is at `index` in `line`; if so, `index` moves past it.
    @inline(__always)
    private static func skip(_ text: StaticString, in line: UnsafeBufferPointer<UInt8>, at index: inout Int) -> Bool {
        let length = text.utf8CodeUnitCount
        guard index + length <= line.count, ByteComparison.equal(line.baseAddress! + index, text.utf8Start, length)
        else { return false }
        index += length
        return true
    }

    /// Whether the line's sample comes before `bar` in time order (it starts earlier, or starts with it and ends
    /// earlier), judged from its start and end alone: most such lines by the calendar day of their start. False
    /// when the line does not begin as the writer writes it (uuid, type, start, end), which the full read judges.
    /// Nothing else of the line is read or checked (see ``JSONFileStore/latestSamples(ofType:overlapping:limit:)``).
    mutating func startsBefore(_ bar: (start: Date, end: Date), line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = line.baseAddress else { return false }
        let count = line.count
        var index = 0
        @inline(__always) func literal(_ text: StaticString) -> Bool { Self.skip(text, in: line, at: &index) }
        guard literal("{\"uuid\":\""), index + 36 <= count else { return false }
        index += 36
        guard literal("\",\"type\":\""), index < count, let quote = memchr(base + index, 0x22, count - index) else { return false }
        index = base.distance(to: quote.assumingMemoryBound(to: UInt8.self)) + 1
        guard literal(",\"start\":\""), let startText = Self.datedText(base + index, available: count - index, &days)
        else { return false }
        // A local day d ends before (d + 1)·86400 + 19 h, whatever the offset.
        if (Double(startText.day) + 1) * 86_400 + ISODate.largestOffsetSeconds <= bar.start.timeIntervalSince1970 {
            return true
        }
        guard let start = ISODate.parse(bytes: startText.text, day: startText.day) else { return false }
        if start != bar.start { return start < bar.start }
        index += startText.text.count + 1
        guard literal(",\"end\":\""), let endText = Self.datedText(base + index, available: count - index, &days),
              let end = ISODate.parse(bytes: endText.text, day: endText.day) else { return false }
        return end < bar.end
    }

    /// Reads a line, or nil when the line is not in the writer's plain shape.
    mutating func parse(_ line: UnsafeBufferPointer<UInt8>, names: ReadingNames) -> Fields? {
        if case .fields(let fields) = parse(line, names: names, window: nil) { return fields }
        return nil
    }

    /// Reads a line. With a window, a sample outside it is recognised from its dates and the rest of the line is
    /// not read: a query reads what it needs, and a damaged line it does not need does not stop it.
    mutating func parse(_ line: UnsafeBufferPointer<UInt8>, names: ReadingNames, window: DateInterval?) -> Parsed {
        guard let fields = parseFields(line, names: names, window: window) else { return .unreadable }
        return fields.map(Parsed.fields) ?? .outsideWindow
    }

    /// The fields; `.some(nil)` for a sample outside `window`; nil when the line is not in the plain shape.
    private mutating func parseFields(_ line: UnsafeBufferPointer<UInt8>, names: ReadingNames, window: DateInterval?)
        -> Fields?? {
        guard let base = line.baseAddress else { return nil }
        let count = line.count
        var index = 0

        @inline(__always) func literal(_ text: StaticString) -> Bool { Self.skip(text, in: line, at: &index) }
        /// The string at `index` up to its closing quote (which is skipped): a recent text of the field, or a new
        /// one that is plain (see ``RecentStrings/isPlain(_:)``), remembered with the tag `tagging` gives it.
        @inline(__always) func string(_ recent: inout RecentStrings, tagging: (UnsafeBufferPointer<UInt8>) -> Int?)
            -> (range: Range<Int>, tag: Int?)? {
            if let known = recent.match(base + index, available: count - index) {
                defer { index += known.length + 1 }
                return (index..<(index + known.length), known.tag)
            }
            guard index < count, let found = memchr(base + index, 0x22, count - index) else { return nil }
            let end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            let text = UnsafeBufferPointer(start: base + index, count: end - index)
            guard RecentStrings.isPlain(text) else { return nil }
            let tag = tagging(text)
            if let tag { recent.remember(text, tag: tag) }
            defer { index = end + 1 }
            return (index..<end, tag)
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
        let untagged: (UnsafeBufferPointer<UInt8>) -> Int? = { _ in 0 }
        guard literal("{\"uuid\":\""), index + 36 <= count else { return nil }
        let uuid = base + index
        index += 36
        guard literal("\",\"type\":\""), string(&types, tagging: untagged) != nil else { return nil }
        guard literal(",\"start\":\""), let startText = Self.datedText(base + index, available: count - index, &days)
        else { return nil }
        index += startText.text.count + 1
        guard literal(",\"end\":\""), let endText = Self.datedText(base + index, available: count - index, &days)
        else { return nil }
        index += endText.text.count + 1
        // Most lines a windowed read skips are days away from the window: their calendar days tell, whatever
        // their times and offsets (see ``isOutside(startDay:endDay:_:)``).
        if let window, Self.isOutside(startDay: startText.day, endDay: endText.day, window) { return .some(nil) }
        guard QuantityLineParser.isUUID(uuid), let start = ISODate.parse(bytes: startText.text, day: startText.day),
              let end = ISODate.parse(bytes: endText.text, day: endText.day), literal(",\"value\":") else { return nil }
        if let window, !QuantityReading.overlaps(start: start, end: end, window) { return .some(nil) }
        let valueStart = index
        while index < count, base[index] != 0x2C { index += 1 }
        // JSON's number starts with a digit or a minus and ends with a digit (the decimal parser is laxer).
        guard index > valueStart, base[valueStart] &- 48 < 10 || base[valueStart] == 0x2D, base[index - 1] &- 48 < 10,
              index < count, let value = DecimalParser.parse(UnsafeBufferPointer(start: base + valueStart, count: index - valueStart))
        else { return nil }
        index += 1
        // A unit's tag is its index in the names; a spelling that is not a unit is not remembered.
        guard literal("\"unit\":\""), let unit = string(&units, tagging: { text in
                  let unit = names.unit(text)
                  return names.parsedUnits[unit] == nil ? nil : unit
              }), let unitIndex = unit.tag,
              literal(",\"source\":\""), let source = string(&sources, tagging: { names.knownSource($0) })
        else { return nil }
        // The rest must be exactly what the writer puts there; metadata (and anything else) goes to the full reader.
        if literal(",\"sourceVersion\":\""), string(&versions, tagging: untagged) == nil { return nil }
        var device: Range<Int>?
        if literal(",\"device\":\"") {
            guard let text = string(&devices, tagging: untagged) else { return nil }
            device = text.range
        }
        guard literal(",\"created\":\""), date() != nil else { return nil }
        // Metadata: plain string keys, each with a plain string or a number. Statistics need only the mark of a
        // Health Auto Export period total (the key tagged 1, a period's name tagged 1); anything else is left to the
        // full reader.
        var isPeriodTotal = false
        if literal(",\"metadata\":{") {
            var closed = index < count && base[index] == 0x7D
            if closed { index += 1 }
            while !closed {
                guard index < count, base[index] == 0x22 else { return nil }
                index += 1
                guard let key = string(&metadataKeys, tagging: Self.aggregationKeyTag), literal(":"), index < count
                else { return nil }
                let marks = key.tag == 1
                if base[index] == 0x22 {
                    index += 1
                    guard let value = string(&metadataValues, tagging: Self.periodNameTag) else { return nil }
                    // The last entry of a key is the one a decoder keeps.
                    if marks { isPeriodTotal = value.tag == 1 }
                } else {
                    if marks { isPeriodTotal = false }
                    let numberStart = index
                    while index < count, base[index] != 0x2C, base[index] != 0x7D { index += 1 }
                    guard index > numberStart, base[numberStart] &- 48 < 10 || base[numberStart] == 0x2D,
                          base[index - 1] &- 48 < 10,
                          DecimalParser.parse(UnsafeBufferPointer(start: base + numberStart, count: index - numberStart)) != nil
                    else { return nil }
                }
                guard index < count else { return nil }
                index += 1
                if base[index - 1] == 0x7D { closed = true } else if base[index - 1] != 0x2C { return nil }
            }
        }
        var sequence: UInt64 = 0
        if literal(",\"seq\":") {
            let digitsStart = index
            while index < count, base[index] &- 48 < 10 { index += 1 }
            // At most 16 digits and no more than the largest change number: anything else is the full decoder's to judge.
            guard index > digitsStart, index - digitsStart <= 16, index - digitsStart == 1 || base[digitsStart] != 48
            else { return nil }
            for position in digitsStart..<index { sequence = sequence &* 10 &+ UInt64(base[position] &- 48) }
            guard sequence <= ChangeNumbers.maximum else { return nil }
        }
        guard index == count - 1, base[index] == UInt8(ascii: "}") else { return nil }
        return Fields(start: start, end: end, value: value, unit: unitIndex, source: source.range,
                      sourceIndex: source.tag, sequence: sequence, device: device, isPeriodTotal: isPeriodTotal)
    }
}
