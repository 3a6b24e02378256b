#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TextSupport

/// Change numbers, deletions, anchored change queries and compaction.
///
/// Every sample line carries `"seq"`, the store-wide change number it was written with; deletions append
/// tombstones (`samples/<type>/tombstones.jsonl`) with their own numbers. The last number used is kept in
/// `sequence`, written before any line that uses it, and synced whenever the numbers pass the block a writer of this
/// boot and mount reserved durably (``ChangeCounter``).
extension JSONFileStore {
    var sequencePath: String { path + "/sequence" }
    var compactionPath: String { path + "/compaction.json" }

    static func tombstonePath(_ identifier: String) -> String { typeFolder(identifier) + "/tombstones.jsonl" }

    // MARK: - Sequence

    /// The last change number used (0 for an empty store), as this process must take it: after the machine
    /// restarted, the end of the numbers reserved before (see ``ChangeCounter``).
    func currentSequence() throws -> UInt64 {
        if let counter = try readCounter() { return counter.lastUsed(inBoot: currentBoot) }
        // A store from before change numbers, or a lost counter: the largest number in any file.
        return try largestChangeNumber(above: 0, readingTails: false)
    }

    /// The last change number as an anchor handed out now must take it, so that no later write numbers a change at or
    /// below it: ``currentSequence()``, except under a reservation of another identity (another boot or mount, or
    /// when this process cannot tell its own). Its writers may still run (a store shared by two machines, or seen
    /// through two mounts, or a process that can tell its identity beside one that cannot) and number their changes below the
    /// block's end, so the anchor is the file's last number, or the largest number in the files where a crash lost the
    /// counter's last rewrite (each partition's last line holds its largest, as ``changes(since:types:limit:)`` relies
    /// on).
    func anchorSequence() throws -> UInt64 {
        guard let counter = try readCounter() else { return try currentSequence() }
        guard counter.lastUsed(inBoot: currentBoot) != counter.last else { return counter.last }
        return try largestChangeNumber(above: counter.last, readingTails: true)
    }

    /// The largest change number in the store's lines and tombstones, or `floor` when none is larger. With
    /// `readingTails`, a partition is taken at its last line's number (its largest) where that can be read, and read
    /// whole otherwise.
    private func largestChangeNumber(above floor: UInt64, readingTails: Bool) throws -> UInt64 {
        var largest = floor
        let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
        for identifier in try typeIdentifiersOnDisk() {
            for partition in try partitions(ofType: identifier, overlapping: everything) {
                if readingTails, let last = try lastSequence(in: partition) {
                    largest = max(largest, last)
                } else {
                    try readPartitionWithSequence(partition) { _, sequence in largest = max(largest, sequence) }
                }
            }
            try forEachTombstone(ofType: identifier) { largest = max(largest, $0.sequence) }
        }
        return largest
    }

    /// The `sequence` file as it is; nil when there is none or it is empty (a counter whose first write a crash
    /// interrupted: ``currentSequence()`` rebuilds it from the lines).
    func readCounter() throws -> ChangeCounter? { try counter(fromText: POSIXFile.readFile(sequencePath)) }

    /// The counter the `sequence` file's text `bytes` holds (nil for no file or an empty one).
    func counter(fromText bytes: [UInt8]?) throws -> ChangeCounter? {
        guard let bytes, !bytes.isEmpty else { return nil }
        guard let counter = ChangeCounter(text: bytes) else {
            throw StoreError.corrupt(sequencePath, line: 1, reason: "it is not a change number from 0 to "
                + "\(ChangeNumbers.maximum); the doctor's repair (StoreDoctor.repair) rebuilds it")
        }
        return counter
    }

    /// The boot this process runs in and the mount the store lies on (``BootIdentity/current(forStoreIn:)``), or the
    /// identity a test set.
    var currentBoot: String? { bootForTests.current ?? BootIdentity.current(forStoreIn: path) }

    /// Makes `value` the last change number used, durably, with no reservation (the doctor's rebuilt counter).
    func writeSequence(_ value: UInt64) throws {
        try writeCounter(ChangeCounter(last: value).text, sync: true)
    }

