/// Where samples live. Queries and statistics work against this protocol, so they run the same on the
/// on-disk ``JSONFileStore`` and on the ``InMemorySampleStore`` used in tests. A store is shared across tasks and
/// threads, so conforming types are `Sendable`.
public protocol SampleStore: Sendable {
    /// Saves samples all or nothing: after a failure or a crash none of them is visible.
    ///
    /// - Throws: ``StoreError`` when the store cannot be written.
    func save(_ samples: [Sample]) throws

    /// ``save(_:)``, saying what it did with HealthKit's sync identifiers: a sample whose
    /// `HKMetadataKeySyncIdentifier` matches a stored sample of the same type and source replaces it when its
    /// `HKMetadataKeySyncVersion` is greater, and is left out (nothing written) when it is not. The default saves
    /// everything and reports it saved, for a store that knows no sync identifiers.
    ///
    /// - Throws: as ``save(_:)``; ``SampleError/syncVersionWithoutIdentifier`` and the other sync errors for a sample
    ///   with one key and not the other (nothing is written).
    @discardableResult
    func saveReporting(_ samples: [Sample]) throws -> SaveOutcome

    /// Calls `body` with every sample of the type that overlaps `interval`, in no particular order.
    ///
    /// A sample overlaps `[start, end)` when it ends at or after `start` and starts before `end` (HealthKit's
    /// default predicate); an instantaneous sample must start inside the interval.
    func forEachSample(ofType identifier: String, overlapping interval: DateInterval,
                       _ body: (Sample) throws -> Void) throws

    /// The newest samples (by start, then end) of a type overlapping `interval`, newest first, at most `limit`.
    func latestSamples(ofType identifier: String, overlapping interval: DateInterval, limit: Int) throws -> [Sample]
}

extension SampleStore {
    @discardableResult
    public func saveReporting(_ samples: [Sample]) throws -> SaveOutcome {
        try save(samples)
        return SaveOutcome(saved: samples.map(\.uuid))
    }

    /// Every sample of the type overlapping `interval`, oldest first.
    public func samples(ofType identifier: String, overlapping interval: DateInterval) throws -> [Sample] {
        try samplesInStoreOrder(ofType: identifier, overlapping: interval).sortedChronologically()
    }

    /// Every sample of the type overlapping `interval`, in the order ``forEachSample(ofType:overlapping:_:)`` hands
    /// them over. A ``ReadSnapshot`` hands over the array it holds when the interval takes all of it (no copy).
    func samplesInStoreOrder(ofType identifier: String, overlapping interval: DateInterval) throws -> [Sample] {
        if let snapshot = self as? ReadSnapshot {
            return try snapshot.samples(ofType: identifier, inStoreOrderOverlapping: interval)
        }
        var result: [Sample] = []
        try forEachSample(ofType: identifier, overlapping: interval) { result.append($0) }
        return result
    }

    /// Default newest-first listing: read all, sort, cut.
    public func latestSamples(ofType identifier: String, overlapping interval: DateInterval, limit: Int) throws -> [Sample] {
        Array(try samples(ofType: identifier, overlapping: interval).reversed().prefix(limit))
    }
}

extension Sample {
    /// Whether the sample matches HealthKit's default date predicate for `interval`.
    public func overlaps(_ interval: DateInterval) -> Bool {
        if start == end { return start >= interval.start && start < interval.end }
        return end >= interval.start && start < interval.end
    }

    /// Order by start, then end, then uuid: a total order, so listings are stable.
    public static func chronological(_ a: Sample, _ b: Sample) -> Bool {
        if a.start != b.start { return a.start < b.start }
        if a.end != b.end { return a.end < b.end }
        // Numeric order of the 128 bits is the order of the uuid strings, without building them.
        return UUIDKey(a.uuid) < UUIDKey(b.uuid)
    }
}

extension Array where Element == Sample {
    /// The samples in ``Sample/chronological(_:_:)`` order, exactly as the standard library's stable sort by it leaves
    /// them (samples it calls equal keep their order). Sorts small keys and moves each sample once: sorting the
    /// samples themselves copied a large ``Sample`` (its strings and metadata retained and released) at every move,
    /// a quarter of a year's merged step statistics.
    func sortedChronologically() -> [Sample] {
        // Already in order (a store's read often is): the same array, shared rather than copied.
        if indices.dropFirst().allSatisfy({ !Sample.chronological(self[$0], self[$0 - 1]) }) { return self }
        var keys = indices.map { (start: self[$0].start, end: self[$0].end, uuid: UUIDKey(self[$0].uuid), index: $0) }
        keys.sort { a, b in
            if a.start != b.start { return a.start < b.start }
            if a.end != b.end { return a.end < b.end }
            if a.uuid != b.uuid { return a.uuid < b.uuid }
            return a.index < b.index
        }
        return keys.map { self[$0.index] }
    }

    /// Sorts the samples as ``sortedChronologically()`` returns them.
    mutating func sortChronologically() {
        self = sortedChronologically()
    }
}

/// A store in memory, for tests and for library users who keep samples themselves.
///
/// Threads may share it: each save and each read works under a lock (a read goes over the samples as they were when
/// it began).
public final class InMemorySampleStore: SampleStore, Sendable {
    private let samples: Locked<[Sample]>

    /// Everything saved so far, in save order.
    public var allSamples: [Sample] { samples.current }

    /// Creates a store holding `samples`.
    public init(_ samples: [Sample] = []) { self.samples = Locked(samples) }

    /// Adds samples as they are, without the sync identifier rules (an import's records).
    func append(_ samples: [Sample]) { self.samples.withLock { $0 += samples } }

