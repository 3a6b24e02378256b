/// Something that happened during a workout, HealthKit's `HKWorkoutEvent`: a pause, a resume, a lap, a segment.
public struct WorkoutEvent: Hashable, Sendable {
    /// HealthKit's `HKWorkoutEventType`, with its raw values.
    public enum Kind: Int, Hashable, Sendable, CaseIterable {
        case pause = 1, resume = 2, lap = 3, marker = 4, motionPaused = 5, motionResumed = 6, segment = 7
        case pauseOrResumeRequest = 8

        /// The Swift case name (`motionPaused`), used in store lines and JSON output.
        public var name: String { String(describing: self) }
        /// `HKWorkoutEventTypeMotionPaused`.
        public var exportName: String { "HKWorkoutEventType" + name.prefix(1).uppercased() + name.dropFirst() }

        /// The kind a case name or export name stands for.
        public init?(name: String) {
            guard let kind = Kind.allCases.first(where: { $0.name == name || $0.exportName == name }) else { return nil }
            self = kind
        }
    }

    /// What happened.
    public var kind: Kind
    /// When it happened (its start, for laps and segments).
    public var date: Date
    /// How long it lasted: laps and segments only; 0 for the others.
    public var duration: TimeInterval

    /// Creates an event.
    public init(kind: Kind, date: Date, duration: TimeInterval = 0) {
        self.kind = kind
        self.date = Sample.millisecondPrecision(date)
        self.duration = duration
    }
}