    /// Rewrites the `sequence` file in place as `text` (cutting off what a longer text left), synced when `sync`.
    /// In place, so a counter of the same length needs no new space on a full disk.
    func writeCounter(_ text: [UInt8], sync: Bool) throws {
        let created = !POSIXFile.exists(sequencePath)
        guard let (fd, info) = try POSIXFile.openRegular(sequencePath, flags: O_WRONLY | O_CREAT) else {
            throw POSIXFile.openFailure(sequencePath, writing: true, code: ENOENT)
        }
        defer { close(fd) }
        // An empty text (the empty counter a crash left, put back by a failed write) is only the cut below.
        let written = text.isEmpty ? 0 : text.withUnsafeBytes { pwrite(fd, $0.baseAddress!, $0.count, 0) }
        guard written == text.count else { throw StoreError.writeFailed(sequencePath, reason: POSIXFile.errorText()) }
        if Int(info.st_size) > text.count, ftruncate(fd, off_t(text.count)) != 0 {
            throw StoreError.writeFailed(sequencePath, reason: POSIXFile.errorText())
        }
        guard sync || created else { return }
        counterSyncs.withLock { $0 += 1 }
        try POSIXFile.sync(fd, path: sequencePath)
        if created { POSIXFile.syncDirectory(path) }
    }

    /// The type identifiers that have a folder in the store.
    func typeIdentifiersOnDisk() throws -> [String] {
        return try folderEntries("samples").filter { !$0.hasPrefix(".") }.sorted().map { PercentDecoding.decoded($0) ?? $0 }
    }

    // MARK: - Tombstones

    static func encode(_ tombstone: Tombstone, timeZone: ZoneRules) -> String {
        "{\"uuid\":\"\(tombstone.uuid.lowercasedText)\",\"type\":\(JSONText.quoted(tombstone.typeIdentifier)),"
            + "\"deletedAt\":\"\(ISODate.format(tombstone.deletedAt, in: timeZone))\""
            + (tombstone.source.map { ",\"source\":" + JSONText.quoted($0) } ?? "") + ",\"seq\":\(tombstone.sequence)}"
    }

    static func decodeTombstone(_ bytes: UnsafeBufferPointer<UInt8>) -> Tombstone? {
        var scanner = JSONLineScanner(bytes)
        var uuid: UUID?, type: String?, deletedAt: Date?, sequence: UInt64?, source: String?
        do {
            try scanner.readObject { scanner, key in
                switch key {
                case "uuid": uuid = UUID(uuidString: try scanner.readString())
                case "type": type = try scanner.readString()
                case "deletedAt": deletedAt = ISODate.parse(try scanner.readString())
                case "seq": sequence = ChangeNumbers.exact(try scanner.readNumber())
                case "source": source = try scanner.readString()
                default: try scanner.skipValue()
                }
            }
        } catch {
            return nil
        }
        guard let uuid, let type, let deletedAt, let sequence else { return nil }
        return Tombstone(uuid: uuid, typeIdentifier: type, deletedAt: deletedAt, sequence: sequence, source: source)
    }

    // MARK: - Deleting

    /// The samples (not deleted) with these uuids, in any type; uuids that match nothing are left out.
    public func samples(withUUIDs uuids: [UUID]) throws -> [Sample] {
        let wanted = Set(uuids)
        return try samples(lines: UUIDLineFilter(uuids: uuids)) { wanted.contains($0) }
    }

    /// The samples (not deleted) of every type whose uuid `matches`, in chronological order, at most `limit`: one
    /// read of the whole store under the shared lock, decoding only the lines `lines` lets through (a byte compare of
    /// each line's start: a uuid looked for in ten years of data takes a fraction of a second, not seconds).
    func samples(limit: Int = .max, lines: UUIDLineFilter, whereUUID matches: (UUID) -> Bool) throws -> [Sample] {
        var found: [Sample] = []
        var decoded = 0
        defer { readCounts.withLock { $0.linesDecodedForUUIDs = decoded } }
        guard try isExistingStore() else { return [] }
        try withReadAccess { limits in
            try forEachVisibleSample(ofTypes: try typeIdentifiersOnDisk(), limits: limits, decoding: lines.mayHold) { _, sample, _ in
                decoded += 1
                if found.count < limit, matches(sample.uuid) { found.append(sample) }
            }
        }
        return found.sortedChronologically()
    }

