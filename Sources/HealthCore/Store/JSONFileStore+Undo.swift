/// Undo: takes back a source's newest add, import or delete that is not undone yet, found
/// by the change numbers its records in `operations.jsonl` name (see docs/STORE.md, "Operations and undo").
///
/// - An add or import is undone by deleting the samples it saved that still exist, with tombstones, so changes and
///   anchored queries report it. A sample deleted since is left alone (counted), unless an undone delete restored it
///   as a copy: the copy goes instead.
/// - A delete is undone by saving copies of the samples it deleted, with new uuids derived from the delete and the old
///   uuid (as in HealthKit, a deleted object never comes back under its uuid: a syncing client that got the tombstone
///   gets the copy as a new sample, in any order). A correlation's copy names its members' copies. Samples back
///   already (imported again, or restored by an interrupted undo) are not restored twice; samples compaction removed
///   from disk cannot be restored (both counted).
extension JSONFileStore {
    /// How many tombstones or restored samples one write of an undo holds; each write is all or nothing, and the last
    /// carries the undo's record.
    static let undoBatchSize = 20_000

    /// What ``undo(source:expecting:touching:now:)`` would take back for `source` now, read under the shared lock; nil
    /// when there is nothing to undo. Nothing is written.
    ///
    /// - Parameters:
    ///   - source: The acting source.
    ///   - type: Only an operation that wrote samples of this type identifier (the newest such one); nil: the newest.
    /// - Throws: ``StoreError`` (a damaged `operations.jsonl` line included).
    public func undoPlan(source: String, touching type: String? = nil) throws -> UndoPlan? {
        guard try isExistingStore() else { return nil }
        var plan: UndoPlan?
        try withReadAccess { limits in plan = try prepareUndo(source: source, touching: type, limits: limits)?.plan }
        return plan
    }

    /// Takes back `source`'s newest add, import or delete that is not undone yet, under the exclusive lock, and records
    /// the undo in `operations.jsonl` (with its last write), so the next undo takes back the operation before.
    ///
    /// - Parameters:
    ///   - source: The acting source; only its own operations are undone.
    ///   - expecting: The operation the caller showed (``UndoPlan/operation``): when another one is newest now,
    ///     nothing is undone. nil: whatever is newest.
    ///   - type: Only an operation that wrote samples of this type identifier (the newest such one, which need not be
    ///     the source's newest operation); nil: the newest.
    ///   - now: The deletion time of the tombstones and the date of the record.
    /// - Returns: What was undone. When the last write of an undo of this operation was interrupted (a kill left its
    ///   batch in the journal, to be finished by the next writer), this call finishes it and returns that undo: the
    ///   plan ``undoPlan(source:)`` showed meanwhile, not the operation before.
    /// - Throws: ``UndoError``; ``StoreError`` or ``TextError`` (a write that fails is taken back; an undo of more than
    ///   ``undoBatchSize`` samples keeps the writes before it, and undoing again finishes it).
    @discardableResult
    public func undo(source: String, expecting: UInt64? = nil, touching type: String? = nil, now: Date) throws -> UndoPlan {
        guard try isExistingStore() else { throw UndoError.nothingToUndo(source: source) }
        // The plan as readers see the store while a batch waits in the journal: when that batch is the last write of
        // an undo, finishing it undoes the operation this plan names.
        var before: UndoPlan?
        return try withWriteAccess(interrupted: { limits in
            before = try self.prepareUndo(source: source, touching: type, limits: limits)?.plan
        }) {
            if let before, expecting == nil || expecting == before.operation,
               try operationRecords().contains(where: { $0.kind == .undo && $0.operation == before.operation && $0.source == source }) {
                return before
            }
            guard let prepared = try prepareUndo(source: source, touching: type, limits: [:]) else {
                if let expecting { throw UndoError.changedMeanwhile(shown: expecting) }
                throw UndoError.nothingToUndo(source: source)
            }
            if let expecting, prepared.plan.operation != expecting { throw UndoError.changedMeanwhile(shown: expecting) }
            try carryOut(prepared, now: now)
            // An import that stopped before its end and is now taken back leaves nothing for a next import to settle.
            // (The undo is done: a mark that cannot be read or removed is left for the next import, not an error.)
            if prepared.plan.kind == .import, POSIXFile.isDirectory(path + "/" + ImportMark.folder),
               let records = try? operationRecords() {
                try? removeMark(ofUndoneImport: prepared.plan.operation, records: records)
            }
            return prepared.plan
        }
    }

    /// The uuid of the copy that undoing delete `operation` saves of the deleted sample `uuid`.
    static func restoredUUID(_ uuid: UUID, undoingDelete operation: UInt64) -> UUID {
        var key = Array("hkctl undo of a delete".utf8)
        withUnsafeBytes(of: operation.bigEndian) { key.append(contentsOf: $0) }
        withUnsafeBytes(of: uuid.uuid) { key.append(contentsOf: $0) }
        return key.withUnsafeBytes { RecordIdentity.uuid(ofKey: $0) }
    }

