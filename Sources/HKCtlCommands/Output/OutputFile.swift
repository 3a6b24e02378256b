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
/// - A device or a FIFO (`/dev/null`, a named pipe): opened and written in place, as the shell's `>` does; renaming a
///   file over it would replace the device.
/// - A name of one of this process's own descriptors (`/dev/stdout`, `/dev/stderr`, `/dev/stdin`, `/dev/fd/N`,
///   `/proc/self/fd/N`, `/proc/<own pid>/fd/N`): written in place through that descriptor, at its offset and with its
///   flags, as the shell does, so `>> log` appends and `{ echo header; hkctl ...; } > f` keeps the header. (On Linux
///   these names are links to the file behind the descriptor; following one would replace that file.) A descriptor
///   that is not open, or open only for reading, is refused.
/// - A folder or a socket: refused; so is any path inside the store being read (see ``init(path:outside:)``).
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
    /// - Parameters:
    ///   - path: The path the user named.
    ///   - store: The store the command reads: a path inside it (``JSONFileStore/encloses(_:)``) is refused.
    /// - Throws: ``ExportError/cannotCreate(_:reason:)``, ``ExportError/danglingLink(_:target:)``,
    ///   ``ExportError/linkLoop(_:)``, ``ExportError/isFolder(_:)``, ``ExportError/insideStore(_:store:)`` or
    ///   ``ExportError/unusableDescriptor(_:descriptor:reason:)``; nothing is created then.
    init(path: String, outside store: JSONFileStore?) throws {
        name = path
        if let number = OutputFile.descriptorNamed(by: path) {
            descriptor = try OutputFile.duplicate(number, named: path)
            replacement = nil
            return
        }
        if let store, store.encloses(path) { throw ExportError.insideStore(path, store: store.path) }
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

    /// The descriptor `path` names when it is one of this process's own: `/dev/stdin`, `/dev/stdout`, `/dev/stderr`,
    /// `/dev/fd/N`, `/proc/self/fd/N`, `/proc/thread-self/fd/N` or `/proc/<this pid>/fd/N`, however many slashes, `.`
    /// and `..` it is spelled with; nil for any other path.
    static func descriptorNamed(by path: String) -> Int32? {
        guard path.hasPrefix("/") else { return nil }
        var components: [Substring] = []
        for component in path.split(separator: "/") where component != "." {
            if component == ".." { _ = components.popLast() } else { components.append(component) }
        }
        func number(_ text: Substring) -> Int32? {
            guard !text.isEmpty, text.utf8.count <= 9, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return Int32(text)
        }
        switch components.count {
        case 2 where components[0] == "dev":
            return ["stdin": 0, "stdout": 1, "stderr": 2][String(components[1])]
        case 3 where components[0] == "dev" && components[1] == "fd":
            return number(components[2])
        case 4 where components[0] == "proc" && components[2] == "fd":
            let process = components[1]
            guard process == "self" || process == "thread-self" || number(process) == getpid() else { return nil }
            return number(components[3])
        default:
            return nil
        }
    }

    /// A copy of descriptor `number` (closed with this output, leaving the original open), once it is known to be open
    /// for writing.
    private static func duplicate(_ number: Int32, named path: String) throws -> Int32 {
        let flags = fcntl(number, F_GETFL)
        guard flags >= 0 else { throw ExportError.unusableDescriptor(path, descriptor: number, reason: "not open") }
        guard flags & O_ACCMODE != O_RDONLY else {
            throw ExportError.unusableDescriptor(path, descriptor: number, reason: "open for reading only")
        }
        let copy = fcntl(number, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else { throw ExportError.cannotCreate(path, reason: reason()) }
        return copy
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
