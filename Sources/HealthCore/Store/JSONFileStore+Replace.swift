#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one write every change of the store goes through: tombstones and new sample lines together, all or nothing,
/// with change numbers reserved once (tombstones first) and, when recorded, one record in `operations.jsonl`. A save
/// writes only lines, a delete only tombstones; a replacement (a sync identifier's newer version, an edit, the
/// undo of a replacement) writes both, so change readers and anchored queries see a deletion and an addition that
/// appear together.
extension JSONFileStore {
    /// Appends tombstones for `deleting`, then lines for `adding`, with new change numbers in that order, all or
    /// nothing: one line with one `write`, more through the journal, the record (made by `record`, nil: not recorded)
    /// in the same write. Call with the exclusive lock held, after ``TextRules`` checked the samples.
    ///
    /// - Returns: The tombstones written.
    func writeChanges(deleting targets: [(uuid: UUID, type: String, source: String)], adding samples: [Sample], now: Date,
                      record: RecordMaker?) throws -> [Tombstone] {
        guard !targets.isEmpty || !samples.isEmpty else { return [] }
        var batches: [LineGroup] = []
        var positions: [String: Int] = [:]
        func position(of file: String) -> Int {
            if let known = positions[file] { return known }
            positions[file] = batches.count
            batches.append(LineGroup(partition: file))
            return batches.count - 1
        }
        let tombstoneFiles = targets.map { position(of: JSONFileStore.tombstonePath($0.type)) }
        let tombstoneBatches = batches.count
        var namer = PartitionNamer()
        let sampleFiles = samples.map { position(of: namer.path(for: $0)) }
        return try takingBackOnFailure { undo in
            for (index, batch) in batches.enumerated() {
                try prepareTarget(batch.partition, tombstones: index < tombstoneBatches, undo: &undo)
            }
            if record != nil { try prepareOperationLog(undo: &undo) }
            // The counter is durable before any line that carries its numbers, so no number is ever used twice.
            let count = targets.count + samples.count
            let first = try reserveChangeNumbers(count, undo: &undo)
            var written: [Tombstone] = []
            for (offset, target) in targets.enumerated() {
                let tombstone = Tombstone(uuid: target.uuid, typeIdentifier: target.type, deletedAt: now,
                                          sequence: first + UInt64(offset), source: target.source)
                written.append(tombstone)
                batches[tombstoneFiles[offset]].append(JSONFileStore.encode(tombstone, timeZone: codec.timeZone))
            }
            // The byte writer spells each line as the codec does, without building it from Strings piece by piece.
            var writer = SampleLineWriter(catalogue: catalogue, timeZone: codec.timeZone)
            let scratch = ByteBuffer(capacity: 1024)
            for (offset, sample) in samples.enumerated() {
                let sequence = first + UInt64(targets.count + offset)
                scratch.removeAll()
                writer.appendBody(of: sample, to: scratch)
                SampleLineWriter.appendSequenceEnding(sequence, to: scratch)
                batches[sampleFiles[offset]].append(scratch.bytes)
            }
            let changes = first...first + UInt64(count - 1)
            let types = JSONFileStore.types(of: targets.map(\.type) + samples.map(\.typeIdentifier))
            try appendRecorded(batches, record: record?(changes, types), undo: undo)
            committed(through: changes.upperBound)
            committedRecord(changes)
            return written
        }
    }

    /// The record of a replacement of `replaced` stored samples under ``recording`` (nil: not recorded): a
    /// ``OperationRecord/Kind/replace`` with the operation's id, whatever kind the recording is.
    func replaceRecordMaker(replacing replaced: Int) -> RecordMaker? {
        guard let recording else { return nil }
        let zone = codec.timeZone
        return { changes, types in
            OperationRecord(kind: .replace, operation: recording.identity.value ?? changes.lowerBound, source: recording.source,
                            date: recording.date, changes: changes, types: types, replaced: replaced).line(zone: zone)
        }
    }

