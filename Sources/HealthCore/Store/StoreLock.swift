#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TextSupport

/// An advisory `flock` on the store's `.lock` file: shared for readers, exclusive for writers.
final class StoreLock {
    private let fd: Int32
    /// The validation marks, once read during this hold.
    private var cachedMarks: ValidationMarks?

    private init(fd: Int32) { self.fd = fd }

    /// Takes the lock, polling until `timeout` seconds have passed.
    ///
    /// - Throws: ``StoreError/busy(_:waitedSeconds:holders:)`` after the timeout, naming the holders' process ids
    ///   when `/proc/locks` tells them.
    static func acquire(path: String, exclusive: Bool, timeout: TimeInterval, storePath: String) throws -> StoreLock {
        guard let (fd, _) = try POSIXFile.openRegular(path, flags: exclusive ? O_RDWR | O_CREAT : O_RDONLY) else {
            throw POSIXFile.openFailure(path, writing: exclusive, code: ENOENT)
        }
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

    /// The highest change number a writer handed out, as the lock file records it (see ``recordHighestChangeNumber(_:)``);
    /// nil when the file holds none (a store written before this record, or a lock file a crash left empty).
    func highestChangeNumber() -> UInt64? {
        var bytes = [UInt8](repeating: 0, count: 32)
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, 32, 0) }
        guard count > 0 else { return nil }
        let text = String(decoding: bytes[0..<count], as: UTF8.self).trimmingSpacesAndNewlines()
        guard let value = UInt64(text), value <= ChangeNumbers.maximum else { return nil }
        return value
    }

    /// Writes the highest change number handed out into the lock file (held exclusively), a second record beside the
    /// `sequence` counter: a counter replaced by an older copy is then caught before it hands out a number twice. It
    /// is not synced: after a power loss it can only be behind the counter, which is synced first.
    func recordHighestChangeNumber(_ value: UInt64) {
        let digits = Array(String(value).utf8)
        let text = [UInt8](repeating: UInt8(ascii: "0"), count: max(0, 20 - digits.count)) + digits + [0x0A]
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress!, $0.count, 0) }
    }

    /// The partitions' validation marks the lock file holds (see ``ValidationMarks``), read once per hold of the lock.
    func validationMarks() -> ValidationMarks {
        if let cachedMarks { return cachedMarks }
        var info = stat()
        let length = fstat(fd, &info) == 0 ? min(Int(info.st_size) - ValidationMarks.offset, ValidationMarks.maximumBytes) : 0
        guard length > 0 else {
            cachedMarks = ValidationMarks()
            return ValidationMarks()
        }
        var bytes = [UInt8](repeating: 0, count: length)
        let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, off_t(ValidationMarks.offset)) }
        let marks = count > 0 ? ValidationMarks(bytes: Array(bytes[0..<count])) : ValidationMarks()
        cachedMarks = marks
        return marks
    }

    /// Writes `marks` into the lock file (held exclusively), after the highest change number and spaces that pad it
    /// to ``ValidationMarks/offset`` (its readers read 32 bytes and trim them). Not synced: a cache.
    func recordValidationMarks(_ marks: ValidationMarks) {
        cachedMarks = marks
        var size = stat()
        let before = fstat(fd, &size) == 0 ? Int(size.st_size) : Int.max
        if before < ValidationMarks.offset {
            // The padding after the 21 bytes of the highest change number (or an empty file's room for it).
            let start = min(before, 21)
            let padding = [UInt8](repeating: 0x20, count: ValidationMarks.offset - start)
            _ = padding.withUnsafeBytes { pwrite(fd, $0.baseAddress!, $0.count, off_t(start)) }
        }
        let bytes = marks.bytes
        let written = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress!, $0.count, off_t(ValidationMarks.offset)) }
        // Cut off what an older, longer text left beyond the new one (the marks end with an empty line either way).
        if written == bytes.count, before > ValidationMarks.offset + bytes.count {
            _ = ftruncate(fd, off_t(ValidationMarks.offset + bytes.count))
        }
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
