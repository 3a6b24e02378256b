#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthCore
import TextSupport

/// A file the user named for output (`export --out`, `chart --svg`), opened by the one rule every such command
/// follows: what is at the path is never destroyed.
///
/// - Nothing at the path: a new file, written under a temporary name in the same folder and renamed into place when
///   complete, created with mode 0600 (health data is private).
/// - A regular file: replaced the same way, keeping its permission bits (and, where the system allows, its owner and
///   group).
/// - A symbolic link: followed, never replaced. When it leads to a regular file, that file (the link's final target)
///   is replaced atomically with the temporary file in the target's folder, and the link stays a link; a device or a
///   FIFO at the end is written in place. A link to nothing (dangling) or a link loop is refused.
/// - A device or a FIFO (`/dev/null`, `/dev/stdout`, a named pipe): opened and written in place, as the shell's `>`
///   does; renaming a file over it would replace the device.
/// - A folder or a socket: refused.
///
/// The temporary file is removed on every failure (and when the output is dropped without ``commit()``).
final class OutputFile {
    /// The descriptor to write to.
    let descriptor: Int32
    /// The path as the user named it, for messages.
    let name: String
    /// The file renamed into place by ``commit()``, and the temporary name written meanwhile; nil in place.
    private let replacement: (target: String, temporary: String)?
    private var done = false

    /// Opens `path` by the rule above.
    ///
    /// - Throws: ``ExportError/cannotCreate(_:reason:)``, ``ExportError/danglingLink(_:target:)``,
    ///   ``ExportError/linkLoop(_:)`` or ``ExportError/isFolder(_:)``; nothing is created then.
    init(path: String) throws {
        name = path
        var link = stat()
        guard lstat(path, &link) == 0 else {
            guard errno == ENOENT else { throw ExportError.cannotCreate(path, reason: OutputFile.reason()) }
            (descriptor, replacement) = try OutputFile.openTemporary(for: path, name: path, keeping: nil)
            return
        }
        let isLink = (link.st_mode & S_IFMT) == S_IFLNK
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if isLink && code == ELOOP { throw ExportError.linkLoop(path) }
            if isLink && code == ENOENT { throw ExportError.danglingLink(path, target: OutputFile.linkText(path)) }
            throw ExportError.cannotCreate(path, reason: OutputFile.reason(code))
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            throw ExportError.isFolder(path)
        case S_IFREG:
            var target = path
            if isLink {
                guard let resolved = realpath(path, nil) else {
                    throw ExportError.cannotCreate(path, reason: OutputFile.reason())
                }
                target = String(cString: resolved)
                free(resolved)
            }
            (descriptor, replacement) = try OutputFile.openTemporary(for: target, name: path, keeping: info)
        case S_IFIFO, S_IFCHR, S_IFBLK:
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw ExportError.cannotCreate(path, reason: OutputFile.reason()) }
            descriptor = fd
            replacement = nil
        default:
            throw ExportError.cannotCreate(path, reason: "it is a socket, not a file")
        }
    }

    deinit {
        close(descriptor)
        if let replacement, !done { unlink(replacement.temporary) }
    }

    /// Makes the output final: a replacement is synced and renamed onto its target (then the folder is synced); a
    /// device or FIFO needs nothing more.
    ///
    /// - Throws: ``ExportError/writeFailed(_:reason:)`` or ``ExportError/cannotCreate(_:reason:)``; the temporary
    ///   file is removed and the target left as it was.
    func commit() throws {
        guard let replacement, !done else { return }
        guard fsync(descriptor) == 0 else { throw ExportError.writeFailed(name, reason: OutputFile.reason()) }
        guard rename(replacement.temporary, replacement.target) == 0 else {
            throw ExportError.cannotCreate(name, reason: OutputFile.reason())
        }
        done = true
        OutputFile.syncFolder(OutputFile.folder(of: replacement.target))
    }

    /// Creates the temporary file for `target` in its folder, with the permission bits (and owner) of `existing`, or
    /// 0600 for a new file.
    private static func openTemporary(for target: String, name: String,
                                      keeping existing: stat?) throws -> (Int32, (target: String, temporary: String)) {
        let temporary = target + ".hkctl-partial-\(getpid())"
        // Created exclusively and never through a link; a leftover of a crashed process with the same id goes first.
        var fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        if fd < 0 && errno == EEXIST && unlink(temporary) == 0 {
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        }
        guard fd >= 0 else { throw ExportError.cannotCreate(name, reason: reason()) }
        if let existing {
            if existing.st_uid != geteuid() || existing.st_gid != getegid() {
                _ = fchown(fd, existing.st_uid, existing.st_gid)  // as far as the system allows
            }
            guard fchmod(fd, existing.st_mode & 0o777) == 0 else {
                let text = reason()
                close(fd)
                unlink(temporary)
                throw ExportError.cannotCreate(name, reason: text)
            }
        }
        return (fd, (target, temporary))
    }

    /// Flushes the folder's entries (the rename) to disk as well as the file system allows; a failure changes nothing
    /// for the output, which is complete either way.
    private static func syncFolder(_ path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        close(fd)
    }

    private static func folder(of path: String) -> String {
        let parent = PathText.parent(of: path)
        return parent.isEmpty ? "." : parent
    }

    /// What a symbolic link holds, for messages.
    private static func linkText(_ path: String) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return "?" }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func reason(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }
}
