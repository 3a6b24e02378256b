/// Samples of a type, sorted and limited: HealthKit's `HKSampleQuery`.
///
/// ```swift
/// let query = SampleQuery(sampleType: QuantityType(.bodyMass), predicate: nil, limit: 1,
///                         sortDescriptors: [SampleSortDescriptor(key: SampleSortIdentifierStartDate, ascending: false)]) { _, samples, error in
///     let latest = samples?.first as? QuantitySample
///     print(latest?.quantity.doubleValue(for: .gramUnit(with: .kilo)) ?? "none")
/// }
/// store.execute(query)
/// ```
///
/// It answers once, on a thread of the library's own, with the samples of every source (nothing merged: summing
/// them counts overlapping sources twice; use a ``StatisticsQuery`` for totals). A source without read permission sees
/// only its own samples. See ``Query`` for running and stopping.
public final class SampleQuery: Query, @unchecked Sendable {
    /// The handler's signature: the query, the samples (nil on an error), and the error. Each sample is of the class of
    /// its kind, as in HealthKit: `samples as? [QuantitySample]` of a quantity type's query is never nil.
    public typealias ResultsHandler = @Sendable (SampleQuery, [HealthSample]?, Error?) -> Void

    /// At most this many samples; ``ObjectQueryNoLimit`` (0) for all, as `HKSampleQuery.limit`.
    public let limit: Int
    /// The order, the first descriptor first; nil or empty means by start date, oldest first (HealthKit leaves the
    /// order unspecified).
    public let sortDescriptors: [SampleSortDescriptor<HealthSample>]?
    private let type: SampleType
    private let resultsHandler: ResultsHandler

    /// Creates a query; nothing happens until ``HealthStore/execute(_:)``.
    ///
    /// - Parameters:
    ///   - sampleType: The type.
    ///   - predicate: The samples wanted, or nil for all of the type.
    ///   - limit: At most this many samples, the first ones in the sort order; ``ObjectQueryNoLimit`` (0, or any
    ///     number below 1) for all.
    ///   - sortDescriptors: The order, such as `[SampleSortDescriptor(key: SampleSortIdentifierStartDate, ascending: false)]`
    ///     (HealthKit's `NSSortDescriptor(key: HKSampleSortIdentifierStartDate, ascending: false)`) or
    ///     `[SampleSortDescriptor(\.startDate, order: .reverse)]`.
    ///   - resultsHandler: Called once with the samples or the error (store errors).
    public init(sampleType: SampleType, predicate: SamplePredicate?, limit: Int, sortDescriptors: [SampleSortDescriptor<HealthSample>]?,
                resultsHandler: @escaping ResultsHandler) {
        type = sampleType
        self.limit = limit
        self.sortDescriptors = sortDescriptors
        self.resultsHandler = resultsHandler
        super.init(sampleType: sampleType, predicate: predicate)
    }

    override func run(on store: HealthStore) {
        let descriptor = SampleQueryDescriptor(predicates: [.sample(type: type, predicate: predicate)],
                                               sortDescriptors: sortDescriptors ?? [], limit: limit > 0 ? limit : nil)
        let result = Result { try descriptor.run(on: store) }
        deliver {
            switch result {
            case .success(let samples): resultsHandler(self, samples, nil)
            case .failure(let error): resultsHandler(self, nil, HealthError(error))
            }
        }
        stop()
    }
}
