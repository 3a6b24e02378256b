/// Associating samples with a workout, as HealthKit's `HKHealthStore.add(_:to:completion:)`.
extension HealthStore {
    /// Associates `samples` with `workout`, as HealthKit's `add(_:to:)`: afterwards a query with
    /// `Query.predicateForObjects(from: workout)` finds them.
    ///
    /// The workout must be saved (by this source, unless this store is the owner's). As in HealthKit, the samples need
    /// not be: one made in code and not saved yet is saved by this call, checked as ``save(_:)-(HealthSample)`` checks
    /// it; a saved one must still be in the store. All or nothing: nothing is written when one sample fails. Adding a
    /// sample twice associates it once. Adding samples changes none of the workout's own figures (its totals, dates and
    /// statistics), as in HealthKit.
    ///
    /// What the store keeps: the association lives in the workout's own record. Deleting the workout deletes its
    /// associations (the samples stay); undoing that deletion restores them. Deleting an associated sample leaves it
    /// out of the answer; undoing the association itself (the store's undo of the last operation) removes the
    /// association and the samples this call saved, and keeps the workout as it was.
    ///
    /// - Throws: ``HealthError``: ``HealthError/Code/errorInvalidArgument`` for a workout not in the store, a sample
    ///   deleted since it was read, a workout among the samples, or a new sample that breaks a rule;
    ///   ``HealthError/Code/errorAuthorizationDenied`` for another source's workout or a type this source may not
    ///   write.
    public func add(_ samples: [HealthSample], to workout: Workout) async throws {
        let samples = samples.map(\.sample)
        try await BlockingWork.run { try add(samples, to: workout) }
    }

    /// HealthKit's completion-handler form of ``add(_:to:)-([HealthSample],_)``: `completion(true, nil)` once the
    /// samples are associated, else `completion(false, error)` with a ``HealthError``. Called on a thread of the
    /// library's own.
    public func add(_ samples: [HealthSample], to workout: Workout,
                    completion: @escaping @Sendable (Bool, Error?) -> Void) {
        let samples = samples.map(\.sample)
        BlockingWork.complete(completion) { try add(samples, to: workout) }
    }

    /// ``add(_:to:)-([HealthSample],_)`` on the caller's thread, for code that is not `async`.
    ///
    /// - Throws: the errors of ``add(_:to:)-([HealthSample],_)``, as the store reports them (``WorkoutError``,
    ///   ``AuthorizationError``, ``SampleError``, ``StoreError``...), not yet as ``HealthError``.
    public func add(_ samples: [Sample], to workout: Workout) throws {
        guard !samples.isEmpty else { return }
        // A value saved in code still looks unsaved in the caller's copy: the store tells which ones it holds.
        let unsaved = Set(samples.filter { $0.source == Sample.unsavedSource }.map(\.uuid))
        let stamped = try stampedForSaving(samples.filter { unsaved.contains($0.uuid) })
        let byUUID = Dictionary(stamped.map { ($0.uuid, $0) }, uniquingKeysWith: { first, _ in first })
        let all = samples.map { byUUID[$0.uuid] ?? $0 }
        let storage = self.storage
        try storage.associate(all, unsaved: unsaved, with: workout, source: isOwner ? nil : source,
                              now: clock())
    }
}
