#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns repeated byte strings (type identifiers, units, source names) into shared `String`s without allocating
/// a lookup key, and numbers them so callers can keep per-string facts in arrays.
///
/// It holds at most `capacity` strings; after that, new strings are returned uncached (id nil), so memory stays
/// bounded when a field turns out to be unique per record.
struct ByteStringCache {
    /// The keys' bytes, one after another.
    private var arena: [UInt8] = []
    private var offsets: [Int] = []
    private var lengths: [Int] = []
    private var hashes: [UInt64] = []
    private var strings: [String] = []
    private var slots: [Int32]
    private let capacity: Int

    init(capacity: Int = 4096) {
        self.capacity = capacity
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        slots = [Int32](repeating: -1, count: size)
    }

    /// A fast hash of the bytes, eight at a time (a cache key, not a security measure).
    @inline(__always)
    static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        guard let base = bytes.baseAddress else { return hash }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index + 8 <= bytes.count {
            hash = (hash ^ raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash >> 29
            index += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while index < bytes.count {
            tail |= UInt64(bytes[index]) << shift
            shift += 8
            index += 1
        }
        hash = (hash ^ tail) &* 0xC4CE_B9FE_1A85_EC53
        return hash ^ (hash >> 32)
    }

    /// The string for `bytes` (made by `decode` the first time), and its id when it is cached.
    mutating func lookup(_ bytes: UnsafeBufferPointer<UInt8>,
                         decode: (UnsafeBufferPointer<UInt8>) -> String) -> (id: Int?, string: String) {
        let hash = ByteStringCache.hash(bytes)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while true {
            let entry = Int(slots[slot])
            if entry < 0 { break }
            if hashes[entry] == hash, lengths[entry] == bytes.count {
                let offset = offsets[entry]
                let same = arena.withUnsafeBufferPointer { memcmp($0.baseAddress! + offset, bytes.baseAddress!, bytes.count) == 0 }
                if same { return (entry, strings[entry]) }
            }
            slot = (slot + 1) & mask
        }
        let string = decode(bytes)
        guard strings.count < capacity else { return (nil, string) }
        slots[slot] = Int32(strings.count)
        offsets.append(arena.count)
        lengths.append(bytes.count)
        arena.append(contentsOf: bytes)
        strings.append(string)
        hashes.append(hash)
        return (strings.count - 1, string)
    }

    /// The id of `bytes` when they are cached (no string is made or copied).
    func id(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let hash = ByteStringCache.hash(bytes)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        return arena.withUnsafeBufferPointer { arena in
            while true {
                let entry = Int(slots[slot])
                if entry < 0 { return nil }
                if hashes[entry] == hash, lengths[entry] == bytes.count,
                   memcmp(arena.baseAddress! + offsets[entry], bytes.baseAddress!, bytes.count) == 0 {
                    return entry
                }
                slot = (slot + 1) & mask
            }
        }
    }

    /// The string for `bytes`, decoded as plain UTF-8.
    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        lookup(bytes) { String(decoding: $0, as: UTF8.self) }.string
    }

    /// The cached string with this id.
    func text(_ id: Int) -> String { strings[id] }

    /// The number of cached strings; ids run from 0 to count - 1.
    var count: Int { strings.count }
}
