/// FNV-1a with 64 bits: a fast digest for the store's caches, which tells accidental changes apart (it is no defence
/// against a collision made on purpose, and a cache needs none: a wrong match costs a read of what changed).
struct FNV1a {
    /// The digest of what was added so far.
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// Adds one byte.
    @inline(__always)
    mutating func addByte(_ byte: UInt8) { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }

    /// Adds `bytes` in order.
    mutating func addBytes(_ bytes: UnsafeBufferPointer<UInt8>) {
        for byte in bytes { addByte(byte) }
    }

    /// Adds the eight bytes of `number`, lowest first.
    mutating func addNumber(_ number: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { addByte(UInt8(truncatingIfNeeded: number >> UInt64(shift))) }
    }

    /// Adds the UTF-8 of `text` and a zero byte after it (so that "ab" then "c" differs from "a" then "bc").
    mutating func addText(_ text: String) {
        for byte in text.utf8 { addByte(byte) }
        addByte(0)
    }
}
