extension StatisticsCollectionQueryDescriptor {
    /// The collection, then the collection again after each change to the store, from any process, that adds a sample
    /// the predicate selects or deletes one of the type, until the iterating task is cancelled (HealthKit's
    /// `HKStatisticsCollectionQueryDescriptor.results(for:)`).
    ///
    /// The store is watched with a ``StoreChangeMonitor`` (through a ``StatisticsCollectionQuery``), which is stopped
    /// when the sequence ends. Collections are buffered, so none is skipped. The sequence ends by throwing the first
    /// error, a ``HealthError`` (as from ``result(for:)``).
    public func results(for store: HealthStore) -> AsyncThrowingStream<StatisticsCollection, Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: StatisticsCollection.self)
        let query = StatisticsCollectionQuery(quantityType: predicate.sampleType,
                                              quantitySamplePredicate: predicate.predicate, options: options,
                                              anchorDate: anchorDate, intervalComponents: intervalComponents)
        let pass: StatisticsCollectionQuery.InitialResultsHandler = { query, collection, error in
            if let collection {
                continuation.yield(collection)
            } else {
                continuation.finish(throwing: error)
                query.stop()
            }
        }
        query.initialResultsHandler = pass
        query.statisticsUpdateHandler = { query, _, collection, error in pass(query, collection, error) }
        continuation.onTermination = { _ in query.stop() }
        store.execute(query)
        return stream
    }
}
