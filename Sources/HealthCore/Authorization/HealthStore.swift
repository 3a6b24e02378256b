/// The store as one source sees it: HealthKit's `HKHealthStore` for a source.
///
/// Every write is checked against the owner's decisions; reads of a type the source may not read return only the
/// samples it wrote itself, without saying so. The owner (``AuthorizationState/ownerSource``) is allowed everything.
/// A source asks with ``requestAuthorization(toShare:read:identity:)`` and never grants itself anything; only the
/// owner decides (``decideAuthorization(for:allow:share:read:)``). Decisions made by another process are seen at
/// the next call, without opening the store again.
public struct HealthStore: SampleStore, Sendable {
    /// The storage underneath: a fresh ``JSONFileStore`` on the same folder for each use, so that a `HealthStore`
    /// can be shared across tasks and threads (a `JSONFileStore` instance belongs to one thread at a time).
    public var storage: JSONFileStore { makeStorage() }
    private let makeStorage: @Sendable () -> JSONFileStore
    /// What time it is for this store (its storage's clock), read without making a storage instance.
    let clock: @Sendable () -> Date
    /// The source acting.
    public let source: String
    /// The types, for names in messages.
    public let catalogue: SampleTypeCatalogue
    private let record = AuthorizationRecord()

    /// Opens the store for `source`.
    ///
    /// - Throws: ``TextError/sourceName(_:)`` for a source name ``TextRules`` refuses, ``StoreError`` when the
    ///   permissions cannot be read.
    public init(storage: JSONFileStore, source: String, catalogue: SampleTypeCatalogue = .standard) throws {
        try TextRules.checkSourceName(source)
        let (path, timeZone, lockTimeout, clock) = (storage.path, storage.codec.timeZone, storage.lockTimeout, storage.clock)
        // Each fresh instance records its writes as the same operation as `storage` (for `undo`), if it records.
        let recording = storage.recording
        makeStorage = {
            JSONFileStore(path: path, catalogue: catalogue, timeZone: timeZone, lockTimeout: lockTimeout, clock: clock,
                          recording: recording)
        }
        self.clock = clock
        self.timeZone = timeZone
        self.source = source
        self.catalogue = catalogue
        if source != AuthorizationState.ownerSource { _ = try record.current(in: storage) }
    }

    /// Opens the store in `directory` (created on the first write) for `source`, the owner by default.
    ///
    /// - Parameters:
    ///   - directory: The store folder.
    ///   - source: Who is acting: ``AuthorizationState/ownerSource`` for the person who owns the data, or a program's
    ///     name, which then needs the owner's permission for each type (``requestAuthorization(toShare:read:identity:)``).
    ///   - timeZone: The zone whose offsets written dates show.
    ///   - clock: What time it is (when samples made in code are created, when permissions are asked for); the system
    ///     clock by default.
    public init(directory: String, source: String = AuthorizationState.ownerSource, timeZone: ZoneRules = .gmt,
                clock: @escaping @Sendable () -> Date = { Date() }) throws {
        try self.init(storage: JSONFileStore(path: directory, timeZone: timeZone, clock: clock), source: source)
    }

    /// Opens the per-user default store, `$XDG_DATA_HOME/hkctl` (else `~/.local/share/hkctl`: the store format is
    /// shared with the hkctl tool, which opens the same folder), as the owner: HealthKit's `HKHealthStore()`.
    ///
    /// - Throws: ``StoreError/noDefaultLocation`` when neither `XDG_DATA_HOME` nor `HOME` is set.
    public init() throws {
        guard let directory = StoreLocation.userDefault(environment: ProcessInfo.processInfo.environment) else {
            throw StoreError.noDefaultLocation
        }
        try self.init(directory: directory, timeZone: .current)
    }

    /// Whether there is a per-user default store for ``init()`` to open, as HealthKit's `isHealthDataAvailable()`:
    /// false when neither `XDG_DATA_HOME` nor `HOME` is set (``init()`` would throw ``StoreError/noDefaultLocation``).
    /// A store in a folder of your choice (``init(directory:source:timeZone:clock:)``) is always available.
    public static func isHealthDataAvailable() -> Bool {
        StoreLocation.userDefault(environment: ProcessInfo.processInfo.environment) != nil
    }

    /// The zone of the calendar that statistics collections and nights follow.
    public let timeZone: ZoneRules

    /// The owner's decisions as they are now (nothing decided for the owner itself, who needs none).
    private var state: AuthorizationState {
        get throws { isOwner ? AuthorizationState() : try record.current(in: storage) }
    }

    /// Whether this is the owner.
    public var isOwner: Bool { source == AuthorizationState.ownerSource }

