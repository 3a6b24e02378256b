/// A measurement with a numeric value: HealthKit's `HKQuantitySample`.
///
/// ```swift
/// let water = QuantitySample(type: QuantityType(.dietaryWater),
///                            quantity: Quantity(unit: .literUnit(with: .milli), doubleValue: 250),
///                            start: now, end: now)
/// try await store.save(water)
/// ```
public final class QuantitySample: HealthSample, @unchecked Sendable {
    /// A new sample, not saved yet, as `HKQuantitySample(type:quantity:start:end:metadata:)`. The store checks it when
    /// it is saved: a unit of the type's dimension, a plausible finite value, `end >= start`.
    public convenience init(type: QuantityType, quantity: Quantity, start: Date, end: Date,
                            metadata: [String: MetadataValue]? = nil) {
        self.init(record: Sample(newOfType: type.identifier, start: start, end: end, value: .quantity(quantity),
                                 metadata: metadata))
    }

    /// A new sample measured by `device`, as HealthKit's initialiser with `device:`.
    public convenience init(type: QuantityType, quantity: Quantity, start: Date, end: Date, device: Device?,
                            metadata: [String: MetadataValue]?) {
        self.init(record: Sample(newOfType: type.identifier, start: start, end: end, value: .quantity(quantity),
                                 device: device, metadata: metadata))
    }

    /// The quantity sample a stored record holds, or nil when it holds a category value, a workout or a correlation.
    public convenience init?(_ sample: Sample) {
        guard case .quantity = sample.value, sample.detail == nil else { return nil }
        self.init(record: sample)
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
}
