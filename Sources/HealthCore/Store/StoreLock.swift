#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An advisory `flock` on the store's `.lock` file: shared for readers, exclusive for writers.
final class StoreLock {
    private let fd: Int32

    private init(fd: Int32) { self.fd = fd }

    /// Takes the lock, polling until `timeout` seconds have passed.
    ///
    /// - Throws: ``StoreError/busy(_:waitedSeconds:holders:)`` after the timeout, naming the holders' process ids
    ///   when `/proc/locks` tells them.
    static func acquire(path: String, exclusive: Bool, timeout: TimeInterval, storePath: String) throws -> StoreLock {
        let fd = exclusive
            ? open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
            : open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw POSIXFile.openFailure(path, writing: exclusive) }
        let operation = (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB
        let started = Date()
        var pause: useconds_t = 1000
        while flock(fd, operation) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                let reason = POSIXFile.errorText()
                close(fd)
                throw StoreError.readFailed(path, reason: reason)
            }
            let waited = Date().timeIntervalSince(started)
            if waited >= timeout {
                close(fd)
                throw StoreError.busy(storePath, waitedSeconds: waited, holders: StoreSafety.lockHolders(of: path))
            }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
        return StoreLock(fd: fd)
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
