#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Random (version 4) UUIDs drawn from the system's entropy 256 bytes at a time. `UUID()` reads the system's random
/// source once per UUID (on Linux it opens, reads and closes `/dev/urandom` each time), which is most of the cost of
/// a sample when an import makes a million of them; these are as random, made sixteen per call.
final class RandomUUIDSource {
    private var bytes = [UInt8](repeating: 0, count: 256)
    private var used = 256

    /// The next UUID.
    func next() -> UUID {
        if used == bytes.count { refill() }
        defer { used += 16 }
        return bytes.withUnsafeBufferPointer { all in
            let u = UnsafeBufferPointer(rebasing: all[used..<used + 16])
            // Version 4 (random), variant 1 (RFC 4122), as UUID() makes them.
            return UUID(uuid: (u[0], u[1], u[2], u[3], u[4], u[5], (u[6] & 0x0F) | 0x40, u[7], (u[8] & 0x3F) | 0x80, u[9],
                               u[10], u[11], u[12], u[13], u[14], u[15]))
        }
    }

    private func refill() {
        let filled = bytes.withUnsafeMutableBytes { getentropy($0.baseAddress, $0.count) }
        if filled != 0 {
            // No entropy call (an old kernel): UUID() itself, sixteen times.
            for index in 0..<16 {
                let uuid = UUID().uuid
                withUnsafeBytes(of: uuid) { raw in
                    for offset in 0..<16 { bytes[index * 16 + offset] = raw[offset] }
                }
            }
        }
        used = 0
    }
}
