/// One set of figures over the samples of a quantity type: HealthKit's `HKStatisticsQuery`.
///
/// ```swift
/// let query = StatisticsQuery(quantityType: QuantityType(.dietaryWater), quantitySamplePredicate: today,
///                             options: .cumulativeSum) { _, statistics, error in
///     print(statistics?.sumQuantity()?.doubleValue(for: .liter()) ?? 0)
/// }
/// store.execute(query)
/// ```
///
/// It answers once, on a thread of the library's own, with the figures of ``StatisticsQueryDescriptor`` (sources of a
/// cumulative type merged by priority, the type's canonical unit). When no sample matches, the statistics are nil and
/// the error is a ``HealthError`` with ``HealthError/Code/errorNoData``, as in HealthKit (every error it reports is a
/// ``HealthError``). See ``Query`` for running and stopping.
public final class StatisticsQuery: Query, @unchecked Sendable {
    /// The handler's signature: the query, the figures (nil when no sample matched or on an error), and the error.
    public typealias CompletionHandler = @Sendable (StatisticsQuery, Statistics?, Error?) -> Void

    /// The figures computed, as `HKStatisticsQuery`'s options.
    public let options: StatisticsOptions
    private let quantityType: SampleType
    private let completionHandler: CompletionHandler

    /// Creates a query; nothing happens until ``HealthStore/execute(_:)``.
    ///
    /// - Parameters:
    ///   - quantityType: The quantity type.
    ///   - quantitySamplePredicate: The samples considered (its dates give the range), or nil for all of them.
    ///   - options: The figures (`.cumulativeSum` for a cumulative type, `.discreteAverage` ... for a discrete one).
    ///   - completionHandler: Called once with the figures or the error (``StatisticsError`` for an option that does
    ///     not apply to the type, store errors).
    public init(quantityType: SampleType, quantitySamplePredicate: SamplePredicate?, options: StatisticsOptions,
                completionHandler: @escaping CompletionHandler) {
        self.quantityType = quantityType
        self.options = options
        self.completionHandler = completionHandler
        super.init(sampleType: quantityType, predicate: quantitySamplePredicate)
    }

    override func run(on store: HealthStore) {
        let descriptor = StatisticsQueryDescriptor(predicate: .init(sampleType: quantityType, predicate: predicate),
                                                   options: options)
        let result = Result { try descriptor.run(on: store) }
        deliver {
            switch result {
            case .success(let statistics?): completionHandler(self, statistics, nil)
            case .success(nil): completionHandler(self, nil, HealthError(StatisticsError.noData(quantityType.name)))
            case .failure(let error): completionHandler(self, nil, HealthError(error))
            }
        }
        stop()
    }
}
