/// SHA-1 (FIPS 180-4), only to derive name-based UUIDs (version 5) for imported samples.
///
/// Foundation on Linux has no CryptoKit, and the digest is used for identity, not for security. It hashes one
/// contiguous message without allocating.
enum SHA1 {
    typealias State = (UInt32, UInt32, UInt32, UInt32, UInt32)

    /// The 20-byte digest of `message`.
    static func digest(_ message: UnsafeRawBufferPointer) -> [UInt8] {
        let state = hash(message)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(20)
        for word in [state.0, state.1, state.2, state.3, state.4] {
            bytes += [UInt8(word >> 24), UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8),
                      UInt8(truncatingIfNeeded: word)]
        }
        return bytes
    }

    /// The digest of `message` as five big-endian words.
    static func hash(_ message: UnsafeRawBufferPointer) -> State {
        var state: State = (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0)
        let count = message.count
        let fullBlocks = count / 64
        if let base = message.baseAddress {
            for block in 0..<fullBlocks { compress(&state, base + block * 64) }
        }
        // The last partial block, the 0x80 marker and the bit length, in one or two blocks.
        var tail: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                   UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &tail) { buffer in
            let rest = count - fullBlocks * 64
            if rest > 0 { buffer.baseAddress!.copyMemory(from: message.baseAddress! + fullBlocks * 64, byteCount: rest) }
            buffer[rest] = 0x80
            let length = rest + 9 <= 64 ? 64 : 128
            let bits = UInt64(count) &* 8
            for index in 0..<8 { buffer[length - 1 - index] = UInt8(truncatingIfNeeded: bits >> UInt64(8 * index)) }
            compress(&state, UnsafeRawPointer(buffer.baseAddress!))
            if length == 128 { compress(&state, UnsafeRawPointer(buffer.baseAddress! + 64)) }
        }
        return state
    }

    @inline(__always)
    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 { (value &<< count) | (value &>> (32 &- count)) }

    /// One 64-byte block: the message schedule is expanded in full first, then the 80 rounds run on locals.
    private static func compress(_ state: inout State, _ block: UnsafeRawPointer) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { w in
            let w = w.baseAddress!
            for i in 0..<16 { w[i] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self)) }
            for i in 16..<80 { w[i] = rotate(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1) }
            var (a, b, c, d, e) = state
            var i = 0
            while i < 20 {
                let t = rotate(a, 5) &+ ((b & c) | (~b & d)) &+ e &+ 0x5A82_7999 &+ w[i]
                (e, d, c, b, a) = (d, c, rotate(b, 30), a, t)
                i += 1
            }
            while i < 40 {
                let t = rotate(a, 5) &+ (b ^ c ^ d) &+ e &+ 0x6ED9_EBA1 &+ w[i]
                (e, d, c, b, a) = (d, c, rotate(b, 30), a, t)
                i += 1
            }
            while i < 60 {
                let t = rotate(a, 5) &+ ((b & c) | (b & d) | (c & d)) &+ e &+ 0x8F1B_BCDC &+ w[i]
                (e, d, c, b, a) = (d, c, rotate(b, 30), a, t)
                i += 1
            }
            while i < 80 {
                let t = rotate(a, 5) &+ (b ^ c ^ d) &+ e &+ 0xCA62_C1D6 &+ w[i]
                (e, d, c, b, a) = (d, c, rotate(b, 30), a, t)
                i += 1
            }
            state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
        }
    }
}
