#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TextSupport

/// The steps every write of samples or tombstones shares: prepare the files it appends to, hand out change numbers
/// that were never used, and take everything back when the write fails, so a failed write leaves the store as it
/// found it (docs/STORE.md names the leftovers a failure may keep: crash recovery it finished first).
extension JSONFileStore {
    /// What a write changed before its lines, so that a failed write can be taken back.
    struct WriteUndo {
        /// The counter file's text before the write; nil when there was no counter file.
        var counter: [UInt8]?
        /// Whether the write has rewritten the counter (only then is it put back).
        var counterWritten = false
        /// Folders the write created (full paths), outermost first.
        var folders: [String] = []
        /// The files the write appends to (relative), with their length before the write (nil: it did not exist).
        var files: [(path: String, length: Int?)] = []
    }

    /// Creates the folders of a file a write appends to, checks the lines it holds, and moves a torn tail aside.
    ///
    /// - Parameter tombstones: Whether the file holds tombstones rather than samples.
    func prepareTarget(_ relative: String, tombstones: Bool = false, undo: inout WriteUndo) throws {
        undo.folders += try StoreSafety.makeFolders(PathText.parent(of: relative), inStore: path)
        if tombstones {
            try validateTombstoneFile(relative)
            try repairTail(of: relative) { JSONFileStore.decodeTombstone($0) != nil }
        } else {
            try validateSampleFile(relative)
            try repairTail(of: relative)
        }
        undo.files.append((relative, POSIXFile.size(try storeFile(relative))))
    }

    /// Hands out `count` change numbers, and makes them durable before any line carries them: the counter is synced
    /// when the numbers pass the block reserved under this boot and mount, which then reserves the next block (``ChangeCounter``).
    ///
    /// The counter must not be behind a number already used: the largest one in the files the write appends to
    /// (checked by ``prepareTarget(_:tombstones:undo:)``), and the highest number a writer recorded in the lock file.
    ///
    /// - Returns: The first of the numbers.
    /// - Throws: ``StoreError/counterBehind(_:counter:used:)``, ``StoreError/changeNumbersExhausted(_:last:)``, or a
    ///   failure to read or write the counter; nothing is written then.
    func reserveChangeNumbers(_ count: Int, undo: inout WriteUndo) throws -> UInt64 {
        let before = try POSIXFile.readFile(sequencePath)
        let boot = currentBoot
        let state = try counter(fromText: before) ?? ChangeCounter(last: try currentSequence())
        let counter = state.lastUsed(inBoot: boot)
        var used = writeLock?.highestChangeNumber() ?? 0
        for file in undo.files { used = max(used, validated[file.path]?.highestSequence ?? 0) }
        if used > counter { throw StoreError.counterBehind(sequencePath, counter: counter, used: used) }
        let handed = try state.handingOut(count, inBoot: boot, counter: sequencePath)
        undo.counter = before
        undo.counterWritten = true
        try writeCounter(handed.next.text, sync: handed.sync)
        return handed.numbers.lowerBound
    }

    /// Records a finished write: the lock file keeps the highest number handed out.
    /// The partitions it appended to get validation marks (``ValidationMarks``), so the next process trusts what this
    /// one checked and wrote instead of reading those files back.
    func committed(through last: UInt64) {
        writeLock?.recordHighestChangeNumber(last)
        let appended = appendedPartitions.withLock { list -> [(partition: String, info: stat)] in
            defer { list.removeAll() }
            return list
        }
        guard let lock = writeLock, !appended.isEmpty else { return }
        var marks = lock.validationMarks()
        for (partition, info) in appended {
            // The file as it was right after this write's own lines, and all of it checked (or written) by this process.
            guard ValidationMarks.canMark(partition), let extent = validated[partition], extent.device == UInt64(info.st_dev),
                  extent.inode == UInt64(info.st_ino), extent.length == Int(info.st_size) else {
                marks.forget(partition)
                continue
            }
            let modified = POSIXFile.modificationTime(info)
            // The highest number is at most this write's last: the lines it appended carry its numbers.
            marks.record(ValidationMarks.Mark(device: extent.device, inode: extent.inode, size: extent.length,
                                              seconds: modified.seconds, nanoseconds: modified.nanoseconds, lines: extent.lines,
                                              highestSequence: max(extent.highestSequence, last), partition: partition))
        }
        lock.recordValidationMarks(marks)
    }

    /// Runs the steps of a write (``prepareTarget(_:tombstones:undo:)``, ``reserveChangeNumbers(_:undo:)``, the
    /// appends) in `body`, and takes them back with ``takeBack(_:)`` when one fails.
    func takingBackOnFailure<T>(_ body: (inout WriteUndo) throws -> T) throws -> T {
        var undo = WriteUndo()
        do {
            return try body(&undo)
        } catch {
            // Partitions it appended to are not marked: the next write checks them afresh.
            appendedPartitions.withLock { $0.removeAll() }
            takeBack(undo)
            throw error
        }
    }

    /// Takes back a write that failed, when nothing of it is left in the store: no journal (a batch a crash
    /// interrupted is settled by the next writer and keeps its numbers), and every file it appended to back at its
    /// length before. The counter then goes back to its value before, files and folders the write created and left
    /// empty are removed. Where something is left, the counter stays ahead (gaps in the numbers are harmless).
    func takeBack(_ undo: WriteUndo) {
        guard !POSIXFile.exists(journalPath) else { return }
        var createdFiles: [String] = []
        for file in undo.files {
            guard let full = try? storeFile(file.path) else { return }
            let size = POSIXFile.size(full)
            if let length = file.length {
                guard size == length else { return }
            } else if let size {
                guard size == 0 else { return }
                createdFiles.append(full)
            }
        }
        if undo.counterWritten {
            if let counter = undo.counter {
                // The counter is rewritten in place (no longer than the write left it), which needs no new space on a
                // full disk, and synced: a reservation it takes back may have been synced.
                guard (try? writeCounter(counter, sync: true)) != nil else { return }
            } else {
                unlink(sequencePath)
            }
        }
        for file in createdFiles { unlink(file) }
        for folder in undo.folders.reversed() {
            if rmdir(folder) == 0 { POSIXFile.syncDirectory(PathText.parent(of: folder)) }
        }
        trustedFolders.withLock { $0.removeAll() }
    }
}
