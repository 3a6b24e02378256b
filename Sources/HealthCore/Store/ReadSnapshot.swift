/// The samples of one type that one read of a store found over a span, served again, in the order the store gave
/// them, to queries that ask for that type inside that span; anything else is asked of the store itself. Queries
/// over the same span (a sleep query's totals and its nights, or its totals by the night for every bucket) then read
/// the store once and see exactly what each would have read alone.
final class ReadSnapshot: SampleStore {
    private let store: SampleStore
    private let identifier: String
    private let span: DateInterval
    private let samples: [Sample]
    /// The samples' positions in start order, and their index: a read of part of the span looks only at the
    /// samples two binary searches leave, not at every sample.
    private let byStart: [Int]
    private let index: SamplesByStart

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
        var keys = samples.indices.map { (start: samples[$0].start, end: samples[$0].end, position: $0) }
        keys.sort { $0.start != $1.start ? $0.start < $1.start : $0.position < $1.position }
        byStart = keys.map(\.position)
        index = SamplesByStart(starts: keys.map(\.start), ends: keys.map(\.end))
    }

    func save(_ samples: [Sample]) throws { try store.save(samples) }

    func forEachSample(ofType identifier: String, overlapping interval: DateInterval,
                       _ body: (Sample) throws -> Void) throws {
        guard let positions = positions(ofType: identifier, overlapping: interval) else {
            return try store.forEachSample(ofType: identifier, overlapping: interval, body)
        }
        for position in positions { try body(samples[position]) }
    }

    /// What ``forEachSample(ofType:overlapping:_:)`` hands over, as an array: the one the snapshot holds when the
    /// interval takes every sample of it.
    func samples(ofType identifier: String, inStoreOrderOverlapping interval: DateInterval) throws -> [Sample] {
        guard let positions = positions(ofType: identifier, overlapping: interval) else {
            var result: [Sample] = []
            try store.forEachSample(ofType: identifier, overlapping: interval) { result.append($0) }
            return result
        }
        return positions.count == samples.count ? samples : positions.map { samples[$0] }
    }

    /// The positions of the held samples overlapping `interval`, in the store's order (as a read of the store hands
    /// them over); nil when the snapshot does not hold them (another type, or outside the span: ask the store).
    private func positions(ofType identifier: String, overlapping interval: DateInterval) -> [Int]? {
        // A sample overlapping a part of the span overlaps the span: the snapshot holds every one the store would give.
        guard identifier == self.identifier, interval.start >= span.start, interval.end <= span.end else { return nil }
        var positions = byStart[index.candidates(from: interval.start, to: interval.end)].filter {
            samples[$0].overlaps(interval)
        }
        positions.sort()
        return positions
    }

    func latestSamples(ofType identifier: String, overlapping interval: DateInterval, limit: Int) throws -> [Sample] {
        try store.latestSamples(ofType: identifier, overlapping: interval, limit: limit)
    }
}
