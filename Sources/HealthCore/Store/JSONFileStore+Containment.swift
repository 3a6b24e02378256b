#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
        for component in folders.split(separator: "/") where !component.isEmpty && component != "." {
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
                throw StoreError.unsafe(current, reason: "it is a symbolic link inside the store; hkctl never reads or "
                    + "writes through one (replace it with a real folder)")
            default:
                throw StoreError.notAFile(current, kind: POSIXFile.kindName(info.st_mode) + " where a folder belongs")
            }
        }
    }
}