    private func type(_ identifier: String) -> SampleType { SampleType.lookUp(identifier, in: catalogue) }

    /// Saves samples written by this source, all or nothing, stamped with the version and device the source
    /// registered with `auth request`. A sample made in code and not saved yet (``HealthObject/isSaved``) becomes this
    /// source's, created now. Every sample is checked first (see ``JSONFileStore/save(_:)``).
    ///
    /// - Throws: ``AuthorizationError`` when the source may not write one of the types (nothing is saved).
    public func save(_ samples: [Sample]) throws { try save(samples, checked: false) }

    /// ``save(_:)``, saying what it did with HealthKit's sync identifiers (see ``JSONFileStore/saveReporting(_:)``):
    /// the samples are stamped with this source first, so a sync identifier matches only this source's samples.
    @discardableResult
    public func saveReporting(_ samples: [Sample]) throws -> SaveOutcome {
        var outcome = SaveOutcome(saved: [])
        try save(samples, checked: false) { outcome = $0 }
        return outcome
    }

    /// ``save(_:)``; `checked`: the samples were checked by an import (see ``SampleStore/saveImported(_:)``).
    /// `report` gets what the save did (only for an unchecked save, which follows sync identifiers). `synced`: checked
    /// samples that follow sync identifiers (``SampleStore/saveSyncedRecords(_:dryRun:imported:)``), given the plan
    /// carried out, with `imported` as there.
    func save(_ samples: [Sample], checked: Bool, report: ((SaveOutcome) -> Void)? = nil,
              synced: ((SyncReplacement.Plan) -> Void)? = nil, imported: SyncReplacement.ImportWrites = .none) throws {
        let storage = self.storage
        let write: ([Sample]) throws -> Void
        if let synced {
            write = { samples in synced(try storage.saveImportedSynced(samples, dryRun: false, imported: imported)) }
        } else if checked {
            write = storage.saveChecked
        } else {
            // Saved first, then reported: `report?(try save…)` would skip the save itself when there is no `report`.
            write = { samples in
                // Another source than the owner deletes only its own samples (a replaced correlation's members).
                let source = self.source, owner = isOwner
                let outcome = try storage.saveReporting(samples, mayDelete: { owner || $0 == source }, asOwner: owner)
                report?(outcome)
            }
        }
        try write(try stampedForSaving(samples))
    }

    /// `samples` as this source saves them: one made in code (`QuantitySample(type:quantity:start:end:)`) becomes
    /// this source's, created now; each carries the version and device the source registered unless it has its own.
    ///
    /// - Throws: ``AuthorizationError`` for another source's sample, or a type this source may not write.
    func stampedForSaving(_ samples: [Sample]) throws -> [Sample] {
        // A sample made in code (QuantitySample(type:quantity:start:end:)) is this source's, created now.
        var samples = samples
        let now = clock()
        for index in samples.indices where samples[index].source == Sample.unsavedSource {
            samples[index].source = source
            samples[index].created = Sample.millisecondPrecision(now)
        }
        guard !isOwner else { return samples }
        let state = try self.state
        let identity = state.identity(of: source)
        var stamped = samples
        for index in stamped.indices {
            let sample = stamped[index]
            guard sample.source == source else { throw AuthorizationError.wrongSource(sample: sample.source, saving: source) }
            // As in HealthKit, a correlation needs permission for its members' types, never for its own.
            for identifier in sample.detail?.correlation?.members.map(\.typeIdentifier) ?? [sample.typeIdentifier] {
                try state.checkShare(source: source, type: type(identifier))
            }
            // Every sample carries the version and device the source registered, unless it has its own.
            stamped[index].sourceVersion = sample.sourceVersion ?? identity.version
            stamped[index].device = sample.device ?? identity.device
        }
        return stamped
    }

    /// Throws unless this source may write every one of these types (the owner may write all). A correlation type
    /// needs no permission of its own, as in HealthKit: its members' types do.
    ///
    /// - Throws: ``AuthorizationError``.
    public func checkMaySave(_ identifiers: [String]) throws {
        guard !isOwner else { return }
        for identifier in identifiers where CorrelationType.identified(identifier) == nil {
            try state.checkShare(source: source, type: type(identifier))
        }
    }

    /// Whether this source sees every sample of the type, or only its own.
    public func readsEverything(ofType identifier: String) throws -> Bool {
        if isOwner { return true }
        return Self.reads(identifier, source: source, in: try self.state)
    }

