#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TextSupport

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
    /// - Parameters:
    ///   - scratch: Where the finished lines are assembled (kept by the caller, so its memory is reused).
    /// - Throws: ``StoreError`` as ``save(_:)`` does; the batch is then not applied.
    ///   - beforeWrite: Called under the exclusive lock before any change number is handed out, to drop lines from
    ///     the batch (the import drops what other writers stored meanwhile).
    ///   - afterWrite: Called under the lock once the batch is saved, with the last change number it used.
    func save(_ batch: EncodedSampleBatch, scratch: ByteBuffer = ByteBuffer(),
              beforeWrite: ((inout EncodedSampleBatch) throws -> Void)? = nil,
              afterWrite: ((UInt64) -> Void)? = nil) throws {
        guard batch.count > 0 else { return }
        try withWriteAccess {
            var batch = batch
            // Whoever appends checks identities under the lock it appends under: the caller drops the lines that
            // other writers stored since it last looked.
            try beforeWrite?(&batch)
            guard batch.count > 0 else { return }
            // An import can be run again (it skips what the store holds), so its batches are undone after a
            // crash rather than finished, and the journal need not hold a second copy of every line.
            let last = try writeEncoded(batch, scratch: scratch, recovery: .undo)
            afterWrite?(last)
        }
    }

    /// Writes an encoded batch under the exclusive lock the caller holds: its lines with the next change numbers, and
    /// the write's record (as ``recordMaker`` makes it), all or nothing, with the record beside the lines in the
    /// journal when there are several (`recovery`: whether a crash finishes the batch or takes it back).
    ///
    /// - Returns: The last change number used.
    @discardableResult
    func writeEncoded(_ batch: EncodedSampleBatch, scratch: ByteBuffer, recovery: Journal.Recovery) throws -> UInt64 {
        try takingBackOnFailure { undo in
            for partition in batch.partitions { try prepareTarget(partition.path, undo: &undo) }
            if recording != nil { try prepareOperationLog(undo: &undo) }
            // The counter is durable before any line that carries its numbers, so no number is ever used twice.
            let first = try reserveChangeNumbers(batch.count, undo: &undo)
            scratch.removeAll()
            var spans = batch.partitions.indices.map { index in
                let start = scratch.count
                batch.render(partition: index, firstSequence: first, into: scratch)
                return LineSpan(partition: batch.partitions[index].path, range: start..<scratch.count,
                                lines: batch.partitions[index].ends.count)
            }
            let changes = first...first + UInt64(batch.count - 1)
            let record = recordLine(changes: changes, types: JSONFileStore.types(of: batch.partitions.map(\.type)))
            if batch.count == 1 {
                try appendBytes(UnsafeRawBufferPointer(scratch.bytes), to: spans[0].partition, lines: 1)
                if let record { try appendRecord(record, afterLineIn: spans[0].partition, undo: undo) }
            } else {
                if let record {
                    // The record goes through the journal with the batch: a crash drops (or finishes) both.
                    let start = scratch.count
                    scratch.append(record)
                    scratch.append(0x0A)
                    spans.append(LineSpan(partition: JSONFileStore.operationsFile, range: start..<scratch.count, lines: 1))
                }
                try applyThroughJournal(spans, in: scratch, recovery: recovery)
            }
            committed(through: changes.upperBound)
            committedRecord(changes)
            return changes.upperBound
        }
    }

    /// Whole lines for one file, each ended by a newline, and how many.
    struct LineGroup {
        let partition: String
        private(set) var bytes: [UInt8] = []
        private(set) var lines = 0

        init(partition: String) { self.partition = partition }

        /// Adds a line (without its newline).
        mutating func append(_ line: UnsafeBufferPointer<UInt8>) {
            bytes.append(contentsOf: line)
            bytes.append(0x0A)
            lines += 1
        }

        /// Adds a line given as text (without its newline).
        mutating func append(_ line: String) {
            bytes.append(contentsOf: line.utf8)
            bytes.append(0x0A)
            lines += 1
        }
    }

    /// The groups' lines one after the other in one buffer, and where each group's lie.
    static func joined(_ groups: [LineGroup]) -> (ByteBuffer, [LineSpan]) {
        let buffer = ByteBuffer(capacity: max(64, groups.reduce(0) { $0 + $1.bytes.count }))
        let spans = groups.map { group in
            let start = buffer.count
            buffer.append(group.bytes)
            return LineSpan(partition: group.partition, range: start..<buffer.count, lines: group.lines)
        }
        return (buffer, spans)
    }

    /// Lines joined with their newlines, and where each group is.
    static func joined(_ groups: [(partition: String, lines: [String])]) -> (ByteBuffer, [LineSpan]) {
        joined(groups.map { group in
            var lines = LineGroup(partition: group.partition)
            for line in group.lines { lines.append(line) }
            return lines
        })
    }

    /// Appends whole lines with one `write`, then `fsync`s (and the folder too for a new file).
    ///
    /// - Parameter lines: How many lines `bytes` holds when they are known to be good (written by this process):
    ///   what was checked of the file then grows by them, so the next write does not read them back.
    func appendBytes(_ bytes: UnsafeRawBufferPointer, to partition: String, lines: Int? = nil) throws {
        try finish([try startAppend(bytes, to: partition, lines: lines)])
    }

    /// A partition whose new lines are written but not yet synced.
    struct PendingAppend {
        var fd: Int32
        var partition: String
        var created: Bool
        var count: Int
        var lines: Int?
        var before: ValidatedExtent?
        /// Whether the bytes hold a Health Auto Export sample's mark (``OwnedExtent``).
        var marksHAE: Bool
        /// The file's length before the write.
        var length: Int
    }

    /// Takes a failed append back: the file is cut to its length before (and synced), or removed if the append
    /// created it.
    func cutBack(_ append: PendingAppend) {
        let file = path + "/" + append.partition
        if append.created && append.length == 0 {
            unlink(file)
            return
        }
        if ftruncate(append.fd, off_t(append.length)) == 0 { _ = fsync(append.fd) }
    }

    /// Writes whole lines to the end of a partition with one `write`; ``finish(_:)`` makes them durable.
    func startAppend(_ bytes: UnsafeRawBufferPointer, to partition: String, lines: Int?) throws -> PendingAppend {
        let file = try storeFile(partition)
        let before = validated[partition]
        let (fd, created, length) = try POSIXFile.openForAppend(file)
        do {
            try POSIXFile.writeAll(fd, bytes, path: file)
        } catch {
            // A write cut short (a disk filling in the middle of a line) leaves no torn line behind, and a file
            // this write created goes again.
            let append = PendingAppend(fd: fd, partition: partition, created: created, count: bytes.count, lines: lines,
                                       before: before, marksHAE: true, length: length)
            cutBack(append)
            close(fd)
            throw error
        }
        let marksHAE = JSONFileStore.find(OwnedExtent.haeMark, in: bytes.bindMemory(to: UInt8.self))
        return PendingAppend(fd: fd, partition: partition, created: created, count: bytes.count, lines: lines, before: before,
                             marksHAE: marksHAE, length: length)
    }

    /// `fsync`s each written partition (and once each folder that got a new file), closes them, and records
    /// what is known good of them. Every file is closed, also when a sync fails.
    func finish(_ appends: [PendingAppend]) throws {
        defer { for append in appends { close(append.fd) } }
        var newFileFolders: [String] = []
        // All synced at once (SyncTogether): one or two commits of the file system instead of one each.
        if let (index, code) = SyncTogether.sync(appends.map(\.fd)) {
            // Lines that could not be made durable are not acknowledged: take all of them back.
            for append in appends { cutBack(append) }
            throw StoreError.writeFailed(path + "/" + appends[index].partition, reason: POSIXFile.errorText(code))
        }
        for append in appends {
            let folder = PathText.parent(of: path + "/" + append.partition)
            if append.created && !newFileFolders.contains(folder) { newFileFolders.append(folder) }
        }
        for folder in newFileFolders { POSIXFile.syncDirectory(folder) }
        for append in appends { recordValidated(append) }
    }

    /// Grows what was checked of a partition by lines this process wrote (known good), so the next write does not
    /// read them back.
    private func recordValidated(_ append: PendingAppend) {
        var info = stat()
        guard fstat(append.fd, &info) == 0 else {
            ownedFiles[append.partition] = nil
            return
        }
        let size = Int(info.st_size)
        let device = UInt64(info.st_dev), inode = UInt64(info.st_ino)
        recordOwned(append, device: device, inode: inode, size: size)
        guard let lines = append.lines else { return }
        if append.created || size == append.count {
            validated[append.partition] = ValidatedExtent(device: device, inode: inode, length: size, lines: lines)
        } else if let before = append.before, before.device == device, before.inode == inode,
                  before.length + append.count == size {
            validated[append.partition] = ValidatedExtent(device: device, inode: inode, length: size,
                                                          lines: before.lines + lines,
                                                          highestSequence: before.highestSequence)
        } else {
            return
        }
        // Marked for the next process when the write commits (``committed(through:)``).
        appendedPartitions.withLock { $0.append((append.partition, info)) }
    }

    /// Notes what of a partition this instance wrote all of (``OwnedExtent``): a file it started, grown only by it.
    private func recordOwned(_ append: PendingAppend, device: UInt64, inode: UInt64, size: Int) {
        ownedFiles.withLock { owned in
            let before = owned[append.partition]
            if append.length == 0 && size == append.count {
                owned[append.partition] = OwnedExtent(device: device, inode: inode, length: size, marksHAE: append.marksHAE)
            } else if let before, before.device == device, before.inode == inode, before.length == append.length,
                      before.length + append.count == size {
                owned[append.partition] = OwnedExtent(device: device, inode: inode, length: size,
                                                      marksHAE: before.marksHAE || append.marksHAE)
            } else {
                owned[append.partition] = nil
            }
        }
    }

    /// Writes the journal (its header, then with ``Journal/Recovery/redo`` every partition's lines), applies the
    /// batch, and removes the journal.
    func applyThroughJournal(_ spans: [LineSpan], in buffer: ByteBuffer, recovery: Journal.Recovery = .redo) throws {
        let lengths = spans.map { POSIXFile.size(path + "/" + $0.partition) ?? 0 }
        let header = zip(spans, lengths).map { span, length in
            "{\"path\":\(JSONText.quoted(span.partition)),\"length\":\(length),\"lines\":\(span.lines)}"
        }
        // An undo journal is version 2, so that a reader that knows only version 1 refuses it rather than replays it.
        let mode = recovery == .undo ? "\"journal\":2,\"undo\":true," : "\"journal\":1,"
        let headerBytes = Array(("{\(mode)\"partitions\":[" + header.joined(separator: ",") + "]}\n").utf8)
        let all = UnsafeRawBufferPointer(buffer.bytes)
        let lines = recovery == .redo ? spans.map { UnsafeRawBufferPointer(rebasing: all[$0.range]) } : []
        try headerBytes.withUnsafeBytes { headerPiece in
            try POSIXFile.writeAtomically(pieces: [headerPiece] + lines, to: journalPath)
        }
        // Apply the batch from memory; only recovery after a crash reads the journal back.
        do {
            try apply(spans, lengths: lengths, in: buffer, knownGood: true)
        } catch {
            // A failure we saw (disk full, I/O error) undoes the batch now, so a later writer does not commit a
            // batch whose command reported failure. Only a crash leaves the journal for recovery.
            // Once the journal is gone the batch is committed (only the folder's sync failed): keep it.
            guard POSIXFile.exists(journalPath) else { throw error }
            // If a file could not be cut back, the journal stays: readers keep ignoring the batch's lines.
            if cutBack(spans.map(\.partition), to: lengths) && unlink(journalPath) == 0 { POSIXFile.syncDirectory(path) }
            // What this process had checked of them included the batch's lines: check them afresh next time.
            for span in spans { validated[span.partition] = nil }
            throw error
        }
    }

    /// Cuts each partition that grew back to its length before a batch (and syncs it); false when one could not be.
    func cutBack(_ partitions: [String], to lengths: [Int]) -> Bool {
        var undone = true
        for (partition, length) in zip(partitions, lengths) {
            guard let file = try? storeFile(partition) else {
                undone = false
                continue
            }
            if let size = POSIXFile.size(file), size > length {
                do { try POSIXFile.truncate(file, to: length) } catch { undone = false }
            }
        }
        return undone
    }

    /// How many partitions a batch writes before it syncs them: they are written together so the disk takes them
    /// together, and held open no more than this many at a time (a batch may touch a thousand months of a sparse
    /// type, more than a process may usually hold open).
    static let partitionsPerSync = 64

    /// Cuts each partition back to its recorded length, appends its lines, then removes the journal.
    ///
    /// - Parameter knownGood: Whether this process wrote the lines (and so knows them to be good); not in recovery.
    func apply(_ spans: [LineSpan], lengths: [Int], in buffer: ByteBuffer, knownGood: Bool) throws {
        let all = UnsafeRawBufferPointer(buffer.bytes)
        var appends: [PendingAppend] = []
        for (span, length) in zip(spans, lengths) {
            do {
                let file = try storeFile(span.partition)
                try StoreSafety.makeFolders(PathText.parent(of: span.partition), inStore: path)
                if let size = POSIXFile.size(file), size > length { try POSIXFile.truncate(file, to: length) }
                appends.append(try startAppend(UnsafeRawBufferPointer(rebasing: all[span.range]), to: span.partition,
                                               lines: knownGood ? span.lines : nil))
                try afterPartitionWrite?(appends.count)
            } catch {
                for append in appends { close(append.fd) }
                throw error
            }
            if appends.count == JSONFileStore.partitionsPerSync {
                try finish(appends)
                appends.removeAll(keepingCapacity: true)
            }
        }
        try finish(appends)
        try removeJournal()
    }

    /// Deletes the journal, which commits (or settles) its batch. The removal must be durable before success is
    /// reported: a journal that came back after a power loss would undo (or apply again) a batch already
    /// acknowledged.
    func removeJournal() throws {
        if unlink(journalPath) != 0 { throw StoreError.writeFailed(journalPath, reason: POSIXFile.errorText()) }
        try POSIXFile.syncFolder(path)
    }
}