    /// Deletes samples by uuid, leaving a tombstone for each. The owner's delete (`source` nil) of a sample from an
    /// export also weighs the Health Auto Export day totals of its type again (``weighHealthAutoExportAgain(after:)``),
    /// in the same recorded operation.
    ///
    /// - Parameters:
    ///   - uuids: The samples to delete; all must exist (and not be deleted already), or nothing is deleted.
    ///   - now: The deletion time to record.
    /// - Returns: The tombstones written.
    /// - Throws: ``ChangeError/notFound(_:)`` naming the uuids that match no sample.
    ///   - ignoringMissing: Delete those that exist and skip the rest (a range delete whose samples another process
    ///     deleted meanwhile), instead of deleting nothing.
    @discardableResult
    ///   - source: Only samples from this source (a source deletes only what it wrote); nil for any.
    ///   - types: Only samples of these types (with a correlation's, its members' types); nil for any. A uuid that
    ///     another type's sample happens to share is then never touched.
    public func delete(uuids: [UUID], now: Date, ignoringMissing: Bool = false, source: String? = nil,
                       types: Set<String>? = nil) throws -> [Tombstone] {
        guard !uuids.isEmpty else { return [] }
        guard try isExistingStore() else { throw ChangeError.notFound(uuids) }
        var gone: [OwnerChange] = []
        let tombstones = try withWriteAccess {
            // Deleting a correlation deletes its members too, in the same batch.
            let members = try correlationMembers(of: Set(uuids)).filter { !uuids.contains($0) }
            let wanted = Set(uuids + members)
            let found = try storedSamples(wanted, types: types, source: source)
            let missing = uuids.filter { found[$0] == nil }
            guard missing.isEmpty || ignoringMissing else { throw ChangeError.notFound(missing) }
            let targets = (uuids + members).compactMap { uuid in found[uuid].map { (uuid, $0.type, $0.source) } }
            gone = targets.compactMap { found[$0.0] }
            return try writeTombstones(targets, now: now, record: recordMaker)
        }
        // The owner's delete of an export's sample gives back what it took from a Health Auto Export day total.
        if source == nil { try weighHealthAutoExportAgain(after: gone) }
        return tombstones
    }

    /// The stored, not deleted samples of `uuids` (of `types`, nil: any; from `source`, nil: any), found by one read of
    /// the store that decodes only the lines that start with one of them (``UUIDLineFilter``). Call with a lock held.
    func storedSamples(_ uuids: Set<UUID>, types: Set<String>? = nil, source: String?) throws -> [UUID: OwnerChange] {
        var found: [UUID: OwnerChange] = [:]
        let lines = UUIDLineFilter(uuids: uuids)
        let wanted = try typeIdentifiersOnDisk().filter { types?.contains($0) ?? true }
        try forEachVisibleSample(ofTypes: wanted, limits: [:], decoding: lines.mayHold) { identifier, sample, _ in
            guard uuids.contains(sample.uuid), source.map({ $0 == sample.source }) ?? true else { return }
            var change = OwnerChange(sample)
            change.type = identifier
            found[sample.uuid] = change
        }
        return found
    }

    /// Hands each visible (not deleted) sample of `types` to `body` with its type identifier and change number, one
    /// partition after another, decoding only the lines `decoding` lets through. `limits`: the lines of each file to
    /// read (``withReadAccess(_:)``'s; empty under the exclusive lock). `after`: a file whose last line is at or below
    /// this change number is not read, and only samples after it are handed over (nil: all).
    func forEachVisibleSample(ofTypes types: [String], limits: [String: Int], after: UInt64? = nil,
                              decoding: @escaping (UnsafeBufferPointer<UInt8>) -> Bool,
                              _ body: (String, Sample, UInt64) throws -> Void) throws {
        let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
        var reader = PartitionLineReader()
        for identifier in types {
            let deleted = try deletedUUIDs(ofType: identifier, limits: limits)
            for partition in try partitions(ofType: identifier, overlapping: everything) {
                if let after, limits[partition] == nil, let last = try lastSequence(in: partition), last <= after { continue }
                try readPartitionWithSequence(partition, limit: limits[partition], reader: &reader, decoding: decoding) { sample, sequence in
                    if after.map({ sequence > $0 }) ?? true, !deleted.hides(sample, sequence: sequence) {
                        try body(identifier, sample, sequence)
                    }
                }
            }
        }
    }