    /// A plan and the lines it writes.
    private struct PreparedUndo {
        var plan: UndoPlan
        /// An add or import: the tombstones to write.
        var deletions: [(uuid: UUID, type: String, source: String)] = []
        /// A delete: the copies to save.
        var restorations: [Sample] = []
        /// The deleted sample each copy among `restorations` stands for, by the copy's uuid (copies restored under a
        /// new uuid only), with the copy's type and source.
        var originals: [UUID: (original: UUID, type: String, source: String)] = [:]
        /// Copies a run of this undo that stopped before its last write saved already (by the copy's uuid): the
        /// deleted sample each stands for, its type and source.
        var copiesBack: [UUID: (original: UUID, type: String, source: String)] = [:]
        /// The stored correlations and workouts that name a sample this undo restores under a new uuid or deletes for
        /// good, each rewritten to name the sample's copy (``repointHolders(_:pairingByType:limits:)``).
        var repointings: [CorrelationRepointing] = []
    }

    private func prepareUndo(source: String, touching type: String? = nil, limits: [String: Int]) throws -> PreparedUndo? {
        let records = try operationRecords(limit: limits[JSONFileStore.operationsFile])
        let operations = undoableOperations(source: source, in: records)
        guard let chosen = operations.firstIndex(where: { group in type.map { type in group.contains { $0.types.contains(type) } } ?? true }),
              let last = operations[chosen].last else { return nil }
        let group = operations[chosen]
        // Chosen by type past newer operations: a replace whose new samples a newer replace or delete of the source
        // deleted since (a food entry's copy, rewritten by a second correction) would come back half: refused.
        if let type, chosen > 0, group.contains(where: { $0.kind == .replace }) {
            let newer = operations[..<chosen].joined().filter { $0.kind == .replace || $0.kind == .delete }
            let shared = Set(newer.flatMap(\.types)).intersection(group.flatMap(\.types))
            if try !shared.isEmpty && newerDeleted(written: group.compactMap(\.changes), newer: newer.compactMap(\.changes),
                                                    types: shared, limits: limits) {
                func name(_ identifier: String) -> String {
                    catalogue.type(identifier: identifier)?.name ?? CorrelationType.identified(identifier)?.name ?? identifier
                }
                throw UndoError.newerChangeInTheWay(type: name(type), shared: shared.sorted().map(name))
            }
        }
        let ranges = group.compactMap(\.changes)
        let recorded = ranges.reduce(0) { $0 + Int($1.upperBound - $1.lowerBound) + 1 }
        let types = JSONFileStore.types(of: group.flatMap(\.types))
        // An operation that replaced samples anywhere (an import whose records carry sync identifiers writes import
        // batches and replaces) is undone as a replace: its new samples go, the samples it replaced come back.
        let kind: OperationRecord.Kind = group.contains { $0.kind == .replace } ? .replace : last.kind
        var prepared = PreparedUndo(plan: UndoPlan(kind: kind, operation: last.operation, source: source,
                                                   date: last.date, recorded: recorded, types: types))
        let history = UndoHistory(records: records, source: source)
        switch kind {
        case .delete:
            try planRestoring(ranges: ranges, recorded: recorded, types: types, history: history, limits: limits, into: &prepared)
        case .replace:
            // Its new samples go (as an add's), the samples it replaced come back as copies (as a delete's).
            // A delete's tombstones among them (`hkctl delete`, then the HAE remainders it weighed again) come back too.
            let tombstoneRanges = group.compactMap { $0.kind == .delete ? $0.changes : $0.tombstoneNumbers }
            let tombstones = tombstoneRanges.reduce(0) { $0 + Int($1.upperBound - $1.lowerBound) + 1 }
            try planDeleting(ranges: group.compactMap(\.sampleNumbers), types: types, history: history,
                             limits: limits, into: &prepared)
            try planRestoring(ranges: tombstoneRanges, recorded: tombstones, types: types,
                              history: history, limits: limits, into: &prepared, written: ranges)
            // What it wrote and replaced itself was not deleted since: it is neither here nor there.
            prepared.plan.alreadyDeleted = max(0, prepared.plan.alreadyDeleted - prepared.plan.replacedWithin)
        default:
            try planDeleting(ranges: ranges, types: types, history: history, limits: limits, into: &prepared)
        }
        try weighRestoredHealthAutoExport(&prepared, limits: limits)
        try repointHolders(&prepared, pairingByType: kind == .replace && !group.contains { $0.kind == .import }, limits: limits)
        prepared.plan.rewritten = Dictionary(grouping: prepared.repointings, by: \.old.type).mapValues(\.count)
        return prepared
    }

