#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TextSupport

/// One rule for every path the store opens: a file is reached only through real folders of the store, never
/// through a symbolic link, and only a regular file is read or written (``POSIXFile/openRegular(_:flags:mode:)``);
/// every file and folder on the way belongs to the store's owner, and only the owner can write to those folders.
extension JSONFileStore {
    /// The full path of `relative` (a file or folder inside the store), after checking that each folder on the way
    /// (`samples`, the type's folder, `recovered`, ...) is a real folder and not a symbolic link. Folders that do not
    /// exist yet pass (nothing can be opened through them); each folder found good is remembered for this instance.
    ///
    /// - Throws: ``StoreError/unsafe(_:reason:)`` for a symbolic link or a folder others can write to,
    ///   ``StoreError/foreignOwner(_:owner:storeOwner:)`` for another user's folder, ``StoreError/notAFile(_:kind:)``
    ///   for a file or other entry where a folder belongs.
    func storeFile(_ relative: String) throws -> String {
        var end = relative.utf8.count
        // Only the folders on the way are checked; the file itself is opened with O_NOFOLLOW.
        guard let slash = relative.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path + "/" + relative }
        end = relative.utf8.distance(from: relative.utf8.startIndex, to: slash)
        let folders = String(relative.utf8.prefix(end))!
        if !trustedFolders.withLock({ $0.contains(folders) }) {
            try checkFolders(folders)
        }
        return path + "/" + relative
    }

    /// Checks each component of `folders` (relative to the store) with `lstat`.
    private func checkFolders(_ folders: String) throws {
        var current = path
        var relative = ""
        for component in PathText.components(of: folders) where !component.isEmpty && component != "." {
            guard component != ".." else { throw StoreError.unsafe(path + "/" + folders, reason: "it leaves the store") }
            current += "/" + String(component)
            relative += (relative.isEmpty ? "" : "/") + String(component)
            if trustedFolders.withLock({ $0.contains(relative) }) { continue }
            var info = stat()
            guard lstat(current, &info) == 0 else {
                if errno == ENOENT { return }
                throw StoreError.readFailed(current, reason: POSIXFile.errorText())
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                try StoreSafety.checkEntry(current, info)
                trustedFolders.withLock { _ = $0.insert(relative) }
            case S_IFLNK:
                throw StoreError.unsafe(current, reason: "it is a symbolic link inside the store; the store never reads or "
                    + "writes through one (replace it with a real folder)")
            default:
                throw StoreError.notAFile(current, kind: POSIXFile.kindName(info.st_mode) + " where a folder belongs")
            }
        }
    }

    // MARK: - Paths inside the store

    /// Whether `path` names this store's folder or anything inside it, however it is spelled: relative to the working
    /// folder, with `.` and `..`, through symbolic links (on the way, or the path itself, whose final target counts),
    /// or through another name of the store folder (a link to it, a bind mount). Folders are compared by device and
    /// inode, never by name, so a file beside the store whose name starts like the store's is not inside it.
    ///
    /// A program that writes a file its user names while it reads the store (an export, a chart) checks this first, so
    /// that it never replaces the store's own files.
    ///
    /// - Parameter path: A file or folder path; it need not exist.
    /// - Returns: False when the store folder does not exist (there is nothing to replace).
    public func encloses(_ path: String) -> Bool {
        var info = stat()
        guard stat(self.path, &info) == 0 else { return false }
        return encloses(path, device: info.st_dev, inode: info.st_ino, links: 0)
    }

    /// ``encloses(_:)`` for the store folder with this device and inode; `links` counts the links followed by hand.
    private func encloses(_ path: String, device: dev_t, inode: ino_t, links: Int) -> Bool {
        func isInside(_ resolved: String?) -> Bool {
            guard var current = resolved else { return false }
            while true {
                var entry = stat()
                if stat(current, &entry) == 0 && entry.st_dev == device && entry.st_ino == inode { return true }
                let parent = PathText.parent(of: current)
                if parent.isEmpty || parent == current { return false }
                current = parent
            }
        }
        // Where the name lives (its folder), and where it finally leads when it exists (a link's target). A name that
        // ends in `.` or `..` is a folder: where it leads is all there is.
        let last = PathText.lastComponent(of: path), folder = PathText.parent(of: path)
        let nameFolder = last == "." || last == ".." ? nil : Self.resolved(folder.isEmpty ? "." : folder)
        if isInside(nameFolder) || isInside(Self.resolved(path)) { return true }
        // A link to nothing (yet): where it would lead. `realpath` resolves only links whose target exists.
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0, links < 40 else { return false }
        let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let base = nameFolder ?? (folder.isEmpty ? "." : folder)
        return encloses(target.hasPrefix("/") ? target : base + "/" + target, device: device, inode: inode, links: links + 1)
    }

    /// `path` with its longest existing beginning resolved by `realpath` (absolute, no links, no `.` or `..`) and the
    /// rest, which does not exist, appended as it is; nil when nothing of it resolves.
    private static func resolved(_ path: String) -> String? {
        var head = path.isEmpty ? "." : path
        var rest: [String] = []
        while true {
            if let real = realpath(head, nil) {
                let base = String(cString: real)
                free(real)
                let tail = rest.reversed().joined(separator: "/")
                return tail.isEmpty ? base : (base == "/" ? "/" : base + "/") + tail
            }
            let parent = PathText.parent(of: head)
            if parent == head || (parent.isEmpty && head == ".") { return nil }
            rest.append(PathText.lastComponent(of: head))
            head = parent.isEmpty ? "." : parent
        }
    }
}
