#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The store's write path on bytes: single appends, journalled batches, and the import's pre-encoded batches.
extension JSONFileStore {
    /// Saves an import batch: the same files, lines and change numbers as ``save(_:)`` with the same samples.
    ///
    /// - Throws: ``StoreError`` as ``save(_:)`` does; the batch is then not applied.
    func save(_ batch: EncodedSampleBatch) throws {
        guard batch.count > 0 else { return }
        try withWriteAccess {
            let sequence = try currentSequence()
            for partition in batch.partitions {
                try StoreSafety.makeFolders((partition.path as NSString).deletingLastPathComponent, inStore: path)
                try validateSampleFile(partition.path)
                try repairTail(of: partition.path)
            }
            // The counter is durable before any line that carries its numbers, so no number is ever used twice.
            try writeSequence(sequence + UInt64(batch.count))
            let lines = batch.partitions.indices.map { index in
                (partition: batch.partitions[index].path, bytes: batch.lines(ofPartition: index, firstSequence: sequence + 1),
                 lines: batch.partitions[index].ends.count)
            }
            if batch.count == 1 {
                try appendBytes(lines[0].bytes, to: lines[0].partition, lines: 1)
            } else {
                try applyThroughJournal(lines)
            }
        }
    }

    /// Lines joined with their newlines.
    static func joined(_ lines: [String]) -> [UInt8] {
        var bytes: [UInt8] = []
        for line in lines {
            bytes.append(contentsOf: line.utf8)
            bytes.append(0x0A)
        }
        return bytes
    }

    /// Appends whole lines with one `write`, then `fsync`s (and the folder too for a new file).
    ///
    /// - Parameter lines: How many lines `bytes` holds when they are known to be good (written by this process):
    ///   what was checked of the file then grows by them, so the next write does not read them back.
    func appendBytes(_ bytes: [UInt8], to partition: String, lines: Int? = nil) throws {
        let file = path + "/" + partition
        let before = validated[partition]
        let (fd, created) = try POSIXFile.openForAppend(file)
        defer { close(fd) }
        try POSIXFile.writeAll(fd, bytes, path: file)
        try POSIXFile.sync(fd, path: file)
        if created { POSIXFile.syncDirectory((file as NSString).deletingLastPathComponent) }
        guard let lines else { return }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return }
        let size = Int(info.st_size)
        let device = UInt64(info.st_dev), inode = UInt64(info.st_ino)
        if created || size == bytes.count {
            validated[partition] = ValidatedExtent(device: device, inode: inode, length: size, lines: lines)
        } else if let before, before.device == device, before.inode == inode, before.length + bytes.count == size {
            validated[partition] = ValidatedExtent(device: device, inode: inode, length: size, lines: before.lines + lines)
        }
    }

    /// Writes the journal (header, then every partition's lines), applies it, and removes it.
    func applyThroughJournal(_ batches: [(partition: String, bytes: [UInt8], lines: Int)]) throws {
        let entries = batches.map { batch in
            (path: batch.partition, length: POSIXFile.size(path + "/" + batch.partition) ?? 0, bytes: batch.bytes, lines: batch.lines)
        }
        let header = entries.map { entry in
            "{\"path\":\(JSONText.quoted(entry.path)),\"length\":\(entry.length),\"lines\":\(entry.lines)}"
        }
        var journal = Array(("{\"journal\":1,\"partitions\":[" + header.joined(separator: ",") + "]}\n").utf8)
        journal.reserveCapacity(journal.count + entries.reduce(0) { $0 + $1.bytes.count })
        for entry in entries { journal.append(contentsOf: entry.bytes) }
        try POSIXFile.writeAtomically(journal, to: journalPath)
        journal = []
        // Apply the batch from memory; only recovery after a crash reads the journal back.
        do {
            try apply(entries.map { (path: $0.path, length: $0.length, bytes: $0.bytes) }, lines: entries.map(\.lines))
        } catch {
            // A failure we saw (disk full, I/O error) undoes the batch now, so a later writer does not commit a
            // batch whose command reported failure. Only a crash leaves the journal for recovery.
            var undone = true
            for entry in entries {
                let file = path + "/" + entry.path
                if let size = POSIXFile.size(file), size > entry.length {
                    do { try POSIXFile.truncate(file, to: entry.length) } catch { undone = false }
                }
            }
            // If a file could not be cut back, the journal stays: readers keep ignoring the batch's lines.
            if undone && unlink(journalPath) == 0 { POSIXFile.syncDirectory(path) }
            throw error
        }
    }

    /// Cuts each partition back to its recorded length, appends its lines, then removes the journal.
    ///
    /// - Parameter lines: The line counts of lines this process wrote (and so knows to be good); nil in recovery.
    func apply(_ entries: [(path: String, length: Int, bytes: [UInt8])], lines: [Int]? = nil) throws {
        for (index, entry) in entries.enumerated() {
            let file = path + "/" + entry.path
            try StoreSafety.makeFolders((entry.path as NSString).deletingLastPathComponent, inStore: path)
            if let size = POSIXFile.size(file), size > entry.length { try POSIXFile.truncate(file, to: entry.length) }
            try appendBytes(entry.bytes, to: entry.path, lines: lines?[index])
        }
        if unlink(journalPath) != 0 { throw StoreError.writeFailed(journalPath, reason: POSIXFile.errorText()) }
        POSIXFile.syncDirectory(path)
    }
}
