import Foundation

/// Samples of one or more types, sorted and limited: HealthKit's `HKSampleQueryDescriptor`.
public struct SampleQueryDescriptor: @unchecked Sendable {
    /// The types and conditions; a sample matching any one is returned.
    public var predicates: [SampleTypePredicate]
    /// The order, as Foundation sort descriptors on ``Sample`` (`SortDescriptor(\Sample.startDate, order: .reverse)`);
    /// empty means by start date, oldest first.
    public var sortDescriptors: [SortDescriptor<Sample>]
    /// At most this many samples, or nil for all.
    public var limit: Int?

    /// Creates a descriptor.
    public init(predicates: [SampleTypePredicate], sortDescriptors: [SortDescriptor<Sample>] = [], limit: Int? = nil) {
        self.predicates = predicates
        self.sortDescriptors = sortDescriptors
        self.limit = limit
    }

    /// The matching samples this source may see.
    ///
    /// - Throws: store errors.
    public func result(for store: HealthStore) async throws -> [Sample] {
        try await BlockingWork.run { try run(on: store) }
    }

    func run(on store: HealthStore) throws -> [Sample] {
        var found: [Sample] = []
        for predicate in predicates {
            let interval = predicate.interval
            let condition = predicate.predicate ?? SamplePredicate()
            try store.forEachSample(ofType: predicate.sampleType.identifier, overlapping: interval) { sample in
                if condition.matches(sample, in: interval) { found.append(sample) }
            }
        }
        if sortDescriptors.isEmpty {
            found.sort { ($0.start, $0.end) < ($1.start, $1.end) }
        } else {
            found.sort(using: sortDescriptors)
        }
        if let limit, limit >= 0, found.count > limit { found.removeLast(found.count - limit) }
        return found
    }
}

extension Sample {
    /// When the measurement started, as HealthKit's `startDate`.
    public var startDate: Date { start }
    /// When it ended, as HealthKit's `endDate`.
    public var endDate: Date { end }
    /// The quantity of a quantity sample, as `HKQuantitySample.quantity`; nil for other samples.
    public var quantity: Quantity? {
        if case let .quantity(quantity) = value { return quantity }
        return nil
    }
}