    /// Whether `state` lets `source` read every sample of the type `identifier` (of a correlation type: its members').
    private static func reads(_ identifier: String, source: String, in state: AuthorizationState) -> Bool {
        if let correlation = CorrelationType.identified(identifier) {
            return correlation.readTypes.allSatisfy { state.mayRead(source: source, type: $0) }
        }
        return state.mayRead(source: source, type: identifier)
    }

    public func forEachSample(ofType identifier: String, overlapping interval: DateInterval,
                              _ body: (Sample) throws -> Void) throws {
        if identifier == WorkoutRoute.typeIdentifier { return try forEachRoute(overlapping: interval, body) }
        let everything = try readsEverything(ofType: identifier)
        try storage.forEachSample(ofType: identifier, overlapping: interval) { sample in
            if everything || sample.source == source { try body(sample) }
        }
    }

    public func latestSamples(ofType identifier: String, overlapping interval: DateInterval, limit: Int) throws -> [Sample] {
        if try readsEverything(ofType: identifier) {
            return try storage.latestSamples(ofType: identifier, overlapping: interval, limit: limit)
        }
        return Array(try samples(ofType: identifier, overlapping: interval).reversed().prefix(limit))
    }

    /// Changes since `anchor` that this source may see.
    ///
    /// With a limit, a page has `limit` changes this source may see unless fewer are left, however many it may not see
    /// lie between them, so that a page shorter than the limit means the changes are all delivered (as HealthKit's
    /// anchored queries are paged).
    public func changes(since anchor: ChangeAnchor, types: [String]? = nil, limit: Int? = nil) throws -> ChangeSet {
        guard !isOwner else { return try storage.changes(since: anchor, types: types, limit: limit) }
        let state = try self.state, source = self.source
        // Decided for each type as the read meets it (a type another writer adds meanwhile is decided too). A
        // deletion is visible when the source could read the type, or when the sample was its own.
        var readable: [String: Bool] = [:]
        return try storage.changes(since: anchor, types: types, limit: limit) { type, owner in
            if owner == source { return true }
            if let known = readable[type] { return known }
            let reads = Self.reads(type, source: source, in: state)
            readable[type] = reads
            return reads
        }
    }

    /// The samples with these uuids that this source may delete (its own; the owner's: all).
    public func deletable(_ samples: [Sample]) -> [Sample] {
        isOwner ? samples : samples.filter { $0.source == source }
    }
}

// MARK: - Authorization, as HealthKit's HKHealthStore has it

extension HealthStore {
    /// Whether this source may write samples of `type`: HealthKit's `authorizationStatus(for:)`, which does not throw
    /// either. As in HealthKit, whether it may read is never revealed to the source. The owner is always
    /// ``AuthorizationStatus/sharingAuthorized``.
    ///
    /// When the owner's decisions cannot be read (the permissions file is unreadable or damaged), nothing is known of
    /// them and this answers ``AuthorizationStatus/notDetermined``: it never claims a permission it cannot see, and
    /// the next call that needs the decisions (``requestAuthorization(toShare:read:identity:)``,
    /// ``statusForAuthorizationRequest(toShare:read:)``, a save) throws the ``StoreError`` that says what is wrong.
    public func authorizationStatus(for type: SampleType) -> AuthorizationStatus {
        (try? state.shareStatus(source: source, type: type.identifier)) ?? .notDetermined
    }

    /// Whether asking for these types would show the owner anything new: HealthKit's
    /// `statusForAuthorizationRequest(toShare:read:)`.
    public func statusForAuthorizationRequest(toShare share: Set<SampleType>, read: Set<ObjectType>) throws
        -> AuthorizationRequestStatus {
        try state.requestStatus(source: source, share: share.map(\.identifier), read: read.map(\.identifier))
    }

    /// ``statusForAuthorizationRequest(toShare:read:)`` without blocking the caller's task.
    public func statusForAuthorizationRequest(toShare share: Set<SampleType>, read: Set<ObjectType>) async throws
        -> AuthorizationRequestStatus {
        try await BlockingWork.run { try statusForAuthorizationRequest(toShare: share, read: read) }
    }

    /// HealthKit's completion-handler form of ``statusForAuthorizationRequest(toShare:read:)``.
    public func getRequestStatusForAuthorization(toShare share: Set<SampleType>, read: Set<ObjectType>,
                                                 completion: @escaping @Sendable (AuthorizationRequestStatus, Error?) -> Void) {
        BlockingWork.start {
            do {
                completion(try BlockingWork.healthErrors { try statusForAuthorizationRequest(toShare: share, read: read) }, nil)
            } catch {
                completion(.unknown, error)
            }
        }
    }

