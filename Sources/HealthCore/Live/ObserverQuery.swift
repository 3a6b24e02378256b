/// Tells you when samples of a type may have changed: HealthKit's `HKObserverQuery`.
///
/// Run it with ``HealthStore/execute(_:)``; it calls `updateHandler` once when it starts (as HealthKit does) and again
/// after each write, from any process, that adds a sample of the type matching the predicate or deletes one of the
/// type, until ``HealthStore/stop(_:)``. The handler learns only that something changed; ask with an
/// ``AnchoredObjectQueryDescriptor`` what. It runs on a thread of the query's own, never on Swift concurrency's pool,
/// one call at a time. The completion handler it receives exists for HealthKit's signature: calling it is harmless
/// and not required (there is no app for the system to put back to sleep).
public final class ObserverQuery: @unchecked Sendable {
    /// The handler's signature: the query, the completion handler, and the error that stopped the store from being
    /// read (the query keeps running and calls again after the next change).
    public typealias UpdateHandler = @Sendable (ObserverQuery, @escaping @Sendable () -> Void, Error?) -> Void

    /// The type observed.
    public let sampleType: SampleType
    /// The samples whose additions count; nil for all. Every deletion of the type counts.
    public let predicate: SamplePredicate?
    private let updateHandler: UpdateHandler
    /// Guards ``monitor``, ``anchor`` and ``stopped``.
    private let state = Lock()
    /// Held while the handler runs, so calls never overlap.
    private let delivery = Lock()
    private var monitor: StoreChangeMonitor?
    private var anchor: ChangeAnchor?
    private var started = false
    private var stopped = false

    /// Creates a query; nothing happens until ``HealthStore/execute(_:)``.
    public init(sampleType: SampleType, predicate: SamplePredicate?, updateHandler: @escaping UpdateHandler) {
        self.sampleType = sampleType
        self.predicate = predicate
        self.updateHandler = updateHandler
    }

    /// Starts watching `store` (once; a query executed again or after stopping does nothing, as in HealthKit).
    func start(on store: HealthStore) {
        state.lock()
        guard !started else { return state.unlock() }
        started = true
        state.unlock()
        BlockingWork.start { [self] in
            // Watching starts before the anchor is read, so a write between the two is never missed.
            // The monitor holds the query, as HealthKit's store holds an executing query: `store.execute(query)` without
            // keeping `query` works, and ``stop()`` releases both.
            let monitor = StoreChangeMonitor(store: store) { self.check(store) }
            let position: Result<ChangeAnchor, Error> = Result { try store.storage.currentAnchor() }
            state.lock()
            if stopped {
                state.unlock()
                return monitor.stop()
            }
            self.monitor = monitor
            anchor = try? position.get()
            state.unlock()
            switch position {
            case .success: deliver(nil)
            case .failure(let error):
                deliver(error)
                stop()
            }
        }
    }

    /// Stops the query: the handler is not called again once a call in progress returns.
    func stop() {
        state.lock()
        stopped = true
        let monitor = self.monitor
        self.monitor = nil
        state.unlock()
        monitor?.stop()
    }

    /// After a wake-up: calls the handler if a sample of the type that the predicate selects was added, or one of the
    /// type deleted, since the last look.
    private func check(_ store: HealthStore) {
        state.lock()
        let from = anchor
        state.unlock()
        guard let from else { return }
        do {
            let changes = try store.changes(since: from, types: [sampleType.identifier])
            setAnchor(changes.anchor)
            let interval = predicate?.interval ?? DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
            if !changes.deleted.isEmpty || changes.added.contains(where: { predicate?.matches($0, in: interval) ?? true }) {
                deliver(nil)
            }
        } catch ChangeError.anchorExpired {
            // Compaction dropped deletions after the anchor: something may have changed, start again from now.
            if let now = try? store.storage.currentAnchor() { setAnchor(now) }
            deliver(nil)
        } catch {
            deliver(error)
        }
    }

    private func setAnchor(_ value: ChangeAnchor) {
        state.lock()
        anchor = value
        state.unlock()
    }

    private var isStopped: Bool {
        state.lock()
        defer { state.unlock() }
        return stopped
    }

    private func deliver(_ error: Error?) {
        delivery.lock()
        defer { delivery.unlock() }
        guard !isStopped else { return }
        updateHandler(self, {}, error)
    }
}
