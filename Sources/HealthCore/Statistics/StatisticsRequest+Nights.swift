extension StatisticsRequest {
    /// Runs a sleep-analysis query by the night, as the Health app counts sleep: the range names the local dates
    /// nights end on (the wake-up mornings), and each night runs from the ``NightCutoff`` on the day before to the
    /// cut-off on its date (see ``SleepNightsQuery``).
    ///
    /// Without buckets the figures cover exactly the nights of the range, so they are the sums of
    /// ``SleepNightsQuery``'s nights. With day, week, month or year buckets, each bucket holds the nights whose date
    /// falls in the calendar bucket. Buckets shorter than a day (hours, or six-hour ``BucketInterval``s) cannot hold whole nights: they
    /// stay on the clock, as ``run(on:calendar:)`` gives them. Every other type is run as by ``run(on:calendar:)``.
    ///
    /// - Parameters:
    ///   - store: Where to read samples.
    ///   - calendar: The calendar of dates, buckets and cut-offs.
    ///   - cutoff: When one night ends and the next begins.
    /// - Returns: Figures whose ``Statistics/start`` and ``Statistics/end`` are the nights' edges.
    /// - Throws: As ``run(on:calendar:)``.
    public func runByNight(on store: SampleStore, calendar: GregorianCalendar, cutoff: NightCutoff = .noon) throws
        -> StatisticsResult {
        guard type.isSleepAnalysis else { return try run(on: store, calendar: calendar) }
        if let length = effectiveBucketInterval, length.unit == .minute || length.unit == .hour {
            return try run(on: store, calendar: calendar)
        }
        var days = interval
        if interval.start == DateRange.distantStart || interval.end == DateRange.distantEnd {
            let all = try store.samples(ofType: type.identifier, overlapping: interval)
            days = StatisticsRequest.resolvedRange(interval, samples: all.filter { predicate.matchesSourceAndMetadata($0) })
            if days.start == DateRange.distantStart || days.end == DateRange.distantEnd { return try run(on: store, calendar: calendar) }
        }
        var whole = self
        whole.interval = StatisticsRequest.nights(of: days, cutoff: cutoff, calendar: calendar)
        whole.bucketInterval = nil
        whole.bucketUnit = nil
        guard let length = effectiveBucketInterval else { return try whole.run(on: store, calendar: calendar) }
        // Every bucket's nights lie inside the range's: one read serves the range and each bucket.
        let read = try ReadSnapshot(of: store, type: type.identifier, overlapping: whole.interval)
        var result = try whole.run(on: read, calendar: calendar)
        // The calendar buckets of the days (a closed range: the grid ``compute`` lays over it), each then counted
        // over its own nights.
        let boundaries = try BucketGrid(interval: length, anchor: anchor).boundaries(covering: days, calendar: calendar)
        result.buckets = try zip(boundaries, boundaries.dropFirst()).map { start, end in
            var one = whole
            one.interval = StatisticsRequest.nights(of: DateInterval(start: start, end: end), cutoff: cutoff, calendar: calendar)
            return try one.run(on: read, calendar: calendar).total
        }
        return result
    }

    /// ``runByNight(on:calendar:cutoff:)`` and the nights of the same range (``SleepNightsQuery`` with this query's
    /// predicate, priority and merging), from one read of the store where both read the same span: a sleep query
    /// over a closed range without buckets. Any other query runs both as they run alone (the nights of a query
    /// with buckets are still listed).
    ///
    /// - Returns: The figures and one night per date of the range.
    /// - Throws: As ``runByNight(on:calendar:cutoff:)``.
    public func runByNightListingNights(on store: SampleStore, calendar: GregorianCalendar, cutoff: NightCutoff = .noon)
        throws -> (result: StatisticsResult, nights: [SleepNight]) {
        let nightsQuery = SleepNightsQuery(interval: interval, cutoff: cutoff, predicate: predicate, priority: priority,
                                           mergesSources: mergesSources)
        guard type.isSleepAnalysis, effectiveBucketInterval == nil, interval.start != DateRange.distantStart,
              interval.end != DateRange.distantEnd else {
            return (try runByNight(on: store, calendar: calendar, cutoff: cutoff), try nightsQuery.run(on: store, calendar: calendar))
        }
        // Both read the samples overlapping the span of the range's nights (or the range itself when it has none).
        let span = StatisticsRequest.nights(of: interval, cutoff: cutoff, calendar: calendar)
        let read = try ReadSnapshot(of: store, type: type.identifier, overlapping: span)
        return (try runByNight(on: read, calendar: calendar, cutoff: cutoff), try nightsQuery.run(on: read, calendar: calendar))
    }

    /// The span of the nights that end on the local dates of `days`: from the cut-off on the day before the first
    /// date to the cut-off on the last.
    static func nights(of days: DateInterval, cutoff: NightCutoff, calendar: GregorianCalendar) -> DateInterval {
        let windows = SleepNightsQuery.windows(for: days, cutoff: cutoff, calendar: calendar)
        guard let first = windows.first, let last = windows.last, last.end > first.start else { return days }
        return DateInterval(start: first.start, end: last.end)
    }
}
