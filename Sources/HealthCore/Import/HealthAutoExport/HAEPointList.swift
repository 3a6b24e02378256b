#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The points of one metric, kept compactly: per point its line and where its fields end; per field a key number (into
/// the list's key names), a kind byte and 8 bytes of value (a number's bits; a date's whole seconds and its offset in
/// minutes; strings as numbers into the list's strings). A year of minute-level points takes about a fifth of the
/// memory that arrays of ``HAEPoint`` took. Reading a point (``subscript(_:)``) gives the ``HAEPoint`` the parser
/// read, fields in order.
struct HAEPointList: RandomAccessCollection, Sendable {
    /// What a field's 8 bytes hold.
    private enum Kind: UInt8 {
        case number, date, string, yes, no, null, json
        /// A date that does not pack (fractions of a second, an offset of odd seconds): a number into ``otherDates``.
        case otherDate
    }

    private var lines: [UInt32] = []
    /// Where each point's fields end in ``keys``, ``kinds`` and ``values``.
    private var ends: [UInt32] = []
    private var keys: [UInt32] = []
    private var kinds: [UInt8] = []
    private var values: [UInt64] = []
    /// Dates that do not pack: seconds since the reference date and the written offset in seconds.
    private var otherDates: [(seconds: Double, offset: Int32)] = []
    private var names: [String] = []
    /// The key names' bytes as read, compared with the bytes read while there are few names.
    private var nameBytes: [[UInt8]] = []
    private var strings: [String] = []
    /// The last strings kept (with their UTF-8), to number a repeated one (the parser hands out one String for a
    /// repeated text) alike.
    private var recent: [(text: String, bytes: [UInt8], number: UInt32)] = []
    /// Key names to numbers once there are many.
    private var nameNumbers: [String: UInt32]?

    init() {}

    var startIndex: Int { 0 }
    var endIndex: Int { lines.count }

    subscript(position: Int) -> HAEPoint {
        let from = position == 0 ? 0 : Int(ends[position - 1]), to = Int(ends[position])
        var fields: [(key: String, value: HAEValue)] = []
        fields.reserveCapacity(to - from)
        for index in from..<to { fields.append((names[Int(keys[index])], value(at: index))) }
        return HAEPoint(line: Int(lines[position]), fields: fields)
    }

    // MARK: - Fields read in place (``HAEDirectPoints``)

    /// The line point `position` starts on.
    func line(of position: Int) -> Int { Int(lines[position]) }

    /// The fields of point `position`, as indices for ``key(ofField:)`` and the values below, in the order written.
    func fields(of position: Int) -> Range<Int> {
        (position == 0 ? 0 : Int(ends[position - 1]))..<Int(ends[position])
    }

    /// The number ``key(ofField:)`` gives fields named `name`, nil when no field of the list has that name.
    func keyNumber(_ name: String) -> UInt32? { names.firstIndex(of: name).map { UInt32($0) } }

    func key(ofField field: Int) -> UInt32 { keys[field] }

    /// The field's value when it is a number.
    func number(ofField field: Int) -> Double? {
        kinds[field] == Kind.number.rawValue ? Double(bitPattern: values[field]) : nil
    }

    /// The field's value when it is a date: the instant and its written offset.
    func date(ofField field: Int) -> (Date, Int)? {
        guard kinds[field] == Kind.date.rawValue || kinds[field] == Kind.otherDate.rawValue else { return nil }
        let (seconds, offset) = date(at: field)
        return (Date(timeIntervalSinceReferenceDate: seconds), offset)
    }

    /// The field's value when it is a text.
    func text(ofField field: Int) -> String? {
        kinds[field] == Kind.string.rawValue ? strings[Int(values[field])] : nil
    }

    /// Whether the field's value is `null`.
    func isNull(field: Int) -> Bool { kinds[field] == Kind.null.rawValue }

