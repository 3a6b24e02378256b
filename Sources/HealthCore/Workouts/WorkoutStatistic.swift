/// One quantity type's figures over a workout, like HealthKit's `HKWorkout.statistics(for:)` (an export's
/// `WorkoutStatistics` element): the sum for cumulative types, average, minimum and maximum for discrete ones.
public struct WorkoutStatistic: Hashable, Sendable {
    /// The quantity type identifier (`HKQuantityTypeIdentifierHeartRate`).
    public var typeIdentifier: String
    /// The time the figures cover.
    public var start: Date
    public var end: Date
    public var sum: Double?
    public var average: Double?
    public var minimum: Double?
    public var maximum: Double?
    /// The unit of the figures, as written (`count/min`, `kcal`).
    public var unit: String?

    /// Creates a statistic.
    public init(typeIdentifier: String, start: Date, end: Date, sum: Double? = nil, average: Double? = nil,
                minimum: Double? = nil, maximum: Double? = nil, unit: String? = nil) {
        self.typeIdentifier = typeIdentifier
        self.start = Sample.millisecondPrecision(start)
        self.end = Sample.millisecondPrecision(end)
        self.sum = sum
        self.average = average
        self.minimum = minimum
        self.maximum = maximum
        self.unit = unit
    }

    /// The figures by name, in a stable order, skipping absent ones.
    var figures: [(name: String, value: Double)] {
        [("sum", sum), ("average", average), ("minimum", minimum), ("maximum", maximum)].compactMap { entry in
            entry.1.map { (entry.0, $0) }
        }
    }
}
