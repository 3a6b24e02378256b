/// The base of the handler-based queries: HealthKit's `HKQuery`.
///
/// Create one of its classes (``SampleQuery``, ``StatisticsQuery``, ``StatisticsCollectionQuery``,
/// ``AnchoredObjectQuery``, ``SourceQuery``, ``ObserverQuery``) with its handler, then pass it to
/// ``HealthStore/execute(_:)``. The store keeps an executing query alive: there is no need to hold on to it.
///
/// - A query answers on a thread of the library's own, never on Swift concurrency's pool; one query's handlers are
///   called one at a time.
/// - A one-shot query (``SampleQuery``, ``StatisticsQuery``, ``SourceQuery``, and the others without an update
///   handler) calls its handler once and is done. A long-running one (an ``ObserverQuery``, a
///   ``StatisticsCollectionQuery`` with a ``StatisticsCollectionQuery/statisticsUpdateHandler``, an
///   ``AnchoredObjectQuery`` with an ``AnchoredObjectQuery/updateHandler``) answers again after each change to the
///   store, from any process, until ``HealthStore/stop(_:)``.
/// - ``HealthStore/stop(_:)`` ends a query within milliseconds: once it returns, no new handler call of the query
///   begins, except one that was starting at that very moment (a call already running finishes). Stopping a one-shot query before it answers means it never does.
/// - A query runs once, as in HealthKit. Executing it again, or after it was stopped, does nothing (HealthKit raises
///   an exception instead), so a query stopped before it is executed never runs; stopping twice does nothing. To ask
///   again, create a new query.
///
/// `Query` also holds HealthKit's predicate builders, such as ``predicateForSamples(withStart:end:options:)``.
/// Only this module defines its classes.
public class Query: @unchecked Sendable {
    /// The type the query reads, as `HKQuery.sampleType`.
    public let sampleType: SampleType?
    /// The type the query reads, as `HKQuery.objectType` (the same type as ``sampleType``: every query here reads
    /// samples).
    public var objectType: ObjectType? { sampleType }
    /// The conditions samples must meet, or nil for every sample of the type, as `HKQuery.predicate`.
    public let predicate: SamplePredicate?

    /// Where a query is in its life.
    private enum Phase {
        case created, running, stopped
    }

    /// Guards ``phase``, ``monitor`` and what subclasses keep with ``locked(_:)``.
    private let state = Lock()
    /// Held while a handler runs, so that calls never overlap.
    private let delivery = Lock()
    private var phase = Phase.created
    private var monitor: StoreChangeMonitor?

    /// Creates a query of `sampleType` whose samples meet `predicate`.
    init(sampleType: SampleType?, predicate: SamplePredicate?) {
        self.sampleType = sampleType
        self.predicate = predicate
    }

    /// Starts the query's work on a thread of its own, the first time only.
    final func execute(on store: HealthStore) {
        state.lock()
        guard phase == .created else { return state.unlock() }
        phase = .running
        state.unlock()
        BlockingWork.start { [self] in run(on: store) }
    }

    /// The query's work, on a thread of its own: read the store, ``deliver(_:)`` the answer, and either ``stop()``
    /// (a one-shot query) or ``watch(_:onChange:)`` the store. Every class overrides it.
    func run(on store: HealthStore) {
        stop()
    }

    /// Stops the query: no handler is called once a call in progress returns, and the store is no longer watched.
    final func stop() {
        state.lock()
        phase = .stopped
        let monitor = self.monitor
        self.monitor = nil
        state.unlock()
        monitor?.stop()
    }

    /// Whether ``stop()`` was called (by the caller, or by the query once it answered).
    final var isStopped: Bool {
        locked { phase == .stopped }
    }

    /// Runs `body` with the query's state lock held: for the few fields a class shares between its handlers'
    /// setters and its thread. `body` must not call other methods of the query.
    final func locked<T>(_ body: () throws -> T) rethrows -> T {
        state.lock()
        defer { state.unlock() }
        return try body()
    }

    /// Calls `handler` unless the query was stopped, one call at a time.
    final func deliver(_ handler: () -> Void) {
        delivery.lock()
        defer { delivery.unlock() }
        guard !isStopped else { return }
        handler()
    }

    /// Whether the query's predicate selects `sample` (every sample when it has none); the type is not checked.
    final func selects(_ sample: Sample) -> Bool {
        guard let predicate else { return true }
        let interval = predicate.interval ?? DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
        return predicate.matches(sample, in: interval)
    }

    /// Watches `store` until the query stops, calling `onChange` on the monitor's thread after each change.
    ///
    /// Watching starts before this returns, so a change after it is never missed. The monitor holds the query, as
    /// HealthKit's store holds an executing query; ``stop()`` releases both.
    ///
    /// - Returns: false, without watching, when the query was already stopped.
    final func watch(_ store: HealthStore, onChange: @escaping @Sendable () -> Void) -> Bool {
        let monitor = StoreChangeMonitor(store: store, onChange: onChange)
        state.lock()
        guard phase != .stopped else {
            state.unlock()
            monitor.stop()
            return false
        }
        self.monitor = monitor
        state.unlock()
        return true
    }
}

/// HealthKit's `HKObjectQueryNoLimit`: a `limit` of 0 asks a ``SampleQuery`` or an ``AnchoredObjectQuery`` for every
/// matching sample.
public let ObjectQueryNoLimit = 0