    /// Whole seconds since the reference date within ±2^46 and an offset of whole minutes pack into 8 bytes: the
    /// seconds in the upper 48 bits, the minutes (±32767) in the lower 16.
    @inline(__always)
    private static func packed(_ seconds: Double, offset: Int) -> UInt64? {
        guard seconds == seconds.rounded(.down), abs(seconds) < 70_368_744_177_664, offset % 60 == 0,
              abs(offset / 60) <= Int(Int16.max) else { return nil }
        return UInt64(bitPattern: Int64(seconds) << 16) | UInt64(UInt16(bitPattern: Int16(offset / 60)))
    }

    @inline(__always)
    private func date(at index: Int) -> (seconds: Double, offset: Int) {
        let bits = values[index]
        if kinds[index] == Kind.otherDate.rawValue {
            let other = otherDates[Int(bits)]
            return (other.seconds, Int(other.offset))
        }
        return (Double(Int64(bitPattern: bits) >> 16), Int(Int16(bitPattern: UInt16(truncatingIfNeeded: bits))) * 60)
    }

    /// The date of point `position`'s first field numbered `key` (``keyNumber(_:)``), nil when that field is no date or
    /// the point has none.
    func date(of position: Int, key: UInt32) -> (seconds: Double, offset: Int)? {
        for field in fields(of: position) where keys[field] == key {
            guard kinds[field] == Kind.date.rawValue || kinds[field] == Kind.otherDate.rawValue else { return nil }
            return date(at: field)
        }
        return nil
    }

    /// Of every point whose first field named `key` is a date: that date and its offset, in point order (what
    /// `self[i][key]` gives, without making the points).
    func dates(_ key: String) -> [(date: Date, offset: Int)] {
        let numbers = Set(names.indices.filter { names[$0] == key }.map { UInt32($0) })
        guard !numbers.isEmpty else { return [] }
        var found: [(date: Date, offset: Int)] = []
        found.reserveCapacity(count)
        var from = 0
        for end in ends {
            for index in from..<Int(end) where numbers.contains(keys[index]) {
                if kinds[index] == Kind.date.rawValue || kinds[index] == Kind.otherDate.rawValue {
                    let (seconds, offset) = date(at: index)
                    found.append((Date(timeIntervalSinceReferenceDate: seconds), offset))
                }
                break
            }
            from = Int(end)
        }
        return found
    }

    private func value(at index: Int) -> HAEValue {
        let bits = values[index]
        switch Kind(rawValue: kinds[index])! {
        case .number: return .number(Double(bitPattern: bits))
        case .date, .otherDate:
            let (seconds, offset) = date(at: index)
            return .date(Date(timeIntervalSinceReferenceDate: seconds), offset: offset)
        case .string: return .string(strings[Int(bits)])
        case .yes: return .bool(true)
        case .no: return .bool(false)
        case .null: return .null
        case .json: return .json(strings[Int(bits)])
        }
    }

    /// Starts the next point, read at `line`.
    mutating func startPoint(line: Int) {
        lines.append(UInt32(clamping: line))
        ends.append(UInt32(keys.count))
    }

    /// Adds a field to the point started last; `key` is its name's bytes as written (decoded as UTF-8, a bad
    /// byte as U+FFFD).
    mutating func addField(_ key: UnsafeBufferPointer<UInt8>, _ value: HAEValue) {
        keys.append(number(ofName: key))
        let kind: Kind, bits: UInt64
        switch value {
        case let .number(number): (kind, bits) = (.number, number.bitPattern)
        case let .date(date, offset):
            let seconds = date.timeIntervalSinceReferenceDate
            if let packed = HAEPointList.packed(seconds, offset: offset) {
                (kind, bits) = (.date, packed)
            } else {
                (kind, bits) = (.otherDate, UInt64(otherDates.count))
                otherDates.append((seconds, Int32(clamping: offset)))
            }
        case let .string(text): (kind, bits) = (.string, UInt64(number(ofString: text)))
        case let .bool(flag): (kind, bits) = (flag ? .yes : .no, 0)
        case .null: (kind, bits) = (.null, 0)
        case let .json(text): (kind, bits) = (.json, UInt64(number(ofString: text)))
        }
        kinds.append(kind.rawValue)
        values.append(bits)
        ends[ends.count - 1] = UInt32(keys.count)
    }