    /// Replaces stored samples by new ones in one write: tombstones for `uuids` (a correlation's members with it),
    /// then `samples`, recorded as one ``OperationRecord/Kind/replace`` operation that an undo takes back (it deletes
    /// the new samples and restores the replaced ones as copies): how a program corrects a stored sample. The owner's
    /// replace (`source` nil) of a sample from an export also weighs the Health Auto Export day totals of its type
    /// again (``weighHealthAutoExportAgain(after:)``), in the same recorded operation.
    ///
    /// - Parameters:
    ///   - uuids: The samples to replace; each must be stored and not deleted (and from `source`, when given).
    ///   - samples: The new samples, checked as ``save(_:)`` checks them.
    ///   - source: Only samples from this source may be replaced; nil for any.
    ///   - types: Only samples of these types (with a correlation's, its members' types) are looked for, so the look reads
    ///     no other type's files and a uuid another type's sample happens to share is never touched; nil for any.
    ///   - now: The deletion time of the tombstones.
    /// - Throws: ``ChangeError/notFoundToReplace(_:)`` (nothing written), the errors of ``save(_:)``.
    public func replace(_ uuids: [UUID], with samples: [Sample], source: String? = nil, types: Set<String>? = nil,
                        now: Date) throws {
        guard !uuids.isEmpty, !samples.isEmpty else { return }
        _ = try SyncReplacement.keys(of: samples)
        let check = SaveCheck(catalogue: catalogue, timeZone: codec.timeZone)
        try check.check(samples) { member, correlation in
            let around = DateInterval(start: correlation.start.addingTimeInterval(-0.001),
                                      end: correlation.end.addingTimeInterval(0.001))
            var found = false
            try forEachSample(ofType: member.typeIdentifier, overlapping: around) { if $0.uuid == member.uuid { found = true } }
            return found
        }
        for sample in samples { try TextRules.check(sample) }
        guard try isExistingStore() else { throw ChangeError.notFoundToReplace(uuids) }
        var changed: [OwnerChange] = samples.map(OwnerChange.init)
        try withWriteAccess {
            let members = try correlationMembers(of: Set(uuids)).filter { !uuids.contains($0) }
            let wanted = Set(uuids + members)
            let found = try storedSamples(wanted, types: types, source: source)
            changed += found.values
            let missing = uuids.filter { found[$0] == nil }
            guard missing.isEmpty else { throw ChangeError.notFoundToReplace(missing) }
            try refuseStoredUUIDs(samples)
            var targets = (uuids + members).filter { found[$0] != nil }.map { ($0, found[$0]!.type, found[$0]!.source) }
            // A correlation holding a replaced sample names its successor instead: the new sample of its type, when
            // the replacement has one sample of that type for one replaced.
            var successors: [UUID: UUID] = [:]
            for (type, replaced) in Dictionary(grouping: uuids.filter { !members.contains($0) }, by: { found[$0]!.type }) {
                let news = samples.filter { $0.typeIdentifier == type && $0.detail?.correlation == nil }
                if replaced.count == 1, news.count == 1 { successors[replaced[0]] = news[0].uuid }
            }
            let repointings = try holderRepointings(of: successors.keys.map { ($0, found[$0]!.type) }, successors: successors,
                                                    sources: successors.keys.reduce(into: [:]) { $0[$1] = found[$1]!.source },
                                                    leaving: wanted)
            // Its member stays within its dates, as a saved correlation's must.
            for (old, new) in successors {
                guard let sample = samples.first(where: { $0.uuid == new }) else { continue }
                for repointing in repointings where repointing.copy.detail?.correlation?.members.contains(where: { $0.uuid == new }) == true
                    && (sample.start < repointing.copy.start || sample.end > repointing.copy.end) {
                    throw ChangeError.memberLeavesCorrelation(member: old, correlation: repointing.old.uuid, type: repointing.old.type)
                }
            }
            targets += repointings.map(\.old)
            _ = try writeChanges(deleting: targets, adding: samples + repointings.map(\.copy), now: now,
                                 record: replaceRecordMaker(replacing: targets.count))
        }
        // The owner's correction of an export's sample weighs a Health Auto Export day total it reduced again.
        if source == nil { try weighHealthAutoExportAgain(after: changed) }
    }