    /// The correlations and workouts that stay stored and name a sample this undo restores under a new uuid (a heart
    /// rate associated with a workout, deleted alone, and the delete undone; a food entry's energy deleted alone), or a
    /// sample it deletes in favour of one it restores (`pairingByType`, an undone edit or save: the correction of a
    /// reading undone after a second workout was associated with the corrected reading, one sample of a type deleted and
    /// one of it restored, as a replace pairs them; not an import's, whose records pair by their keys): each is rewritten in
    /// the undo's write to name the restored copy, as a replace repoints them (``CorrelationRepointing``: a workout in
    /// place, a correlation as a copy). Only holders of the sample's own source are rewritten (a change never rewrites
    /// what another source wrote); those the undo deletes or restores itself already name the copies.
    private func repointHolders(_ prepared: inout PreparedUndo, pairingByType: Bool, limits: [String: Int]) throws {
        guard !prepared.originals.isEmpty || !prepared.copiesBack.isEmpty else { return }
        // Nothing to look for when the store holds no workout or correlation that could name what is restored, and only
        // the samples the stored ones name at all are followed (a year of heart rate restored, a few workouts stored).
        let onDisk = Set(try typeIdentifiersOnDisk())
        let restoredTypes = Set(prepared.originals.values.map(\.type) + prepared.copiesBack.values.map(\.type))
        let holderTypes = JSONFileStore.holderTypes(of: restoredTypes).filter(onDisk.contains)
        guard !holderTypes.isEmpty else { return }
        let held = try uuidsNamed(byHoldersOf: holderTypes, limits: limits)
        guard !held.isEmpty else { return }
        var successors: [UUID: UUID] = [:]
        var named: [(uuid: UUID, type: String)] = []
        var sources: [UUID: String] = [:]
        func follow(_ old: UUID, type: String, source: String, to copy: UUID) {
            guard held.contains(old) else { return }
            successors[old] = copy
            named.append((old, type))
            sources[old] = source
        }
        for (copy, back) in prepared.originals { follow(back.original, type: back.type, source: back.source, to: copy) }
        for (copy, back) in prepared.copiesBack { follow(back.original, type: back.type, source: back.source, to: copy) }
        // An undone replace: its one new sample of a type goes, its one replaced sample of that type comes back.
        let inPlace = Set(prepared.restorations.map(\.uuid))
        let going = !pairingByType ? [] : prepared.deletions.filter {
            !inPlace.contains($0.uuid) && CorrelationType.identified($0.type) == nil && $0.type != Workout.typeIdentifier
        }
        var replacedBy: [UUID: UUID] = [:]
        for (type, deleted) in Dictionary(grouping: going, by: \.type) {
            let back = prepared.restorations.filter { $0.typeIdentifier == type && prepared.originals[$0.uuid] != nil
                && $0.detail?.correlation == nil && $0.detail?.workout == nil }
            if deleted.count == 1, back.count == 1, deleted[0].source == back[0].source {
                follow(deleted[0].uuid, type: type, source: deleted[0].source, to: back[0].uuid)
                if let original = prepared.originals[back[0].uuid]?.original { replacedBy[original] = deleted[0].uuid }
            }
        }
        // A correlation the replace rewrote as a copy naming a replaced member's successor pairs with the correlation
        // coming back: the copy's uuid derives from the correlation's and its members' (a workout associated with a food
        // entry's copy after its energy was corrected names the entry restored, also when the energy was in two entries).
        if !replacedBy.isEmpty {
            let goingCorrelations = Set(prepared.deletions.filter { CorrelationType.identified($0.type) != nil }.map(\.uuid))
            for copy in prepared.restorations {
                guard let back = prepared.originals[copy.uuid], let detail = copy.detail?.correlation else { continue }
                var seen = Set<UUID>()
                let members = detail.members.compactMap { member -> CorrelationDetail.Member? in
                    var member = member
                    let original = prepared.originals[member.uuid]?.original ?? member.uuid
                    member.uuid = replacedBy[original] ?? original
                    return seen.insert(member.uuid).inserted ? member : nil
                }
                let rewritten = CorrelationRepointing.uuid(of: back.original, members: members)
                if goingCorrelations.contains(rewritten) { follow(rewritten, type: back.type, source: back.source, to: copy.uuid) }
            }
        }
        // Otherwise one correlation of a type going and one coming back pair, as samples do (the entry's copy deleted
        // and restored since the edit, rewritten for another member since, or an entry the edit replaced whole).
        if pairingByType {
            let paired = Set(successors.values)
            let goingCorrelations = prepared.deletions.filter {
                !inPlace.contains($0.uuid) && CorrelationType.identified($0.type) != nil && successors[$0.uuid] == nil
            }
            for (type, deleted) in Dictionary(grouping: goingCorrelations, by: \.type) {
                let back = prepared.restorations.filter { $0.typeIdentifier == type && prepared.originals[$0.uuid] != nil
                    && $0.detail?.correlation != nil && !paired.contains($0.uuid) }
                if deleted.count == 1, back.count == 1, deleted[0].source == back[0].source {
                    follow(deleted[0].uuid, type: type, source: deleted[0].source, to: back[0].uuid)
                }
            }
        }
        guard !successors.isEmpty else { return }
        let rewritten = inPlace.union(prepared.deletions.map(\.uuid)).union(prepared.originals.values.map(\.original))
        // A correlation's copy takes the uuid an undo of this operation gives a copy (``restoredUUID(_:undoingDelete:)``),
        // so that undoing the correlation's own save later finds the copy standing for it, as it finds restored ones.
        let operation = prepared.plan.operation
        prepared.repointings = try holderRepointings(of: named, successors: successors, sources: sources, leaving: rewritten,
                                                     limits: limits) {
            JSONFileStore.restoredUUID($0, undoingDelete: operation)
        }
        // A workout this undo restores follows a correlation it rewrites as a copy, as a stored one does.
        let restoredWorkouts = prepared.restorations.filter { $0.detail?.workout?.associatedUUIDs.isEmpty == false }
        guard !restoredWorkouts.isEmpty else { return }
        let following = CorrelationRepointing.following(prepared.repointings, workouts: restoredWorkouts)
        let followed = Dictionary(following.dropFirst(prepared.repointings.count).map { ($0.old.uuid, $0.copy) },
                                  uniquingKeysWith: { first, _ in first })
        prepared.restorations = prepared.restorations.map { followed[$0.uuid] ?? $0 }
    }

