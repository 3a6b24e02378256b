/// How one sample counted in one interval, to explain a figure: the part inside the interval, the part that counted,
/// and the stretches that a higher-priority source's samples covered instead.
public struct SampleContribution: Equatable, Sendable {
    /// What happened to the sample in the interval.
    public enum Outcome: String, Sendable {
        /// Counted whole.
        case counted
        /// Partly outside the interval: the share inside counted (pro-rated by time).
        case split
        /// Partly covered by a higher-priority source: only the uncovered part counted.
        case cut
        /// Entirely covered by a higher-priority source (or, for an instantaneous sample, one was active then).
        case dropped
    }

    /// A stretch of the sample's time, inside the interval, where another sample won.
    public struct Override: Equatable, Sendable {
        /// The winning source.
        public var source: String
        /// For sleep, the winning stage's name; nil for quantities.
        public var stage: String?
        /// Seconds overridden (0 for an instantaneous sample).
        public var seconds: TimeInterval

        /// Creates an override.
        public init(source: String, stage: String? = nil, seconds: TimeInterval) {
            self.source = source
            self.stage = stage
            self.seconds = seconds
        }
    }

    /// The sample.
    public var sample: Sample
    /// Quantities: the sample's whole value in the output unit.
    public var value: Double?
    /// Cumulative types: the amount that counted in the interval.
    public var counted: Double?
    /// Discrete temporally weighted and sound-level types: the reading's weight in seconds.
    public var weight: TimeInterval?
    /// Sleep: the stage's name.
    public var stage: String?
    /// Seconds of the sample inside the interval.
    public var secondsInInterval: TimeInterval
    /// Seconds of those that counted.
    public var secondsCounted: TimeInterval
    /// Where higher-priority samples won inside the interval.
    public var overrides: [Override]

    /// Creates a contribution.
    public init(sample: Sample, value: Double? = nil, counted: Double? = nil, weight: TimeInterval? = nil,
                stage: String? = nil, secondsInInterval: TimeInterval, secondsCounted: TimeInterval,
                overrides: [Override] = []) {
        self.sample = sample
        self.value = value
        self.counted = counted
        self.weight = weight
        self.stage = stage
        self.secondsInInterval = secondsInInterval
        self.secondsCounted = secondsCounted
        self.overrides = overrides
    }

    /// What happened: dropped when nothing counted, cut when an override took part, split when part lay outside
    /// the interval, counted otherwise.
    public var outcome: Outcome {
        let isInstant = sample.start == sample.end
        if isInstant { return overrides.isEmpty ? .counted : .dropped }
        if secondsCounted <= 0 && !overrides.isEmpty { return .dropped }
        if !overrides.isEmpty { return .cut }
        if secondsInInterval < sample.duration { return .split }
        return .counted
    }
}
