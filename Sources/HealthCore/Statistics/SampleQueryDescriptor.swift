/// Samples of one or more types, sorted and limited: HealthKit's `HKSampleQueryDescriptor<Sample>`. `Kind` follows
/// the predicates: `.quantitySample(type:)` predicates give ``QuantitySample``s, `.sample(type:)` predicates
/// ``HealthSample``s, each of the class of its kind (a correlation with its members).
public struct SampleQueryDescriptor<Kind: HealthSample>: Sendable {
    /// The types and conditions; a sample matching any one is returned (once, however many it matches).
    public var predicates: [SampleTypePredicate<Kind>]
    /// The order, the first descriptor first; empty means by start date, oldest first. Each one is any
    /// `SortComparator` of the kind, as given to ``init(predicates:sortDescriptors:limit:)``.
    public var sortDescriptors: [SampleSortDescriptor<Kind>]
    /// At most this many samples, or nil (or ``ObjectQueryNoLimit``, 0, as ``SampleQuery`` and
    /// ``AnchoredObjectQueryDescriptor`` read it) for all.
    public var limit: Int?

    /// Creates a descriptor sorted by any `SortComparator` of the kind, as HealthKit's takes Foundation's
    /// `SortDescriptor`: code that imports Foundation passes `[SortDescriptor(\QuantitySample.startDate, order: .reverse)]`
    /// unchanged; ``SampleSortDescriptor`` (a `SortComparator` too) needs only FoundationEssentials.
    ///
    /// - Parameters:
    ///   - predicates: The types and conditions; a sample matching any one is returned.
    ///   - sortDescriptors: The order, the first comparator first; empty means by start date, oldest first.
    ///   - limit: At most this many samples, or nil (or 0) for all.
    public init<Comparator: SortComparator>(predicates: [SampleTypePredicate<Kind>], sortDescriptors: [Comparator],
                                            limit: Int? = nil) where Comparator.Compared == Kind {
        self.predicates = predicates
        self.sortDescriptors = sortDescriptors.map { SampleSortDescriptor($0) }
        self.limit = limit
    }

    /// Creates a descriptor sorted by ``SampleSortDescriptor``s; an empty array (`sortDescriptors: []`) or none at all
    /// means by start date, oldest first.
    public init(predicates: [SampleTypePredicate<Kind>], sortDescriptors: [SampleSortDescriptor<Kind>] = [],
                limit: Int? = nil) {
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
        // A sample that matches several predicates is returned once, as HealthKit ORs them.
        var seen = Set<UUID>()
        for predicate in predicates {
            let predicate = try predicate.resolvingWorkout(in: store)
            let interval = predicate.interval
            let condition = predicate.predicate ?? SamplePredicate()
            try store.forEachSample(ofType: predicate.sampleType.identifier, overlapping: interval) { sample in
                if condition.matches(sample, in: interval), predicates.count == 1 || seen.insert(sample.uuid).inserted {
                    records.append(sample)
                }
            }
        }
        var found = try HealthSample.objects(of: records, in: store).compactMap { $0 as? Kind }
        let order = sortDescriptors.isEmpty ? [SampleSortDescriptor(\Kind.startDate), SampleSortDescriptor(\Kind.endDate)]
            : sortDescriptors
        found.sort { first, second in
            for descriptor in order {
                switch descriptor.compare(first, second) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: continue
                }
            }
            return false
        }
        if let limit, limit > 0, found.count > limit { found.removeLast(found.count - limit) }
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