    /// Restored Health Auto Export points weighed against what the store holds after the undo, as if they had come
    /// before it: a coarser point (a week) whose period finer HAE points that stay hold in part (a day another push
    /// sent since) is restored as its total less theirs, as pieces over the gaps between them (``HAEPieces``); then
    /// each restored point that samples from elsewhere imported since hold (an Apple Health export imported after the
    /// push whose replacement is undone) is restored as what they leave of it (``HAESuperseding``). One held whole is
    /// not restored (counted in ``UndoPlan/alreadyPresent``). Restoring either whole would count a step twice.
    private func weighRestoredHealthAutoExport(_ prepared: inout PreparedUndo, limits: [String: Int]) throws {
        let members = Set(prepared.restorations.flatMap { $0.detail?.correlation?.members.map(\.uuid) ?? [] })
        let isPoint = { (sample: Sample) -> Bool in
            sample.metadata[HAESampleBuilder.aggregationKey] != nil && sample.detail?.correlation == nil && !members.contains(sample.uuid)
        }
        let types = JSONFileStore.types(of: prepared.restorations.filter(isPoint).map(\.typeIdentifier))
        guard !types.isEmpty else { return }
        let going = Set(prepared.deletions.map(\.uuid))
        for type in types {
            let staying = try healthAutoExportSamples(ofType: type, limits: limits).filter { !going.contains($0.uuid) }
            if isCumulative(type) {
                replace(in: &prepared, type: type, HAEPieces.settleRestored(prepared.restorations.filter { $0.typeIdentifier == type && isPoint($0) },
                                                                            among: staying))
            }
            let restored = prepared.restorations.filter { $0.typeIdentifier == type && isPoint($0) }
            guard !restored.isEmpty else { continue }
            // As an export's import looks.
            let span = JSONFileStore.supersedingSpan(of: restored)
            var others = try samplesFromElsewhere(ofType: type, in: span, limits: limits, excluding: going)
            others += prepared.restorations.filter { $0.typeIdentifier == type && JSONFileStore.isFromElsewhere($0, in: span) }
            guard !others.isEmpty else { continue }
            others.sort { $0.start < $1.start }
            let restoredUUIDs = Set(restored.map(\.uuid))
            replace(in: &prepared, type: type, HAESuperseding.weigh(staying + restored, only: restoredUUIDs, by: others,
                                                                    longest: others.reduce(0) { max($0, $1.duration) },
                                                                    cumulative: isCumulative(type))
                .filter { $0.parts.allSatisfy { restoredUUIDs.contains($0.uuid) } })
        }
        prepared.plan.changes = prepared.plan.changes.filter { $0.value > 0 }
    }

    /// Puts what is left of restored points in place of their restored parts: the parts' uuids go to the pieces left,
    /// in order; a point of which nothing is left is counted as back already.
    private func replace(in prepared: inout PreparedUndo, type: String, _ outcomes: [HAESuperseding.Outcome]) {
        guard !outcomes.isEmpty else { return }
        var gone = Set<UUID>()
        var kept: [Sample] = []
        for outcome in outcomes {
            gone.formUnion(outcome.parts.map(\.uuid))
            for (index, var piece) in outcome.kept.enumerated() {
                if index < outcome.parts.count { piece.uuid = outcome.parts[index].uuid }
                kept.append(piece)
            }
            let change = outcome.kept.count - outcome.parts.count
            prepared.plan.changes[type, default: 0] += change
            prepared.plan.restored += change
            if outcome.kept.isEmpty { prepared.plan.alreadyPresent += outcome.parts.count }
        }
        prepared.restorations = prepared.restorations.filter { !gone.contains($0.uuid) } + kept
    }

