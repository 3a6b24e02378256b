#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Random (version 4) UUIDs drawn from the system's random source a pool at a time. `UUID()` reads the system's
/// random source once per UUID (on Linux it opens, reads and closes `/dev/urandom` each time), which is most of the
/// cost of a sample when an import makes a million of them; these are as random, made many per call.
///
/// The pool starts at 256 bytes (16 UUIDs, what a small push needs, from one `getentropy` call) and doubles on each
/// refill up to ``largestPool`` (1,024 UUIDs a call; on Linux one `read` of `/dev/urandom`, else `getentropy` 256
/// bytes at a time). Every byte is handed out once: a used UUID's bytes are never given again,
/// and a process forked while a pool is half used draws a fresh pool in the child (``forkGeneration``), so parent and
/// child never hand out the same UUID. A source is not `Sendable`: one thread uses it.
final class RandomUUIDSource {
    /// The largest pool, in bytes: 16 KiB, 1,024 UUIDs per call into the kernel.
    static let largestPool = 16_384
    /// The pool's memory, ``largestPool`` bytes; the first `size` of them are the current pool. Raw memory rather
    /// than an array: a class's array read in a closure costs a run-time exclusivity check per UUID.
    private let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: RandomUUIDSource.largestPool)
    private var size = 256
    private var used = 256
    /// The fork generation the pool was drawn in.
    private var generation = RandomUUIDSource.forkGeneration
    /// Calls into the system's random source so far (for tests).
    private(set) var refills = 0

    /// The next UUID.
    func next() -> UUID {
        if used == size || generation != RandomUUIDSource.forkGeneration { refill() }
        let u = storage + used
        used += 16
        // Version 4 (random), variant 1 (RFC 4122), as UUID() makes them.
        return UUID(uuid: (u[0], u[1], u[2], u[3], u[4], u[5], (u[6] & 0x0F) | 0x40, u[7], (u[8] & 0x3F) | 0x80, u[9],
                           u[10], u[11], u[12], u[13], u[14], u[15]))
    }

    private func refill() {
        if refills > 0, size < RandomUUIDSource.largestPool { size *= 2 }
        refills += 1
        generation = RandomUUIDSource.forkGeneration
        let pool = UnsafeMutableRawBufferPointer(start: storage, count: size)
        if !fill(pool) {
            // No random source (an old kernel): UUID() itself, once per UUID.
            for index in 0..<size / 16 {
                withUnsafeBytes(of: UUID().uuid) { raw in
                    for offset in 0..<16 { storage[index * 16 + offset] = raw[offset] }
                }
            }
        }
        used = 0
    }

    #if canImport(Glibc)
    /// `/dev/urandom`, opened for the second pool (a small push never needs it); -1 before, or when it cannot be.
    private var device: Int32 = -1
    private var triedDevice = false
    #endif

    deinit {
        #if canImport(Glibc)
        if device >= 0 { close(device) }
        #endif
        storage.deallocate()
    }

    /// Fills `buffer` from the system's random source; false if it cannot.
    private func fill(_ buffer: UnsafeMutableRawBufferPointer) -> Bool {
        #if canImport(Glibc)
        // getentropy(3) gives at most 256 bytes a call; a larger pool is one read of the kernel's random device,
        // the same source (the getrandom(2) pool once it is ready, which it is long before a user's import).
        if buffer.count > 256 {
            if !triedDevice {
                triedDevice = true
                device = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
            }
            if device >= 0 {
                var offset = 0
                while offset < buffer.count {
                    let got = read(device, buffer.baseAddress! + offset, buffer.count - offset)
                    if got > 0 {
                        offset += got
                    } else if got < 0 && errno == EINTR {
                        continue
                    } else {
                        break
                    }
                }
                if offset == buffer.count { return true }
            }
        }
        #endif
        var offset = 0
        while offset < buffer.count {
            let chunk = min(256, buffer.count - offset)
            guard getentropy(buffer.baseAddress! + offset, chunk) == 0 else { return false }
            offset += chunk
        }
        return true
    }

    /// Counts the forks this process is the child of (its `pthread_atfork` child handler bumps it), so a pool drawn
    /// before a fork is not used after it.
    nonisolated(unsafe) static var forkGeneration: UInt64 = {
        pthread_atfork(nil, nil) { RandomUUIDSource.forkGeneration &+= 1 }
        return 0
    }()
}
