/// A measurement with a numeric value: HealthKit's `HKQuantitySample`.
///
/// ```swift
/// let water = QuantitySample(type: QuantityType(.dietaryWater),
///                            quantity: Quantity(unit: .literUnit(with: .milli), doubleValue: 250),
///                            start: now, end: now)
/// try await store.save(water)
/// ```
public struct QuantitySample: HealthSample {
    public let sample: Sample

    /// A new sample, not saved yet, as `HKQuantitySample(type:quantity:start:end:metadata:)`. The store checks it when
    /// it is saved: a unit of the type's dimension, a plausible finite value, `end >= start`, not in the future.
    public init(type: QuantityType, quantity: Quantity, start: Date, end: Date, metadata: [String: MetadataValue]? = nil) {
        sample = Sample(newOfType: type.identifier, start: start, end: end, value: .quantity(quantity), metadata: metadata)
    }

    /// A new sample measured by `device`, as HealthKit's initialiser with `device:`.
    public init(type: QuantityType, quantity: Quantity, start: Date, end: Date, device: Device?, metadata: [String: MetadataValue]?) {
        sample = Sample(newOfType: type.identifier, start: start, end: end, value: .quantity(quantity), device: device, metadata: metadata)
    }

    /// The quantity sample a stored record holds, or nil when it holds a category value, a workout or a correlation.
    public init?(_ sample: Sample) {
        guard case .quantity = sample.value, sample.detail == nil else { return nil }
        self.sample = sample
    }

    /// The amount, as HealthKit's `quantity`.
    public var quantity: Quantity {
        guard case let .quantity(quantity) = sample.value else { preconditionFailure("a QuantitySample holds a quantity") }
        return quantity
    }

    /// The sample's type, as HealthKit's `quantityType`.
    public var quantityType: QuantityType {
        sampleType as? QuantityType ?? .quantity(sample.typeIdentifier, name: sample.typeIdentifier,
                                                 title: sample.typeIdentifier, aggregation: .discreteArithmetic,
                                                 unit: "count", examples: [])
    }

    /// How many readings the sample stands for, as HealthKit's `count`: always 1 here (series are not kept).
    public var count: Int { 1 }

    /// Metadata, keys case-sensitive, or nil when there is none (as HealthKit's `metadata`).
    public var metadata: [String: MetadataValue]? { sample.metadata.isEmpty ? nil : sample.metadata }
}
