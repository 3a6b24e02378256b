#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The owner's decisions as a ``HealthStore`` last read them from the store, read again whenever the file changed
/// (another process granted, denied or revoked), so a store opened before a decision sees it at its next call.
final class AuthorizationRecord: @unchecked Sendable {
    /// The file in the store that holds the decisions; only ``HealthStore`` and the owner's API change it.
    static let fileName = "authorization.json"

    /// What identifies one version of the file: an atomic rewrite gives it a new inode.
    private struct Stamp: Equatable {
        var device: UInt64, inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int
    }

    private let lock = Lock()
    private var state = AuthorizationState()
    private var stamp: Stamp?
    private var read = false

    /// The decisions now: the copy in memory, or the file again when it changed since.
    ///
    /// - Throws: ``StoreError`` when the file exists but cannot be read or is not a valid document.
    func current(in storage: JSONFileStore) throws -> AuthorizationState {
        let now = Self.stamp(of: storage.path + "/" + Self.fileName)
        lock.lock()
        defer { lock.unlock() }
        if read && now == stamp { return state }
        state = try storage.privateDocument(Self.fileName, default: AuthorizationState())
        stamp = now
        read = true
        return state
    }

    private static func stamp(of path: String) -> Stamp? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        let time = POSIXFile.modificationTime(info)
        return Stamp(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                     seconds: Int(time.seconds), nanoseconds: Int(time.nanoseconds))
    }
}