    /// The lines an add or import wrote (numbers in `ranges`) that are still there, and what stands in for those
    /// deleted since: the copies undone deletes restored, and the samples another source's replace wrote in their
    /// place (``UndoHistory/successorWrite(ofTombstone:)``).
    private func planDeleting(ranges: [ClosedRange<UInt64>], types: [String], history: UndoHistory,
                              limits: [String: Int], into prepared: inout PreparedUndo) throws {
        let lowest = ranges.map(\.lowerBound).min() ?? 0
        var gone: [GoneSample] = []
        for type in types {
            let deletions = try deletedUUIDs(ofType: type, limits: limits)
            try forEachLine(ofType: type, from: lowest, limits: limits) { sample, sequence in
                guard ranges.contains(where: { $0.contains(sequence) }) else { return }
                if deletions.hides(sample, sequence: sequence) {
                    gone.append(GoneSample(sample, original: sample.uuid))
                } else {
                    prepared.deletions.append((sample.uuid, type, sample.source))
                    prepared.plan.changes[type, default: 0] += 1
                }
            }
        }
        // A sample deleted since may stand on in another sample, which goes in its place: a copy that an undone delete
        // restored, or the sample another source's replace wrote for it (an export's import leaves a Health Auto Export
        // point's remainder under the point's sync identifier). That one may be gone in its turn: follow the chain.
        var replaced = Set<UUID>()
        var pending = gone
        var rounds = 0
        while !pending.isEmpty && rounds < 16 {
            rounds += 1
            var copies: [UUID: UUID] = [:]
            // A line restored under the sample's own uuid (the undo of a replacement in place, such as add(_:to:) on a
            // workout) stands in for it while it is visible.
            var sameUUID: [UUID: UUID] = [:]
            var successors: [SuccessorKey: (original: UUID, write: ClosedRange<UInt64>)] = [:]
            for type in JSONFileStore.types(of: pending.map(\.type)) {
                let items = pending.filter { $0.type == type }
                for item in items {
                    sameUUID[item.uuid] = item.original
                    for operation in history.undoneDeletes { copies[JSONFileStore.restoredUUID(item.uuid, undoingDelete: operation)] = item.original }
                }
                guard history.hasReplacesByOthers, items.contains(where: { $0.syncIdentifier != nil }) else { continue }
                let wanted = Dictionary(items.map { ($0.uuid, $0) }, uniquingKeysWith: { first, _ in first })
                for tombstone in try tombstones(ofType: type, limit: limits[JSONFileStore.tombstonePath(type)]) {
                    guard let item = wanted[tombstone.uuid], let syncIdentifier = item.syncIdentifier,
                          let write = history.successorWrite(ofTombstone: tombstone.sequence) else { continue }
                    successors[SuccessorKey(type: type, source: item.source, syncIdentifier: syncIdentifier)] = (item.original, write)
                }
            }
            pending = []
            if copies.isEmpty && successors.isEmpty && !history.hasUndoneReplaces { break }
            for type in JSONFileStore.types(of: gone.map(\.type)) {
                let deletions = try deletedUUIDs(ofType: type, limits: limits)
                try forEachLine(ofType: type, from: lowest, limits: limits) { sample, sequence in
                    if let original = sameUUID[sample.uuid] {
                        // The line itself (tombstoned) is passed over; a later visible one is its restoration.
                        guard !deletions.hides(sample, sequence: sequence) else { return }
                        prepared.deletions.append((sample.uuid, type, sample.source))
                        prepared.plan.changes[type, default: 0] += 1
                        replaced.insert(original)
                        return
                    }
                    var original = copies[sample.uuid]
                    // Only a remainder stands for the pushed point (kept beyond an export's samples, or beyond finer
                    // points: HAERemainder, HAETotal); another source's newer version of it is its own statement.
                    // A rest's pieces stand for it under their point's identifier (``HAEPieces``).
                    if original == nil, !successors.isEmpty, let syncIdentifier = sample.metadata[MetadataKeySyncIdentifier].map(HAEPieces.pointIdentifier),
                       sample.metadata[HAECoverage.remainderKey] != nil || sample.metadata[HAEWritePlan.totalKey] != nil,
                       let successor = successors[SuccessorKey(type: type, source: sample.source, syncIdentifier: syncIdentifier)],
                       successor.write.contains(sequence) {
                        original = successor.original
                    }
                    guard let original else { return }
                    if deletions.hides(sample, sequence: sequence) {
                        pending.append(GoneSample(sample, original: original))
                    } else {
                        prepared.deletions.append((sample.uuid, type, sample.source))
                        prepared.plan.changes[type, default: 0] += 1
                        replaced.insert(original)
                    }
                }
            }
        }
        prepared.plan.alreadyDeleted = Set(gone.map(\.original)).subtracting(replaced).count
    }

    /// A sample an add or import wrote that is deleted now, and the sample of the operation it stands for.
    private struct GoneSample {
        var uuid: UUID
        var type: String
        var source: String
        var syncIdentifier: MetadataValue?
        var original: UUID

        init(_ sample: Sample, original: UUID) {
            uuid = sample.uuid
            type = sample.typeIdentifier
            source = sample.source
            syncIdentifier = sample.metadata[MetadataKeySyncIdentifier]
            self.original = original
        }
    }

    /// What a successor shares with the sample it stands for.
    private struct SuccessorKey: Hashable {
        var type: String
        var source: String
        var syncIdentifier: MetadataValue
    }

