/// Samples of one or more types, sorted and limited: HealthKit's `HKSampleQueryDescriptor<Sample>`. `Kind` follows
/// the predicates: `.quantitySample(type:)` predicates give ``QuantitySample``s, `.sample(type:)` predicates
/// ``HealthSample``s, each of the class of its kind (a correlation with its members).
public struct SampleQueryDescriptor<Kind: HealthSample>: Sendable {
    /// The types and conditions; a sample matching any one is returned.
    public var predicates: [SampleTypePredicate<Kind>]
    /// The order (`SampleSortDescriptor(\.startDate, order: .reverse)`), the first descriptor first; empty means by
    /// start date, oldest first.
    public var sortDescriptors: [SampleSortDescriptor<Kind>]
    /// At most this many samples, or nil for all.
    public var limit: Int?

    /// Creates a descriptor.
    public init(predicates: [SampleTypePredicate<Kind>], sortDescriptors: [SampleSortDescriptor<Kind>] = [], limit: Int? = nil) {
        self.predicates = predicates
        self.sortDescriptors = sortDescriptors
        self.limit = limit
    }

    /// The matching samples this source may see.
    ///
    /// - Throws: store errors.
    public func result(for store: HealthStore) async throws -> [Kind] {
        try await BlockingWork.run { try run(on: store) }
    }

    func run(on store: HealthStore) throws -> [Kind] {
        var records: [Sample] = []
        for predicate in predicates {
            let interval = predicate.interval
            let condition = predicate.predicate ?? SamplePredicate()
            try store.forEachSample(ofType: predicate.sampleType.identifier, overlapping: interval) { sample in
                if condition.matches(sample, in: interval) { records.append(sample) }
            }
        }
        var found = try HealthSample.objects(of: records, in: store).compactMap { $0 as? Kind }
        let order = sortDescriptors.isEmpty ? [SampleSortDescriptor(\Kind.startDate), SampleSortDescriptor(\Kind.endDate)]
            : sortDescriptors
        found.sort { first, second in
            for descriptor in order {
                if let ordered = descriptor.orders(first, before: second) { return ordered }
            }
            return false
        }
        if let limit, limit >= 0, found.count > limit { found.removeLast(found.count - limit) }
        return found
    }
}

extension Sample {
    /// The quantity of a quantity sample, as `HKQuantitySample.quantity`; nil for other samples (a ``QuantitySample``
    /// has one that is never nil).
    public var quantity: Quantity? {
        if case let .quantity(quantity) = value { return quantity }
        return nil
    }
}

/// One sort key of a ``SampleQueryDescriptor``: Foundation's `SortDescriptor` as HealthKit code writes it,
/// `SortDescriptor(\HKQuantitySample.startDate, order: .reverse)` becoming
/// `SampleSortDescriptor(\QuantitySample.startDate, order: .reverse)`. (Foundation's own type is not part of the small Foundation
/// hkctl links on Linux, so HealthCore has this one.)
public struct SampleSortDescriptor<Kind: HealthSample>: @unchecked Sendable {
    /// Ascending or descending.
    public enum Order: Sendable {
        /// Smallest first.
        case forward
        /// Largest first.
        case reverse
    }

    /// Compares two samples: true or false when they differ in this key, nil when equal. Key paths are immutable,
    /// hence `@unchecked Sendable`.
    private let compare: (Kind, Kind) -> Bool?

    /// Sorts by the value at `keyPath`: `\.startDate`, `\.endDate`, `\.sourceName` of any kind, and the kind's own
    /// properties (`\.sample.created`, the stored record's creation date).
    public init<Value: Comparable>(_ keyPath: KeyPath<Kind, Value>, order: Order = .forward) {
        compare = { first, second in
            let (a, b) = (first[keyPath: keyPath], second[keyPath: keyPath])
            if a == b { return nil }
            return order == .forward ? a < b : b < a
        }
    }

    /// Whether `first` comes before `second` by this key, or nil when the key does not tell them apart.
    func orders(_ first: Kind, before second: Kind) -> Bool? { compare(first, second) }
}
