/// A measurement over an interval: HealthKit's `HKSample`, the base class of ``QuantitySample``, ``CategorySample``,
/// ``Workout``, ``Correlation``, ``StateOfMind`` and ``WorkoutRoute``.
///
/// Whatever the query, a result's class is its kind: a query of any type (``SampleQuery``,
/// `.sample(type:predicate:)`) hands out `[HealthSample]` whose elements are ``QuantitySample``s, ``CategorySample``s,
/// ``Workout``s, ``Correlation``s, ``StateOfMind``s or ``WorkoutRoute``s, so `samples as? [QuantitySample]`, `sample as? Workout`, `is` and `switch` answer
/// as in HealthKit. A record of a type this build does not know, kept as an import wrote it, is a plain `HealthSample`.
public class HealthSample: HealthObject, @unchecked Sendable {
    /// When the measurement started, as HealthKit's `startDate`.
    public var startDate: Date { sample.start }
    /// When it ended, as HealthKit's `endDate`.
    public var endDate: Date { sample.end }
    /// The sample's type, as HealthKit's `sampleType`: a ``QuantityType``, ``CategoryType``, ``WorkoutType`` or
    /// ``CorrelationType``.
    public var sampleType: SampleType { SampleType.lookUp(sample.typeIdentifier) }
    /// Whether the sample has no known end, as HealthKit's `hasUndeterminedDuration`: never here.
    public var hasUndeterminedDuration: Bool { false }
    /// The name of the source that saved it: HealthKit's `sourceRevision.source.name`.
    public var sourceName: String { sample.source }

    /// The object of the class of the record's kind: a ``Workout`` for a workout record, a ``Correlation`` (with the
    /// given members) for a correlation record, a ``QuantitySample`` or ``CategorySample`` for a quantity or category
    /// value, else a plain `HealthSample`.
    static func of(_ record: Sample, members: [Sample] = []) -> HealthSample {
        if let workout = Workout(sample: record) { return workout }
        if let state = StateOfMind(record) { return state }
        if let route = WorkoutRoute(record) { return route }
        switch (record.value, record.detail) {
        case (_, .correlation?): return Correlation(sample: record, members: members)
        case (.quantity, nil): return QuantitySample(record: record)
        case (.category, nil): return CategorySample(record: record)
        default: return HealthSample(record: record)
        }
    }

    /// The objects of `records`, in order, each of its kind; a correlation carries its members that `store` still
    /// holds and its source may read.
    static func objects(of records: [Sample], in store: HealthStore) throws -> [HealthSample] {
        let correlationRecords = records.filter { $0.detail?.correlation != nil }
        guard !correlationRecords.isEmpty else { return records.map { HealthSample.of($0) } }
        var correlations: [UUID: Correlation] = [:]
        for correlation in try CorrelationQuery.correlations(of: correlationRecords, in: store) {
            correlations[correlation.uuid] = correlation
        }
        return records.map { correlations[$0.uuid] ?? HealthSample.of($0) }
    }
}

extension SampleType {
    /// The type a stored record names: from the standard catalogue, the workout type, a correlation type, or (for a
    /// type this build does not know, kept as an import wrote it) a quantity stand-in with its identifier.
    static func lookUp(_ identifier: String, in catalogue: SampleTypeCatalogue = .standard) -> SampleType {
        if identifier == Workout.typeIdentifier { return Workout.sampleType }
        if identifier == WorkoutRoute.typeIdentifier { return WorkoutRoute.sampleType }
        if identifier == StateOfMind.typeIdentifier { return StateOfMind.sampleType }
        if let correlation = CorrelationType.identified(identifier) { return correlation }
        return catalogue.type(identifier: identifier) ?? .quantity(
            identifier, name: identifier, title: identifier, aggregation: .discreteArithmetic, unit: "count", examples: [])
    }
}

extension Sample {
    /// The source of a sample made in code and not saved yet; ``HealthStore`` fills in its own at the save.
    static let unsavedSource = ""

    /// A new record made in code, as HealthKit's initialisers make one: no source and a creation date until a
    /// ``HealthStore`` saves it.
    init(newOfType identifier: String, start: Date, end: Date, value: SampleValue, device: Device? = nil,
         metadata: [String: MetadataValue]?) {
        self.init(typeIdentifier: identifier, start: start, end: end, value: value, source: Sample.unsavedSource,
                  created: end, metadata: metadata ?? [:], device: device?.storedText)
    }
}
