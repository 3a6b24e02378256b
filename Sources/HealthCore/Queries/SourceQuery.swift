/// The sources that wrote samples of a type: HealthKit's `HKSourceQuery`.
///
/// ```swift
/// let query = SourceQuery(sampleType: QuantityType(.stepCount), samplePredicate: nil) { _, sources, error in
///     print(sources?.map(\.name).sorted() ?? [])   // ["Jane’s Apple Watch", "iPhone"]
/// }
/// store.execute(query)
/// ```
///
/// It answers once, on a thread of the library's own, with every ``Source`` that has a sample of the type the
/// predicate selects. A source without read permission sees only itself (if it wrote any). Pass a source on to
/// `Query.predicateForObjects(from:)` to read its samples. See ``Query`` for running and stopping.
public final class SourceQuery: Query, @unchecked Sendable {
    /// The handler's signature: the query, the sources (nil on an error), and the error.
    public typealias CompletionHandler = @Sendable (SourceQuery, Set<Source>?, Error?) -> Void

    private let type: SampleType
    private let completionHandler: CompletionHandler

    /// Creates a query; nothing happens until ``HealthStore/execute(_:)``.
    ///
    /// - Parameters:
    ///   - sampleType: The type.
    ///   - samplePredicate: The samples whose sources count, or nil for all of the type.
    ///   - completionHandler: Called once with the sources (empty when there is no sample) or the error (store
    ///     errors).
    public init(sampleType: SampleType, samplePredicate: SamplePredicate?,
                completionHandler: @escaping CompletionHandler) {
        type = sampleType
        self.completionHandler = completionHandler
        super.init(sampleType: sampleType, predicate: samplePredicate)
    }

    override func run(on store: HealthStore) {
        let interval = predicate?.interval ?? DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
        let result = Result {
            var names: Set<String> = []
            try store.forEachSample(ofType: type.identifier, overlapping: interval) { sample in
                if selects(sample) { names.insert(sample.source) }
            }
            return Set(names.map(Source.init(name:)))
        }
        deliver {
            switch result {
            case .success(let sources): completionHandler(self, sources, nil)
            case .failure(let error): completionHandler(self, nil, HealthError(error))
            }
        }
        stop()
    }
}