    /// Runs `body` on the samples under the store's lock: a check and a change in one step.
    func modify<T>(_ body: (inout [Sample]) throws -> T) rethrows -> T { try samples.withLock(body) }

    /// Saves samples, with HealthKit's sync identifiers (see ``saveReporting(_:)``): a replaced sample is removed.
    public func save(_ samples: [Sample]) throws { try saveReporting(samples) }

    /// ``save(_:)``, saying what was saved, replaced and left unchanged; the check and the change are one step under
    /// the store's lock.
    @discardableResult
    public func saveReporting(_ samples: [Sample]) throws -> SaveOutcome { try saveSynced(samples, dryRun: false).outcome }

    /// ``saveReporting(_:)``, giving the plan carried out; `dryRun`: changes nothing, only says what the save would do.
    func saveSynced(_ samples: [Sample], dryRun: Bool, importing: Bool = false,
                    imported: SyncReplacement.ImportWrites = .none) throws -> SyncReplacement.Plan {
        let keys = try SyncReplacement.keys(of: samples).values.reduce(into: Set<SyncReplacement.Key>()) { $0.formUnion($1) }
        return try self.samples.withLock { stored in
            var matches: [SyncReplacement.Key: [Sample]] = [:]
            if !keys.isEmpty {
                for sample in stored {
                    if let mark = SyncReplacement.storedMark(of: sample), keys.contains(mark.key) {
                        matches[mark.key, default: []].append(sample)
                    }
                }
            }
            var plan = try SyncReplacement.plan(samples, stored: matches, importing: importing, imported: imported)
            if !plan.members.isEmpty {
                let deleting = Set(plan.replaced.map(\.uuid) + plan.discarded.map(\.uuid))
                var sources: [UUID: String] = [:]
                var namedElsewhere = Set<UUID>()
                for sample in stored {
                    if plan.members[sample.uuid] != nil { sources[sample.uuid] = sample.source }
                    if !deleting.contains(sample.uuid), let members = sample.detail?.correlation?.members {
                        namedElsewhere.formUnion(members.map(\.uuid))
                    }
                }
                plan.settleMembers(stored: sources, namedElsewhere: namedElsewhere, keepUnstored: dryRun ? imported.added : { _ in false })
            }
            if !plan.successors.isEmpty {
                plan.repoint(holders: stored.filter {
                    $0.detail?.correlation?.members.contains { plan.successors[$0.uuid] != nil } == true
                        || $0.detail?.workout?.associatedUUIDs.contains { plan.successors[$0] != nil } == true
                }) { named in
                    let wanted = Set(named.map(\.uuid))
                    return stored.filter { $0.detail?.workout?.associatedUUIDs.contains(where: wanted.contains) == true }
                }
            }
            guard !dryRun else { return plan }
            let gone = Set(plan.deletions.map(\.uuid))
            if !gone.isEmpty { stored.removeAll { gone.contains($0.uuid) } }
            stored += plan.additions
            return plan
        }
    }

    public func forEachSample(ofType identifier: String, overlapping interval: DateInterval,
                              _ body: (Sample) throws -> Void) throws {
        for sample in allSamples where sample.typeIdentifier == identifier && sample.overlaps(interval) {
            try body(sample)
        }
    }
}

extension SampleStore {
    /// Saves records an import has checked by its own rules as it read them, which keep what devices wrote (records
    /// of types this build does not know, sync keys as written): a file store skips the checks of
    /// ``JSONFileStore/save(_:)``.
    func saveImported(_ samples: [Sample]) throws {
        if let file = self as? JSONFileStore { return try file.saveChecked(samples) }
        if let health = self as? HealthStore { return try health.save(samples, checked: true) }
        // An export's records keep their sync keys as written (one without the other included): an import is not a save.
        if let memory = self as? InMemorySampleStore { return memory.append(samples) }
        try save(samples)
    }

    /// Saves records an import has checked, all carrying both sync keys, by HealthKit's sync-version rule (see
    /// ``saveReporting(_:)``): a greater version replaces the stored sample of its key, an equal or lower one is not
    /// written. `dryRun`: only says what would happen. `imported`: what the import wrote before, which goes with a
    /// correlation version it leaves out (``SyncReplacement/Plan/discarded``).
    ///
    /// - Returns: What was (or would be) written, replaced and left out.
    func saveSyncedRecords(_ samples: [Sample], dryRun: Bool,
                           imported: SyncReplacement.ImportWrites = .none) throws -> SyncReplacement.Plan {
        if let file = self as? ImportSyncSaving {
            return try file.saveImportedSynced(samples, dryRun: dryRun, imported: imported)
        }
        if let health = self as? HealthStore {
            if dryRun { return try health.storage.saveImportedSynced(samples, dryRun: true, imported: imported) }
            var plan = SyncReplacement.Plan()
            try health.save(samples, checked: true, synced: { plan = $0 }, imported: imported)
            return plan
        }
        if let memory = self as? InMemorySampleStore {
            return try memory.saveSynced(samples, dryRun: dryRun, importing: true, imported: imported)
        }
        // A store that knows no sync identifiers saves everything (as its `saveReporting` does by default).
        if !dryRun { try save(samples) }
        return SyncReplacement.Plan(writes: samples)
    }
}

/// A store an import saves its records with sync identifiers into by HealthKit's rule, with what it did
/// (``JSONFileStore``).
protocol ImportSyncSaving {
    /// Saves records an import has checked, all carrying both sync keys: a greater version replaces the stored sample
    /// of its key, an equal or lower one is not written; `dryRun`: nothing is written.
    func saveImportedSynced(_ samples: [Sample], dryRun: Bool, imported: SyncReplacement.ImportWrites) throws -> SyncReplacement.Plan
}

extension JSONFileStore: ImportSyncSaving {}