    /// Deletes every sample of a type overlapping `interval`, optionally only from one source.
    ///
    /// - Returns: The tombstones written (empty when nothing matched).
    @discardableResult
    public func delete(ofType identifier: String, overlapping interval: DateInterval, source: String? = nil,
                       now: Date) throws -> [Tombstone] {
        guard try isExistingStore() else { return [] }
        return try withWriteAccess {
            let deleted = try deletedUUIDs(ofType: identifier)
            var matches: [(UUID, String, String)] = []
            for partition in try partitions(ofType: identifier, overlapping: interval) {
                try readPartitionWithSequence(partition) { sample, sequence in
                    if sample.overlaps(interval), !deleted.hides(sample, sequence: sequence),
                       source.map({ $0 == sample.source }) ?? true {
                        matches.append((sample.uuid, identifier, sample.source))
                    }
                }
            }
            return try writeTombstones(matches, now: now, record: recordMaker)
        }
    }

    /// Appends tombstones with new change numbers, with the write's record made by `record` (nil: not recorded).
    /// Call with the exclusive lock held.
    func writeTombstones(_ targets: [(uuid: UUID, type: String, source: String)], now: Date,
                         record: RecordMaker?) throws -> [Tombstone] {
        guard !targets.isEmpty else { return [] }
        return try writeChanges(deleting: targets, adding: [], now: now, record: record)
    }

    // MARK: - Changes

    /// The samples added and deleted since `anchor`, like HealthKit's anchored object query.
    ///
    /// With a limit, memory is bounded by the page (and the partition and the type's newer tombstones being read), not
    /// by the store: the reader keeps only the `limit` lowest-numbered changes it has met.
    ///
    /// - Parameters:
    ///   - anchor: Where the caller left off (``ChangeAnchor/beginning`` for everything).
    ///   - types: Only these type identifiers (nil: all).
    ///   - limit: At most this many changes (added plus deleted), oldest first; the anchor then points after the
    ///     last one returned, so repeated calls page through.
    /// - Returns: The changes, and the anchor to pass next time, which the next call always accepts unless a
    ///   compaction drops deletions in between.
    /// - Throws: ``ChangeError/anchorFromTheFuture(_:)``, ``ChangeError/anchorExpired(_:)``,
    ///   ``StoreError/disappeared(_:)`` when the store the anchor came from is gone, store errors.
    public func changes(since anchor: ChangeAnchor, types: [String]? = nil, limit: Int? = nil) throws -> ChangeSet {
        try changes(since: anchor, types: types, limit: limit, visible: nil)
    }

