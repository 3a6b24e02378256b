import CDigest

/// SHA-1 (FIPS 180-4), only to derive name-based UUIDs (version 5) for imported samples.
///
/// Foundation on Linux has no CryptoKit, and the digest is used for identity, not for security. It hashes one
/// contiguous message without allocating. Blocks go through the processor's SHA instructions where it has them
/// (CDigest, x86-64), else through ``compress(_:_:)`` here, the portable definition they are tested against.
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
        hash(message, from: initialState, skipping: 0)
    }

    /// The state before any block.
    static var initialState: State { (0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0) }

    /// The state after the first `blocks` 64-byte blocks of `message` (at least that long): messages that share
    /// those bytes can start from it.
    static func state(after blocks: Int, of message: UnsafeRawBufferPointer) -> State {
        precondition(message.count >= blocks * 64, "the message is shorter than the blocks")
        var state = initialState
        if blocks > 0 { compress(&state, message.baseAddress!, blocks: blocks) }
        return state
    }

    /// The digest of `message`, given `state`, the state after its first `skipped` blocks
    /// (``state(after:of:)``).
    static func hash(_ message: UnsafeRawBufferPointer, from state: State, skipping skipped: Int) -> State {
        var state = state
        let count = message.count
        let fullBlocks = count / 64
        precondition(skipped <= fullBlocks, "more blocks skipped than the message holds")
        if let base = message.baseAddress, fullBlocks > skipped {
            compress(&state, base + skipped * 64, blocks: fullBlocks - skipped)
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
            compress(&state, UnsafeRawPointer(buffer.baseAddress!), blocks: length / 64)
        }
        return state
    }

    /// Compresses `blocks` consecutive 64-byte blocks from `start` into `state`: with the processor's SHA
    /// instructions when it has them, else one by one with ``compress(_:_:)``. `portable` forces the latter (tests).
    static func compress(_ state: inout State, _ start: UnsafeRawPointer, blocks: Int, portable: Bool = false) {
        if !portable {
            let done = withUnsafeMutableBytes(of: &state) { words in
                hkctl_sha1_blocks(words.baseAddress!.assumingMemoryBound(to: UInt32.self),
                                  start.assumingMemoryBound(to: UInt8.self), blocks)
            }
            if done != 0 { return }
        }
        for block in 0..<blocks { compress(&state, start + block * 64) }
    }

    @inline(__always)
    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 { (value &<< count) | (value &>> (32 &- count)) }

    /// One 64-byte block, unrolled: the 80 rounds rename the five working words instead of moving them, and the
    /// message schedule rolls through 16 words held in locals.
    private static func compress(_ state: inout State, _ block: UnsafeRawPointer) {
        @inline(__always) func load(_ index: Int) -> UInt32 {
            UInt32(bigEndian: block.loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self))
        }
        var w0 = load(0), w1 = load(1), w2 = load(2), w3 = load(3), w4 = load(4), w5 = load(5), w6 = load(6), w7 = load(7)
        var w8 = load(8), w9 = load(9), w10 = load(10), w11 = load(11), w12 = load(12), w13 = load(13), w14 = load(14), w15 = load(15)
        var (a, b, c, d, e) = state
        e = e &+ rotate(a, 5) &+ ((b & c) | (~b & d)) &+ 0x5A82_7999 &+ w0; b = rotate(b, 30)
        d = d &+ rotate(e, 5) &+ ((a & b) | (~a & c)) &+ 0x5A82_7999 &+ w1; a = rotate(a, 30)
        c = c &+ rotate(d, 5) &+ ((e & a) | (~e & b)) &+ 0x5A82_7999 &+ w2; e = rotate(e, 30)
        b = b &+ rotate(c, 5) &+ ((d & e) | (~d & a)) &+ 0x5A82_7999 &+ w3; d = rotate(d, 30)
        a = a &+ rotate(b, 5) &+ ((c & d) | (~c & e)) &+ 0x5A82_7999 &+ w4; c = rotate(c, 30)
        e = e &+ rotate(a, 5) &+ ((b & c) | (~b & d)) &+ 0x5A82_7999 &+ w5; b = rotate(b, 30)
        d = d &+ rotate(e, 5) &+ ((a & b) | (~a & c)) &+ 0x5A82_7999 &+ w6; a = rotate(a, 30)
        c = c &+ rotate(d, 5) &+ ((e & a) | (~e & b)) &+ 0x5A82_7999 &+ w7; e = rotate(e, 30)
        b = b &+ rotate(c, 5) &+ ((d & e) | (~d & a)) &+ 0x5A82_7999 &+ w8; d = rotate(d, 30)
        a = a &+ rotate(b, 5) &+ ((c & d) | (~c & e)) &+ 0x5A82_7999 &+ w9; c = rotate(c, 30)
        e = e &+ rotate(a, 5) &+ ((b & c) | (~b & d)) &+ 0x5A82_7999 &+ w10; b = rotate(b, 30)
        d = d &+ rotate(e, 5) &+ ((a & b) | (~a & c)) &+ 0x5A82_7999 &+ w11; a = rotate(a, 30)
        c = c &+ rotate(d, 5) &+ ((e & a) | (~e & b)) &+ 0x5A82_7999 &+ w12; e = rotate(e, 30)
        b = b &+ rotate(c, 5) &+ ((d & e) | (~d & a)) &+ 0x5A82_7999 &+ w13; d = rotate(d, 30)
        a = a &+ rotate(b, 5) &+ ((c & d) | (~c & e)) &+ 0x5A82_7999 &+ w14; c = rotate(c, 30)
        e = e &+ rotate(a, 5) &+ ((b & c) | (~b & d)) &+ 0x5A82_7999 &+ w15; b = rotate(b, 30)
        w0 = rotate(w13 ^ w8 ^ w2 ^ w0, 1)
        d = d &+ rotate(e, 5) &+ ((a & b) | (~a & c)) &+ 0x5A82_7999 &+ w0; a = rotate(a, 30)
        w1 = rotate(w14 ^ w9 ^ w3 ^ w1, 1)
        c = c &+ rotate(d, 5) &+ ((e & a) | (~e & b)) &+ 0x5A82_7999 &+ w1; e = rotate(e, 30)
        w2 = rotate(w15 ^ w10 ^ w4 ^ w2, 1)
        b = b &+ rotate(c, 5) &+ ((d & e) | (~d & a)) &+ 0x5A82_7999 &+ w2; d = rotate(d, 30)
        w3 = rotate(w0 ^ w11 ^ w5 ^ w3, 1)
        a = a &+ rotate(b, 5) &+ ((c & d) | (~c & e)) &+ 0x5A82_7999 &+ w3; c = rotate(c, 30)
        w4 = rotate(w1 ^ w12 ^ w6 ^ w4, 1)
        e = e &+ rotate(a, 5) &+ (b ^ c ^ d) &+ 0x6ED9_EBA1 &+ w4; b = rotate(b, 30)
        w5 = rotate(w2 ^ w13 ^ w7 ^ w5, 1)
        d = d &+ rotate(e, 5) &+ (a ^ b ^ c) &+ 0x6ED9_EBA1 &+ w5; a = rotate(a, 30)
        w6 = rotate(w3 ^ w14 ^ w8 ^ w6, 1)
        c = c &+ rotate(d, 5) &+ (e ^ a ^ b) &+ 0x6ED9_EBA1 &+ w6; e = rotate(e, 30)
        w7 = rotate(w4 ^ w15 ^ w9 ^ w7, 1)
        b = b &+ rotate(c, 5) &+ (d ^ e ^ a) &+ 0x6ED9_EBA1 &+ w7; d = rotate(d, 30)
        w8 = rotate(w5 ^ w0 ^ w10 ^ w8, 1)
        a = a &+ rotate(b, 5) &+ (c ^ d ^ e) &+ 0x6ED9_EBA1 &+ w8; c = rotate(c, 30)
        w9 = rotate(w6 ^ w1 ^ w11 ^ w9, 1)
        e = e &+ rotate(a, 5) &+ (b ^ c ^ d) &+ 0x6ED9_EBA1 &+ w9; b = rotate(b, 30)
        w10 = rotate(w7 ^ w2 ^ w12 ^ w10, 1)
        d = d &+ rotate(e, 5) &+ (a ^ b ^ c) &+ 0x6ED9_EBA1 &+ w10; a = rotate(a, 30)
        w11 = rotate(w8 ^ w3 ^ w13 ^ w11, 1)
        c = c &+ rotate(d, 5) &+ (e ^ a ^ b) &+ 0x6ED9_EBA1 &+ w11; e = rotate(e, 30)
        w12 = rotate(w9 ^ w4 ^ w14 ^ w12, 1)
        b = b &+ rotate(c, 5) &+ (d ^ e ^ a) &+ 0x6ED9_EBA1 &+ w12; d = rotate(d, 30)
        w13 = rotate(w10 ^ w5 ^ w15 ^ w13, 1)
        a = a &+ rotate(b, 5) &+ (c ^ d ^ e) &+ 0x6ED9_EBA1 &+ w13; c = rotate(c, 30)
        w14 = rotate(w11 ^ w6 ^ w0 ^ w14, 1)
        e = e &+ rotate(a, 5) &+ (b ^ c ^ d) &+ 0x6ED9_EBA1 &+ w14; b = rotate(b, 30)
        w15 = rotate(w12 ^ w7 ^ w1 ^ w15, 1)
        d = d &+ rotate(e, 5) &+ (a ^ b ^ c) &+ 0x6ED9_EBA1 &+ w15; a = rotate(a, 30)
        w0 = rotate(w13 ^ w8 ^ w2 ^ w0, 1)
        c = c &+ rotate(d, 5) &+ (e ^ a ^ b) &+ 0x6ED9_EBA1 &+ w0; e = rotate(e, 30)
        w1 = rotate(w14 ^ w9 ^ w3 ^ w1, 1)
        b = b &+ rotate(c, 5) &+ (d ^ e ^ a) &+ 0x6ED9_EBA1 &+ w1; d = rotate(d, 30)
        w2 = rotate(w15 ^ w10 ^ w4 ^ w2, 1)
        a = a &+ rotate(b, 5) &+ (c ^ d ^ e) &+ 0x6ED9_EBA1 &+ w2; c = rotate(c, 30)
        w3 = rotate(w0 ^ w11 ^ w5 ^ w3, 1)
        e = e &+ rotate(a, 5) &+ (b ^ c ^ d) &+ 0x6ED9_EBA1 &+ w3; b = rotate(b, 30)
        w4 = rotate(w1 ^ w12 ^ w6 ^ w4, 1)
        d = d &+ rotate(e, 5) &+ (a ^ b ^ c) &+ 0x6ED9_EBA1 &+ w4; a = rotate(a, 30)
        w5 = rotate(w2 ^ w13 ^ w7 ^ w5, 1)
        c = c &+ rotate(d, 5) &+ (e ^ a ^ b) &+ 0x6ED9_EBA1 &+ w5; e = rotate(e, 30)
        w6 = rotate(w3 ^ w14 ^ w8 ^ w6, 1)
        b = b &+ rotate(c, 5) &+ (d ^ e ^ a) &+ 0x6ED9_EBA1 &+ w6; d = rotate(d, 30)
        w7 = rotate(w4 ^ w15 ^ w9 ^ w7, 1)
        a = a &+ rotate(b, 5) &+ (c ^ d ^ e) &+ 0x6ED9_EBA1 &+ w7; c = rotate(c, 30)
        w8 = rotate(w5 ^ w0 ^ w10 ^ w8, 1)
        e = e &+ rotate(a, 5) &+ ((b & c) | ((b | c) & d)) &+ 0x8F1B_BCDC &+ w8; b = rotate(b, 30)
        w9 = rotate(w6 ^ w1 ^ w11 ^ w9, 1)
        d = d &+ rotate(e, 5) &+ ((a & b) | ((a | b) & c)) &+ 0x8F1B_BCDC &+ w9; a = rotate(a, 30)
        w10 = rotate(w7 ^ w2 ^ w12 ^ w10, 1)
        c = c &+ rotate(d, 5) &+ ((e & a) | ((e | a) & b)) &+ 0x8F1B_BCDC &+ w10; e = rotate(e, 30)
        w11 = rotate(w8 ^ w3 ^ w13 ^ w11, 1)
        b = b &+ rotate(c, 5) &+ ((d & e) | ((d | e) & a)) &+ 0x8F1B_BCDC &+ w11; d = rotate(d, 30)
        w12 = rotate(w9 ^ w4 ^ w14 ^ w12, 1)
        a = a &+ rotate(b, 5) &+ ((c & d) | ((c | d) & e)) &+ 0x8F1B_BCDC &+ w12; c = rotate(c, 30)
        w13 = rotate(w10 ^ w5 ^ w15 ^ w13, 1)
        e = e &+ rotate(a, 5) &+ ((b & c) | ((b | c) & d)) &+ 0x8F1B_BCDC &+ w13; b = rotate(b, 30)
        w14 = rotate(w11 ^ w6 ^ w0 ^ w14, 1)
        d = d &+ rotate(e, 5) &+ ((a & b) | ((a | b) & c)) &+ 0x8F1B_BCDC &+ w14; a = rotate(a, 30)
        w15 = rotate(w12 ^ w7 ^ w1 ^ w15, 1)
        c = c &+ rotate(d, 5) &+ ((e & a) | ((e | a) & b)) &+ 0x8F1B_BCDC &+ w15; e = rotate(e, 30)
        w0 = rotate(w13 ^ w8 ^ w2 ^ w0, 1)
        b = b &+ rotate(c, 5) &+ ((d & e) | ((d | e) & a)) &+ 0x8F1B_BCDC &+ w0; d = rotate(d, 30)
        w1 = rotate(w14 ^ w9 ^ w3 ^ w1, 1)
        a = a &+ rotate(b, 5) &+ ((c & d) | ((c | d) & e)) &+ 0x8F1B_BCDC &+ w1; c = rotate(c, 30)
        w2 = rotate(w15 ^ w10 ^ w4 ^ w2, 1)
        e = e &+ rotate(a, 5) &+ ((b & c) | ((b | c) & d)) &+ 0x8F1B_BCDC &+ w2; b = rotate(b, 30)
        w3 = rotate(w0 ^ w11 ^ w5 ^ w3, 1)
        d = d &+ rotate(e, 5) &+ ((a & b) | ((a | b) & c)) &+ 0x8F1B_BCDC &+ w3; a = rotate(a, 30)
        w4 = rotate(w1 ^ w12 ^ w6 ^ w4, 1)
        c = c &+ rotate(d, 5) &+ ((e & a) | ((e | a) & b)) &+ 0x8F1B_BCDC &+ w4; e = rotate(e, 30)
        w5 = rotate(w2 ^ w13 ^ w7 ^ w5, 1)
        b = b &+ rotate(c, 5) &+ ((d & e) | ((d | e) & a)) &+ 0x8F1B_BCDC &+ w5; d = rotate(d, 30)
        w6 = rotate(w3 ^ w14 ^ w8 ^ w6, 1)
        a = a &+ rotate(b, 5) &+ ((c & d) | ((c | d) & e)) &+ 0x8F1B_BCDC &+ w6; c = rotate(c, 30)
        w7 = rotate(w4 ^ w15 ^ w9 ^ w7, 1)
        e = e &+ rotate(a, 5) &+ ((b & c) | ((b | c) & d)) &+ 0x8F1B_BCDC &+ w7; b = rotate(b, 30)
        w8 = rotate(w5 ^ w0 ^ w10 ^ w8, 1)
        d = d &+ rotate(e, 5) &+ ((a & b) | ((a | b) & c)) &+ 0x8F1B_BCDC &+ w8; a = rotate(a, 30)
        w9 = rotate(w6 ^ w1 ^ w11 ^ w9, 1)
        c = c &+ rotate(d, 5) &+ ((e & a) | ((e | a) & b)) &+ 0x8F1B_BCDC &+ w9; e = rotate(e, 30)
        w10 = rotate(w7 ^ w2 ^ w12 ^ w10, 1)
        b = b &+ rotate(c, 5) &+ ((d & e) | ((d | e) & a)) &+ 0x8F1B_BCDC &+ w10; d = rotate(d, 30)
        w11 = rotate(w8 ^ w3 ^ w13 ^ w11, 1)
        a = a &+ rotate(b, 5) &+ ((c & d) | ((c | d) & e)) &+ 0x8F1B_BCDC &+ w11; c = rotate(c, 30)
        w12 = rotate(w9 ^ w4 ^ w14 ^ w12, 1)
        e = e &+ rotate(a, 5) &+ (b ^ c ^ d) &+ 0xCA62_C1D6 &+ w12; b = rotate(b, 30)
        w13 = rotate(w10 ^ w5 ^ w15 ^ w13, 1)
        d = d &+ rotate(e, 5) &+ (a ^ b ^ c) &+ 0xCA62_C1D6 &+ w13; a = rotate(a, 30)
        w14 = rotate(w11 ^ w6 ^ w0 ^ w14, 1)
        c = c &+ rotate(d, 5) &+ (e ^ a ^ b) &+ 0xCA62_C1D6 &+ w14; e = rotate(e, 30)
        w15 = rotate(w12 ^ w7 ^ w1 ^ w15, 1)
        b = b &+ rotate(c, 5) &+ (d ^ e ^ a) &+ 0xCA62_C1D6 &+ w15; d = rotate(d, 30)
        w0 = rotate(w13 ^ w8 ^ w2 ^ w0, 1)
        a = a &+ rotate(b, 5) &+ (c ^ d ^ e) &+ 0xCA62_C1D6 &+ w0; c = rotate(c, 30)
        w1 = rotate(w14 ^ w9 ^ w3 ^ w1, 1)
        e = e &+ rotate(a, 5) &+ (b ^ c ^ d) &+ 0xCA62_C1D6 &+ w1; b = rotate(b, 30)
        w2 = rotate(w15 ^ w10 ^ w4 ^ w2, 1)
        d = d &+ rotate(e, 5) &+ (a ^ b ^ c) &+ 0xCA62_C1D6 &+ w2; a = rotate(a, 30)
        w3 = rotate(w0 ^ w11 ^ w5 ^ w3, 1)
        c = c &+ rotate(d, 5) &+ (e ^ a ^ b) &+ 0xCA62_C1D6 &+ w3; e = rotate(e, 30)
        w4 = rotate(w1 ^ w12 ^ w6 ^ w4, 1)
        b = b &+ rotate(c, 5) &+ (d ^ e ^ a) &+ 0xCA62_C1D6 &+ w4; d = rotate(d, 30)
        w5 = rotate(w2 ^ w13 ^ w7 ^ w5, 1)
        a = a &+ rotate(b, 5) &+ (c ^ d ^ e) &+ 0xCA62_C1D6 &+ w5; c = rotate(c, 30)
        w6 = rotate(w3 ^ w14 ^ w8 ^ w6, 1)
        e = e &+ rotate(a, 5) &+ (b ^ c ^ d) &+ 0xCA62_C1D6 &+ w6; b = rotate(b, 30)
        w7 = rotate(w4 ^ w15 ^ w9 ^ w7, 1)
        d = d &+ rotate(e, 5) &+ (a ^ b ^ c) &+ 0xCA62_C1D6 &+ w7; a = rotate(a, 30)
        w8 = rotate(w5 ^ w0 ^ w10 ^ w8, 1)
        c = c &+ rotate(d, 5) &+ (e ^ a ^ b) &+ 0xCA62_C1D6 &+ w8; e = rotate(e, 30)
        w9 = rotate(w6 ^ w1 ^ w11 ^ w9, 1)
        b = b &+ rotate(c, 5) &+ (d ^ e ^ a) &+ 0xCA62_C1D6 &+ w9; d = rotate(d, 30)
        w10 = rotate(w7 ^ w2 ^ w12 ^ w10, 1)
        a = a &+ rotate(b, 5) &+ (c ^ d ^ e) &+ 0xCA62_C1D6 &+ w10; c = rotate(c, 30)
        w11 = rotate(w8 ^ w3 ^ w13 ^ w11, 1)
        e = e &+ rotate(a, 5) &+ (b ^ c ^ d) &+ 0xCA62_C1D6 &+ w11; b = rotate(b, 30)
        w12 = rotate(w9 ^ w4 ^ w14 ^ w12, 1)
        d = d &+ rotate(e, 5) &+ (a ^ b ^ c) &+ 0xCA62_C1D6 &+ w12; a = rotate(a, 30)
        w13 = rotate(w10 ^ w5 ^ w15 ^ w13, 1)
        c = c &+ rotate(d, 5) &+ (e ^ a ^ b) &+ 0xCA62_C1D6 &+ w13; e = rotate(e, 30)
        w14 = rotate(w11 ^ w6 ^ w0 ^ w14, 1)
        b = b &+ rotate(c, 5) &+ (d ^ e ^ a) &+ 0xCA62_C1D6 &+ w14; d = rotate(d, 30)
        w15 = rotate(w12 ^ w7 ^ w1 ^ w15, 1)
        a = a &+ rotate(b, 5) &+ (c ^ d ^ e) &+ 0xCA62_C1D6 &+ w15; c = rotate(c, 30)
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d, state.4 &+ e)
    }
}
