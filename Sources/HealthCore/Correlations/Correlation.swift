/// A correlation with its members, HealthKit's `HKCorrelation`: a blood-pressure reading or a food entry.
///
/// The correlation itself is a ``Sample`` of the correlation type carrying a ``CorrelationDetail``; ``members`` are
/// the member samples found in the store (a member deleted on its own is missing from them).
public struct Correlation: Hashable, Sendable {
    /// The correlation's own sample (its uuid, dates, source, metadata).
    public var sample: Sample
    /// The member samples that still exist, in the order the correlation lists them.
    public var members: [Sample]

    /// Creates a correlation view.
    public init(sample: Sample, members: [Sample]) {
        self.sample = sample
        self.members = members
    }

    /// Its type, when HealthKit has one by that identifier.
    public var type: CorrelationType? { CorrelationType.identified(sample.typeIdentifier) }

    /// The member of a type, if present.
    public func member(ofType identifier: String) -> Sample? { members.first { $0.typeIdentifier == identifier } }

    /// The food's name (`HKFoodType` metadata), for food.
    public var foodName: String? {
        if case let .string(name)? = sample.metadata[CorrelationType.foodTypeKey] { return name }
        return nil
    }

    /// The correlation sample for members saved at the same time: same dates, source and metadata as given.
    ///
    /// - Parameters:
    ///   - type: The correlation type.
    ///   - members: Its members (their uuids and types are recorded).
    ///   - uuid: The correlation's identity.
    public static func sample(of type: CorrelationType, members: [Sample], start: Date, end: Date, source: String,
                              created: Date, metadata: [String: MetadataValue] = [:], uuid: UUID = UUID()) -> Sample {
        Sample(uuid: uuid, typeIdentifier: type.identifier, start: start, end: end, value: .category(0), source: source,
               created: created, metadata: metadata,
               detail: .correlation(CorrelationDetail(members: members.map {
                   CorrelationDetail.Member(uuid: $0.uuid, typeIdentifier: $0.typeIdentifier)
               })))
    }
}
