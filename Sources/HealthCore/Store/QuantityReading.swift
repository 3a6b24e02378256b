#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The fields statistics need from one stored quantity sample, read without building a ``Sample``.
///
/// Units and sources are indices into the ``ReadingNames`` of the read, so a reading holds no strings.
struct QuantityReading {
    var start: Date
    var end: Date
    /// The amount in the line's own unit, ``ReadingNames/units``[``unit``].
    var value: Double
    var unit: Int
    var source: Int
    /// The uuid's order, when it was needed while reading (tombstones) or known (a fully decoded line).
    var uuid: UUIDKey?
    /// The line the reading came from; valid only while the reading is handed over, for ``uuidKey()``.
    var line: UnsafeBufferPointer<UInt8>?
    /// Whether the sample is a Health Auto Export period total (``MergedSample/isPeriodTotal``); read from lines
    /// only (a partition's stored readings and summaries leave it false: merging reads the lines).
    var isPeriodTotal = false

    /// The uuid's order: known, or read from the line.
    func uuidKey() -> UUIDKey {
        if let uuid { return uuid }
        guard let line, let base = line.baseAddress, line.count >= QuantityLineParser.uuidOffset + 36,
              QuantityLineParser.isUUID(base + QuantityLineParser.uuidOffset)
        else { return UUIDKey(hi: 0, lo: 0) }
        return UUIDKey(checkedText: base + QuantityLineParser.uuidOffset)
    }

    /// HealthKit's overlap rule, as ``Sample/overlaps(_:)``.
    func overlaps(_ interval: DateInterval) -> Bool { Self.overlaps(start: start, end: end, interval) }

    /// Whether a sample from `start` to `end` overlaps `interval`, by ``Sample/overlaps(_:)``'s rule.
    @inline(__always)
    static func overlaps(start: Date, end: Date, _ interval: DateInterval) -> Bool {
        if start == end { return start >= interval.start && start < interval.end }
        return end >= interval.start && start < interval.end
    }
}

/// A uuid as a 128-bit number: ordering these orders the uuids' strings (``Sample/chronological(_:_:)``).
struct UUIDKey: Comparable, Hashable {
    var hi: UInt64
    var lo: UInt64

    init(hi: UInt64, lo: UInt64) {
        self.hi = hi
        self.lo = lo
    }

    init(_ uuid: UUID) {
        var hi: UInt64 = 0, lo: UInt64 = 0
        withUnsafeBytes(of: uuid.uuid) { bytes in
            for index in 0..<8 { hi = hi << 8 | UInt64(bytes[index]) }
            for index in 8..<16 { lo = lo << 8 | UInt64(bytes[index]) }
        }
        self.hi = hi
        self.lo = lo
    }

    /// The key of the 36 characters at `text`, which ``QuantityLineParser/isUUID(_:)`` accepted.
    ///
    /// Reads the hex digits eight at a time: each byte becomes its digit's value, and neighbouring values are
    /// then merged pairwise into one number (the first character is the most significant).
    init(checkedText text: UnsafePointer<UInt8>) {
        let raw = UnsafeRawPointer(text)
        /// The value of the eight hex digits at `offset`.
        @inline(__always) func eight(_ offset: Int) -> UInt64 {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            // '0'...'9' are 0x30...0x39; letters 0x41...0x46 or 0x61...0x66 have bit 6 set, and need 9 more.
            let nibbles = (word & 0x0F0F_0F0F_0F0F_0F0F) &+ ((word >> 6) & 0x0101_0101_0101_0101) &* 9
            // Byte 0 holds the first digit: merge bytes (0,1) into byte 0, then 16-bit pairs, then 32-bit pairs.
            let bytes = ((nibbles << 4) | (nibbles >> 8)) & 0x00FF_00FF_00FF_00FF
            let shorts = ((bytes << 8) | (bytes >> 16)) & 0x0000_FFFF_0000_FFFF
            return ((shorts << 16) | (shorts >> 32)) & 0xFFFF_FFFF
        }
        /// The value of the four hex digits at `offset`.
        @inline(__always) func four(_ offset: Int) -> UInt64 {
            let word = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            let nibbles = (word & 0x0F0F_0F0F) &+ ((word >> 6) & 0x0101_0101) &* 9
            let bytes = ((nibbles << 4) | (nibbles >> 8)) & 0x00FF_00FF
            return ((bytes << 8) | (bytes >> 16)) & 0xFFFF
        }
        // 8-4-4-4-12 characters at 0, 9, 14, 19 and 24.
        hi = eight(0) << 32 | four(9) << 16 | four(14)
        lo = four(19) << 48 | eight(24) << 16 | four(32)
    }