    /// Asks the owner for permission to write `share` and read `read`: HealthKit's
    /// `requestAuthorization(toShare:read:)`, whose sets are optional too (nil asks for nothing of that kind). The request is recorded for the owner (``authorizationDecisions()`` lists it); nothing
    /// is granted by asking, and as in HealthKit success means only that the request was recorded. The owner
    /// needs no permission, so for the owner this does nothing.
    ///
    /// - Parameter identity: What the source says about itself; its version and device are stamped on the samples it
    ///   saves. Fields left nil keep what an earlier request said.
    /// - Throws: ``AuthorizationError/cannotShare(_:)`` for a type no source may write,
    ///   ``AuthorizationError/emptyRequest``, ``StoreError``.
    public func requestAuthorization(toShare share: Set<SampleType>?, read: Set<ObjectType>?,
                                     identity: AuthorizationState.Identity = AuthorizationState.Identity()) throws {
        guard !isOwner else { return }
        let now = clock()
        let (share, read) = (Self.ordered(share ?? []), Self.ordered(read ?? []))
        // Checked before the write, so a refused request leaves the file untouched; one that asks nothing new is
        // not written (HealthKit shows no sheet then).
        var probe = try state
        let status = probe.requestStatus(source: source, share: share.map(\.identifier), read: read.map(\.identifier))
        try probe.request(source: source, share: share, read: read, identity: identity, at: now)
        guard status == .shouldRequest else { return }
        try storage.updatePrivateDocument(AuthorizationRecord.fileName, initial: AuthorizationState()) {
            try $0.request(source: source, share: share, read: read, identity: identity, at: now)
        }
    }

    /// ``requestAuthorization(toShare:read:identity:)`` without blocking the caller's task.
    public func requestAuthorization(toShare share: Set<SampleType>?, read: Set<ObjectType>?,
                                     identity: AuthorizationState.Identity = AuthorizationState.Identity()) async throws {
        try await BlockingWork.run { try requestAuthorization(toShare: share, read: read, identity: identity) }
    }

    /// HealthKit's completion-handler form of ``requestAuthorization(toShare:read:identity:)``.
    public func requestAuthorization(toShare share: Set<SampleType>?, read: Set<ObjectType>?,
                                     completion: @escaping @Sendable (Bool, Error?) -> Void) {
        BlockingWork.complete(completion) { try requestAuthorization(toShare: share, read: read) }
    }

    // MARK: The owner's side

    /// Every source's permissions and the log of changes, for the owner.
    ///
    /// - Throws: ``AuthorizationError/ownerOnly(source:)`` for any other source, ``StoreError``.
    public func authorizationDecisions() throws -> AuthorizationState {
        try requireOwner(to: "read every source's permissions")
        return try record.current(in: storage)
    }

    /// The owner allows (`allow`) or denies `source` writing `share` and reading `read`.
    ///
    /// - Throws: ``AuthorizationError/ownerOnly(source:)`` unless this is the owner; ``AuthorizationError`` or
    ///   ``TextError`` for a decision that cannot be made (nothing is written then); ``StoreError``.
    public func decideAuthorization(for source: String, allow: Bool, share: Set<SampleType>, read: Set<ObjectType>) throws {
        try requireOwner()
        let now = clock()
        let (share, read) = (Self.ordered(share), Self.ordered(read))
        var probe = try record.current(in: storage)
        try probe.decide(source: source, allow: allow, share: share, read: read, at: now)
        try storage.updatePrivateDocument(AuthorizationRecord.fileName, initial: AuthorizationState()) {
            try $0.decide(source: source, allow: allow, share: share, read: read, at: now)
        }
    }

    /// The owner forgets its decisions for `source` about `types` (all when nil): back to not determined.
    ///
    /// - Throws: ``AuthorizationError/ownerOnly(source:)`` unless this is the owner, ``StoreError``.
    public func revokeAuthorization(for source: String, types: Set<ObjectType>? = nil) throws {
        try requireOwner()
        let now = clock()
        let chosen = types.map(Self.ordered)
        try storage.updatePrivateDocument(AuthorizationRecord.fileName, initial: AuthorizationState()) {
            $0.revoke(source: source, types: chosen, at: now)
        }
    }

    /// Throws unless this is the owner; `action` completes "Only the owner may".
    private func requireOwner(to action: String = "change permissions") throws {
        guard isOwner else { throw AuthorizationError.ownerOnly(source: source, action: action) }
    }

    /// The types in a fixed order (by identifier), so the log and messages do not depend on a set's order.
    private static func ordered<Type: ObjectType>(_ types: Set<Type>) -> [Type] {
        types.sorted { $0.identifier < $1.identifier }
    }
}
