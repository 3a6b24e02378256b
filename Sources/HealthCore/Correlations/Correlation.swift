/// A correlation with its members, HealthKit's `HKCorrelation`: a blood-pressure reading or a food entry.
///
/// The correlation itself is a ``Sample`` of the correlation type carrying a ``CorrelationDetail``
/// (``HealthObject/sample``: its uuid, dates, source, metadata); ``members`` are the member samples found in the store
/// (a member deleted on its own is missing from them). A correlation is a ``HealthSample``, so a query of any type
/// hands one out as a `Correlation`, with its members.
public final class Correlation: HealthSample, @unchecked Sendable {
    /// The member samples that still exist, in the order the correlation lists them.
    public let members: [Sample]

    /// Creates a correlation view.
    public init(sample: Sample, members: [Sample]) {
        self.members = members
        super.init(record: sample)
    }

    /// Its type, when HealthKit has one by that identifier.
    public var type: CorrelationType? { CorrelationType.identified(sample.typeIdentifier) }

    /// Its type, as HealthKit's `correlationType`.
    public var correlationType: CorrelationType {
        type ?? CorrelationType(identifier: sample.typeIdentifier, name: sample.typeIdentifier, aliases: [],
                                requiredMembers: nil, readTypes: [])
    }

    /// The members, each as the class of its kind, as HealthKit's `objects`.
    public var objects: Set<HealthSample> { Set(members.map { HealthSample.of($0) }) }

    /// The members of `type`, as HealthKit's `objects(for:)`.
    public func objects(for type: ObjectType) -> Set<HealthSample> {
        Set(members.filter { $0.typeIdentifier == type.identifier }.map { HealthSample.of($0) })
    }

    override func isEqual(to other: HealthObject) -> Bool {
        guard let other = other as? Correlation else { return false }
        return sample == other.sample && members == other.members
    }

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
