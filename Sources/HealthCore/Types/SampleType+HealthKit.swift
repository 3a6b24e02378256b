/// HealthKit's `HKSampleType` members.
extension SampleType {
    /// The longest a sample of this type may last, as HealthKit's `maximumAllowedDuration` (sleep: 24 h), or nil.
    public var maximumAllowedDuration: TimeInterval? { maximumDuration }
    /// Whether samples of this type have a longest allowed duration, as HealthKit's `isMaximumDurationRestricted`.
    public var isMaximumDurationRestricted: Bool { maximumDuration != nil }
    /// Whether samples of this type have a shortest allowed duration, as HealthKit's `isMinimumDurationRestricted`:
    /// none of the types here has one.
    public var isMinimumDurationRestricted: Bool { false }
    /// The shortest a sample of this type may last, as HealthKit's `minimumAllowedDuration`: 0.
    public var minimumAllowedDuration: TimeInterval { 0 }
    /// The aggregation style of a quantity type, as `HKQuantityType.aggregationStyle`, or nil for a category type.
    public var aggregationStyle: AggregationStyle? { aggregation }

    /// Whether amounts of this type can be written in `unit`, as `HKQuantityType.is(compatibleWith:)`.
    public func `is`(compatibleWith unit: HealthUnit) -> Bool { canonicalUnit?.isCompatible(with: unit) ?? false }
}
