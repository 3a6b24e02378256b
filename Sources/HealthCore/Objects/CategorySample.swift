/// A measurement with one of a fixed set of values: HealthKit's `HKCategorySample` (sleep stages, mindful minutes).
///
/// ```swift
/// let core = CategorySample(type: CategoryType(.sleepAnalysis), value: CategoryValueSleepAnalysis.asleepCore.rawValue,
///                           start: bedtime, end: wake)
/// ```
public final class CategorySample: HealthSample, @unchecked Sendable {
    /// A new sample, not saved yet, as `HKCategorySample(type:value:start:end:metadata:)`. The store checks that the
    /// type has the value when it is saved.
    public convenience init(type: CategoryType, value: Int, start: Date, end: Date,
                            metadata: [String: MetadataValue]? = nil) {
        self.init(record: Sample(newOfType: type.identifier, start: start, end: end, value: .category(value),
                                 metadata: metadata))
    }

    /// A new sample measured by `device`, as HealthKit's initialiser with `device:`.
    public convenience init(type: CategoryType, value: Int, start: Date, end: Date, device: Device?,
                            metadata: [String: MetadataValue]?) {
        self.init(record: Sample(newOfType: type.identifier, start: start, end: end, value: .category(value),
                                 device: device, metadata: metadata))
    }

    /// The category sample a stored record holds, or nil when it holds a quantity, a workout or a correlation.
    public convenience init?(_ sample: Sample) {
        guard case .category = sample.value, sample.detail == nil else { return nil }
        self.init(record: sample)
    }

    /// The raw value, as HealthKit's `value` (for sleep, a ``CategoryValueSleepAnalysis`` raw value).
    public var value: Int {
        guard case let .category(raw) = sample.value else { preconditionFailure("a CategorySample holds a category value") }
        return raw
    }

    /// The sample's type, as HealthKit's `categoryType`.
    public var categoryType: CategoryType {
        sampleType as? CategoryType ?? .category(sample.typeIdentifier, name: sample.typeIdentifier,
                                                 title: sample.typeIdentifier, values: [], examples: [])
    }
}

/// Sleep stages with HealthKit's raw values: `HKCategoryValueSleepAnalysis`.
public enum CategoryValueSleepAnalysis: Int, Sendable, CaseIterable {
    /// In bed, not necessarily asleep.
    case inBed = 0
    /// Asleep, stage unknown (HealthKit's `asleep` before iOS 16).
    case asleepUnspecified = 1
    /// Awake during the sleep period.
    case awake = 2
    /// Core (light) sleep.
    case asleepCore = 3
    /// Deep sleep.
    case asleepDeep = 4
    /// REM sleep.
    case asleepREM = 5

    /// The stages that count as asleep, as `HKCategoryValueSleepAnalysis.allAsleepValues`.
    public static var allAsleepValues: Set<CategoryValueSleepAnalysis> {
        [.asleepUnspecified, .asleepCore, .asleepDeep, .asleepREM]
    }
}
