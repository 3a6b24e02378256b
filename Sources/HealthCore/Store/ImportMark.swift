#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The mark an import of an Apple Health export leaves in the store while it runs: a file in `importing/` holding the
/// last change number before it started, locked (`flock`) for as long as its process runs the import, and removed at
/// its end (or, when it stops with an error having written nothing, then too). It is written under a dot name and
/// renamed into place once it holds its number and is durable, so a mark is never seen empty.
///
/// A mark whose lock can be taken belongs to an import that stopped before its end (killed, or failed part-way): the
/// records it wrote were never decided against the correlations with sync keys its export held (a food entry's older
/// version is decided at the end). The next import of an export takes such marks over (``StoppedImports``, locked
/// until that import ends, so no other import takes them too): it decides the records of the types a correlation may
/// hold that were written since the earliest of them as its own additions
/// (``JSONFileStore/memberRecords(writtenAfter:)``), and removes the marks at its own end. An undo of the stopped
/// import removes its mark too (``JSONFileStore/removeMark(ofUndoneImport:)``).
final class ImportMark {
    /// The store's folder of marks.
    static let folder = "importing"

    private let fd: Int32
    private let path: String
    private let folderPath: String
    /// The last change number before the import started: what it writes comes after.
    let number: UInt64
    /// The marks of stopped imports this import took over, locked until it ends.
    private let takenOver: StoppedImports
    private var removed = false

    /// Leaves a mark in `store` (which must exist) for an import that starts now, taking over the marks in `stopped`.
    init(in store: JSONFileStore, takingOver stopped: StoppedImports) throws {
        folderPath = store.path + "/" + Self.folder
        number = try store.currentSequence()
        let name = UUID().uuidString
        path = folderPath + "/" + name
        takenOver = stopped
        let temporary = folderPath + "/." + name
        var opened: (fd: Int32, info: stat)?
        // Another import removing the folder it left empty between the two steps: make it again.
        for _ in 0..<3 where opened == nil {
            _ = try StoreSafety.makeFolders(Self.folder, inStore: store.path)
            do {
                opened = try POSIXFile.openRegular(temporary, flags: O_RDWR | O_CREAT | O_EXCL)
            } catch where !POSIXFile.isDirectory(folderPath) {
                continue
            }
        }
        guard let opened else { throw StoreError.cannotCreate(path, reason: "its folder keeps disappearing") }
        fd = opened.fd
        do {
            guard flock(fd, LOCK_EX) == 0 else { throw StoreError.writeFailed(temporary, reason: POSIXFile.errorText()) }
            try POSIXFile.writeAll(fd, Array("\(number)\n".utf8), path: temporary)
            try POSIXFile.sync(fd, path: temporary)
            guard rename(temporary, path) == 0 else { throw StoreError.writeFailed(path, reason: POSIXFile.errorText()) }
            // Durable before the import's first write, so that a crash keeps it.
            try POSIXFile.syncFolder(folderPath)
        } catch {
            unlink(temporary)
            remove()
            throw error
        }
    }

    deinit { close(fd) }

    /// The import finished: its mark and those it took over go.
    func finish() {
        takenOver.remove()
        remove()
    }

    /// The import stopped with an error: its mark goes when `wroteNothing` (the import wrote nothing, as when it was
    /// refused); otherwise it stays for the next import to take over.
    func withdraw(ifWroteNothing wroteNothing: Bool) {
        guard !removed, wroteNothing else { return }
        remove()
    }

    /// Removes the mark, and the folder when no other mark is left in it (a refused import leaves the store as it was).
    private func remove() {
        guard !removed else { return }
        removed = true
        unlink(path)
        rmdir(folderPath)
    }
}

