import HealthCore

/// Trends over local days: a value per local day, its moving average, the change over the
/// period and figures per weekday (a ``Trend``).
///
/// A day's value is the day's merged sum for cumulative types, the day's average for discrete ones, the time
/// asleep of the night ending that morning for sleep, and the time covered for other category types. Days with no
/// samples have no value: they are left out of averages (a day without steps recorded is a day without data,
/// not a day without steps).
package struct TrendQuery: Sendable {
    /// The type.
    package var type: SampleType
    /// The days (whole local days are expected; buckets are cut at its edges).
    package var interval: DateInterval
    /// The output unit; nil means the type's display unit.
    package var unit: HealthUnit?
    /// The moving-average window in days (1…365, default 7).
    package var window: Int
    /// The order in which sources count.
    package var priority: SourcePriority
    /// False for plain sums instead of merged ones.
    package var mergesSources: Bool
    /// For sleep: when one night ends and the next begins.
    package var nightCutoff: NightCutoff

    /// Creates a query.
    package init(type: SampleType, interval: DateInterval, unit: HealthUnit? = nil, window: Int = 7,
                priority: SourcePriority = .automatic, mergesSources: Bool = true, nightCutoff: NightCutoff = .noon) {
        self.type = type
        self.interval = interval
        self.unit = unit
        self.window = window
        self.priority = priority
        self.mergesSources = mergesSources
        self.nightCutoff = nightCutoff
    }

    /// Computes the trend.
    ///
    /// - Parameters:
    ///   - store: Where to read samples.
    ///   - calendar: The calendar (zone, first weekday) of days and weekdays.
    /// - Throws: ``TrendError/invalidWindow(_:)``, unit errors, or store errors.
    package func run(on store: SampleStore, calendar: GregorianCalendar) throws -> Trend {
        guard (1...365).contains(window) else { throw TrendError.invalidWindow(window) }
        var values: [(date: Date, value: Double?)]
        var unit: HealthUnit?
        let measure: String
        if type.isSleepAnalysis {
            let nights = try SleepNightsQuery(interval: interval, cutoff: nightCutoff, priority: priority,
                                              mergesSources: mergesSources).run(on: store, calendar: calendar)
            values = nights.map { ($0.date, $0.sampleCount > 0 ? $0.asleep : nil) }
            measure = "asleep"
        } else {
            let query = StatisticsRequest(type: type, interval: interval, bucketUnit: .day, unit: self.unit,
                                        priority: priority, mergesSources: mergesSources)
            let result = try query.run(on: store, calendar: calendar)
            unit = result.unit
            let cumulative = type.aggregation?.isCumulative ?? false
            measure = type.kind == .category ? "duration" : cumulative ? "sum" : "average"
            values = result.buckets.map { bucket in
                guard bucket.sampleCount > 0 else { return (calendar.startOfDay(for: bucket.start), nil) }
                let value = type.kind == .category ? bucket.durationSeconds : cumulative ? bucket.sum : bucket.average
                return (calendar.startOfDay(for: bucket.start), value)
            }
        }
        return TrendQuery.trend(values, type: type, unit: unit, measure: measure, window: window, calendar: calendar)
    }

    /// The trend of daily `values` (consecutive local days).
    static func trend(_ values: [(date: Date, value: Double?)], type: SampleType, unit: HealthUnit?, measure: String,
                      window: Int, calendar: GregorianCalendar) -> Trend {
        var days: [Trend.Day] = []
        for (index, entry) in values.enumerated() {
            let recent = values[max(0, index - window + 1)...index].compactMap(\.value)
            days.append(Trend.Day(date: entry.date, weekday: calendar.weekday(of: entry.date), value: entry.value,
                                  movingAverage: recent.isEmpty ? nil : recent.reduce(0, +) / Double(recent.count)))
        }
        let recorded = days.filter { $0.value != nil }
        var change: Trend.Change?
        if let first = recorded.first, let last = recorded.last {
            let absolute = last.value! - first.value!
            change = Trend.Change(
                firstDate: first.date, first: first.value!, lastDate: last.date, last: last.value!, absolute: absolute,
                relative: first.value! == 0 ? nil : absolute / first.value!,
                movingAverageChange: (last.movingAverage ?? 0) - (first.movingAverage ?? 0))
        }
        var sums = [Int: (total: Double, count: Int, change: Double, changes: Int)]()
        for (index, day) in days.enumerated() {
            let weekday = day.weekday
            var entry = sums[weekday] ?? (0, 0, 0, 0)
            if let value = day.value {
                entry.total += value
                entry.count += 1
                if index > 0, let previous = days[index - 1].value {
                    entry.change += value - previous
                    entry.changes += 1
                }
            }
            sums[weekday] = entry
        }
        let weekdays = (0..<7).map { offset -> Trend.Weekday in
            let weekday = (calendar.firstWeekday - 1 + offset) % 7 + 1
            let entry = sums[weekday] ?? (0, 0, 0, 0)
            return Trend.Weekday(
                weekday: weekday,
                average: entry.count > 0 ? entry.total / Double(entry.count) : nil, days: entry.count,
                averageChange: entry.changes > 0 ? entry.change / Double(entry.changes) : nil, changes: entry.changes)
        }
        let average = recorded.isEmpty ? nil : recorded.compactMap(\.value).reduce(0, +) / Double(recorded.count)
        return Trend(type: type, unit: unit, measure: measure, window: window, days: days, average: average,
                     change: change, weekdays: weekdays)
    }
}
