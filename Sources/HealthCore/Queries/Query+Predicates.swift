/// HealthKit's `HKQuery` predicate constructors: the conditions a query or a descriptor's ``SampleTypePredicate``
/// holds.
///
/// Where HealthKit returns an `NSPredicate`, these return a ``SamplePredicate``; combine several with
/// ``SamplePredicate/and(_:)`` (HealthKit: `NSCompoundPredicate(andPredicateWithSubpredicates:)`).
extension Query {
    /// Samples whose dates relate to `[startDate, endDate)` as `options` say: any overlap by default,
    /// `.strictStartDate` / `.strictEndDate` to require the start or end inside. A nil end leaves the range open.
    public static func predicateForSamples(withStart startDate: Date?, end endDate: Date?,
                                           options: SamplePredicate.DateOptions = []) -> SamplePredicate {
        var predicate = SamplePredicate(dateOptions: options)
        let start = startDate ?? DateRange.distantStart, end = endDate ?? DateRange.distantEnd
        predicate.interval = DateInterval(start: start, end: max(start, end))
        return predicate
    }

    /// Samples written by `source`, as `predicateForObjects(from:)`.
    public static func predicateForObjects(from source: String) -> SamplePredicate {
        SamplePredicate(sources: [source])
    }

    /// Samples written by any of `sources`, as `predicateForObjects(from:)` with a set.
    public static func predicateForObjects(from sources: Set<String>) -> SamplePredicate {
        SamplePredicate(sources: sources)
    }

    /// Samples written by `source`, as `predicateForObjects(from:)` with an `HKSource` (from a ``SourceQuery``).
    public static func predicateForObjects(from source: Source) -> SamplePredicate {
        SamplePredicate(sources: [source.name])
    }

    /// Samples written by any of `sources`, as `predicateForObjects(from:)` with a set of `HKSource`.
    public static func predicateForObjects(from sources: Set<Source>) -> SamplePredicate {
        SamplePredicate(sources: Set(sources.map(\.name)))
    }

    /// The object with this uuid, as `predicateForObject(with:)`.
    public static func predicateForObject(with uuid: UUID) -> SamplePredicate { predicateForObjects(with: [uuid]) }

    /// The objects with these uuids, as `predicateForObjects(with:)`.
    public static func predicateForObjects(with uuids: Set<UUID>) -> SamplePredicate {
        var predicate = SamplePredicate()
        predicate.uuids = uuids
        return predicate
    }

    /// Samples that have metadata `key`, as `predicateForObjects(withMetadataKey:)`.
    public static func predicateForObjects(withMetadataKey key: String) -> SamplePredicate {
        SamplePredicate(metadata: [MetadataCondition(key: key)])
    }

    /// Samples whose metadata `key` equals `value`, as `predicateForObjects(withMetadataKey:allowedValues:)` with one
    /// value.
    public static func predicateForObjects(withMetadataKey key: String, value: String) -> SamplePredicate {
        SamplePredicate(metadata: [MetadataCondition(key: key, value: value)])
    }
}

extension SamplePredicate {
    /// Samples that match every one of `predicates`, as ``and(_:)``: HealthKit's
    /// `NSCompoundPredicate(andPredicateWithSubpredicates:)`, so that code combining `HKQuery` predicates that way
    /// ports by renaming the type.
    public init(andPredicateWithSubpredicates subpredicates: [SamplePredicate]) {
        self = .and(subpredicates)
    }

    /// Samples that match every one of `predicates`: each one's dates with its own options, their source and uuid
    /// sets intersect, their metadata conditions all hold.
    public static func and(_ predicates: [SamplePredicate]) -> SamplePredicate {
        var result = SamplePredicate()
        var dated: [DateCondition] = []
        for predicate in predicates {
            if let interval = predicate.interval, predicate.dateConditions.isEmpty {
                dated.append(DateCondition(interval: interval, options: predicate.dateOptions))
            } else {
                // Options without dates of their own apply to the query's dates.
                result.dateOptions.formUnion(predicate.dateOptions)
                dated += predicate.dateConditions
            }
            if let sources = predicate.sources { result.sources = result.sources.map { $0.intersection(sources) } ?? sources }
            if let uuids = predicate.uuids { result.uuids = result.uuids.map { $0.intersection(uuids) } ?? uuids }
            if let workout = predicate.workoutUUID {
                // Two different workouts' samples: none is associated with both.
                if let other = result.workoutUUID, other != workout { result.uuids = [] }
                result.workoutUUID = workout
                result.workoutInterval = predicate.workoutInterval
            }
            result.metadata += predicate.metadata
            result.stateOfMindConditions += predicate.stateOfMindConditions
            if let types = predicate.workoutActivityRawValues {
                result.workoutActivityRawValues = result.workoutActivityRawValues.map { $0.intersection(types) } ?? types
            }
        }
        if dated.count == 1 {
            result.interval = dated[0].interval
            result.dateOptions.formUnion(dated[0].options)
        } else if let narrowest = dated.min(by: { $0.interval.duration < $1.interval.duration }) {
            result.interval = narrowest.interval
            result.dateConditions = dated
        }
        return result
    }
}
