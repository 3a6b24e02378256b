extension Workout {
    /// The workout a stored record holds, or nil when the record is not a typed workout.
    public convenience init?(_ sample: Sample) { self.init(sample: sample) }

    /// A new workout, not saved yet, as `HKWorkout(activityType:start:end:duration:totalEnergyBurned:totalDistance:metadata:)`.
    /// The store checks it when it is saved: `end >= start`, a duration that fits, totals in range.
    ///
    /// - Parameter duration: Seconds of activity; 0 (HealthKit's default) means the whole span from start to end.
    public convenience init(activityType: WorkoutActivityType, start: Date, end: Date, duration: TimeInterval = 0,
                totalEnergyBurned: Quantity? = nil, totalDistance: Quantity? = nil, metadata: [String: MetadataValue]? = nil) {
        let detail = WorkoutDetail(duration: duration > 0 ? duration : end.timeIntervalSince(start),
                                   totalEnergyBurned: totalEnergyBurned, totalDistance: totalDistance)
        self.init(activity: activityType, start: start, end: end, detail: detail, source: Sample.unsavedSource,
                  created: end, metadata: metadata ?? [:])
    }

    /// The kind of workout, as HealthKit's `workoutActivityType`.
    public var workoutActivityType: WorkoutActivityType { activity }
    /// The energy burned, as HealthKit's `totalEnergyBurned`.
    public var totalEnergyBurned: Quantity? { detail.totalEnergyBurned }
    /// The distance covered, as HealthKit's `totalDistance`.
    public var totalDistance: Quantity? { detail.totalDistance }
}