    static func < (a: UUIDKey, b: UUIDKey) -> Bool { a.hi != b.hi ? a.hi < b.hi : a.lo < b.lo }
}

/// A sample's place in time order, as ``Sample/chronological(_:_:)`` orders samples: start, then end, then uuid.
/// Conforming types are `Comparable` by that order (and equal when all three are).
protocol ChronologicallyOrdered: Comparable {
    var start: Date { get }
    var end: Date { get }
    var uuid: UUIDKey { get }
}

extension ChronologicallyOrdered {
    static func < (a: Self, b: Self) -> Bool {
        if a.start != b.start { return a.start < b.start }
        if a.end != b.end { return a.end < b.end }
        return a.uuid < b.uuid
    }

    static func == (a: Self, b: Self) -> Bool { a.start == b.start && a.end == b.end && a.uuid == b.uuid }
}

extension Array where Element: ChronologicallyOrdered {
    /// Sorts into ``ChronologicallyOrdered`` order exactly as the standard library's (stable) sort does, in linear
    /// time when the elements are nearly in order already, as store order almost always is: an insertion sort,
    /// which hands over to the standard sort after a few moves per element. Neither moves an element past an
    /// equal one, so the result is the stable sort's either way.
    mutating func sortNearlySorted() {
        let budget = 4 * count
        var moves = 0
        let finished = withUnsafeMutableBufferPointer { buffer -> Bool in
            guard buffer.count > 1 else { return true }
            for index in 1..<buffer.count {
                let element = buffer[index]
                var position = index
                while position > 0 && element < buffer[position - 1] {
                    buffer[position] = buffer[position - 1]
                    position -= 1
                    moves += 1
                }
                buffer[position] = element
                if moves > budget { return false }
            }
            return true
        }
        if !finished { sort() }
    }
}

/// The units and sources that readings refer to by index, filled while reading.
final class ReadingNames {
    @exclusivity(unchecked) private(set) var units: [String] = []
    /// Each unit parsed; nil for a spelling that is not a unit.
    @exclusivity(unchecked) private(set) var parsedUnits: [HealthUnit?] = []
    @exclusivity(unchecked) private(set) var sources: [String] = []
    /// The device description of the first sample seen from each source (for ranking sources).
    @exclusivity(unchecked) private(set) var devices: [String?] = []
    @exclusivity(unchecked) private var unitBytes: [[UInt8]] = []
    @exclusivity(unchecked) private var sourceBytes: [[UInt8]] = []
    @exclusivity(unchecked) private var lastUnit = -1
    @exclusivity(unchecked) private var lastSource = -1

    private static func same(_ known: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        known.withUnsafeBufferPointer { ByteComparison.same($0, bytes) }
    }

    /// The index of the unit spelled by `bytes`, adding it when new.
    func unit(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        if lastUnit >= 0 && ReadingNames.same(unitBytes[lastUnit], bytes) { return lastUnit }
        if let index = unitBytes.firstIndex(where: { ReadingNames.same($0, bytes) }) { lastUnit = index; return index }
        unitBytes.append(Array(bytes))
        units.append(String(decoding: bytes, as: UTF8.self))
        parsedUnits.append(HealthUnit.parse(units[units.count - 1]))
        lastUnit = units.count - 1
        return lastUnit
    }

    /// The index of `name` as a unit.
    func unit(named name: String) -> Int {
        var name = name
        return name.withUTF8 { unit($0) }
    }

    /// The index of the source spelled by `bytes`, or nil when it is new (add it with ``addSource(_:device:)``).
    func knownSource(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        if lastSource >= 0 && ReadingNames.same(sourceBytes[lastSource], bytes) { return lastSource }
        if let index = sourceBytes.firstIndex(where: { ReadingNames.same($0, bytes) }) { lastSource = index; return index }
        return nil
    }

    /// Whether two of the sources at `indices` are one name to Swift (`Café` written precomposed and decomposed):
    /// the read tells sources apart by their bytes, a decoded sample's `String` by canonical equivalence, so a
    /// query that must rank or merge them as the decoded samples do takes the general path.
    func holdsEquivalentSources(_ indices: [Int]) -> Bool {
        indices.count > 1 && Set(indices.map { sources[$0] }).count != indices.count
    }

    /// Makes `device` the device of source `index` (whose device came from a sample the read does not keep).
    func replaceDevice(of index: Int, with device: String?) {
        devices[index] = device
    }

    /// The index of the source `name`, added with `device` when new.
    func addSource(_ name: String, device: String?) -> Int {
        var name = name
        if let known = name.withUTF8({ knownSource($0) }) { return known }
        sourceBytes.append(Array(name.utf8))
        sources.append(name)
        devices.append(device)
        lastSource = sources.count - 1
        return lastSource
    }
}