    /// Gives back the memory the arrays grew beyond their contents (once the metric is read).
    mutating func trim() {
        func exact<T>(_ array: inout [T]) {
            if array.capacity > array.count + array.count / 8 { array = array.withUnsafeBufferPointer { Array($0) } }
        }
        exact(&lines)
        exact(&ends)
        exact(&keys)
        exact(&kinds)
        exact(&values)
        recent = []
    }

    /// The number of a key name: the same bytes, the same number.
    private mutating func number(ofName bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        if nameNumbers != nil {
            let name = String(decoding: bytes, as: UTF8.self)
            if let known = nameNumbers![name] { return known }
            let number = UInt32(names.count)
            names.append(name)
            nameBytes.append(Array(bytes))
            nameNumbers![name] = number
            return number
        }
        for (index, known) in nameBytes.enumerated() where known.withUnsafeBufferPointer({ HAEPointList.same($0, bytes) }) {
            return UInt32(index)
        }
        names.append(String(decoding: bytes, as: UTF8.self))
        nameBytes.append(Array(bytes))
        if names.count > 16 { nameNumbers = Dictionary(names.enumerated().map { ($1, UInt32($0)) }, uniquingKeysWith: { first, _ in first }) }
        return UInt32(names.count - 1)
    }

    // MARK: - Stretches read ahead (``HAEPointsAhead``)

    /// Appends the points of `other`, read from the bytes that follow this list's last point, on lines counted from
    /// `line` (`other`'s lines are counted from 0 where it starts): the list then holds what reading all the points
    /// into it one by one gives (the same points, fields, keys and values).
    mutating func append(contentsOf other: HAEPointList, linesAfter line: Int) {
        guard !other.isEmpty else { return }
        // Its key names by the bytes read, as this list numbers them.
        let keyNumbers = other.nameBytes.map { bytes in bytes.withUnsafeBufferPointer { number(ofName: $0) } }
        let (fieldBase, stringBase, dateBase) = (UInt32(keys.count), UInt64(strings.count), UInt64(otherDates.count))
        lines.append(contentsOf: other.lines.lazy.map { UInt32(clamping: Int($0) + line) })
        ends.append(contentsOf: other.ends.lazy.map { $0 + fieldBase })
        keys.append(contentsOf: other.keys.lazy.map { keyNumbers[Int($0)] })
        kinds.append(contentsOf: other.kinds)
        values.reserveCapacity(values.count + other.values.count)
        for index in other.values.indices {
            switch other.kinds[index] {
            case Kind.string.rawValue, Kind.json.rawValue: values.append(other.values[index] + stringBase)
            case Kind.otherDate.rawValue: values.append(other.values[index] + dateBase)
            default: values.append(other.values[index])
            }
        }
        strings.append(contentsOf: other.strings)
        otherDates.append(contentsOf: other.otherDates)
    }

    /// Drops the points after the first `count` (and the fields of a point started and not finished).
    mutating func truncate(toPoints count: Int) {
        guard count < lines.count else { return }
        let fields = count == 0 ? 0 : Int(ends[count - 1])
        lines.removeLast(lines.count - count)
        ends.removeLast(ends.count - count)
        keys.removeLast(keys.count - fields)
        kinds.removeLast(kinds.count - fields)
        values.removeLast(values.count - fields)
    }

    private mutating func number(ofString text: String) -> UInt32 {
        // The same bytes (not only an equal String: the text kept must be the one read).
        let found = text.utf8.withContiguousStorageIfAvailable { bytes in
            recent.first { entry in entry.bytes.withUnsafeBufferPointer { HAEPointList.same($0, bytes) } }?.number
        } ?? recent.first { $0.bytes.elementsEqual(text.utf8) }?.number
        if let found { return found }
        let number = UInt32(strings.count)
        strings.append(text)
        if recent.count == 8 { recent.removeFirst() }
        recent.append((text, Array(text.utf8), number))
        return number
    }

    /// Whether two byte runs are the same bytes.
    @inline(__always)
    static func same(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard a.count > 0 else { return true }
        return memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0
    }
}
