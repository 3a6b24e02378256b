/// A set of UUIDs for duplicate detection: open addressing over the UUIDs' two 64-bit halves, mixed with one
/// multiplication instead of going through `Hasher`, kept at most three quarters full (as full as `Set` gets, so it
/// takes no more memory).
struct UUIDSet {
    /// Two words per slot; the all-zero pair marks an empty slot (the nil UUID is kept in `hasNil`).
    private var words: [UInt64]
    private var mask: Int
    private var hasNil = false
    /// How many UUIDs it holds.
    private(set) var count = 0

    /// Creates an empty set with room for `capacity` UUIDs before it grows.
    init(capacity: Int = 8) {
        var slots = 16
        while slots * 3 < capacity * 4 { slots <<= 1 }
        words = [UInt64](repeating: 0, count: slots * 2)
        mask = slots - 1
    }

    /// Whether `uuid` is in the set.
    func contains(_ uuid: UUID) -> Bool {
        let (high, low) = UUIDSet.halves(uuid)
        if high == 0 && low == 0 { return hasNil }
        return words.withUnsafeBufferPointer { words in
            var slot = UUIDSet.slot(high, low, mask)
            while true {
                let h = words[slot &* 2], l = words[slot &* 2 &+ 1]
                if h == high && l == low { return true }
                if h == 0 && l == 0 { return false }
                slot = (slot &+ 1) & mask
            }
        }
    }

    /// Adds `uuid`; true when it was not there.
    @discardableResult
    mutating func insert(_ uuid: UUID) -> Bool {
        let (high, low) = UUIDSet.halves(uuid)
        if high == 0 && low == 0 {
            if hasNil { return false }
            hasNil = true
            count += 1
            return true
        }
        if (count + 1) * 4 > (mask + 1) * 3 { grow() }
        let inserted = words.withUnsafeMutableBufferPointer { words in
            var slot = UUIDSet.slot(high, low, mask)
            while true {
                let h = words[slot &* 2], l = words[slot &* 2 &+ 1]
                if h == high && l == low { return false }
                if h == 0 && l == 0 {
                    words[slot &* 2] = high
                    words[slot &* 2 &+ 1] = low
                    return true
                }
                slot = (slot &+ 1) & mask
            }
        }
        if inserted { count += 1 }
        return inserted
    }

    /// Makes room for `capacity` UUIDs in all, so that adding up to that many does not grow the table.
    mutating func reserve(_ capacity: Int) {
        var slots = mask + 1
        while slots * 3 < capacity * 4 { slots <<= 1 }
        if slots > mask + 1 { rehash(slots: slots) }
    }

    private mutating func grow() { rehash(slots: (mask + 1) * 2) }

    private mutating func rehash(slots: Int) {
        let old = words
        words = [UInt64](repeating: 0, count: slots * 2)
        mask = slots - 1
        let nilCount = hasNil ? 1 : 0
        count = nilCount
        var index = 0
        while index < old.count {
            let high = old[index], low = old[index + 1]
            if high != 0 || low != 0 { insert(UUIDSet.uuid(high, low)) }
            index += 2
        }
    }

    /// The uuid's bytes as two words (the nil UUID is the all-zero pair).
    @inline(__always)
    static func halves(_ uuid: UUID) -> (UInt64, UInt64) {
        withUnsafeBytes(of: uuid.uuid) { ($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)) }
    }

    private static func uuid(_ high: UInt64, _ low: UInt64) -> UUID {
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { raw in
            raw.storeBytes(of: high, as: UInt64.self)
            raw.storeBytes(of: low, toByteOffset: 8, as: UInt64.self)
        }
        return UUID(uuid: bytes)
    }

    /// The first slot to look at for the uuid `high`, `low` in a table of `mask + 1` slots (a power of two).
    @inline(__always)
    static func slot(_ high: UInt64, _ low: UInt64, _ mask: Int) -> Int {
        let mixed = (high ^ (low &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed >> 32) & mask
    }
}
