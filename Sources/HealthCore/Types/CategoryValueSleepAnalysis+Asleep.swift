extension CategoryValueSleepAnalysis {
    /// HealthKit's name before iOS 16 for ``asleepUnspecified`` (raw value 1), which it still accepts as deprecated:
    /// `HKCategoryValueSleepAnalysis.asleep`. The same value, so code written either way reads and writes the same
    /// samples.
    public static var asleep: CategoryValueSleepAnalysis { .asleepUnspecified }
}
