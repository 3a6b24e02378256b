import TextSupport

/// Saving and deleting objects as HealthKit's `HKHealthStore` does: `async`, with completion-handler forms, throwing
/// ``HealthError``.
extension HealthStore {
    // MARK: Saving

    /// Saves one object (a ``QuantitySample``, ``CategorySample``, ``Workout`` or ``Correlation``), as HealthKit's
    /// `save(_:)`. It is checked as every save is (see ``JSONFileStore/save(_:)``): nothing that could break a later
    /// read is written, and a sample already stored (the same value saved again) is refused
    /// (``HealthError/Code/errorInvalidArgument``).
    public func save(_ object: HealthObject) async throws {
        try await save([object])
    }

    /// Saves objects, all or nothing, as HealthKit's `save(_:)` for an array.
    ///
    /// - Throws: ``HealthError``: ``HealthError/Code/errorInvalidArgument`` for a sample that breaks a rule,
    ///   ``HealthError/Code/errorAuthorizationNotDetermined`` or ``HealthError/Code/errorAuthorizationDenied`` for a
    ///   type this source may not write, ``HealthError/Code/errorDatabaseInaccessible`` for a store it cannot write.
    public func save(_ objects: [HealthObject]) async throws {
        let samples = objects.map(\.sample)
        try await BlockingWork.run { try save(samples) }
    }

    /// HealthKit's completion-handler form of ``save(_:)-(HealthObject)``: `completion(true, nil)` once saved, else
    /// `completion(false, error)` with a ``HealthError``. Called on a thread of the library's own.
    public func save(_ object: HealthObject, withCompletion completion: @escaping @Sendable (Bool, Error?) -> Void) {
        save([object], withCompletion: completion)
    }

    /// HealthKit's completion-handler form of ``save(_:)-([HealthObject])``.
    public func save(_ objects: [HealthObject], withCompletion completion: @escaping @Sendable (Bool, Error?) -> Void) {
        let samples = objects.map(\.sample)
        BlockingWork.complete(completion) { try save(samples) }
    }

    // MARK: Deleting

    /// Deletes one object, as HealthKit's `delete(_:)`. A source deletes only the samples it saved; the owner any.
    /// Deleting a correlation deletes its members. The deletion is seen by anchored queries as a ``DeletedObject``.
    public func delete(_ object: HealthObject) async throws {
        try await delete([object])
    }

    /// Deletes objects, all or nothing, as HealthKit's `delete(_:)` for an array.
    ///
    /// - Throws: ``HealthError``: ``HealthError/Code/errorAuthorizationDenied`` for another source's sample,
    ///   ``HealthError/Code/errorInvalidArgument`` for one that is not in the store (or already deleted).
    public func delete(_ objects: [HealthObject]) async throws {
        let samples = objects.map(\.sample)
        try await BlockingWork.run { try delete(samples) }
    }

    /// HealthKit's completion-handler form of ``delete(_:)-(HealthObject)``.
    public func delete(_ object: HealthObject, withCompletion completion: @escaping @Sendable (Bool, Error?) -> Void) {
        let samples = [object.sample]
        BlockingWork.complete(completion) { try delete(samples) }
    }

    /// HealthKit's completion-handler form of ``delete(_:)-([HealthObject])``.
    public func delete(_ objects: [HealthObject], withCompletion completion: @escaping @Sendable (Bool, Error?) -> Void) {
        let samples = objects.map(\.sample)
        BlockingWork.complete(completion) { try delete(samples) }
    }

    /// Deletes every sample of `type` the predicate selects that this source may delete (its own; the owner: all),
    /// as HealthKit's `deleteObjects(of:predicate:)`.
    ///
    /// - Returns: How many samples were deleted (a correlation's members are deleted with it and not counted).
    public func deleteObjects(of type: SampleType, predicate: SamplePredicate) async throws -> Int {
        try await BlockingWork.run { try deleteObjects(ofType: type, predicate: predicate) }
    }

    /// HealthKit's completion-handler form of ``deleteObjects(of:predicate:)``: `completion(success, count, error)`.
    public func deleteObjects(of type: SampleType, predicate: SamplePredicate,
                              withCompletion completion: @escaping @Sendable (Bool, Int, Error?) -> Void) {
        BlockingWork.start {
            do {
                let count = try BlockingWork.healthErrors { try deleteObjects(ofType: type, predicate: predicate) }
                completion(true, count, nil)
            } catch {
                completion(false, 0, error)
            }
        }
    }

    /// Deletes stored samples by uuid, all or nothing, after checking that this source may delete each.
    func delete(_ samples: [Sample]) throws {
        guard !samples.isEmpty else { return }
        // A value saved in code keeps an empty source in the caller's copy: the store checks its owner below.
        if !isOwner, let foreign = samples.first(where: { $0.source != source && $0.source != Sample.unsavedSource }) {
            throw AuthorizationError.notOwnSample(uuid: foreign.uuid.lowercasedText, sampleSource: foreign.source,
                                                  source: source)
        }
        let storage = self.storage
        // Only the objects' own types (and a correlation's members'), so a uuid another type shares is left alone.
        var types = Set<String>()
        for sample in samples {
            types.insert(sample.typeIdentifier)
            for member in sample.detail?.correlation?.members ?? [] { types.insert(member.typeIdentifier) }
        }
        try storage.delete(uuids: samples.map(\.uuid), now: clock(), source: isOwner ? nil : source, types: types)
    }

    /// ``deleteObjects(of:predicate:)`` on the caller's thread.
    func deleteObjects(ofType type: SampleType, predicate: SamplePredicate) throws -> Int {
        let predicate = try predicate.resolvingWorkout(in: self)
        let interval = predicate.interval ?? DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
        var chosen: [UUID] = []
        try forEachSample(ofType: type.identifier, overlapping: interval) { sample in
            if predicate.matches(sample, in: interval) && (isOwner || sample.source == source) { chosen.append(sample.uuid) }
        }
        guard !chosen.isEmpty else { return 0 }
        let storage = self.storage
        // A sample another process deleted meanwhile is skipped rather than failing the rest.
        // A correlation's members are of other types: then every type is looked at.
        let types: Set<String>? = CorrelationType.identified(type.identifier) == nil ? [type.identifier] : nil
        let tombstones = try storage.delete(uuids: chosen, now: clock(), ignoringMissing: true,
                                            source: isOwner ? nil : source, types: types)
        let wanted = Set(chosen)
        return tombstones.filter { wanted.contains($0.uuid) }.count
    }
}