/// The marks of imports that stopped before their end, each locked (by an open descriptor) for as long as this object
/// lives, so that no other import takes them over meanwhile; and the last change number before the earliest of them
/// started (nil when there is none).
final class StoppedImports {
    /// The marks' paths, their open, locked descriptors and their numbers.
    private(set) var marks: [(path: String, fd: Int32, number: UInt64)] = []
    /// Files of the folder that are not marks: a mark's dot-named start that a crash cut before it held its number
    /// (its import had not written yet), unlocked and older than an hour. Removed with the marks.
    private(set) var leftovers: [String] = []
    private(set) var since: UInt64?
    private let folder: String

    init(folder: String) {
        self.folder = folder
    }

    deinit {
        for mark in marks { close(mark.fd) }
    }

    fileprivate func add(_ path: String, fd: Int32, number: UInt64) {
        marks.append((path, fd, number))
        since = min(since ?? number, number)
    }

    fileprivate func addLeftover(_ path: String) { leftovers.append(path) }

    /// Removes the marks (the import that took them over finished) and the folder when it is left empty.
    func remove() {
        for mark in marks { unlink(mark.path) }
        for path in leftovers { unlink(path) }
        if !marks.isEmpty || !leftovers.isEmpty { rmdir(folder) }
    }
}

extension JSONFileStore {
    /// The marks of imports that stopped before their end (``ImportMark``), locked while the result lives. A mark still
    /// locked belongs to an import that runs (or to another import that took it over).
    func unfinishedImports() throws -> StoppedImports {
        let folder = path + "/" + ImportMark.folder
        let stopped = StoppedImports(folder: folder)
        guard POSIXFile.isDirectory(folder) else { return stopped }
        let names: [String]
        do {
            names = try folderEntries(ImportMark.folder)
        } catch where !POSIXFile.isDirectory(folder) {
            return stopped  // The import that left it removed it.
        }
        for name in names {
            let mark = folder + "/" + name
            guard let opened = try POSIXFile.openRegular(mark, flags: O_RDONLY) else { continue }
            guard flock(opened.fd, LOCK_EX | LOCK_NB) == 0 else {
                close(opened.fd)
                continue
            }
            if name.hasPrefix(".") {
                if clock().timeIntervalSince1970 - Double(opened.info.st_mtim.tv_sec) > 3_600 { stopped.addLeftover(mark) }
                close(opened.fd)
                continue
            }
            let bytes = try POSIXFile.readAll(opened.fd, path: mark, limit: 64)
            guard let number = UInt64(String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)) else {
                close(opened.fd)
                continue
            }
            stopped.add(mark, fd: opened.fd, number: number)
        }
        return stopped
    }

    /// The uuids of the visible records of the types a correlation may hold written after change number `since` (by an
    /// import that stopped before its end, and whatever wrote after it): one read of those types' files that decodes
    /// only the lines after `since` (``LineChangeNumber``) and keeps only their uuids.
    func memberRecords(writtenAfter since: UInt64) throws -> Set<UUID> {
        let types = try typeIdentifiersOnDisk().filter(ImportedMemberRecords.isMemberType)
        var found = Set<UUID>()
        guard !types.isEmpty else { return found }
        try withReadAccess { limits in
            let decoding = { (line: UnsafeBufferPointer<UInt8>) in LineChangeNumber.peek(line).map { $0 > since } ?? true }
            try forEachVisibleSample(ofTypes: types, limits: limits, after: since, decoding: decoding) { _, sample, _ in
                found.insert(sample.uuid)
            }
        }
        return found
    }

    /// After an undo of the import whose operation is `operation` (its first change number): the mark that import
    /// left when it stopped goes, its records being taken back: the unlocked mark with the greatest number below the
    /// operation, when no other operation wrote between that number and the import's first write. Call with the
    /// exclusive lock held.
    func removeMark(ofUndoneImport operation: UInt64, records: [OperationRecord]) throws {
        let stopped = try unfinishedImports()
        guard let mark = stopped.marks.filter({ $0.number < operation }).max(by: { $0.number < $1.number }),
              !records.contains(where: { $0.operation > mark.number && $0.operation < operation }) else { return }
        unlink(mark.path)
        rmdir(path + "/" + ImportMark.folder)
    }
}
