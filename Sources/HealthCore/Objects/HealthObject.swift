/// Something the store holds: HealthKit's `HKObject`, the base of ``HealthSample`` and so of every kind of sample.
///
/// Every object is a view of one stored record, a ``Sample`` (``sample``), and is immutable. Two objects are equal when
/// they are of the same class and view equal records (a ``Correlation`` also compares its members); they hash by
/// uuid. Only this module makes objects: ``QuantitySample``, ``CategorySample``, ``Workout`` and ``Correlation`` have
/// initialisers, and a query hands out each record as the class of its kind.
public class HealthObject: Hashable, @unchecked Sendable {
    /// The stored record this object is a view of.
    public let sample: Sample

    init(record: Sample) {
        sample = record
    }

    /// The object's identity, as HealthKit's `uuid`.
    public var uuid: UUID { sample.uuid }
    /// Metadata in HealthKit's shape, `[String: Any]`, keys case-sensitive, or nil when there is none: read it as
    /// HealthKit code does, `metadata?[MetadataKeyWasUserEntered] as? Bool` (each value's Swift type is
    /// ``MetadataValue/healthKitValue(forKey:)``'s). The stored values exactly: ``metadataValues``.
    public var metadata: [String: Any]? { MetadataValue.healthKitMetadata(sample.metadata) }
    /// Metadata as stored, typed, or nil when there is none.
    public var metadataValues: [String: MetadataValue]? { sample.metadata.isEmpty ? nil : sample.metadata }
    /// The source that saved it and its version, as HealthKit's `sourceRevision`.
    public var sourceRevision: SourceRevision {
        SourceRevision(source: Source(name: sample.source), version: sample.sourceVersion)
    }
    /// The device that measured it, if known, as HealthKit's `device`.
    public var device: Device? { sample.device.map(Device.init(storedText:)) }
    /// Whether this object came from a store (a query's answer) rather than from an initialiser. Saving an object does
    /// not change it: the store fills in the source and creation date of what it writes.
    public var isSaved: Bool { !sample.source.isEmpty }

    public static func == (lhs: HealthObject, rhs: HealthObject) -> Bool { lhs.isEqual(to: rhs) }
    public func hash(into hasher: inout Hasher) { hasher.combine(sample.uuid) }

    /// Whether `other` is of this object's class and views an equal record; a subclass with more state compares it too.
    func isEqual(to other: HealthObject) -> Bool {
        type(of: self) == type(of: other) && sample == other.sample
    }
}
