import Foundation

/// The figures for one interval: the whole query range, or one bucket of it.
///
/// Which figures are set depends on the type: ``sum`` for cumulative types; ``average``, ``minimum``,
/// ``maximum`` and ``mostRecent`` for discrete types; ``asleep`` and ``inBed`` for sleep analysis.
/// A cumulative sum over an interval with no samples is 0; discrete figures of an empty interval are nil.
public struct Statistics: Equatable, Sendable {
    /// Start of the interval.
    public var start: Date
    /// End of the interval (exclusive).
    public var end: Date
    /// How many samples contributed (fully or in part).
    public var sampleCount = 0
    /// Cumulative types: the total, with samples that straddle the interval's edges pro-rated by time.
    public var sum: Double?
    /// Discrete types: the mean of the readings that start in the interval.
    public var average: Double?
    /// Discrete types: the smallest reading.
    public var minimum: Double?
    /// Discrete types: the largest reading.
    public var maximum: Double?
    /// Discrete types: the latest reading (greatest end, then start).
    public var mostRecent: Double?
    /// When the latest reading ended.
    public var mostRecentDate: Date?
    /// Sleep: seconds asleep (any asleep stage; overlapping samples counted once).
    public var asleep: TimeInterval?
    /// Sleep: seconds in bed (overlapping samples counted once).
    public var inBed: TimeInterval?
    /// Other category types (mindful sessions, headaches): seconds covered by samples, overlaps counted once.
    public var duration: TimeInterval?

    /// Creates empty statistics for an interval.
    public init(start: Date, end: Date) {
        self.start = start
        self.end = end
    }
}

/// The answer to a ``StatisticsQuery``: figures for the whole range and, when bucketed, for every bucket.
public struct StatisticsResult: Equatable, Sendable {
    /// The type summarised.
    public var type: SampleType
    /// The unit of every quantity figure (nil for sleep, whose figures are seconds).
    public var unit: HealthUnit?
    /// The whole range.
    public var total: Statistics
    /// One entry per calendar bucket in order, empty ones included; empty when not bucketed.
    public var buckets: [Statistics]
}
