#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The points of one metric, kept compactly: per point its line and where its fields end; per field a key number (into
/// the list's key names) and a value of 16 bytes (strings as numbers into the list's strings). A year of minute-level
/// points takes about a third of the memory that arrays of ``HAEPoint`` took. Reading a point (``subscript(_:)``)
/// gives the ``HAEPoint`` the parser read, fields in order.
struct HAEPointList: RandomAccessCollection, Sendable {
    /// A field's value as kept.
    enum Stored: Sendable {
        case number(Double)
        /// Seconds since the reference date, and the written offset in seconds.
        case date(Double, Int32)
        case string(UInt32)
        case bool(Bool)
        case null
        case json(UInt32)
    }

    private var lines: [UInt32] = []
    /// Where each point's fields end in ``keys`` and ``values``.
    private var ends: [UInt32] = []
    private var keys: [UInt32] = []
    private var values: [Stored] = []
    private var names: [String] = []
    /// The key names' UTF-8, compared with the bytes read.
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
        for index in from..<to { fields.append((names[Int(keys[index])], value(values[index]))) }
        return HAEPoint(line: Int(lines[position]), fields: fields)
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
                if case let .date(seconds, offset) = values[index] {
                    found.append((Date(timeIntervalSinceReferenceDate: seconds), Int(offset)))
                }
                break
            }
            from = Int(end)
        }
        return found
    }

    private func value(_ stored: Stored) -> HAEValue {
        switch stored {
        case let .number(number): return .number(number)
        case let .date(seconds, offset): return .date(Date(timeIntervalSinceReferenceDate: seconds), offset: Int(offset))
        case let .string(number): return .string(strings[Int(number)])
        case let .bool(flag): return .bool(flag)
        case .null: return .null
        case let .json(number): return .json(strings[Int(number)])
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
        switch value {
        case let .number(number): values.append(.number(number))
        case let .date(date, offset): values.append(.date(date.timeIntervalSinceReferenceDate, Int32(clamping: offset)))
        case let .string(text): values.append(.string(number(ofString: text)))
        case let .bool(flag): values.append(.bool(flag))
        case .null: values.append(.null)
        case let .json(text): values.append(.json(number(ofString: text)))
        }
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
        exact(&values)
        recent = []
    }

    /// The number of a key name: the same bytes, the same number.
    private mutating func number(ofName bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        if var table = nameNumbers {
            let name = String(decoding: bytes, as: UTF8.self)
            if let known = table[name] { return known }
            let number = UInt32(names.count)
            names.append(name)
            table[name] = number
            nameNumbers = table
            return number
        }
        for (index, known) in nameBytes.enumerated() where known.withUnsafeBufferPointer({ HAEPointList.same($0, bytes) }) {
            return UInt32(index)
        }
        names.append(String(decoding: bytes, as: UTF8.self))
        nameBytes.append(Array(bytes))
        if names.count > 16 { nameNumbers = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, UInt32($0)) }) }
        return UInt32(names.count - 1)
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
