#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TextSupport

/// Checks that keep the library from reading or writing a store it should not trust: a store folder owned by another
/// user or writable by others, a symbolic link loop, symbolic links inside the store (which could point writes out
/// of it), and files or folders inside it that another user made (planted while the folder was open to others).
enum StoreSafety {
    /// Checks the store folder itself (the path may be a symbolic link to a folder: that is the user's choice).
    ///
    /// - Throws: ``StoreError/unsafe(_:reason:)`` for a loop, a folder owned by another user or a folder others can
    ///   write to (its group or anyone, with or without the sticky bit); ``StoreError/notAFolder(_:)`` for a file.
    static func checkStoreFolder(_ path: String, userID: uid_t = geteuid()) throws {
        var info = stat()
        if stat(path, &info) != 0 {
            if errno == ELOOP { throw StoreError.unsafe(path, reason: "it is a loop of symbolic links") }
            if errno == ENOENT {
                var link = stat()
                guard lstat(path, &link) == 0 else { return }
                if (link.st_mode & S_IFMT) == S_IFLNK {
                    throw StoreError.unsafe(path, reason: "it is a symbolic link to nothing")
                }
                // Another process created the store between the two looks: check what is there now.
                return try checkStoreFolder(path, userID: userID)
            }
            if errno == ENOTDIR { throw StoreError.notAFolder(path) }
            throw StoreError.readFailed(path, reason: POSIXFile.errorText())
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw StoreError.notAFolder(path) }
        if info.st_uid != userID {
            throw StoreError.unsafe(path, reason: "it belongs to user id \(info.st_uid), not to you (user id \(userID)); "
                + "open it as its owner, or give it to yourself with chown")
        }
        if let reason = othersCanWrite(path, mode: info.st_mode) { throw StoreError.unsafe(path, reason: reason) }
    }

    /// Why a folder of the store with `mode` is not private enough to use, or nil when only its owner can write to it.
    ///
    /// Another user who can write to a folder of the store can create the store files that do not exist yet (a
    /// journal the next write would finish, a quarantine file a repair would fill), and without the sticky bit
    /// remove or replace the others; the sticky bit does not stop the first.
    static func othersCanWrite(_ path: String, mode: mode_t) -> String? {
        guard mode & (S_IWGRP | S_IWOTH) != 0 else { return nil }
        let who = mode & S_IWOTH != 0 ? "anyone can write to it" : "the members of its group can write to it"
        return "\(who) (mode \(String(mode & 0o7777, radix: 8))), so another user could add store files to it; "
            + "run: chmod 700 \(ShellQuoting.quote(path))"
    }

    /// Checks a file or folder found inside the store (`info` from `lstat` or `fstat`): it must belong to the store's
    /// owner (this process's effective user, which ``checkStoreFolder(_:userID:)`` requires of the store folder), and
    /// a folder must be writable by its owner alone.
    ///
    /// - Throws: ``StoreError/foreignOwner(_:owner:storeOwner:)``, ``StoreError/unsafe(_:reason:)``.
    static func checkEntry(_ path: String, _ info: stat, userID: uid_t = geteuid()) throws {
        if info.st_uid != userID {
            throw StoreError.foreignOwner(path, owner: UInt32(info.st_uid), storeOwner: UInt32(userID))
        }
        if (info.st_mode & S_IFMT) == S_IFDIR, let reason = othersCanWrite(path, mode: info.st_mode) {
            throw StoreError.unsafe(path, reason: reason)
        }
    }

    /// Creates the folders of `relative` (a folder path inside the store) that are missing, refusing any
    /// component that is a symbolic link or not a folder. New folders get mode 0700 and a synced parent.
    ///
    /// - Returns: The folders created (full paths), outermost first.
    @discardableResult
    static func makeFolders(_ relative: String, inStore store: String) throws -> [String] {
        var created: [String] = []
        var current = store
        for component in PathText.components(of: relative) where !component.isEmpty && component != "." {
            guard component != ".." else { throw StoreError.unsafe(store + "/" + relative, reason: "it leaves the store") }
            let parent = current
            // `String(component)`: appending a Substring calls the standard library's unspecialised generic code,
            // whose first call costs a command a runtime lookup (see StringJoining.swift).
            current += "/" + String(component)
            var info = stat()
            if lstat(current, &info) == 0 {
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    try checkEntry(current, info)
                    continue
                case S_IFLNK:
                    throw StoreError.unsafe(current, reason: "it is a symbolic link inside the store; the store never writes "
                        + "through one (replace it with a real folder)")
                default:
                    throw StoreError.cannotCreate(current, reason: "it is a file, not a folder")
                }
            }
            if mkdir(current, 0o700) != 0 {
                if errno == EEXIST, lstat(current, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
                    try checkEntry(current, info)
                    continue
                }
                throw StoreError.cannotCreate(current, reason: POSIXFile.errorText())
            }
            created.append(current)
            POSIXFile.syncDirectory(parent)
        }
        return created
    }

    /// The ids of the processes holding a lock on `path` (from `/proc/locks` on Linux; empty when unknown).
    static func lockHolders(of path: String) -> [Int32] {
        var info = stat()
        guard stat(path, &info) == 0, let table = try? POSIXFile.readFile("/proc/locks", followLinks: true) else { return [] }
        let major = (UInt64(info.st_dev) >> 8) & 0xfff | (UInt64(info.st_dev) >> 32) & ~0xfff
        let minor = UInt64(info.st_dev) & 0xff | (UInt64(info.st_dev) >> 12) & ~0xff
        let wanted = NumberFormatting.zeroPadded(major, width: 2, radix: 16) + ":" + NumberFormatting.zeroPadded(minor, width: 2, radix: 16)
            + ":" + String(UInt64(info.st_ino))
        var holders: [Int32] = []
        for line in String(decoding: table, as: UTF8.self).split(separator: "\n") {
            // "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF"; waiters have "->" after the number.
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] != "->", fields[5] == wanted, let pid = Int32(fields[4]),
                  pid != getpid(), !holders.contains(pid) else { continue }
            holders.append(pid)
        }
        return holders
    }
}