    /// The samples a delete (tombstones numbered in `ranges`) deleted, as the copies to save.
    /// `recorded`: how many tombstones the delete wrote (every number of a delete's ranges; a replace's first ones).
    /// A sample whose own add, import or replace has been undone since stays deleted (``UndoPlan/undoneSince``), and so
    /// does one the operation wrote itself (its line numbered in `written`) before it replaced it
    /// (``UndoPlan/replacedWithin``).
    private func planRestoring(ranges: [ClosedRange<UInt64>], recorded: Int, types: [String], history: UndoHistory,
                               limits: [String: Int], into prepared: inout PreparedUndo,
                               written: [ClosedRange<UInt64>] = []) throws {
        let operation = prepared.plan.operation
        var doomedEverywhere = Set<UUID>()
        var backUnderOwnUUID = Set<UUID>()
        var found = 0
        // A replacement in place (a workout's line rewritten under its own uuid, by `add(_:to:)`) is undone by
        // deleting the new line and restoring the old one under the same uuid: the new line does not count as back.
        let goingNow = Set(prepared.deletions.map(\.uuid))
        for type in types {
            let tombstones = try tombstones(ofType: type, limit: limits[JSONFileStore.tombstonePath(type)])
            let doomed = tombstones.filter { tombstone in ranges.contains { $0.contains(tombstone.sequence) } }
            guard !doomed.isEmpty else { continue }
            let deletions = Deletions(tombstones)
            let byUUID = Dictionary(doomed.map { ($0.uuid, $0) }, uniquingKeysWith: { first, _ in first })
            var copies: [UUID: UUID] = [:]
            for tombstone in doomed { copies[JSONFileStore.restoredUUID(tombstone.uuid, undoingDelete: operation)] = tombstone.uuid }
            // Each doomed uuid's lines that were visible when the operation first deleted it: usually one (the newest
            // before its tombstone, older ones rewritten in place since), two for a uuid stored in two months.
            // (One line each in `before`, the rare further ones in `beside`: a year of heart rate is 53,000 uuids.)
            var before: [UUID: (sample: Sample, sequence: UInt64)] = [:]
            var beside: [UUID: [(sample: Sample, sequence: UInt64)]] = [:]
            // The tombstones of a doomed uuid older than the operation's first of it (a sample rewritten in place by an
            // earlier operation): a line older than one of them was not visible any more.
            var prior: [UUID: [Tombstone]] = [:]
            for tombstone in tombstones {
                if let first = byUUID[tombstone.uuid], tombstone.sequence < first.sequence { prior[tombstone.uuid, default: []].append(tombstone) }
            }
            var back = Set<UUID>()
            var copiesBack: [UUID: (original: UUID, type: String, source: String)] = [:]
            defer { prepared.copiesBack.merge(copiesBack) { first, _ in first } }
            try forEachLine(ofType: type, from: 0, limits: limits) { sample, sequence in
                if let tombstone = byUUID[sample.uuid] {
                    if !deletions.hides(sample, sequence: sequence) && !goingNow.contains(sample.uuid) {
                        back.insert(sample.uuid)
                        backUnderOwnUUID.insert(sample.uuid)
                    } else if sequence < tombstone.sequence, tombstone.source == nil || tombstone.source == sample.source,
                              !(prior[sample.uuid] ?? []).contains(where: { other in
                                  other.sequence > sequence && (other.source == nil || other.source == sample.source)
                              }) {
                        if before[sample.uuid] == nil { before[sample.uuid] = (sample, sequence) } else { beside[sample.uuid, default: []].append((sample, sequence)) }
                    }
                } else if let original = copies[sample.uuid], !deletions.hides(sample, sequence: sequence) {
                    back.insert(original)
                    // Written by a run of this undo that stopped before its last write: its holders are rewritten still.
                    copiesBack[sample.uuid] = (original, sample.typeIdentifier, sample.source)
                }
            }
            func restore(_ line: (sample: Sample, sequence: UInt64)) {
                if written.contains(where: { $0.contains(line.sequence) }) {
                    prepared.plan.replacedWithin += 1
                } else if history.wasUndone(line: line.sequence) {
                    prepared.plan.undoneSince += 1
                } else {
                    prepared.restorations.append(line.sample)
                    prepared.plan.changes[type, default: 0] += 1
                }
            }
            var handled = Set<UUID>()
            for tombstone in doomed {
                found += 1
                doomedEverywhere.insert(tombstone.uuid)
                // A uuid the operation deleted twice comes back as what was visible before the first: a workout an
                // import rewrote in place in two batches once, a uuid stored in two months (a tombstone for each line)
                // as both lines.
                guard handled.insert(tombstone.uuid).inserted else { continue }
                if back.contains(tombstone.uuid) {
                    prepared.plan.alreadyPresent += 1
                    continue
                }
                guard let first = before[tombstone.uuid] else {
                    prepared.plan.compactedAway += 1
                    continue
                }
                restore(first)
                for line in beside[tombstone.uuid] ?? [] { restore(line) }
            }
        }
        // Every number in `ranges` is one of the delete's tombstones: those compaction dropped (a retention shorter
        // than their age) went with their samples' lines.
        prepared.plan.compactedAway += max(0, recorded - found)
        prepared.plan.restored = prepared.restorations.count
        // A member this operation did not delete may have been deleted since and stand on in a copy an undone delete or
        // replace restored (a food entry's protein, corrected after its energy, and that correction undone).
        let others = prepared.restorations.flatMap { $0.detail?.correlation?.members ?? [] }
            .filter { !doomedEverywhere.contains($0.uuid) }
        // So may a sample a restored workout is associated with (the workout's line from before an association, whose
        // sample was deleted and the delete undone since); its type is found by its tombstone.
        let associations = Set(prepared.restorations.flatMap { $0.detail?.workout?.associatedUUIDs ?? [] }).subtracting(doomedEverywhere)
        let standIns = try standingCopies(of: others + deletedSamples(associations, history: history, limits: limits),
                                          history: history, limits: limits)
        // The copies get new uuids; a correlation names the copies of its members that the delete deleted too.
        var originals: [UUID: (original: UUID, type: String, source: String)] = [:]
        prepared.restorations = prepared.restorations.map { sample in
            var copy = sample
            // Restored in place (its new line goes now) it keeps its uuid; what it names is mapped all the same.
            if !goingNow.contains(sample.uuid) {
                copy.uuid = JSONFileStore.restoredUUID(sample.uuid, undoingDelete: operation)
                originals[copy.uuid] = (sample.uuid, sample.typeIdentifier, sample.source)
            }
            if var correlation = sample.detail?.correlation {
                for index in correlation.members.indices {
                    let member = correlation.members[index].uuid
                    if doomedEverywhere.contains(member) && !backUnderOwnUUID.contains(member) {
                        correlation.members[index].uuid = JSONFileStore.restoredUUID(member, undoingDelete: operation)
                    } else if let standIn = standIns[member] {
                        correlation.members[index].uuid = standIn
                    }
                }
                copy.detail = .correlation(correlation)
            }
            // A workout's associations name the copies of the associated samples the delete deleted too.
            if var workout = sample.detail?.workout, !workout.associatedUUIDs.isEmpty {
                workout.associatedUUIDs = workout.associatedUUIDs.map { associated in
                    doomedEverywhere.contains(associated) && !backUnderOwnUUID.contains(associated)
                        ? JSONFileStore.restoredUUID(associated, undoingDelete: operation) : standIns[associated] ?? associated
                }
                copy.detail = .workout(workout)
            }
            return copy
        }
        if prepared.originals.isEmpty { prepared.originals = originals } else { prepared.originals.merge(originals) { first, _ in first } }
    }

