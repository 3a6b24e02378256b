#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The store's write path on bytes: single appends, journalled batches, and the import's pre-encoded batches.
extension JSONFileStore {
    /// The lines for one partition: where they are in a shared buffer, and how many there are.
    struct LineSpan {
        var partition: String
        var range: Range<Int>
        var lines: Int
    }

    /// Saves an import batch: the same files, lines and change numbers as ``save(_:)`` with the same samples.
    ///
    /// - Parameter scratch: Where the finished lines are assembled (kept by the caller, so its memory is reused).
    /// - Throws: ``StoreError`` as ``save(_:)`` does; the batch is then not applied.
    func save(_ batch: EncodedSampleBatch, scratch: ByteBuffer = ByteBuffer()) throws {
        guard batch.count > 0 else { return }
        try withWriteAccess {
            let sequence = try currentSequence()
            for partition in batch.partitions {
                try StoreSafety.makeFolders(PathText.parent(of: partition.path), inStore: path)
                try validateSampleFile(partition.path)
                try repairTail(of: partition.path)
            }
            // The counter is durable before any line that carries its numbers, so no number is ever used twice.
            try writeSequence(sequence + UInt64(batch.count))
            scratch.removeAll()
            let spans = batch.partitions.indices.map { index in
                let start = scratch.count
                batch.render(partition: index, firstSequence: sequence + 1, into: scratch)
                return LineSpan(partition: batch.partitions[index].path, range: start..<scratch.count,
                                lines: batch.partitions[index].ends.count)
            }
            if batch.count == 1 {
                try appendBytes(UnsafeRawBufferPointer(scratch.bytes), to: spans[0].partition, lines: 1)
            } else {
                try applyThroughJournal(spans, in: scratch)
            }
        }
    }

    /// Lines joined with their newlines, and where each group is.
    static func joined(_ groups: [(partition: String, lines: [String])]) -> (ByteBuffer, [LineSpan]) {
        let buffer = ByteBuffer()
        let spans = groups.map { group in
            let start = buffer.count
            for line in group.lines {
                buffer.append(line)
                buffer.append(0x0A)
            }
            return LineSpan(partition: group.partition, range: start..<buffer.count, lines: group.lines.count)
        }
        return (buffer, spans)
    }

    /// Appends whole lines with one `write`, then `fsync`s (and the folder too for a new file).
    ///
    /// - Parameter lines: How many lines `bytes` holds when they are known to be good (written by this process):
    ///   what was checked of the file then grows by them, so the next write does not read them back.
    func appendBytes(_ bytes: UnsafeRawBufferPointer, to partition: String, lines: Int? = nil) throws {
        let file = path + "/" + partition
        let before = validated[partition]
        let (fd, created) = try POSIXFile.openForAppend(file)
        defer { close(fd) }
        try POSIXFile.writeAll(fd, bytes, path: file)
        try POSIXFile.sync(fd, path: file)
        if created { POSIXFile.syncDirectory(PathText.parent(of: file)) }
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
    func applyThroughJournal(_ spans: [LineSpan], in buffer: ByteBuffer) throws {
        let lengths = spans.map { POSIXFile.size(path + "/" + $0.partition) ?? 0 }
        let header = zip(spans, lengths).map { span, length in
            "{\"path\":\(JSONText.quoted(span.partition)),\"length\":\(length),\"lines\":\(span.lines)}"
        }
        let headerBytes = Array(("{\"journal\":1,\"partitions\":[" + header.joined(separator: ",") + "]}\n").utf8)
        let all = UnsafeRawBufferPointer(buffer.bytes)
        try headerBytes.withUnsafeBytes { headerPiece in
            try POSIXFile.writeAtomically(pieces: [headerPiece] + spans.map { UnsafeRawBufferPointer(rebasing: all[$0.range]) },
                                          to: journalPath)
        }
        // Apply the batch from memory; only recovery after a crash reads the journal back.
        do {
            try apply(spans, lengths: lengths, in: buffer, knownGood: true)
        } catch {
            // A failure we saw (disk full, I/O error) undoes the batch now, so a later writer does not commit a
            // batch whose command reported failure. Only a crash leaves the journal for recovery.
            var undone = true
            for (span, length) in zip(spans, lengths) {
                let file = path + "/" + span.partition
                if let size = POSIXFile.size(file), size > length {
                    do { try POSIXFile.truncate(file, to: length) } catch { undone = false }
                }
            }
            // If a file could not be cut back, the journal stays: readers keep ignoring the batch's lines.
            if undone && unlink(journalPath) == 0 { POSIXFile.syncDirectory(path) }
            throw error
        }
    }

    /// Cuts each partition back to its recorded length, appends its lines, then removes the journal.
    ///
    /// - Parameter knownGood: Whether this process wrote the lines (and so knows them to be good); not in recovery.
    func apply(_ spans: [LineSpan], lengths: [Int], in buffer: ByteBuffer, knownGood: Bool) throws {
        let all = UnsafeRawBufferPointer(buffer.bytes)
        for (span, length) in zip(spans, lengths) {
            let file = path + "/" + span.partition
            try StoreSafety.makeFolders(PathText.parent(of: span.partition), inStore: path)
            if let size = POSIXFile.size(file), size > length { try POSIXFile.truncate(file, to: length) }
            try appendBytes(UnsafeRawBufferPointer(rebasing: all[span.range]), to: span.partition, lines: knownGood ? span.lines : nil)
        }
        if unlink(journalPath) != 0 { throw StoreError.writeFailed(journalPath, reason: POSIXFile.errorText()) }
        POSIXFile.syncDirectory(path)
    }
}
