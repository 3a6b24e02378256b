/// ``ObserverQuery`` as an `AsyncSequence`, in the style of HealthKit's query descriptors (HealthKit itself has only
/// the handler form).
///
/// ```swift
/// for try await _ in ObserverQueryDescriptor(sampleType: QuantityType(.dietaryWater)).results(for: store) {
///     // once at the start, then after each write of water: ask an AnchoredObjectQueryDescriptor what changed
/// }
/// ```
public struct ObserverQueryDescriptor: Sendable {
    /// The type observed.
    public var sampleType: SampleType
    /// The samples whose additions count; nil for all. Every deletion of the type counts.
    public var predicate: SamplePredicate?

    /// Creates a descriptor.
    public init(sampleType: SampleType, predicate: SamplePredicate? = nil) {
        self.sampleType = sampleType
        self.predicate = predicate
    }

    /// Yields once when started and again after each change of the type, until the iterating task is cancelled;
    /// ends by throwing the first error reading the store.
    public func results(for store: HealthStore) -> AsyncThrowingStream<Void, Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let query = ObserverQuery(sampleType: sampleType, predicate: predicate) { _, _, error in
            if let error { continuation.finish(throwing: error) } else { continuation.yield() }
        }
        continuation.onTermination = { _ in query.stop() }
        store.execute(query)
        return stream
    }
}
