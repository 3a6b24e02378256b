/// One night of sleep, named after the local date it ends on (see ``NightCutoff``).
///
/// Figures are seconds inside the night's window. Sources are merged as in ``SleepTimeline``: where several
/// sources overlap, the highest-priority one's stages count, so nothing is counted twice. ``asleep`` is the sum of
/// the four asleep stages.
public struct SleepNight: Equatable, Sendable {
    /// Local midnight of the morning the night ends on.
    public var date: Date
    /// The window's start: the cut-off on the day before ``date``.
    public var start: Date
    /// The window's end: the cut-off on ``date``.
    public var end: Date
    /// Seconds in bed (`inBed` samples, overlaps once); nil when the night has no `inBed` sample (unknown, not zero).
    public var inBed: TimeInterval?
    /// Seconds asleep, any stage.
    public var asleep: TimeInterval = 0
    /// Seconds awake during the night (`awake` samples that won the timeline).
    public var awake: TimeInterval = 0
    /// Seconds asleep without a stage (`asleepUnspecified`, the old `asleep`).
    public var asleepUnspecified: TimeInterval = 0
    /// Seconds of core (light) sleep.
    public var asleepCore: TimeInterval = 0
    /// Seconds of deep sleep.
    public var asleepDeep: TimeInterval = 0
    /// Seconds of REM sleep.
    public var asleepREM: TimeInterval = 0
    /// Time asleep divided by time in bed, where time in bed is everything covered by an `inBed`, asleep or awake
    /// sample (you are in bed while asleep or lying awake); nil when the night has no `inBed` sample (``inBed`` is
    /// unknown) or nothing was recorded.
    public var efficiency: Double?
    /// The first instant covered by any sleep sample in the window.
    public var sleepStart: Date?
    /// The last instant covered by any sleep sample in the window.
    public var sleepEnd: Date?
    /// Samples touching the window.
    public var sampleCount = 0

    /// Creates an empty night.
    public init(date: Date, start: Date, end: Date) {
        self.date = date
        self.start = start
        self.end = end
    }
}
