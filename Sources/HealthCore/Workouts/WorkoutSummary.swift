/// Figures over a set of workouts: count, time, energy and distance per activity.
public struct WorkoutSummary: Sendable {
    /// The figures of one set of workouts.
    public struct Figures: Equatable, Sendable {
        /// How many workouts.
        public var count: Int
        /// Active seconds, pauses excluded, summed.
        public var totalDuration: TimeInterval
        /// Energy burned in kcal, summed over the workouts that know it (nil when none does).
        public var energyKilocalories: Double?
        /// Distance in metres, summed over the workouts that know it (nil when none does).
        public var distanceMeters: Double?
        /// Seconds per kilometre over the distance activities that have a distance (nil when none).
        public var paceSecondsPerKilometer: Double?

        /// Average active seconds per workout (nil without workouts).
        public var averageDuration: TimeInterval? { count > 0 ? totalDuration / Double(count) : nil }

        /// The figures of `workouts`.
        public init(_ workouts: [Workout]) {
            count = workouts.count
            totalDuration = workouts.reduce(0) { $0 + $1.duration }
            let energies = workouts.compactMap(\.energyKilocalories)
            energyKilocalories = energies.isEmpty ? nil : energies.reduce(0, +)
            let distances = workouts.compactMap(\.distanceMeters)
            distanceMeters = distances.isEmpty ? nil : distances.reduce(0, +)
            let paced = workouts.filter { $0.paceSecondsPerKilometer != nil }
            let meters = paced.compactMap(\.distanceMeters).reduce(0, +)
            paceSecondsPerKilometer = meters > 0 ? paced.reduce(0) { $0 + $1.duration } / (meters / 1000) : nil
        }
    }

    /// One period's figures.
    public struct Bucket: Sendable {
        public var interval: DateInterval
        public var figures: Figures
    }

    /// The range summarised.
    public var interval: DateInterval
    /// The whole range.
    public var total: Figures
    /// One per period, empty ones included, when buckets were asked for.
    public var buckets: [Bucket] = []
}
