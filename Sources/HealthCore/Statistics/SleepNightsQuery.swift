/// Sleep per night rather than per calendar day: every night whose morning falls on a local day of the interval.
///
/// The interval `[from, to)` names days: the nights are those ending on the local dates from `from`'s date to the
/// date of the last instant before `to`, so seven local days give seven nights. A night's window runs from the
/// ``cutoff`` on the previous day to the cut-off on its own date, and samples are cut at the window's edges.
/// Empty nights are listed with zero figures. ``StatisticsRequest/runByNight(on:calendar:cutoff:)`` gives the same
/// figures summed over the nights of a range or a bucket.
public struct SleepNightsQuery: Sendable {
    /// The days whose nights to list.
    public var interval: DateInterval
    /// When one night ends and the next begins.
    public var cutoff: NightCutoff
    /// Sources and metadata samples must match (its date options are not used: windows cut samples).
    public var predicate: SamplePredicate
    /// The order in which sources count.
    public var priority: SourcePriority
    /// False to take the union of every source's asleep samples instead of merging stages by priority.
    public var mergesSources: Bool

    /// Creates a query.
    public init(interval: DateInterval, cutoff: NightCutoff = .noon, predicate: SamplePredicate = SamplePredicate(),
                priority: SourcePriority = .automatic, mergesSources: Bool = true) {
        self.interval = interval
        self.cutoff = cutoff
        self.predicate = predicate
        self.priority = priority
        self.mergesSources = mergesSources
    }

    /// Lists the nights.
    ///
    /// - Parameters:
    ///   - store: Where to read sleep samples.
    ///   - calendar: The calendar (zone) of dates and cut-offs.
    /// - Returns: One night per date, in order.
    /// - Throws: Store errors.
    public func run(on store: SampleStore, calendar: GregorianCalendar) throws -> [SleepNight] {
        var days = interval
        if interval.start == DateRange.distantStart || interval.end == DateRange.distantEnd {
            let all = try store.samples(ofType: SampleType.sleepAnalysisIdentifier, overlapping: interval)
            days = StatisticsRequest.resolvedRange(interval, samples: all.filter { predicate.matchesSourceAndMetadata($0) })
            if days.start == DateRange.distantStart || days.end == DateRange.distantEnd { return [] }
        }
        let windows = SleepNightsQuery.windows(for: days, cutoff: cutoff, calendar: calendar)
        guard let first = windows.first, let last = windows.last else { return [] }
        let samples = try store.samples(ofType: SampleType.sleepAnalysisIdentifier,
                                        overlapping: DateInterval(start: first.start, end: last.end))
        let matching = predicate == SamplePredicate() ? samples : samples.filter { predicate.matchesSourceAndMetadata($0) }
        return nights(windows, samples: matching)
    }

    /// The night windows for the local days of `interval`: (date, start, end).
    static func windows(for interval: DateInterval, cutoff: NightCutoff, calendar: GregorianCalendar)
        -> [(date: Date, start: Date, end: Date)] {
        var windows: [(date: Date, start: Date, end: Date)] = []
        var day = calendar.startOfDay(for: interval.start)
        let lastDay = calendar.startOfDay(for: interval.end.addingTimeInterval(-0.001))
        while day <= lastDay, windows.count <= 100_000 {
            let previous = calendar.adding(-1, .days, to: day), next = calendar.adding(1, .days, to: day)
            windows.append((day, cutoff.instant(onDayOf: previous, calendar: calendar),
                            cutoff.instant(onDayOf: day, calendar: calendar)))
            day = calendar.startOfDay(for: next)
        }
        return windows
    }

    /// The figures of each window from `samples`.
    func nights(_ windows: [(date: Date, start: Date, end: Date)], samples: [Sample]) -> [SleepNight] {
        let sorted = samples.sortedChronologically()
        let entries = SleepEntry.entries(sorted, ranks: priority.ranks(sourcesOf: sorted))
        let timeline = SleepTimeline(entries: entries)
        func spans(_ raws: Set<Int>) -> [TimeSpan] {
            TimeSpan.union(entries.compactMap { raws.contains($0.raw) ? $0.span : nil })
        }
        let inBed = spans([SleepTimeline.inBedValue])
        let inBedSamples = SamplesByStart(sorted: entries.filter { $0.raw == SleepTimeline.inBedValue })
        let touchingAny = SamplesByStart(sorted: entries)
        let asleepUnion = spans(SleepTimeline.asleepValues)
        let bed = spans(SleepTimeline.asleepValues.union([SleepTimeline.inBedValue, SleepTimeline.awakeValue]))
        let byValue = Dictionary(uniqueKeysWithValues: [1, 2, 3, 4, 5].map { ($0, spans([$0])) })
        return windows.map { window in
            var night = SleepNight(date: window.date, start: window.start, end: window.end)
            let (from, to) = (window.start, window.end)
            let hasInBed = inBedSamples.anyTouches(from: from, to: to)
            night.inBed = hasInBed ? TimeSpan.covered(inBed, from: from, to: to) : nil
            if mergesSources {
                night.asleepUnspecified = timeline.seconds(of: [1], from: from, to: to)
                night.asleepCore = timeline.seconds(of: [3], from: from, to: to)
                night.asleepDeep = timeline.seconds(of: [4], from: from, to: to)
                night.asleepREM = timeline.seconds(of: [5], from: from, to: to)
                night.asleep = night.asleepUnspecified + night.asleepCore + night.asleepDeep + night.asleepREM
                night.awake = timeline.seconds(of: [SleepTimeline.awakeValue], from: from, to: to)
            } else {
                night.asleep = TimeSpan.covered(asleepUnion, from: from, to: to)
                night.asleepUnspecified = TimeSpan.covered(byValue[1]!, from: from, to: to)
                night.asleepCore = TimeSpan.covered(byValue[3]!, from: from, to: to)
                night.asleepDeep = TimeSpan.covered(byValue[4]!, from: from, to: to)
                night.asleepREM = TimeSpan.covered(byValue[5]!, from: from, to: to)
                night.awake = TimeSpan.covered(byValue[SleepTimeline.awakeValue]!, from: from, to: to)
            }
            let bedTime = TimeSpan.covered(bed, from: from, to: to)
            night.efficiency = hasInBed && bedTime > 0 ? min(1, night.asleep / bedTime) : nil
            var earliestStart: Date?, latestEnd: Date?
            touchingAny.forEachTouching(from: from, to: to) { index in
                let entry = entries[index]
                night.sampleCount += 1
                earliestStart = min(earliestStart ?? entry.start, entry.start)
                latestEnd = max(latestEnd ?? entry.end, entry.end)
            }
            if let earliestStart, let latestEnd {
                night.sleepStart = max(from, earliestStart)
                night.sleepEnd = min(to, latestEnd)
            }
            return night
        }
    }
}
