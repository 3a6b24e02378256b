#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file or standard input through its descriptor, counting the bytes for progress reports.
final class FileByteReader: ByteReader {
    /// The name used in error messages (`export.zip`, `standard input`).
    let displayName: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    /// Bytes read so far.
    private(set) var bytesRead = 0

    /// Opens `path` for reading.
    ///
    /// - Throws: ``ImportError/cannotOpen(_:reason:)``.
    init(path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ImportError.cannotOpen(path, reason: ImportError.systemReason()) }
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw ImportError.cannotOpen(path, reason: "it is a folder; give the export.zip or export.xml inside it")
        }
        descriptor = fd
        ownsDescriptor = true
        displayName = path
    }

    /// Reads an already open descriptor (standard input is 0) without closing it.
    init(descriptor: Int32, displayName: String) {
        self.descriptor = descriptor
        ownsDescriptor = false
        self.displayName = displayName
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    /// The size of a regular file, or nil for a pipe.
    var size: Int? {
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            #if canImport(Glibc)
            let count = Glibc.read(descriptor, buffer.baseAddress!, buffer.count)
            #else
            let count = Darwin.read(descriptor, buffer.baseAddress!, buffer.count)
            #endif
            if count < 0 {
                if errno == EINTR { continue }
                throw ImportError.readFailed(displayName, reason: ImportError.systemReason())
            }
            bytesRead += count
            return count
        }
    }

    /// Reads `buffer.count` bytes at `offset` without moving the stream position; returns the count read.
    func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        var total = 0
        while total < buffer.count {
            let count = pread(descriptor, buffer.baseAddress! + total, buffer.count - total, off_t(offset + total))
            if count < 0 {
                if errno == EINTR { continue }
                throw ImportError.readFailed(displayName, reason: ImportError.systemReason())
            }
            if count == 0 { break }
            total += count
        }
        bytesRead += total
        return total
    }
}
