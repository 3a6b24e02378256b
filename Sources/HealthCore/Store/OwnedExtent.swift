#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A partition whose every byte one ``JSONFileStore`` instance wrote: it found the file empty (or made it) and no one
/// else appended since, and whether any line it wrote carries the mark of a Health Auto Export sample
/// (``HAESampleBuilder/aggregationKey``). After an Apple Health import the store looks for HAE samples the import now
/// covers (``JSONFileStore/supersedeHealthAutoExport(types:adding:)``): a file the import started and wrote alone,
/// without the mark, holds none, so the look skips it instead of reading back everything a first import wrote.
///
/// The file is the one described only while its device, inode and size are as recorded; a write by another process
/// (or instance) changes its size, and then the file is read as before.
struct OwnedExtent {
    var device: UInt64
    var inode: UInt64
    /// The file's size after this instance's last append.
    var length: Int
    /// Whether a line this instance wrote to it marks a Health Auto Export sample.
    var marksHAE: Bool

    /// The bytes a Health Auto Export sample's line holds (its metadata key).
    static let haeMark = Array(HAESampleBuilder.aggregationKey.utf8)

    /// Whether `file` is still this file: the same device and inode, and the size this instance left it at.
    func describes(_ file: String) -> Bool {
        var info = stat()
        guard stat(file, &info) == 0 else { return false }
        return UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode && Int(info.st_size) == length
    }
}