    /// Saves an import's records that carry sync identifiers (checked by the import's own rules, as
    /// ``saveChecked(_:)`` saves the rest) by HealthKit's rule, as ``saveReporting(_:)`` does: under the exclusive
    /// lock, a record whose version is greater than the stored sample's of its key replaces it in one write (tombstones,
    /// then the new lines, recorded as a ``OperationRecord/Kind/replace`` of the import's operation, so an undo takes
    /// the import back whole), an equal or lower one is not written. A uuid the store holds already is not refused: an
    /// import may bring back a sample deleted since, as it does every record. `dryRun`: planned under the shared lock,
    /// nothing written. `imported`: what the import wrote before (``SyncReplacement/plan(_:stored:importing:imported:)``).
    func saveImportedSynced(_ samples: [Sample], dryRun: Bool,
                            imported: SyncReplacement.ImportWrites = .none) throws -> SyncReplacement.Plan {
        guard !samples.isEmpty else { return SyncReplacement.Plan() }
        let keys = try SyncReplacement.keys(of: samples)
        if dryRun {
            // A store not made yet is read as empty (the access does not call its body).
            var stored: [SyncReplacement.Key: [Sample]] = [:]
            try withReadAccess { _ in stored = try storedSamples(withSyncKeys: keys) }
            var plan = try SyncReplacement.plan(samples, stored: stored, importing: true, imported: imported)
            // What the import would have added counts as stored.
            if !plan.members.isEmpty {
                try withReadAccess { _ in try settleMembers(&plan, keepUnstored: imported.added, mayDelete: imported.mayDelete) }
            }
            if !plan.successors.isEmpty { try withReadAccess { _ in try repointCorrelations(&plan) } }
            return plan
        }
        for sample in samples { try TextRules.check(sample) }
        return try withWriteAccess {
            var plan = try SyncReplacement.plan(samples, stored: try storedSamples(withSyncKeys: keys), importing: true,
                                                imported: imported)
            try writePlan(&plan, record: recordMaker, mayDelete: imported.mayDelete)
            return plan
        }
    }

    /// Carries out a save's `plan`: its writes alone (recorded by `record`), or, when it replaces stored samples, the
    /// correlations holding them repointed (``repointCorrelations(_:)``) and every deletion and addition in one write,
    /// recorded as a ``OperationRecord/Kind/replace``. Call with the exclusive lock held, the samples checked.
    func writePlan(_ plan: inout SyncReplacement.Plan, record: RecordMaker?, mayDelete: (String) -> Bool = { _ in true }) throws {
        try settleMembers(&plan, keepUnstored: { _ in false }, mayDelete: mayDelete)
        if plan.replaced.isEmpty && plan.discarded.isEmpty {
            try writeSamples(plan.writes, record: record)
        } else {
            try repointCorrelations(&plan)
            let deletions = plan.deletions
            _ = try writeChanges(deleting: deletions, adding: plan.additions, now: clock(),
                                 record: replaceRecordMaker(replacing: deletions.count))
        }
    }

