#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TextSupport

/// Thin wrappers over the POSIX calls the on-disk store needs (open, append, fsync, flock, rename).
enum POSIXFile {
    static func errorText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }

    /// A file's modification time from its `stat`, in seconds and nanoseconds (the field's name differs by system).
    static func modificationTime(_ info: stat) -> (seconds: Int64, nanoseconds: Int64) {
        #if canImport(Darwin)
        let time = info.st_mtimespec
        #else
        let time = info.st_mtim
        #endif
        return (Int64(time.tv_sec), Int64(time.tv_nsec))
    }

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    static func size(_ path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : nil
    }

    /// Creates `path` and missing parents with mode 0700, syncing each new folder's parent.
    static func makeDirectories(_ path: String) throws {
        // One `stat` answers both questions: with two calls, another process creating the folder in between
        // made a folder look like a file.
        var info = stat()
        if stat(path, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR { return }
            throw StoreError.cannotCreate(path, reason: "it is a file, not a folder")
        }
        let parent = PathText.parent(of: path)
        if !parent.isEmpty, parent != path { try makeDirectories(parent) }
        if mkdir(path, 0o700) != 0 {
            if errno == EEXIST && isDirectory(path) { return }
            throw StoreError.cannotCreate(path, reason: errorText())
        }
        chmod(path, 0o700)
        syncDirectory(parent.isEmpty ? "." : parent)
    }

    /// Flushes a folder's entries (new, renamed or removed files) to disk, or throws when it cannot. A file system
    /// that cannot sync folders at all (`EINVAL`) keeps the entries as durable as it makes them.
    static func syncFolder(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw openFailure(path, writing: false) }
        defer { close(fd) }
        if fsync(fd) != 0 && errno != EINVAL { throw StoreError.writeFailed(path, reason: errorText()) }
    }

    /// Flushes a folder's entries to disk as well as it can, where a failure changes nothing for the caller.
    static func syncDirectory(_ path: String) {
        _ = try? syncFolder(path)
    }

    /// The error for a failed `open` inside the store; a symbolic link (refused by `O_NOFOLLOW`) is named as such.
    static func openFailure(_ path: String, writing: Bool, code: Int32 = errno) -> StoreError {
        if code == ELOOP || code == EMLINK {
            return StoreError.unsafe(path, reason: "it is a symbolic link inside the store; the store never follows one "
                + "(replace it with the file it points to)")
        }
        if code == EEXIST { return StoreError.writeFailed(path, reason: "it appeared while the store was creating it") }
        return writing ? StoreError.writeFailed(path, reason: errorText(code)) : StoreError.readFailed(path, reason: errorText(code))
    }

    /// Opens a file of the store the one safe way: never through a symbolic link, never blocking (a FIFO planted in
    /// its place would otherwise hang the open or the first read forever), only when it is a regular file, and only
    /// when it belongs to the store's owner (a file another user planted is never read, appended to or finished).
    ///
    /// - Parameters:
    ///   - flags: `O_RDONLY`, `O_WRONLY`, `O_RDWR`, with `O_APPEND`, `O_CREAT`, `O_EXCL` as needed.
    ///   - mode: The mode of a file `O_CREAT` creates.
    /// - Returns: The descriptor and the file's status; nil when the file does not exist and `flags` do not create it.
    /// - Throws: ``StoreError/notAFile(_:kind:)`` for a FIFO, device, socket or folder; ``StoreError/unsafe(_:reason:)``
    ///   for a symbolic link; ``StoreError/foreignOwner(_:owner:storeOwner:)`` for another user's file; read or write
    ///   failures.
    /// - Note: The message of ``StoreError/notAFile(_:kind:)`` reads "'path' is KIND, not a regular file".
    static func openRegular(_ path: String, flags: Int32, mode: mode_t = 0o600) throws -> (fd: Int32, info: stat)? {
        let writing = flags & (O_WRONLY | O_RDWR) != 0
        let fd = open(path, flags | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, mode)
        if fd < 0 {
            let code = errno
            if code == ENOENT && flags & O_CREAT == 0 { return nil }
            // A FIFO opened for writing without a reader, and a folder opened for writing.
            if code == ENXIO { throw StoreError.notAFile(path, kind: "a FIFO (named pipe), not a regular file") }
            if code == EISDIR { throw StoreError.notAFile(path, kind: "a folder, not a regular file") }
            throw openFailure(path, writing: writing, code: code)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = errorText()
            close(fd)
            throw StoreError.readFailed(path, reason: reason)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw StoreError.notAFile(path, kind: kindName(info.st_mode) + ", not a regular file")
        }
        do {
            try StoreSafety.checkEntry(path, info)
        } catch {
            close(fd)
            throw error
        }
        return (fd, info)
    }

    /// What a file that is not a regular file is, in words.
    static func kindName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        case S_IFDIR: return "a folder"
        case S_IFLNK: return "a symbolic link"
        case S_IFREG: return "a file"
        default: return "something other than a regular file"
        }
    }

    /// Opens a file for appending, creating it with mode 0600. Returns the descriptor, whether it was created, and
    /// its length before anything is appended.
    static func openForAppend(_ path: String) throws -> (fd: Int32, created: Bool, length: Int) {
        if let (fd, info) = try openRegular(path, flags: O_WRONLY | O_APPEND) { return (fd, false, Int(info.st_size)) }
        guard let (fd, _) = try openRegular(path, flags: O_WRONLY | O_APPEND | O_CREAT | O_EXCL) else {
            throw openFailure(path, writing: true, code: ENOENT)
        }
        return (fd, true, 0)
    }

    /// Writes all bytes, retrying short writes.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], path: String) throws {
        try bytes.withUnsafeBytes { try writeAll(fd, $0, path: path) }
    }

    /// Writes all of `bytes`, retrying short writes.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, path: String) throws {
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw StoreError.writeFailed(path, reason: errorText())
            }
            offset += written
        }
    }

    static func sync(_ fd: Int32, path: String) throws {
        if fsync(fd) != 0 { throw StoreError.writeFailed(path, reason: errorText()) }
    }

    /// Writes a small file atomically: a temporary file, fsync, rename over the target, fsync of the folder.
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        try bytes.withUnsafeBytes { try writeAtomically(pieces: [$0], to: path) }
    }

    /// Writes `pieces` one after the other as the new content of `path`, atomically (see the `[UInt8]` form).
    static func writeAtomically(pieces: [UnsafeRawBufferPointer], to path: String) throws {
        let temporary = path + ".tmp-\(getpid())"
        // A temporary file left by a crashed process with the same id is removed (a link there is removed, never
        // followed); the new one is created exclusively.
        unlink(temporary)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw openFailure(path, writing: true) }
        do {
            for piece in pieces where piece.count > 0 { try writeAll(fd, piece, path: temporary) }
            try sync(fd, path: temporary)
            close(fd)
        } catch {
            close(fd)
            unlink(temporary)
            throw error
        }
        guard rename(temporary, path) == 0 else {
            let reason = errorText()
            unlink(temporary)
            throw StoreError.writeFailed(path, reason: reason)
        }
        syncDirectory(PathText.parent(of: path))
    }

    /// Reads what is there of `buffer`'s length from `fd` (again after an interruption): the count, 0 at the end.
    ///
    /// - Throws: ``StoreError/readFailed(_:reason:)`` naming `path`.
    static func readSome(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, path: String) throws -> Int {
        while true {
            let count = read(fd, buffer.baseAddress!, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { throw StoreError.readFailed(path, reason: errorText()) }
        }
    }

    /// Reads a whole file; nil when it does not exist. Inside the store a symbolic link is refused unless
    /// `followLinks` is set (for system files such as `/proc/locks`).
    static func readFile(_ path: String, limit: Int? = nil, followLinks: Bool = false) throws -> [UInt8]? {
        let fd: Int32
        var size: Int?
        if followLinks {
            fd = open(path, O_RDONLY | O_CLOEXEC)
            if fd < 0 {
                if errno == ENOENT { return nil }
                throw openFailure(path, writing: false)
            }
        } else {
            guard let (opened, info) = try openRegular(path, flags: O_RDONLY) else { return nil }
            fd = opened
            size = Int(info.st_size)
        }
        defer { close(fd) }
        return try readAll(fd, path: path, sizeHint: size, limit: limit)
    }

    /// Reads `fd` from where it stands to its end (at most `limit` bytes), for ``readFile(_:limit:followLinks:)``.
    ///
    /// - Parameter sizeHint: The file's size when the caller has it from `fstat` already (nil: looked up here).
    /// - Throws: ``StoreError/readFailed(_:reason:)`` naming `path`.
    static func readAll(_ fd: Int32, path: String, sizeHint: Int? = nil, limit: Int? = nil) throws -> [UInt8] {
        // Read straight into arrays sized from the file's length (no zero-filled scratch buffer): one read for
        // the data and one that finds the end, unless the file grows meanwhile.
        var chunk: Int
        if let sizeHint {
            chunk = max(sizeHint + 1, 4096)
        } else {
            var info = stat()
            chunk = fstat(fd, &info) == 0 ? max(Int(info.st_size) + 1, 4096) : 1 << 16
        }
        var result: [UInt8] = []
        while true {
            let wanted = min(chunk, (limit ?? Int.max) - result.count)
            if wanted <= 0 { break }
            var count = 0
            let piece = [UInt8](unsafeUninitializedCapacity: wanted) { buffer, initialized in
                repeat { count = read(fd, buffer.baseAddress!, wanted) } while count < 0 && errno == EINTR
                initialized = max(count, 0)
            }
            if count < 0 { throw StoreError.readFailed(path, reason: errorText()) }
            if count == 0 { break }
            if result.isEmpty { result = piece } else { result += piece }
            chunk = max(chunk, 1 << 16)
        }
        return result
    }

    /// Cuts a file (never through a symbolic link) back to `length` bytes and syncs it.
    static func truncate(_ path: String, to length: Int) throws {
        guard let (fd, _) = try openRegular(path, flags: O_WRONLY) else { throw openFailure(path, writing: true, code: ENOENT) }
        defer { close(fd) }
        if ftruncate(fd, off_t(length)) != 0 { throw StoreError.writeFailed(path, reason: errorText()) }
        try sync(fd, path: path)
    }
}
