#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What tells one version of a store file from another without reading it: device, inode, size and modification
/// time to the nanosecond the file system keeps.
///
/// The store replaces whole files by an atomic rename (a new inode) and only appends otherwise (a new size and
/// modification time), so a file with the same identity holds the same bytes; what it cannot see is the same as for
/// the writers' validation marks (docs/STORE.md, "Corruption"): an edit in place that keeps the size within one tick
/// of the file system's clock, or a copy made to keep all four.
struct FileIdentity: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var seconds: Int64
    var nanoseconds: Int64

    /// The identity of the file `info` describes.
    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        let time = POSIXFile.modificationTime(info)
        seconds = time.seconds
        nanoseconds = time.nanoseconds
    }

    init(device: UInt64, inode: UInt64, size: Int64, seconds: Int64, nanoseconds: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    /// The stand-in identity of a file that does not exist (no real file has inode 0 and device 0 together).
    static let absent = FileIdentity(device: 0, inode: 0, size: -1, seconds: 0, nanoseconds: 0)

    /// The identity of the regular file at `path` (not followed if it is a symbolic link), ``absent`` when nothing is
    /// there, or nil when something other than a regular file is there or it cannot be looked at.
    static func of(_ path: String) -> FileIdentity? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return errno == ENOENT ? .absent : nil }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return FileIdentity(info)
    }
}
