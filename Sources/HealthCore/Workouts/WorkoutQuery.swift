/// Finds workouts, like an `HKSampleQuery` of the workout type with an activity predicate, and summarises them.
public struct WorkoutQuery: Sendable {
    /// Workouts overlapping this interval (HealthKit's default predicate).
    public var interval: DateInterval
    /// Only this activity, if given.
    public var activity: WorkoutActivityType?

    /// Creates a query.
    public init(interval: DateInterval, activity: WorkoutActivityType? = nil) {
        self.interval = interval
        self.activity = activity
    }

    /// The workouts, oldest first. Workouts imported before the library typed them (kept generically) are typed on the fly.
    ///
    /// - Throws: Store errors.
    public func workouts(in store: SampleStore) throws -> [Workout] {
        var result: [Workout] = []
        try store.forEachSample(ofType: Workout.typeIdentifier, overlapping: interval) { sample in
            guard let workout = Workout(sample: sample) ?? WorkoutExportForm.typed(sample).flatMap(Workout.init(sample:)) else { return }
            if activity.map({ $0.rawValue == workout.activity.rawValue }) ?? true { result.append(workout) }
        }
        return result.sorted { ($0.start, $0.end, $0.uuid.uuidString) < ($1.start, $1.end, $1.uuid.uuidString) }
    }

    /// The average heart rate (count/min) during each workout that has heart-rate samples inside it: the mean of the
    /// readings that start within the workout, weighted by their length when they have one.
    ///
    /// - Throws: Store errors.
    public static func averageHeartRates(for workouts: [Workout], in store: SampleStore) throws -> [UUID: Double] {
        guard let first = workouts.map(\.start).min(), let last = workouts.map(\.end).max() else { return [:] }
        let perMinute = try HealthUnit(parsing: "count/min")
        var readings: [(Date, TimeInterval, Double)] = []
        try store.forEachSample(ofType: "HKQuantityTypeIdentifierHeartRate",
                                overlapping: DateInterval(start: first, end: last.addingTimeInterval(1))) { sample in
            if let quantity = sample.value.quantity, let value = try? quantity.value(in: perMinute) {
                readings.append((sample.start, sample.duration, value))
            }
        }
        var averages: [UUID: Double] = [:]
        for workout in workouts {
            var weighted = 0.0, weights = 0.0
            for (start, length, value) in readings where start >= workout.start && start <= workout.end {
                let weight = length > 0 ? length : 1
                weighted += value * weight
                weights += weight
            }
            if weights > 0 { averages[workout.uuid] = weighted / weights }
        }
        return averages
    }

    /// Count, durations, energy, distance and pace over the interval, and per bucket when `bucket` is given.
    /// A workout counts in the bucket where it starts.
    ///
    /// - Throws: Store errors, ``StatisticsError/tooManyBuckets(_:limit:)``, ``OverflowError`` when a total
    ///   overflows (workouts with energy or distance outside the valid range; they are named).
    public func summary(in store: SampleStore, bucket: BucketInterval? = nil, calendar: GregorianCalendar) throws -> WorkoutSummary {
        let workouts = try self.workouts(in: store)
        var summary = WorkoutSummary(interval: interval, total: WorkoutSummary.Figures(workouts))
        if let bucket {
            let edges = try BucketGrid(interval: bucket).boundaries(covering: interval, calendar: calendar)
            for index in 0..<(edges.count - 1) {
                let period = DateInterval(start: edges[index], end: edges[index + 1])
                let inside = workouts.filter { $0.start >= period.start && $0.start < period.end
                    || (index == 0 && $0.start < period.start) }
                summary.buckets.append(WorkoutSummary.Bucket(interval: period, figures: WorkoutSummary.Figures(inside)))
            }
        }
        try OverflowCheck.check(summary, workouts: workouts)
        return summary
    }
}
