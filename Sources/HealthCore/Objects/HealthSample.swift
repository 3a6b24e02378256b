/// What a query returns and ``HealthStore/save(_:)-(HealthSample)`` takes: HealthKit's `HKSample` and its subclasses
/// (``Sample`` for any, ``QuantitySample``, ``CategorySample``, ``Workout``).
///
/// Every kind is a view of one stored record, a ``Sample``: a query of quantity samples hands out ``QuantitySample``
/// values, whose ``QuantitySample/quantity`` is never nil, as in HealthKit.
public protocol HealthSample: Hashable, Sendable {
    /// The stored record this value is a view of.
    var sample: Sample { get }
    /// The view of a stored record, or nil when the record is of another kind (a category sample for a
    /// ``QuantitySample``).
    init?(_ sample: Sample)
}

extension HealthSample {
    /// The sample's identity, as HealthKit's `uuid`.
    public var uuid: UUID { sample.uuid }
    /// When the measurement started, as HealthKit's `startDate`.
    public var startDate: Date { sample.start }
    /// When it ended, as HealthKit's `endDate`.
    public var endDate: Date { sample.end }
    /// The sample's type, as HealthKit's `sampleType`.
    public var sampleType: SampleType { SampleType.lookUp(sample.typeIdentifier) }
    /// The name of the source that saved it: HealthKit's `sourceRevision.source.name`.
    public var sourceName: String { sample.source }
    /// The source that saved it and its version, as HealthKit's `sourceRevision`.
    public var sourceRevision: SourceRevision { SourceRevision(source: Source(name: sample.source), version: sample.sourceVersion) }
    /// The device that measured it, if known, as HealthKit's `device`. (A ``Sample`` or ``Workout`` keeps the
    /// device as text in a property of the same name.)
    public var device: Device? { sample.device.map(Device.init(storedText:)) }
    /// Whether this value came from a store (a query's answer) rather than from an initialiser. Saving a value does
    /// not change it: the store fills in the source and creation date of what it writes.
    public var isSaved: Bool { !sample.source.isEmpty }
}

extension Sample: HealthSample {
    /// The record itself.
    public var sample: Sample { self }

    /// The record itself: any stored record is a ``Sample``.
    public init?(_ sample: Sample) { self = sample }
}

extension SampleType {
    /// The type a stored record names: from the standard catalogue, the workout type, or (for a type this build does
    /// not know, kept as an import wrote it) a plain stand-in with its identifier.
    static func lookUp(_ identifier: String, in catalogue: SampleTypeCatalogue = .standard) -> SampleType {
        if identifier == Workout.typeIdentifier { return Workout.sampleType }
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
