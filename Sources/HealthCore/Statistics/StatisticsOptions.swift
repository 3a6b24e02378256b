/// Which figures a ``StatisticsRequest`` computes, like HealthKit's `HKStatisticsOptions` (same raw values).
///
/// Which options apply depends on the type's ``AggregationStyle``: ``sum`` only to cumulative types,
/// ``average``, ``minimum`` and ``maximum`` only to discrete ones, as in HealthKit, where asking for the sum of
/// heart rate is an error. ``mostRecent`` and ``duration`` apply to every quantity type; category types other
/// than sleep allow ``duration`` only, and sleep analysis has its own figures (time asleep and in bed) and takes
/// no option but ``separateBySource``.
public struct StatisticsOptions: OptionSet, Hashable, Sendable {
    /// HealthKit's raw value.
    public let rawValue: Int

    /// Creates options from HealthKit's raw value.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Per-source figures beside the merged ones (`HKStatisticsOptionSeparateBySource`).
    public static let separateBySource = StatisticsOptions(rawValue: 1)
    /// Discrete types: the mean (`discreteAverage`); weighted by time for temporally weighted types.
    public static let average = StatisticsOptions(rawValue: 2)
    /// Discrete types: the smallest reading (`discreteMin`).
    public static let minimum = StatisticsOptions(rawValue: 4)
    /// Discrete types: the largest reading (`discreteMax`).
    public static let maximum = StatisticsOptions(rawValue: 8)
    /// Cumulative types: the total (`cumulativeSum`).
    public static let sum = StatisticsOptions(rawValue: 16)
    /// The latest sample's value and date (`mostRecent`).
    public static let mostRecent = StatisticsOptions(rawValue: 32)
    /// Seconds covered by samples, overlaps counted once (`duration`).
    public static let duration = StatisticsOptions(rawValue: 64)
    /// HealthKit's name for ``sum``.
    public static let cumulativeSum = sum
    /// HealthKit's name for ``average``.
    public static let discreteAverage = average
    /// HealthKit's name for ``minimum``.
    public static let discreteMin = minimum
    /// HealthKit's name for ``maximum``.
    public static let discreteMax = maximum

    /// Every figure option with its name, in output order (``separateBySource`` is not a figure).
    public static let named: [(option: StatisticsOptions, name: String)] = [
        (.sum, "sum"), (.average, "average"), (.minimum, "minimum"), (.maximum, "maximum"),
        (.mostRecent, "mostRecent"), (.duration, "duration"),
    ]

    /// The names of the figure options in this set, in output order.
    public var names: [String] { StatisticsOptions.named.filter { contains($0.option) }.map(\.name) }

    /// The figures computed when none are asked for: the sum for cumulative types; average, minimum, maximum
    /// and most recent for discrete types; duration for category types other than sleep; none for sleep.
    public static func defaults(for type: SampleType) -> StatisticsOptions {
        if type.isSleepAnalysis { return [] }
        if type.kind == .category { return .duration }
        if type.aggregation?.isCumulative ?? false { return .sum }
        return [.average, .minimum, .maximum, .mostRecent]
    }

    /// Every figure option that applies to `type`.
    public static func applicable(to type: SampleType) -> StatisticsOptions {
        if type.isSleepAnalysis { return [] }
        if type.kind == .category { return .duration }
        if type.aggregation?.isCumulative ?? false { return [.sum, .mostRecent, .duration] }
        return [.average, .minimum, .maximum, .mostRecent, .duration]
    }

    /// Checks that every option applies to `type`.
    ///
    /// - Parameter type: The type the statistics are for.
    /// - Throws: ``StatisticsError/optionNotApplicable(_:type:allowed:)`` for the first option that does not apply.
    public func validate(for type: SampleType) throws {
        let allowed = StatisticsOptions.applicable(to: type)
        for (option, name) in StatisticsOptions.named where contains(option) && !allowed.contains(option) {
            throw StatisticsError.optionNotApplicable(name, type: type.name, allowed: allowed.names)
        }
    }
}