    /// Whether a tombstone numbered in `newer` deleted a sample of `types` whose line is numbered in `written`.
    private func newerDeleted(written: [ClosedRange<UInt64>], newer: [ClosedRange<UInt64>], types: Set<String>,
                              limits: [String: Int]) throws -> Bool {
        var deleted = Set<UUID>()
        for type in types {
            for tombstone in try tombstones(ofType: type, limit: limits[JSONFileStore.tombstonePath(type)])
            where newer.contains(where: { $0.contains(tombstone.sequence) }) {
                deleted.insert(tombstone.uuid)
            }
        }
        guard !deleted.isEmpty else { return false }
        var found = false
        for type in types {
            try forEachLine(ofType: type, from: written.map(\.lowerBound).min() ?? 0, limits: limits) { sample, sequence in
                if deleted.contains(sample.uuid), written.contains(where: { $0.contains(sequence) }) { found = true }
            }
        }
        return found
    }

    /// Those of `uuids` that a tombstone of a type other than a workout's names, with that type: a restored workout's
    /// associations deleted since, whose copies ``standingCopies(of:history:limits:)`` then finds. Reads the types'
    /// tombstones only when some delete or replace was undone (else no copy can stand for them).
    private func deletedSamples(_ uuids: Set<UUID>, history: UndoHistory,
                                limits: [String: Int]) throws -> [CorrelationDetail.Member] {
        guard !uuids.isEmpty, !history.undoneDeletes.isEmpty else { return [] }
        var found: [CorrelationDetail.Member] = []
        for type in try typeIdentifiersOnDisk() where type != Workout.typeIdentifier {
            try forEachTombstone(ofType: type, limit: limits[JSONFileStore.tombstonePath(type)]) { tombstone in
                if uuids.contains(tombstone.uuid) { found.append(CorrelationDetail.Member(uuid: tombstone.uuid, typeIdentifier: type)) }
            }
        }
        return found
    }

