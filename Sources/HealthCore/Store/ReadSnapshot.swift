/// The samples of one type that one read of a store found over a span, served again, in the order the store gave
/// them, to queries that ask for that type inside that span; anything else is asked of the store itself. Two queries
/// over the same span (a sleep query's totals and its nights) then read the store once and see exactly what each
/// would have read alone.
final class ReadSnapshot: SampleStore {
    private let store: SampleStore
    private let identifier: String
    private let span: DateInterval
    private let samples: [Sample]

    /// Reads the samples of type `identifier` overlapping `span` from `store`, once.
    ///
    /// - Throws: The store's read errors.
    init(of store: SampleStore, type identifier: String, overlapping span: DateInterval) throws {
        var samples: [Sample] = []
        try store.forEachSample(ofType: identifier, overlapping: span) { samples.append($0) }
        self.store = store
        self.identifier = identifier
        self.span = span
        self.samples = samples
    }

    func save(_ samples: [Sample]) throws { try store.save(samples) }

    func forEachSample(ofType identifier: String, overlapping interval: DateInterval,
                       _ body: (Sample) throws -> Void) throws {
        // A sample overlapping a part of the span overlaps the span: the snapshot holds every one the store would give.
        guard identifier == self.identifier, interval.start >= span.start, interval.end <= span.end else {
            return try store.forEachSample(ofType: identifier, overlapping: interval, body)
        }
        for sample in samples where sample.overlaps(interval) { try body(sample) }
    }

    func latestSamples(ofType identifier: String, overlapping interval: DateInterval, limit: Int) throws -> [Sample] {
        try store.latestSamples(ofType: identifier, overlapping: interval, limit: limit)
    }
}
