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
/// `sequence`, written and synced before any line that uses it.
extension JSONFileStore {
    var sequencePath: String { path + "/sequence" }
    var compactionPath: String { path + "/compaction.json" }

    static func tombstonePath(_ identifier: String) -> String { typeFolder(identifier) + "/tombstones.jsonl" }

    // MARK: - Sequence

    /// The last change number used (0 for an empty store).
    func currentSequence() throws -> UInt64 {
        if let bytes = try POSIXFile.readFile(sequencePath), !bytes.isEmpty {
            // An empty file is a counter whose first write a crash interrupted: it is rebuilt below.
            guard let value = UInt64(String(decoding: bytes, as: UTF8.self).trimmingSpacesAndNewlines()),
                  value <= ChangeNumbers.maximum else {
                throw StoreError.corrupt(sequencePath, line: 1, reason: "it is not a change number from 0 to "
                    + "\(ChangeNumbers.maximum); 'hkctl doctor --repair' rebuilds it")
            }
            return value
        }
        // A store from before change numbers, or a lost counter: the largest number in any file.
        var largest: UInt64 = 0
        for identifier in try typeIdentifiersOnDisk() {
            for partition in try partitions(ofType: identifier, overlapping: DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)) {
                try readPartitionWithSequence(partition) { _, sequence in largest = max(largest, sequence) }
            }
            for tombstone in try tombstones(ofType: identifier) { largest = max(largest, tombstone.sequence) }
        }
        return largest
    }

    /// Makes `value` the last change number used, durably.
    func writeSequence(_ value: UInt64) throws {
        // Twenty digits, zero-padded, and a newline.
        let digits = Array(String(value).utf8)
        let text = [UInt8](repeating: UInt8(ascii: "0"), count: max(0, 20 - digits.count)) + digits + [0x0A]
        let created = !POSIXFile.exists(sequencePath)
        guard let (fd, _) = try POSIXFile.openRegular(sequencePath, flags: O_WRONLY | O_CREAT) else {
            throw POSIXFile.openFailure(sequencePath, writing: true, code: ENOENT)
        }
        defer { close(fd) }
        let written = text.withUnsafeBytes { pwrite(fd, $0.baseAddress!, $0.count, 0) }
        guard written == text.count else { throw StoreError.writeFailed(sequencePath, reason: POSIXFile.errorText()) }
        try POSIXFile.sync(fd, path: sequencePath)
        if created { POSIXFile.syncDirectory(path) }
    }

    /// The type identifiers that have a folder in the store.
    func typeIdentifiersOnDisk() throws -> [String] {
        return try folderEntries("samples").filter { !$0.hasPrefix(".") }.sorted().map { PercentDecoding.decoded($0) ?? $0 }
    }

    // MARK: - Tombstones

    /// The tombstones of a type; `limit` is the file length before an interrupted batch (see the journal).
    func tombstones(ofType identifier: String, limit: Int? = nil) throws -> [Tombstone] {
        let file = try storeFile(JSONFileStore.tombstonePath(identifier))
        guard let bytes = try POSIXFile.readFile(file, limit: limit) else { return [] }
        var result: [Tombstone] = []
        // Only newline-terminated lines count; a final line that does not decode is a torn write.
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { Array($0) }
        lines.removeLast()
        for (index, line) in lines.enumerated() where !line.isEmpty {
            if let tombstone = line.withUnsafeBufferPointer({ JSONFileStore.decodeTombstone($0) }) {
                result.append(tombstone)
            } else if index < lines.count - 1 {
                throw StoreError.corrupt(file, line: index + 1, reason: "not a tombstone")
            }
        }
        return result
    }

    func deletedUUIDs(ofType identifier: String, limits: [String: Int] = [:]) throws -> Deletions {
        Deletions(try tombstones(ofType: identifier, limit: limits[JSONFileStore.tombstonePath(identifier)]))
    }

    /// Which sample lines the tombstones of a type hide: a tombstone hides the lines with its uuid that were written
    /// before it (a lower change number) by the same source. So a sample restored later (an import of an old
    /// export) is visible again, and one source's deletion never hides another source's sample that shares a uuid.
    struct Deletions {
        private var byUUID: [UUID: [(sequence: UInt64, source: String?)]] = [:]
        private var byKey: [UUIDKey: [(sequence: UInt64, source: String?)]] = [:]

        init(_ tombstones: [Tombstone]) {
            for tombstone in tombstones {
                byUUID[tombstone.uuid, default: []].append((tombstone.sequence, tombstone.source))
                byKey[UUIDKey(tombstone.uuid), default: []].append((tombstone.sequence, tombstone.source))
            }
        }

        var isEmpty: Bool { byUUID.isEmpty }

        /// Whether the line of `sample`, written with change number `sequence` (0 if unknown), is deleted.
        func hides(_ sample: Sample, sequence: UInt64) -> Bool {
            guard let marks = byUUID[sample.uuid] else { return false }
            return marks.contains { mark in
                (sequence == 0 || mark.sequence > sequence) && (mark.source == nil || mark.source == sample.source)
            }
        }

        /// ``hides(_:sequence:)`` for a line known by its uuid's key and its source.
        func hides(_ uuid: UUIDKey, source: String, sequence: UInt64) -> Bool {
            guard let marks = byKey[uuid] else { return false }
            return marks.contains { mark in
                (sequence == 0 || mark.sequence > sequence) && (mark.source == nil || mark.source == source)
            }
        }
    }

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
        var found: [Sample] = []
        guard try isExistingStore() else { return [] }
        try withReadAccess { limits in
            let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
            for identifier in try typeIdentifiersOnDisk() {
                let deleted = try deletedUUIDs(ofType: identifier, limits: limits)
                for partition in try partitions(ofType: identifier, overlapping: everything) {
                    try readPartitionWithSequence(partition, limit: limits[partition]) { sample, sequence in
                        if wanted.contains(sample.uuid) && !deleted.hides(sample, sequence: sequence) { found.append(sample) }
                    }
                }
            }
        }
        return found.sorted(by: Sample.chronological)
    }

    /// Deletes samples by uuid, leaving a tombstone for each.
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
        return try withWriteAccess {
            // Deleting a correlation deletes its members too, in the same batch.
            let members = try correlationMembers(of: Set(uuids)).filter { !uuids.contains($0) }
            let wanted = Set(uuids + members)
            var found: [UUID: (type: String, source: String)] = [:]
            let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
            for identifier in try typeIdentifiersOnDisk() where types?.contains(identifier) ?? true {
                let deleted = try deletedUUIDs(ofType: identifier)
                for partition in try partitions(ofType: identifier, overlapping: everything) {
                    try readPartitionWithSequence(partition) { sample, sequence in
                        if wanted.contains(sample.uuid) && !deleted.hides(sample, sequence: sequence),
                           source.map({ $0 == sample.source }) ?? true {
                            found[sample.uuid] = (identifier, sample.source)
                        }
                    }
                }
            }
            let missing = uuids.filter { found[$0] == nil }
            guard missing.isEmpty || ignoringMissing else { throw ChangeError.notFound(missing) }
            return try writeTombstones((uuids + members).filter { found[$0] != nil }.map { ($0, found[$0]!.type, found[$0]!.source) },
                                       now: now, record: recordMaker)
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
    /// - Parameters:
    ///   - anchor: Where the caller left off (``ChangeAnchor/beginning`` for everything).
    ///   - types: Only these type identifiers (nil: all).
    ///   - limit: At most this many changes (added plus deleted), oldest first; the anchor then points after the
    ///     last one returned, so repeated calls page through.
    /// - Throws: ``ChangeError/anchorFromTheFuture(_:)``, ``ChangeError/anchorExpired(_:)``, store errors.
    public func changes(since anchor: ChangeAnchor, types: [String]? = nil, limit: Int? = nil) throws -> ChangeSet {
        var added: [(UInt64, Sample)] = []
        var deleted: [Tombstone] = []
        guard try isExistingStore() else {
            if anchor.sequence > 0 { throw ChangeError.anchorFromTheFuture(anchor.description) }
            return ChangeSet(added: [], deleted: [], anchor: anchor)
        }
        try withReadAccess { limits in
            if anchor.sequence > (try currentSequence()) { throw ChangeError.anchorFromTheFuture(anchor.description) }
            if anchor.sequence > 0, let expired = try droppedThrough(), anchor.sequence < expired {
                throw ChangeError.anchorExpired(anchor.description)
            }
            let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
            for identifier in try types ?? typeIdentifiersOnDisk() {
                let tombstones = try tombstones(ofType: identifier, limit: limits[JSONFileStore.tombstonePath(identifier)])
                let gone = Deletions(tombstones)
                deleted += tombstones.filter { $0.sequence > anchor.sequence }
                for partition in try partitions(ofType: identifier, overlapping: everything) {
                    if limits[partition] == nil, let last = try lastSequence(in: partition), last <= anchor.sequence { continue }
                    try readPartitionWithSequence(partition, limit: limits[partition]) { sample, sequence in
                        if sequence > anchor.sequence && !gone.hides(sample, sequence: sequence) { added.append((sequence, sample)) }
                    }
                }
            }
        }
        added.sort { $0.0 < $1.0 }
        deleted.sort { $0.sequence < $1.sequence }
        guard let limit, added.count + deleted.count > limit else {
            // The new anchor is the last change returned: numbers a crashed batch holds back (see the journal)
            // are then still ahead of it and arrive once the batch is finished.
            let last = max(added.last?.0 ?? 0, deleted.last?.sequence ?? 0, anchor.sequence)
            return ChangeSet(added: added.map(\.1), deleted: deleted, anchor: ChangeAnchor(sequence: last))
        }
        // Merge both lists in change order and cut after `limit` changes.
        var keptAdded: [Sample] = [], keptDeleted: [Tombstone] = []
        var i = 0, j = 0, last = anchor.sequence
        while keptAdded.count + keptDeleted.count < limit {
            if j >= deleted.count || (i < added.count && added[i].0 < deleted[j].sequence) {
                keptAdded.append(added[i].1)
                last = added[i].0
                i += 1
            } else {
                keptDeleted.append(deleted[j])
                last = deleted[j].sequence
                j += 1
            }
        }
        return ChangeSet(added: keptAdded, deleted: keptDeleted, anchor: ChangeAnchor(sequence: last))
    }

    /// The store's latest anchor (for `hkctl watch`, which starts from now).
    public func currentAnchor() throws -> ChangeAnchor {
        var sequence: UInt64 = 0
        if try isExistingStore() {
            try withReadAccess { limits in
                sequence = try currentSequence()
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

    private func droppedThrough() throws -> UInt64? {
        guard let bytes = try POSIXFile.readFile(compactionPath) else { return nil }
        var value: UInt64?
        try? bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONLineScanner(buffer)
            try scanner.readObject { scanner, key in
                if key == "tombstonesDroppedThrough" { value = UInt64(exactly: try scanner.readNumber()) } else {
                    try scanner.skipValue()
                }
            }
        }
        return value
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
            var droppedThrough = try self.droppedThrough() ?? 0
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
                        droppedThrough = max(droppedThrough, dropped.sequence)
                    }
                    // Record the dropped numbers before dropping them, so a crash in between refuses too much,
                    // never too little.
                    try POSIXFile.writeAtomically(Array("{\"tombstonesDroppedThrough\":\(droppedThrough)}\n".utf8),
                                                  to: compactionPath)
                    let bytes = Array(keep.map { JSONFileStore.encode($0, timeZone: codec.timeZone) + "\n" }.joined().utf8)
                    try POSIXFile.writeAtomically(bytes, to: try storeFile(JSONFileStore.tombstonePath(identifier)))
                    report.tombstonesDropped += tombstones.count - keep.count
                }
            }
            if droppedThrough > 0 {
                try POSIXFile.writeAtomically(Array("{\"tombstonesDroppedThrough\":\(droppedThrough)}\n".utf8), to: compactionPath)
            }
        }
        return report
    }
}
