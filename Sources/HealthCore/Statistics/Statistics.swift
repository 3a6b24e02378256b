/// The figures for one interval: the whole query range, or one bucket of it.
///
/// Which figures are set depends on the type and on the options asked for (see ``StatisticsOptions``): ``sum``
/// for cumulative types; ``average``, ``minimum``, ``maximum`` and ``mostRecent`` for discrete types; ``asleep``
/// and ``inBed`` for sleep analysis; ``durationSeconds`` for other category types. A cumulative sum over an interval with
/// no samples is 0; discrete figures of an empty interval are nil. Figures that were not asked for are nil.
public struct Statistics: Equatable, Sendable {
    /// Start of the interval.
    public var start: Date
    /// End of the interval (exclusive).
    public var end: Date
    /// How many samples contributed (fully or in part); samples dropped as overlaps of a higher-priority source
    /// do not count.
    public var sampleCount = 0
    /// Cumulative types: the total, with samples that straddle the interval's edges pro-rated by time and, when
    /// sources are merged, overlaps of lower-priority sources left out.
    public var sum: Double?
    /// Cumulative types with merged sources: the plain sum of every source, for comparison (never below ``sum``).
    public var unmergedSum: Double?
    /// Discrete types: the mean of the readings that start in the interval (weighted by time for temporally
    /// weighted types, energy-averaged for sound levels).
    public var average: Double?
    /// Discrete types: the smallest reading.
    public var minimum: Double?
    /// Discrete types: the largest reading.
    public var maximum: Double?
    /// The latest sample's value (greatest end, then start).
    public var mostRecent: Double?
    /// When the latest sample ended.
    public var mostRecentDate: Date?
    /// When the latest sample started (``Statistics/mostRecentQuantityDateInterval()``).
    var mostRecentStart: Date?
    /// Sleep: seconds asleep (any asleep stage; overlapping samples counted once).
    public var asleep: TimeInterval?
    /// Sleep: seconds in bed (overlapping samples counted once); nil when no `inBed` sample touches the interval
    /// (many sources record only sleep stages, so time in bed is unknown rather than zero).
    public var inBed: TimeInterval?
    /// Seconds covered by samples, overlaps counted once (category types, or the `duration` option); as a quantity,
    /// HealthKit's ``duration()``.
    public var durationSeconds: TimeInterval?
    /// With ``StatisticsOptions/separateBySource``: each source's own figures, without the priority step,
    /// highest priority first. HealthKit's ``sources`` names them.
    public var sourceStatistics: [SourceStatistics] = []
    /// With ``StatisticsRequest/explains``: how every sample touching the interval was counted.
    public var contributions: [SampleContribution] = []
    /// The unit of the quantity figures, set by the descriptors (``StatisticsQueryDescriptor``) so that
    /// ``sumQuantity()`` and its siblings can give quantities; nil in a ``StatisticsResult``, which has its own.
    public var unit: HealthUnit?

    /// Creates empty statistics for an interval.
    public init(start: Date, end: Date) {
        self.start = start
        self.end = end
    }
}

/// One source's figures for an interval, as if it were the only source.
public struct SourceStatistics: Equatable, Sendable {
    /// The source name.
    public var source: String
    /// Its figures (its own ``Statistics/sourceStatistics`` and ``Statistics/contributions`` are empty).
    public var statistics: Statistics

    /// Creates per-source figures.
    public init(source: String, statistics: Statistics) {
        self.source = source
        self.statistics = statistics
    }
}

/// The answer to a ``StatisticsRequest``: figures for the whole range and, when bucketed, for every bucket.
public struct StatisticsResult: Equatable, Sendable {
    /// The type summarised.
    public var type: SampleType
    /// The unit of every quantity figure (nil for category types, whose figures are seconds).
    public var unit: HealthUnit?
    /// The whole range.
    public var total: Statistics
    /// One entry per bucket in order, empty ones included; empty when not bucketed.
    public var buckets: [Statistics]
    /// The figures computed.
    public var options: StatisticsOptions = []
    /// Whether overlapping sources were merged by priority.
    public var mergedSources = false
    /// The sources of the samples considered, highest priority first.
    public var sourceOrder: [String] = []
}
