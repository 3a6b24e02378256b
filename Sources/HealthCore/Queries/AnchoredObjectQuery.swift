/// The samples added and deleted since an anchor, once or as they happen: HealthKit's `HKAnchoredObjectQuery`.
///
/// ```swift
/// let query = AnchoredObjectQuery(type: QuantityType(.dietaryWater), predicate: nil, anchor: savedAnchor,
///                                 limit: ObjectQueryNoLimit) { _, added, deleted, newAnchor, error in
///     savedAnchor = newAnchor   // the next query starts here
/// }
/// query.updateHandler = { _, added, deleted, newAnchor, error in /* after each change */ }
/// store.execute(query)
/// ```
///
/// It calls the results handler once with what ``AnchoredObjectQueryDescriptor`` finds after the anchor (the
/// predicate selects the added samples; every deletion of the type is reported, as in HealthKit). With an
/// ``updateHandler`` it keeps running: after each change to the store, from any process, that adds or deletes a sample
/// it reports, it calls that handler with the change and the anchor after it, until ``HealthStore/stop(_:)``. When a
/// limit cuts an answer short, the update handler is called with the rest at once, page by page, without waiting for a
/// change (HealthKit allows an update handler only without a limit). Set the handlers before executing the query.
/// See ``Query`` for running and stopping.
public final class AnchoredObjectQuery: Query, @unchecked Sendable {
    /// The handler's signature: the query, the added samples, the deletions, the anchor after them (all nil on an
    /// error), and the error.
    public typealias ResultsHandler =
        @Sendable (AnchoredObjectQuery, [HealthSample]?, [DeletedObject]?, QueryAnchor?, Error?) -> Void

    /// Where the query starts: nil for the beginning of the store.
    public let anchor: QueryAnchor?
    /// At most this many samples and deletions per answer; ``ObjectQueryNoLimit`` (0) for all.
    public let limit: Int
    private let descriptor: AnchoredObjectQueryDescriptor<HealthSample>
    private let resultsHandler: ResultsHandler
    /// Guarded by ``Query/locked(_:)``.
    private var updates: ResultsHandler?
    /// Where the last answer ended; nil until the first answer. Only the query's threads use it, under ``reading``.
    private var position: QueryAnchor?
    /// Held while the store is read and answered from, so that an update never overtakes the first answer.
    private let reading = Lock()

    /// Set, it keeps the query running and is called after each change with what changed, as `updateHandler`. An
    /// error (a ``HealthError``) does not stop the query (it tries again after the next change), except one wrapping
    /// ``ChangeError/anchorExpired(_:)``: compaction dropped deletions it has not reported, so it stops; start again
    /// from a nil anchor.
    public var updateHandler: ResultsHandler? {
        get { locked { updates } }
        set { locked { updates = newValue } }
    }

    /// Creates a query; nothing happens until ``HealthStore/execute(_:)``.
    ///
    /// - Parameters:
    ///   - type: The type.
    ///   - predicate: The added samples wanted, or nil for all of the type.
    ///   - anchor: Where to start: nil for the beginning, or the anchor an earlier answer gave.
    ///   - limit: At most this many samples and deletions (counted together) per answer; ``ObjectQueryNoLimit`` (0,
    ///     or any number below 1) for all.
    ///   - resultsHandler: Called once with the first answer or the error, a ``HealthError`` wrapping
    ///     ``ChangeError/anchorFromTheFuture(_:)`` for an anchor of another store, ``ChangeError/anchorExpired(_:)``, or
    ///     a store error.
    public init(type: SampleType, predicate: SamplePredicate?, anchor: QueryAnchor?, limit: Int,
                resultsHandler: @escaping ResultsHandler) {
        self.anchor = anchor
        self.limit = limit
        descriptor = AnchoredObjectQueryDescriptor<HealthSample>(predicates: [.sample(type: type, predicate: predicate)], anchor: anchor,
                                                   limit: limit > 0 ? limit : nil)
        self.resultsHandler = resultsHandler
        super.init(sampleType: type, predicate: predicate)
    }

    override func run(on store: HealthStore) {
        reading.lock()
        defer { reading.unlock() }
        let updating = updateHandler != nil
        // Watching starts before the first read, so a write between the two is never missed.
        if updating {
            guard watch(store, onChange: { [self] in check(store) }) else { return }
        }
        let result = Result { try descriptor.run(on: store, after: anchor) }
        deliver { answer(resultsHandler, result) }
        guard updating, case .success(let first) = result else { return stop() }
        position = first.newAnchor
        if isCutShort(first) { readOn(store) }
    }

    /// After a wake-up: calls the update handler with what changed since the last answer, if anything.
    private func check(_ store: HealthStore) {
        reading.lock()
        defer { reading.unlock() }
        readOn(store)
    }

    /// Reads from ``position`` page by page until an answer is not cut short, calling the update handler with each
    /// one that holds something. Called with ``reading`` held.
    private func readOn(_ store: HealthStore) {
        while let from = position, !isStopped {
            let result = Result { try descriptor.run(on: store, after: from) }
            let handler = updateHandler
            switch result {
            case .success(let answer):
                position = answer.newAnchor
                if !answer.isEmpty { deliver { self.answer(handler, result) } }
                guard isCutShort(answer) else { return }
            case .failure(let error):
                deliver { self.answer(handler, result) }
                if case ChangeError.anchorExpired = error { stop() }
                return
            }
        }
    }

    /// Whether a limit cut `answer` short, so that more may follow at once.
    private func isCutShort(_ answer: AnchoredObjectQueryDescriptor<HealthSample>.Result) -> Bool {
        limit > 0 && answer.addedSamples.count + answer.deletedObjects.count >= limit
    }

    private func answer(_ handler: ResultsHandler?, _ result: Result<AnchoredObjectQueryDescriptor<HealthSample>.Result, Error>) {
        switch result {
        case .success(let answer): handler?(self, answer.addedSamples, answer.deletedObjects, answer.newAnchor, nil)
        case .failure(let error): handler?(self, nil, nil, nil, HealthError(error))
        }
    }
}