    /// ``changes(since:types:limit:)`` of the changes `visible` admits (given a change's type and its sample's source):
    /// the limit counts only those, and the anchor points after the last one returned (``HealthStore`` reads so for a
    /// source that may not read every type, in one pass however much of the rest lies between).
    func changes(since anchor: ChangeAnchor, types: [String]?, limit: Int?, visible: ((String, String?) -> Bool)?) throws -> ChangeSet {
        var page = ChangePage(limit: limit)
        var decoded = 0
        var compaction = CompactionMark()
        // The highest change `visible` hid: a page that holds every visible change passes it too, as the owner's does.
        var unseen: UInt64 = 0
        guard try isExistingStore() else {
            // An anchor past the beginning came from a store that was here.
            if anchor.sequence > 0 { throw StoreError.disappeared(path) }
            return ChangeSet(added: [], deleted: [], anchor: anchor)
        }
        try withReadAccess { limits in
            var reader = PartitionLineReader()
            if anchor.sequence > (try currentSequence()) { throw ChangeError.anchorFromTheFuture(anchor.description) }
            compaction = try compactionMark()
            if anchor.sequence > 0, anchor.sequence < compaction.droppedThrough, anchor.compaction != compaction {
                throw ChangeError.anchorExpired(anchor.description)
            }
            let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
            for identifier in try types ?? typeIdentifiersOnDisk() {
                // A tombstone hides lines written before it, and only lines after the anchor are read: the older
                // tombstones hide none of them.
                var gone = Deletions()
                try forEachTombstone(ofType: identifier, limit: limits[JSONFileStore.tombstonePath(identifier)]) { tombstone in
                    guard tombstone.sequence > anchor.sequence else { return }
                    gone.add(tombstone)
                    if let visible, !visible(identifier, tombstone.source) {
                        unseen = max(unseen, tombstone.sequence)
                        return
                    }
                    page.offer(.deleted(tombstone), sequence: tombstone.sequence)
                }
                for partition in try partitions(ofType: identifier, overlapping: everything) {
                    if limits[partition] == nil, let last = try lastSequence(in: partition), last <= anchor.sequence { continue }
                    // Only lines after the anchor are decoded, and (unless a source's view needs every one's source) only
                    // those the page would keep: a page of a hundred changes decodes about a hundred lines, not the store.
                    let decoding = { (line: UnsafeBufferPointer<UInt8>) -> Bool in
                        guard let sequence = LineChangeNumber.peek(line) else { return true }
                        return sequence > anchor.sequence && (visible != nil || page.admits(sequence))
                    }
                    try readPartitionWithSequence(partition, limit: limits[partition], reader: &reader,
                                                  decoding: decoding) { sample, sequence in
                        decoded += 1
                        guard sequence > anchor.sequence && !gone.hides(sample, sequence: sequence) else { return }
                        if visible?(identifier, sample.source) == false {
                            unseen = max(unseen, sequence)
                        } else if page.admits(sequence) {
                            page.offer(.added(sample), sequence: sequence)
                        }
                    }
                }
            }
        }
        readCounts.withLock {
            $0.changesHeldAtOnce = page.mostHeld
            $0.linesDecodedForChanges = decoded
        }
        var added: [Sample] = [], deleted: [Tombstone] = []
        var last = anchor.sequence
        for (sequence, change) in page.inChangeOrder() {
            switch change {
            case let .added(sample): added.append(sample)
            case let .deleted(tombstone): deleted.append(tombstone)
            }
            last = sequence
        }
        // The new anchor is the last change returned: numbers a crashed batch holds back (see the journal) are then
        // still ahead of it and arrive once the batch is finished. When every change after the anchor was returned,
        // the numbers compaction dropped are behind the caller too (they were settled before the compaction), so the
        // anchor moves past them. A page cut below them names the compaction it was read after.
        if !page.isCut { last = max(last, unseen, compaction.droppedThrough) }
        let next = ChangeAnchor(sequence: last, after: compaction)
        return ChangeSet(added: added, deleted: deleted, anchor: next)
    }

    /// The store's latest anchor (for a watcher that starts from now).
    public func currentAnchor() throws -> ChangeAnchor {
        var sequence: UInt64 = 0
        if try isExistingStore() {
            try withReadAccess { limits in
                sequence = try anchorSequence()
                // A crashed batch holds numbers that are not visible yet: start below them.
                if !limits.isEmpty, let journal = try readJournal() {
                    var codec = self.codec
                    for line in journal.entries.flatMap(\.lines) {
                        let bytes = Array(line.utf8)
                        let number = bytes.withUnsafeBufferPointer { buffer -> UInt64? in
                            if (try? codec.decode(buffer)) != nil { return codec.lastSequence }
                            return JSONFileStore.decodeTombstone(buffer)?.sequence
                        }
                        if let number, number > 0 { sequence = min(sequence, number - 1) }
                    }
                }
            }
        }
        return ChangeAnchor(sequence: sequence)
    }

    /// The change number of a partition's last complete line, read from its tail (nil if unknown).
    func lastSequence(in partition: String) throws -> UInt64? {
        let file = try storeFile(partition)
        guard let size = POSIXFile.size(file), size > 0 else { return nil }
        let window = min(size, 8192)
        guard let (fd, _) = try POSIXFile.openRegular(file, flags: O_RDONLY) else { return nil }
        defer { close(fd) }
        var tail = [UInt8](repeating: 0, count: window)
        guard tail.withUnsafeMutableBytes({ pread(fd, $0.baseAddress!, window, off_t(size - window)) }) == window,
              let end = tail.lastIndex(of: 0x0A) else { return nil }
        let start = tail[..<end].lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        guard start > 0 || window == size else { return nil }
        var probe = codec
        let line = Array(tail[start..<end])
        return line.withUnsafeBufferPointer { buffer -> UInt64? in
            guard (try? probe.decode(buffer)) != nil, probe.lastSequence > 0 else { return nil }
            return probe.lastSequence
        }
    }

