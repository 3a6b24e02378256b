// MARK: - Handler-based queries, as HealthKit's HKHealthStore runs them

extension HealthStore {
    /// Starts `query`: HealthKit's `execute(_:)`.
    ///
    /// The query reads the store on a thread of its own and calls its handler there; the store keeps it alive while it
    /// runs. A query runs once: executing it again, or after ``stop(_:)``, does nothing (see ``Query``).
    public func execute(_ query: Query) {
        query.execute(on: self)
    }

    /// Stops `query`: HealthKit's `stop(_:)`.
    ///
    /// A long-running query stops watching the store within milliseconds; a one-shot query that has not answered yet
    /// never will. Once this returns no handler of the query is called again, except a call already running. Stopping
    /// a query that never ran, or one already stopped, does nothing.
    public func stop(_ query: Query) {
        query.stop()
    }
}
