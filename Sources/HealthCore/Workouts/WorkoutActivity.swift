/// One part of a multi-activity workout, HealthKit's `HKWorkoutActivity` (iOS 16; an export's `WorkoutActivity`
/// element): a swim, bike and run of a triathlon, or the single activity that newer exports always write.
public struct WorkoutActivity: Hashable, Sendable {
    /// The identifier the export gave it, if any.
    public var uuid: String?
    public var start: Date
    public var end: Date?
    /// Seconds of activity, pauses excluded.
    public var duration: TimeInterval?
    public var events: [WorkoutEvent]
    public var statistics: [WorkoutStatistic]
    /// Its own metadata, as written.
    public var metadata: [String: String]

    /// Creates a part.
    public init(uuid: String? = nil, start: Date, end: Date? = nil, duration: TimeInterval? = nil,
                events: [WorkoutEvent] = [], statistics: [WorkoutStatistic] = [], metadata: [String: String] = [:]) {
        self.uuid = uuid
        self.start = Sample.millisecondPrecision(start)
        self.end = end.map(Sample.millisecondPrecision)
        self.duration = duration
        self.events = events
        self.statistics = statistics
        self.metadata = metadata
    }
}