    /// For those of `members` that are deleted, the visible copy that stands for each: one an undone delete or replace
    /// restored (``restoredUUID(_:undoingDelete:)``), followed through later undos by the tombstones those wrote (a copy
    /// deleted and restored in turn). A member whose tombstone is gone (compacted) is looked for under each undone
    /// operation's copy. Members still visible, or with no such copy, are left out. Reads the members' types only when
    /// some delete or replace was undone.
    private func standingCopies(of members: [CorrelationDetail.Member], history: UndoHistory,
                                limits: [String: Int]) throws -> [UUID: UUID] {
        guard !members.isEmpty, !history.undoneDeletes.isEmpty else { return [:] }
        var found: [UUID: UUID] = [:]
        for type in JSONFileStore.types(of: members.map(\.typeIdentifier)) {
            // The type's samples an undone delete or replace deleted, with that operation.
            var undoneBy: [UUID: UInt64] = [:]
            var tombstoned = Set<UUID>()
            try forEachTombstone(ofType: type, limit: limits[JSONFileStore.tombstonePath(type)]) { tombstone in
                tombstoned.insert(tombstone.uuid)
                if let operation = history.undoneDelete(ofTombstone: tombstone.sequence) { undoneBy[tombstone.uuid] = operation }
            }
            var candidates: [UUID: UUID] = [:]
            let wanted = members.filter { $0.typeIdentifier == type }.map(\.uuid)
            for member in wanted {
                // A member with no tombstone (still visible, or its tombstone compacted): each undone operation's copy
                // of it starts a chain followed by the tombstones that are left. (A copy whose tombstone is compacted
                // too ends its chain: `compact --retention 0` leaves nothing to follow.)
                let starts = tombstoned.contains(member) ? [member]
                    : [member] + history.undoneDeletes.map { JSONFileStore.restoredUUID(member, undoingDelete: $0) }
                for start in starts {
                    var current = start
                    if current != member { candidates[current] = member }
                    var steps = 0
                    while let operation = undoneBy[current], steps < 64 {
                        current = JSONFileStore.restoredUUID(current, undoingDelete: operation)
                        candidates[current] = member
                        steps += 1
                    }
                }
            }
            guard !candidates.isEmpty else { continue }
            let members = Set(wanted)
            var visible = Set<UUID>()
            let deletions = try deletedUUIDs(ofType: type, limits: limits)
            try forEachLine(ofType: type, from: 0, limits: limits) { sample, sequence in
                guard !deletions.hides(sample, sequence: sequence) else { return }
                if members.contains(sample.uuid) { visible.insert(sample.uuid) }
                if let original = candidates[sample.uuid] { found[original] = sample.uuid }
            }
            for uuid in visible { found[uuid] = nil }
        }
        return found
    }

    /// Calls `body` with every line of a type's partitions that can hold change numbers from `lowest` on (a partition
    /// whose last line is older is skipped).
    private func forEachLine(ofType type: String, from lowest: UInt64, limits: [String: Int],
                             _ body: (Sample, UInt64) throws -> Void) throws {
        let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
        for partition in try partitions(ofType: type, overlapping: everything) {
            if lowest > 0, limits[partition] == nil, let last = try lastSequence(in: partition), last < lowest { continue }
            try readPartitionWithSequence(partition, limit: limits[partition], body)
        }
    }

    /// Writes the tombstones or copies in batches of ``undoBatchSize``, the last with the undo's record (or the record
    /// alone when nothing is left to write). Call with the exclusive lock held.
    private func carryOut(_ prepared: PreparedUndo, now: Date) throws {
        let plan = prepared.plan
        let zone = codec.timeZone
        let count = prepared.restorations.count + prepared.deletions.count
        let holders = prepared.repointings
        guard count > 0 else {
            return try appendRecordAlone(OperationRecord(kind: .undo, operation: plan.operation, source: plan.source,
                                                         date: now, changes: nil, types: []))
        }
        for sample in prepared.restorations + holders.map(\.copy) { try TextRules.check(sample) }
        if plan.kind == .replace {
            // One write, as the replacement was: its samples' tombstones, then the copies of those it replaced.
            _ = try writeChanges(deleting: prepared.deletions + holders.map(\.old),
                                 adding: prepared.restorations + holders.map(\.copy), now: now) { changes, types in
                OperationRecord(kind: .undo, operation: plan.operation, source: plan.source, date: now, changes: changes,
                                types: types).line(zone: zone)
            }
            return
        }
        var start = 0
        while start < count {
            let end = min(start + JSONFileStore.undoBatchSize, count)
            let record: RecordMaker? = end < count ? nil : { changes, types in
                OperationRecord(kind: .undo, operation: plan.operation, source: plan.source, date: now, changes: changes,
                                types: types).line(zone: zone)
            }
            if plan.kind == .delete && end == count && !holders.isEmpty {
                // The last write also rewrites the holders of the copies, so none names a sample that is not stored.
                _ = try writeChanges(deleting: holders.map(\.old), adding: Array(prepared.restorations[start..<end]) + holders.map(\.copy),
                                     now: now, record: record)
            } else if plan.kind == .delete {
                try writeSamples(Array(prepared.restorations[start..<end]), record: record)
            } else {
                _ = try writeTombstones(Array(prepared.deletions[start..<end]), now: now, record: record)
            }
            start = end
        }
    }
}
