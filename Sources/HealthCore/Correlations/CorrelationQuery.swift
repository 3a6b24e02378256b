/// Finds correlations of a type with their members, like HealthKit's `HKCorrelationQuery`.
public struct CorrelationQuery: Sendable {
    /// The correlation type.
    public var type: CorrelationType
    /// Correlations overlapping this interval (HealthKit's default predicate).
    public var interval: DateInterval

    /// Creates a query.
    public init(type: CorrelationType, interval: DateInterval) {
        self.type = type
        self.interval = interval
    }

    /// The correlations, oldest first, each with the members that still exist.
    ///
    /// - Throws: Store errors.
    public func run(on store: SampleStore) throws -> [Correlation] {
        let samples = try store.samples(ofType: type.identifier, overlapping: interval)
        return try CorrelationQuery.correlations(of: samples, in: store)
    }

    /// Attaches members to correlation samples found some other way (a page of changes, a listing), reading each
    /// member type once over the span the correlations cover. A member that no longer exists, or that `store` does
    /// not show (another source's, without permission to read its type), is missing from the result.
    ///
    /// - Parameters:
    ///   - samples: Samples of correlation types.
    ///   - store: Where their members are.
    /// - Returns: One correlation per sample, in the same order.
    /// - Throws: Store errors.
    public static func correlations(of samples: [Sample], in store: SampleStore) throws -> [Correlation] {
        guard let first = samples.map(\.start).min(), let last = samples.map(\.end).max() else { return [] }
        var wanted: [String: Set<UUID>] = [:]
        for sample in samples {
            for member in sample.detail?.correlation?.members ?? [] { wanted[member.typeIdentifier, default: []].insert(member.uuid) }
        }
        var found: [UUID: Sample] = [:]
        let span = DateInterval(start: first, end: last.addingTimeInterval(1))
        for (identifier, uuids) in wanted {
            try store.forEachSample(ofType: identifier, overlapping: span) { sample in
                if uuids.contains(sample.uuid) { found[sample.uuid] = sample }
            }
        }
        return samples.map { sample in
            Correlation(sample: sample, members: (sample.detail?.correlation?.members ?? []).compactMap { found[$0.uuid] })
        }
    }
}
