/// Tells you when samples of a type may have changed: HealthKit's `HKObserverQuery`.
///
/// Run it with ``HealthStore/execute(_:)``; it calls `updateHandler` once when it starts (as HealthKit does) and again
/// after each write, from any process, that adds a sample of the type matching the predicate or deletes one of the
/// type, until ``HealthStore/stop(_:)``. The handler learns only that something changed; ask with an
/// ``AnchoredObjectQuery`` what. It runs on a thread of the query's own, never on Swift concurrency's pool, one call at
/// a time; if its first read of the store fails, the handler gets the error and the query stops, while a later error
/// leaves it running. The completion handler it receives exists for HealthKit's signature: calling it is harmless and not
/// required (there is no app for the system to put back to sleep). See ``Query`` for running and stopping.
public final class ObserverQuery: Query, @unchecked Sendable {
    /// The handler's signature: the query, the completion handler, and the error that stopped the store from being
    /// read (the query keeps running and calls again after the next change).
    public typealias UpdateHandler = @Sendable (ObserverQuery, @escaping @Sendable () -> Void, Error?) -> Void

    private let observedType: SampleType
    private let updateHandler: UpdateHandler
    /// Where the last look at the store ended; nil until the query has started. Guarded by ``Query/locked(_:)``.
    private var anchor: ChangeAnchor?

    /// Creates a query of `sampleType`, whose additions count when `predicate` (nil: every sample) selects them;
    /// every deletion of the type counts. Nothing happens until ``HealthStore/execute(_:)``.
    public init(sampleType: SampleType, predicate: SamplePredicate?, updateHandler: @escaping UpdateHandler) {
        observedType = sampleType
        self.updateHandler = updateHandler
        super.init(sampleType: sampleType, predicate: predicate)
    }

    override func run(on store: HealthStore) {
        // Watching starts before the anchor is read, so a write between the two is never missed.
        guard watch(store, onChange: { [self] in check(store) }) else { return }
        switch Result(catching: { try store.storage.currentAnchor() }) {
        case .success(let position):
            locked { anchor = position }
            notify(nil)
        case .failure(let error):
            notify(error)
            stop()
        }
    }

    /// After a wake-up: calls the handler if a sample of the type that the predicate selects was added, or one of the
    /// type deleted, since the last look.
    private func check(_ store: HealthStore) {
        guard let from = locked({ anchor }) else { return }
        do {
            let changes = try store.changes(since: from, types: [observedType.identifier])
            locked { anchor = changes.anchor }
            if !changes.deleted.isEmpty || changes.added.contains(where: selects) {
                notify(nil)
            }
        } catch ChangeError.anchorExpired {
            // Compaction dropped deletions after the anchor: something may have changed, start again from now.
            if let now = try? store.storage.currentAnchor() { locked { anchor = now } }
            notify(nil)
        } catch {
            notify(error)
        }
    }

    private func notify(_ error: Error?) {
        deliver { updateHandler(self, {}, error.map { HealthError($0) }) }
    }
}