    /// What `compaction.json` records (nothing dropped when it is missing or unreadable).
    func compactionMark() throws -> CompactionMark {
        var mark = CompactionMark()
        guard let bytes = try POSIXFile.readFile(compactionPath) else { return mark }
        try? bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONLineScanner(buffer)
            try scanner.readObject { scanner, key in
                switch key {
                case "tombstonesDroppedThrough": mark.droppedThrough = UInt64(exactly: try scanner.readNumber()) ?? 0
                case "generation": mark.generation = UInt64(exactly: try scanner.readNumber()) ?? 0
                default: try scanner.skipValue()
                }
            }
        }
        return mark
    }

    // MARK: - Compaction

    /// Rewrites partitions without deleted samples and drops tombstones older than `retention`, atomically per
    /// file and under the exclusive lock, so concurrent writers wait and every statistic is unchanged.
    ///
    /// - Parameters:
    ///   - now: The current time.
    ///   - retention: How long tombstones are kept for syncing clients (default 90 days).
    public func compact(now: Date, retention: TimeInterval = 90 * 86_400) throws -> CompactionReport {
        var report = CompactionReport()
        guard try isExistingStore() else { return report }
        try withWriteAccess {
            let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
            // Check every file first, so damage anywhere stops compaction before it rewrites anything.
            for identifier in try typeIdentifiersOnDisk() {
                for partition in try partitions(ofType: identifier, overlapping: everything) { try validateSampleFile(partition) }
                try validateTombstoneFile(JSONFileStore.tombstonePath(identifier))
            }
            let before = try compactionMark()
            var mark = before
            for identifier in try typeIdentifiersOnDisk() {
                let tombstones = try tombstones(ofType: identifier)
                let gone = Deletions(tombstones)
                if !gone.isEmpty {
                    for partition in try partitions(ofType: identifier, overlapping: everything) {
                        try repairTail(of: partition)
                        var kept: [String] = []
                        var removed = 0
                        try readPartitionWithSequence(partition) { sample, sequence in
                            if gone.hides(sample, sequence: sequence) { removed += 1 } else {
                                kept.append(codec.encode(sample, sequence: sequence > 0 ? sequence : nil))
                            }
                        }
                        guard removed > 0 else { continue }
                        let bytes = Array(kept.map { $0 + "\n" }.joined().utf8)
                        try POSIXFile.writeAtomically(bytes, to: try storeFile(partition))
                        report.partitionsRewritten += 1
                        report.samplesRemoved += removed
                    }
                }
                let cutoff = now.addingTimeInterval(-retention)
                let keep = tombstones.filter { $0.deletedAt >= cutoff }
                if keep.count < tombstones.count {
                    for dropped in tombstones where dropped.deletedAt < cutoff {
                        mark.droppedThrough = max(mark.droppedThrough, dropped.sequence)
                    }
                    // One more compaction that drops tombstones: anchors taken after the last one are older now.
                    mark.generation = before.generation + 1
                    // Record the dropped numbers before dropping them, so a crash in between refuses too much,
                    // never too little.
                    try POSIXFile.writeAtomically(Array(mark.json.utf8), to: compactionPath)
                    let bytes = Array(keep.map { JSONFileStore.encode($0, timeZone: codec.timeZone) + "\n" }.joined().utf8)
                    try POSIXFile.writeAtomically(bytes, to: try storeFile(JSONFileStore.tombstonePath(identifier)))
                    report.tombstonesDropped += tombstones.count - keep.count
                }
            }
            if mark.droppedThrough > 0 && mark != before {
                try POSIXFile.writeAtomically(Array(mark.json.utf8), to: compactionPath)
            }
        }
        return report
    }
}
