extension UUID {
    /// The uuid as the store writes it: 36 lowercase hex digits and dashes, exactly what
    /// `uuidString.lowercased()` gives, without FoundationEssentials' formatting and a Unicode-aware lowercasing
    /// (about 7,000 instructions a uuid, against a few dozen here).
    @inlinable package var lowercasedText: String {
        String(unsafeUninitializedCapacity: 36) { text in
            writeLowercasedText(to: UnsafeMutableRawPointer(text.baseAddress!))
            return 36
        }
    }

    /// Writes ``lowercasedText``'s 36 bytes at `start`, eight hex digits at a time.
    @inlinable package func writeLowercasedText(to start: UnsafeMutableRawPointer) {
        withUnsafeBytes(of: uuid) { bytes in
            // Each 4-bit group becomes one ASCII hex digit, eight digits at a time.
            @inline(__always) func hex(_ offset: Int) -> UInt64 {
                var result: UInt64 = 0
                for index in 0..<4 {
                    let byte = UInt64(bytes[offset + index])
                    result |= ((byte >> 4) | ((byte & 0x0F) << 8)) << (16 * UInt64(index))
                }
                // Digits 0-9 → '0'-'9', 10-15 → 'a'-'f'.
                let letters = ((result &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
                return result &+ 0x3030_3030_3030_3030 &+ letters &* 0x27
            }
            start.storeBytes(of: hex(0), as: UInt64.self)
            start.storeBytes(of: UInt8(ascii: "-"), toByteOffset: 8, as: UInt8.self)
            let second = hex(4)
            start.storeBytes(of: UInt32(truncatingIfNeeded: second), toByteOffset: 9, as: UInt32.self)
            start.storeBytes(of: UInt8(ascii: "-"), toByteOffset: 13, as: UInt8.self)
            start.storeBytes(of: UInt32(truncatingIfNeeded: second >> 32), toByteOffset: 14, as: UInt32.self)
            start.storeBytes(of: UInt8(ascii: "-"), toByteOffset: 18, as: UInt8.self)
            let third = hex(8)
            start.storeBytes(of: UInt32(truncatingIfNeeded: third), toByteOffset: 19, as: UInt32.self)
            start.storeBytes(of: UInt8(ascii: "-"), toByteOffset: 23, as: UInt8.self)
            start.storeBytes(of: UInt32(truncatingIfNeeded: third >> 32), toByteOffset: 24, as: UInt32.self)
            start.storeBytes(of: hex(12), toByteOffset: 28, as: UInt64.self)
        }
    }
}