    /// Settles `plan`'s member deletions (``SyncReplacement/Plan/settleMembers(stored:namedElsewhere:keepUnstored:)``):
    /// reads each member's type only around its correlation's dates, and the correlations that may name one. Call with
    /// a lock held.
    func settleMembers(_ plan: inout SyncReplacement.Plan, keepUnstored: (UUID) -> Bool,
                       mayDelete: (String) -> Bool = { _ in true }) throws {
        let deleting = Set(plan.replaced.map(\.uuid) + plan.discarded.map(\.uuid))
        let members = plan.members.filter { deleting.contains($0.key) }
        guard !members.isEmpty else { return }
        var sources: [UUID: String] = [:]
        for (type, group) in Dictionary(grouping: members, by: { $0.value.type }) {
            let deleted = try deletedUUIDs(ofType: type)
            var files = Set<String>()
            for (_, member) in group {
                let around = DateInterval(start: member.around.start.addingTimeInterval(-0.001),
                                          end: member.around.end.addingTimeInterval(0.001))
                files.formUnion(try partitions(ofType: type, overlapping: around))
            }
            let wanted = Set(group.map(\.key))
            for file in files.sorted() {
                try readPartitionWithSequence(file) { sample, sequence in
                    if wanted.contains(sample.uuid), !deleted.hides(sample, sequence: sequence) { sources[sample.uuid] = sample.source }
                }
            }
            // A member stored outside its correlation's dates (an import does not refuse one): every partition of its
            // type whose bytes name it.
            let missing = wanted.filter { sources[$0] == nil }
            guard !missing.isEmpty else { continue }
            try forEachStoredSample(of: [type], naming: missing.map { Array($0.lowercasedText.utf8) }) { sample in
                if missing.contains(sample.uuid) { sources[sample.uuid] = sample.source }
            }
        }
        let others = try correlations(holding: members.map { ($0.key, $0.value.type) })
            .filter { $0.detail?.correlation != nil && !deleting.contains($0.uuid) }
        let namedElsewhere = Set(others.flatMap { $0.detail?.correlation?.members.map(\.uuid) ?? [] })
        plan.settleMembers(stored: sources, namedElsewhere: namedElsewhere, keepUnstored: keepUnstored, mayDelete: mayDelete)
    }

    /// The visible stored samples that carry one of `keys` (by type), by key. Reads only the partitions of those types
    /// whose bytes contain `HKMetadataKeySyncIdentifier` at all (every partition of activity summaries: a summary stored
    /// before they carried sync keys stands under its day's, ``ActivitySummaryVersion``). Call with the lock held.
    func storedSamples(withSyncKeys keys: [String: Set<SyncReplacement.Key>]) throws -> [SyncReplacement.Key: [Sample]] {
        var found: [SyncReplacement.Key: [Sample]] = [:]
        let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
        let needle = Array(MetadataKeySyncIdentifier.utf8)
        for (type, wanted) in keys {
            let deleted = try deletedUUIDs(ofType: type)
            for partition in try partitions(ofType: type, overlapping: everything) {
                if type != ActivitySummaryVersion.typeIdentifier {
                    guard let bytes = try POSIXFile.readFile(try storeFile(partition)),
                          JSONFileStore.contains(bytes, needle) else { continue }
                }
                try readPartitionWithSequence(partition) { sample, sequence in
                    guard let mark = SyncReplacement.storedMark(of: sample), wanted.contains(mark.key),
                          !deleted.hides(sample, sequence: sequence) else { return }
                    found[mark.key, default: []].append(sample)
                }
            }
        }
        return found
    }

    /// Whether `bytes` contain `needle`: `memchr` finds each place its first byte is, `memcmp` compares the rest.
    static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let head = needle.first else { return true }
        guard bytes.count >= needle.count else { return false }
        return bytes.withUnsafeBufferPointer { haystack in
            needle.withUnsafeBufferPointer { wanted in
                let base = haystack.baseAddress!
                var index = 0
                let last = haystack.count - wanted.count
                while index <= last {
                    guard let found = memchr(base + index, Int32(head), last - index + 1) else { return false }
                    let at = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    if memcmp(base + at, wanted.baseAddress!, wanted.count) == 0 { return true }
                    index = at + 1
                }
                return false
            }
        }
    }
}
