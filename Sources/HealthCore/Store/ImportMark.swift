#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The mark an import of an Apple Health export leaves in the store while it runs: a file in `importing/` holding the
/// last change number before it started, locked (`flock`) for as long as its process runs the import, and removed at
/// its end (or, when it stops with an error having written nothing, then too).
///
/// A mark whose lock can be taken belongs to an import that stopped before its end (killed, or failed part-way): the
/// records it wrote were never decided against the correlations with sync keys its export held (a food entry's older
/// version is decided at the end). The next import of an export takes such marks over: it decides the records of the
/// types a correlation may hold that were written since the earliest of them as its own additions
/// (``JSONFileStore/memberRecords(writtenAfter:)``), and removes the marks at its own end.
final class ImportMark {
    /// The store's folder of marks.
    static let folder = "importing"

    private let fd: Int32
    private let path: String
    private let folderPath: String
    /// The last change number before the import started: what it writes comes after.
    let number: UInt64
    /// The marks of stopped imports this import took over.
    private let takenOver: [String]
    private var removed = false

    /// Leaves a mark in `store` (which must exist) for an import that starts now, taking over the marks in `stopped`.
    init(in store: JSONFileStore, takingOver stopped: [String]) throws {
        folderPath = store.path + "/" + Self.folder
        number = try store.currentSequence()
        path = folderPath + "/" + UUID().uuidString
        takenOver = stopped
        var opened: (fd: Int32, info: stat)?
        // Another import removing the folder it left empty between the two steps: make it again.
        for _ in 0..<3 where opened == nil {
            _ = try StoreSafety.makeFolders(Self.folder, inStore: store.path)
            do {
                opened = try POSIXFile.openRegular(path, flags: O_RDWR | O_CREAT | O_EXCL)
            } catch where !POSIXFile.isDirectory(folderPath) {
                continue
            }
        }
        guard let opened else { throw StoreError.cannotCreate(path, reason: "its folder keeps disappearing") }
        fd = opened.fd
        do {
            // Locked before its number is written: an import that reads it empty leaves it alone.
            guard flock(fd, LOCK_EX) == 0 else { throw StoreError.writeFailed(path, reason: POSIXFile.errorText()) }
            try POSIXFile.writeAll(fd, Array("\(number)\n".utf8), path: path)
            // Durable before the import's first write, so that a crash keeps it.
            try POSIXFile.sync(fd, path: path)
            try POSIXFile.syncFolder(folderPath)
        } catch {
            remove()
            throw error
        }
    }

    deinit { close(fd) }

    /// The import finished: its mark and those it took over go.
    func finish() {
        for mark in takenOver { unlink(mark) }
        remove()
    }

    /// The import stopped with an error: its mark goes when the store holds no change made since it was left (the
    /// import wrote nothing, as when it was refused); otherwise it stays for the next import to take over.
    func withdrawIfUnused(in store: JSONFileStore) {
        guard !removed, (try? store.currentSequence()) == number else { return }
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

extension JSONFileStore {
    /// The marks of imports that stopped before their end (``ImportMark``), and the last change number before the
    /// earliest of them started (nil when there is none). A mark still locked belongs to an import that runs.
    func unfinishedImports() throws -> (marks: [String], since: UInt64?) {
        let folder = path + "/" + ImportMark.folder
        guard POSIXFile.isDirectory(folder) else { return ([], nil) }
        let names: [String]
        do {
            names = try folderEntries(ImportMark.folder)
        } catch where !POSIXFile.isDirectory(folder) {
            return ([], nil)  // The import that left it removed it.
        }
        var marks: [String] = []
        var since: UInt64?
        for name in names where !name.hasPrefix(".") {
            let mark = folder + "/" + name
            guard let opened = try POSIXFile.openRegular(mark, flags: O_RDONLY) else { continue }
            defer { close(opened.fd) }
            guard flock(opened.fd, LOCK_EX | LOCK_NB) == 0 else { continue }
            let bytes = try POSIXFile.readAll(opened.fd, path: mark, limit: 64)
            guard let number = UInt64(String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)) else { continue }
            marks.append(mark)
            since = min(since ?? number, number)
        }
        return (marks, since)
    }

    /// The uuids of the visible records of the types a correlation may hold written after change number `since` (by an
    /// import that stopped before its end, and whatever wrote after it). A compaction since does not refuse the read:
    /// the deletions it dropped took their samples' lines with them.
    func memberRecords(writtenAfter since: UInt64) throws -> Set<UUID> {
        let types = try typeIdentifiersOnDisk().filter(ImportedMemberRecords.isMemberType)
        guard !types.isEmpty else { return [] }
        let anchor = ChangeAnchor(sequence: since, after: try compactionMark())
        return Set(try changes(since: anchor, types: types).added.map(\.uuid))
    }
}
