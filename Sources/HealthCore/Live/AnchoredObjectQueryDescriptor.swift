/// The samples added and deleted since an anchor: HealthKit's `HKAnchoredObjectQueryDescriptor<Sample>`; `Kind`
/// follows the predicates (``QuantitySample`` for `.quantitySample(type:)`, ``HealthSample`` for `.sample(type:)`,
/// each added sample of the class of its kind).
///
/// ``result(for:)`` answers once; ``results(for:)`` answers, then answers again each time the store changes, from any
/// process, until the task iterating it is cancelled. Only the predicates' types are looked at; their conditions
/// (dates, sources, metadata, uuids) select the added samples, while every deletion of those types is reported (a
/// deleted sample's dates and metadata are gone, as in HealthKit). A source that may not read a type sees only its
/// own samples and their deletions.
public struct AnchoredObjectQueryDescriptor<Kind: HealthSample>: Sendable {
    /// The types and conditions; a sample matching any one is returned.
    public var predicates: [SampleTypePredicate<Kind>]
    /// Where to start: nil for the beginning of the store.
    public var anchor: QueryAnchor?
    /// At most this many samples and deletions per result; nil (or 0, HealthKit's `HKObjectQueryNoLimit`) for all.
    /// When a result is cut short, ``results(for:)`` delivers the rest at once, without waiting for a change.
    public var limit: Int?

    /// Creates a descriptor.
    public init(predicates: [SampleTypePredicate<Kind>], anchor: QueryAnchor?, limit: Int? = nil) {
        self.predicates = predicates
        self.anchor = anchor
        self.limit = limit
    }

    /// One answer: what changed after an anchor.
    public struct Result: Sendable {
        /// Samples added after the anchor and not deleted since, oldest change first.
        public let addedSamples: [Kind]
        /// Samples of the types deleted after the anchor, oldest first.
        public let deletedObjects: [DeletedObject]
        /// The anchor to pass next time: after the last change this result covers.
        public let newAnchor: QueryAnchor

        /// Whether nothing was added or deleted.
        var isEmpty: Bool { addedSamples.isEmpty && deletedObjects.isEmpty }
    }

    /// What changed after ``anchor``.
    ///
    /// - Throws: ``HealthError``: ``HealthError/Code/errorInvalidArgument`` wrapping ``ChangeError/anchorFromTheFuture(_:)``
    ///   for an anchor of another store or ``ChangeError/anchorExpired(_:)`` when compaction has dropped deletions
    ///   after it; ``HealthError/Code/errorDatabaseInaccessible`` for store errors.
    public func result(for store: HealthStore) async throws -> Result {
        try await BlockingWork.run { try run(on: store, after: anchor) }
    }

    /// The first answer, then a new one each time the store changes (only when something of the predicates' types was
    /// added or deleted), until the iterating task is cancelled. Changes are seen from any process: the store is
    /// watched with a ``StoreChangeMonitor``, which is stopped when the sequence ends.
    public func results(for store: HealthStore) -> AsyncThrowingStream<Result, Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Result.self)
        let task = Task {
            do {
                // Watching starts before the first read, so a write between the two is never missed.
                let changes = await StoreChangeMonitor.changes(in: store.storage.path)
                var anchor = try await deliver(after: anchor, to: continuation, store: store, first: true)
                for await _ in changes {
                    anchor = try await deliver(after: anchor, to: continuation, store: store, first: false)
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Yields what changed after `anchor` (the first result even when empty), page by page when a limit cuts it
    /// short; returns the anchor after the last one.
    private func deliver(after anchor: QueryAnchor?, to continuation: AsyncThrowingStream<Result, Error>.Continuation,
                         store: HealthStore, first: Bool) async throws -> QueryAnchor? {
        var anchor = anchor
        var first = first
        while !Task.isCancelled {
            let from = anchor
            let result = try await BlockingWork.run { try run(on: store, after: from) }
            if first || !result.isEmpty { continuation.yield(result) }
            first = false
            anchor = result.newAnchor
            guard let limit = effectiveLimit, result.addedSamples.count + result.deletedObjects.count >= limit else { break }
        }
        return anchor
    }

    private var effectiveLimit: Int? { limit.flatMap { $0 > 0 ? $0 : nil } }

    func run(on store: HealthStore, after anchor: QueryAnchor?) throws -> Result {
        // Routes live inside their workouts: a query of routes reads the workouts' changes (``WorkoutRoute/changes(_:)``).
        let routes = predicates.contains { $0.sampleType.identifier == WorkoutRoute.typeIdentifier }
        let workouts = predicates.contains { $0.sampleType.identifier == Workout.typeIdentifier }
        var identifiers: [String] = []
        for predicate in predicates {
            let identifier = predicate.sampleType.identifier == WorkoutRoute.typeIdentifier ? Workout.typeIdentifier
                : predicate.sampleType.identifier
            if !identifiers.contains(identifier) { identifiers.append(identifier) }
        }
        var position = anchor?.changeAnchor ?? .beginning
        var added: [Kind] = []
        var deleted: [DeletedObject] = []
        guard !identifiers.isEmpty else { return Result(addedSamples: [], deletedObjects: [], newAnchor: QueryAnchor(position)) }
        let resolved = try predicates.map { try $0.resolvingWorkout(in: store) }
        // Conditions are applied after the store's limit, so pages are fetched until the limit is filled.
        while true {
            let wanted = effectiveLimit.map { $0 - added.count - deleted.count }
            let set = try store.changes(since: position, types: identifiers, limit: wanted)
            let changes: (added: [Sample], deleted: [Tombstone]) = routes ? WorkoutRoute.changes(set, keepingWorkouts: workouts)
                : (set.added, set.deleted)
            added += try HealthSample.objects(of: changes.added.filter { sample in resolved.contains { $0.matches(sample) } },
                                              in: store).compactMap { $0 as? Kind }
            deleted += changes.deleted.map(DeletedObject.init)
            position = set.anchor
            guard let wanted, set.added.count + set.deleted.count >= wanted,
                  added.count + deleted.count < effectiveLimit ?? 0 else { break }
        }
        return Result(addedSamples: added, deletedObjects: deleted, newAnchor: QueryAnchor(position))
    }
}
