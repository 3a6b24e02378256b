/// Figures per calendar interval, once or kept up to date: HealthKit's `HKStatisticsCollectionQuery`.
///
/// ```swift
/// let query = StatisticsCollectionQuery(quantityType: QuantityType(.stepCount), quantitySamplePredicate: lastWeek,
///                                       options: .cumulativeSum, anchorDate: midnight,
///                                       intervalComponents: DateComponents(day: 1))
/// query.initialResultsHandler = { _, collection, error in /* every day of the week */ }
/// query.statisticsUpdateHandler = { _, statistics, collection, error in /* after each write of steps */ }
/// store.execute(query)
/// // ...
/// store.stop(query)
/// ```
///
/// It calls ``initialResultsHandler`` once with the collection of ``StatisticsCollectionQueryDescriptor``. With a
/// ``statisticsUpdateHandler`` it keeps running: after each change to the store, from any process, that adds a sample
/// of the type the predicate selects or deletes one of the type, it computes the collection again and calls that
/// handler, until ``HealthStore/stop(_:)``. Set the handlers before executing the query. Handlers run on threads of the
/// library's own, one call at a time. See ``Query`` for running and stopping.
public final class StatisticsCollectionQuery: Query, @unchecked Sendable {
    /// The first answer's signature: the query, the collection (nil on an error), and the error.
    public typealias InitialResultsHandler = @Sendable (StatisticsCollectionQuery, StatisticsCollection?, Error?) -> Void
    /// An update's signature: the query, the interval's figures that the latest added sample falls in (nil when the
    /// change was a deletion, or the sample lies outside the collection), the whole collection again (nil on an
    /// error), and the error (the query keeps running and tries again after the next change).
    public typealias StatisticsUpdateHandler =
        @Sendable (StatisticsCollectionQuery, Statistics?, StatisticsCollection?, Error?) -> Void

    /// The figures computed.
    public let options: StatisticsOptions
    /// A date on an interval boundary, as `anchorDate`.
    public let anchorDate: Date
    /// The interval length, as `intervalComponents`.
    public let intervalComponents: DateComponents
    private let descriptor: StatisticsCollectionQueryDescriptor
    /// Guarded by ``Query/locked(_:)``.
    private var initialHandler: InitialResultsHandler?
    private var updateHandler: StatisticsUpdateHandler?
    /// Where the last look at the store ended; nil until the first answer. Only the query's threads use it, under
    /// ``reading``.
    private var anchor: ChangeAnchor?
    /// Held while the store is read and answered from, so that an update never overtakes the first answer.
    private let reading = Lock()

    /// Called once with the first collection, as `initialResultsHandler`.
    public var initialResultsHandler: InitialResultsHandler? {
        get { locked { initialHandler } }
        set { locked { initialHandler = newValue } }
    }

    /// Set, it keeps the query running and is called after each change of the type, as `statisticsUpdateHandler`.
    public var statisticsUpdateHandler: StatisticsUpdateHandler? {
        get { locked { updateHandler } }
        set { locked { updateHandler = newValue } }
    }

    /// Creates a query; nothing happens until ``HealthStore/execute(_:)``.
    ///
    /// - Parameters:
    ///   - quantityType: The quantity type.
    ///   - quantitySamplePredicate: The samples considered (its dates give the range, else the data's), or nil for all.
    ///   - options: The figures.
    ///   - anchorDate: A date on an interval boundary (midnight for days, the first of a month for months), in the
    ///     store's time zone.
    ///   - intervalComponents: One calendar step: minutes, hours, days, weeks, months or years, with a count.
    public init(quantityType: SampleType, quantitySamplePredicate: SamplePredicate?, options: StatisticsOptions,
                anchorDate: Date, intervalComponents: DateComponents) {
        self.options = options
        self.anchorDate = anchorDate
        self.intervalComponents = intervalComponents
        descriptor = StatisticsCollectionQueryDescriptor(
            predicate: .init(sampleType: quantityType, predicate: quantitySamplePredicate), options: options,
            anchorDate: anchorDate, intervalComponents: intervalComponents)
        super.init(sampleType: quantityType, predicate: quantitySamplePredicate)
    }

    override func run(on store: HealthStore) {
        reading.lock()
        defer { reading.unlock() }
        let updating = statisticsUpdateHandler != nil
        // Watching starts, and the anchor is read, before the first answer, so a write meanwhile is never missed.
        let result: Result<StatisticsCollection, Error>
        if updating {
            guard watch(store, onChange: { [self] in check(store) }) else { return }
            result = Result {
                anchor = try store.storage.currentAnchor()
                return try descriptor.run(on: store)
            }
        } else {
            result = Result { try descriptor.run(on: store) }
        }
        let handler = initialResultsHandler
        deliver {
            switch result {
            case .success(let collection): handler?(self, collection, nil)
            case .failure(let error): handler?(self, nil, HealthError(error))
            }
        }
        if case .failure = result { return stop() }
        if !updating { stop() }
    }

    /// After a wake-up: computes the collection again and calls the update handler if a sample of the type that the
    /// predicate selects was added, or one of the type deleted, since the last look.
    private func check(_ store: HealthStore) {
        reading.lock()
        defer { reading.unlock() }
        guard let from = anchor, !isStopped else { return }
        let latest: Sample?
        do {
            let changes = try store.changes(since: from, types: [descriptor.predicate.sampleType.identifier])
            anchor = changes.anchor
            latest = changes.added.last(where: selects)
            guard latest != nil || !changes.deleted.isEmpty else { return }
        } catch ChangeError.anchorExpired {
            // Compaction dropped deletions after the anchor: something may have changed, start again from now.
            anchor = (try? store.storage.currentAnchor()) ?? from
            latest = nil
        } catch {
            return update(nil, nil, error)
        }
        do {
            let collection = try descriptor.run(on: store)
            update(latest.flatMap { collection.statistics(for: $0.start) }, collection, nil)
        } catch {
            update(nil, nil, error)
        }
    }

    private func update(_ statistics: Statistics?, _ collection: StatisticsCollection?, _ error: Error?) {
        let handler = statisticsUpdateHandler
        deliver { handler?(self, statistics, collection, error.map { HealthError($0) }) }
    }
}
