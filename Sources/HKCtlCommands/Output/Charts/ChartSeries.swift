import HealthCore

/// The data of one chart: a value per period of a type, drawn as bars (totals) or a line (averages).
///
/// Cumulative types give the period's sum, drawn as bars with the daily goal marked; discrete types give the
/// period's average, drawn as a line; category types other than sleep give the time covered, in minutes, as
/// bars. A period with no samples has no value (`nil`): it is drawn empty and left out of averages.
struct ChartSeries: Equatable, Sendable {
    /// How the values are drawn.
    enum Style: String, Sendable {
        /// Horizontal bars from zero (totals).
        case bars
        /// Points joined by a line on an axis that fits the data (averages).
        case line
    }

    /// One period.
    struct Point: Equatable, Sendable {
        /// Its start.
        var start: Date
        /// Its end (exclusive).
        var end: Date
        /// Its value in ``ChartSeries/unit``, or nil when nothing was recorded.
        var value: Double?
        /// Whether it is less than a whole period: only part of its calendar period lies in the charted range (the
        /// first or last week of a range that does not start or end on a week's boundary), or it is not over yet
        /// (``unfinished``). Charts mark it and leave it out of the average a period, since its total is not a whole
        /// period's.
        var partial: Bool
        /// Whether "now" falls inside it (today, the current week): a partial period that is still going on.
        var unfinished: Bool

        /// Creates a point.
        init(start: Date, end: Date, value: Double?, partial: Bool = false, unfinished: Bool = false) {
            self.start = start
            self.end = end
            self.value = value
            self.partial = partial || unfinished
            self.unfinished = unfinished
        }
    }

    /// The type charted.
    var type: SampleType
    /// The unit of values.
    var unit: HealthUnit?
    /// Bars or line.
    var style: Style
    /// The length of one period.
    var bucket: BucketUnit
    /// The periods, in order.
    var points: [Point]
    /// The goal per period in ``unit``, marked on bars; nil for none.
    var goal: Double?

    /// Creates a series.
    init(type: SampleType, unit: HealthUnit?, style: Style, bucket: BucketUnit, points: [Point], goal: Double? = nil) {
        self.type = type
        self.unit = unit
        self.style = style
        self.bucket = bucket
        self.points = points
        self.goal = goal
    }

    /// The series of a bucketed statistics result.
    ///
    /// - Parameters:
    ///   - result: The result of a ``StatisticsRequest`` grouped by `bucket`.
    ///   - bucket: The period of its buckets.
    ///   - goal: The daily goal; it is marked only when `bucket` is a day.
    ///   - calendar: The calendar of the buckets, to tell the periods only partly in the range (``Point/partial``);
    ///     without it none is.
    ///   - now: The present, to tell the period of totals not over yet (``Point/unfinished``); without it none is.
    init(result: StatisticsResult, bucket: BucketUnit, goal: Quantity? = nil, calendar: GregorianCalendar? = nil, now: Date? = nil) {
        let type = result.type
        let cumulative = type.aggregation?.isCumulative ?? false
        let unit = type.kind == .category ? HealthUnit.minute() : result.unit
        let style: Style = type.kind == .quantity && !cumulative ? .line : .bars
        let points = result.buckets.map { statistics -> Point in
            // A period not over yet has a total still growing; an average so far is an average (lines leave it unmarked).
            let now = style == .bars ? now : nil
            let partial = calendar.map { ChartSeries.isPartial(start: statistics.start, end: statistics.end, bucket: bucket, calendar: $0) } ?? false
            let unfinished = now.map { ChartSeries.isUnfinished(start: statistics.start, end: statistics.end, now: $0) } ?? false
            guard statistics.sampleCount > 0 else {
                return Point(start: statistics.start, end: statistics.end, value: nil, partial: partial, unfinished: unfinished)
            }
            let value = type.kind == .category ? statistics.durationSeconds.map { $0 / 60 } : cumulative ? statistics.sum : statistics.average
            return Point(start: statistics.start, end: statistics.end, value: value, partial: partial, unfinished: unfinished)
        }
        let goalValue = bucket == .day ? goal.flatMap { goal in unit.flatMap { try? goal.value(in: $0) } } : nil
        self.init(type: type, unit: unit, style: style, bucket: bucket,
                  points: points, goal: goalValue)
    }

    /// Whether `[start, end)` is less than the whole calendar `bucket` it lies in.
    static func isPartial(start: Date, end: Date, bucket: BucketUnit, calendar: GregorianCalendar) -> Bool {
        let interval = BucketInterval(bucket)
        // The anchor starts the day, week, month or year holding `start`; hours are counted on from the day's start.
        let anchor = interval.defaultAnchor(for: start, calendar: calendar)
        // A day or longer ends at the next one's first instant, also where a zone skips midnight (its 01:00).
        func point(_ step: Int) -> Date {
            let date = interval.point(step, from: anchor, calendar: calendar)
            return bucket == .hour ? date : calendar.startOfDay(for: date)
        }
        var step = 0
        while step < 25, point(step + 1) <= start { step += 1 }
        return point(step) != start || point(step + 1) != end
    }

    /// Whether `now` falls inside `[start, end)`: the period has begun and is not over.
    static func isUnfinished(start: Date, end: Date, now: Date) -> Bool { start <= now && now < end }

    /// The indices of the points with a value, in order.
    var readingIndices: [Int] { points.indices.filter { points[$0].value != nil } }

    /// Whether two readings have periods without data between them: a line joins them (dashed), never through zero.
    var bridgesGaps: Bool {
        let readings = readingIndices
        return zip(readings, readings.dropFirst()).contains { $1 - $0 > 1 }
    }

    /// The note under a chart with partial periods, `* week only partly in the range` (`weeks` for more than one);
    /// nil when there are none.
    var partialNote: String? {
        ChartSeries.partialNote(bucket: bucket, cut: points.filter { $0.partial && !$0.unfinished }.count,
                                unfinished: points.filter(\.unfinished).count)
    }

    /// The note for `cut` periods only partly in the range and `unfinished` ones not over yet:
    /// `* weeks only partly in the range`, `* day not over yet`, `* weeks only partly in the range or not over yet`;
    /// nil when there are none. Tables of statistics use it too.
    static func partialNote(bucket: BucketUnit, cut: Int, unfinished: Int) -> String? {
        guard cut + unfinished > 0 else { return nil }
        let reasons = (cut > 0 ? ["only partly in the range"] : []) + (unfinished > 0 ? ["not over yet"] : [])
        return "* \(bucket.rawValue)\(cut + unfinished == 1 ? "" : "s") " + reasons.joined(separator: " or ")
    }

    /// The label of a point's period, `*` added to a partial one: `wk 27 May*`.
    func label(_ point: Point, calendar: GregorianCalendar) -> String {
        ChartFormat.period(point.start, bucket: bucket, calendar: calendar) + (point.partial ? "*" : "")
    }

    /// The values recorded, in order.
    var recorded: [Double] { points.compactMap(\.value) }

    /// Whether ``average`` is over partial periods: none of the whole periods has a value, but a partial one does.
    var averageIncludesPartial: Bool {
        !points.contains { !$0.partial && $0.value != nil } && points.contains { $0.partial && $0.value != nil }
    }

    /// Whether ``average`` leaves out partial periods that have a value.
    var averageLeavesOutPartial: Bool {
        !averageIncludesPartial && points.contains { $0.partial && $0.value != nil }
    }

    /// The mean of the recorded values of whole periods (a partial first or last period, or one not over yet, would
    /// pull it down), or of the partial ones when no whole period has a value; nil when nothing was recorded.
    var average: Double? {
        let whole = points.filter { !$0.partial }.compactMap(\.value)
        let values = whole.isEmpty ? recorded : whole
        return values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
    }

    /// What a value is, for titles: `per day`, `daily average`, `minutes per week`.
    var measure: String {
        let period = ["hour": "hour", "day": "day", "week": "week", "month": "month", "year": "year"][bucket.rawValue] ?? "period"
        if style == .line { return bucket == .day ? "daily average" : "average per \(period)" }
        return type.kind == .category ? "minutes per \(period)" : "per \(period)"
    }

    /// `amount` with the series' unit: `8,012 steps`.
    func amount(_ value: Double) -> String { ChartFormat.amount(value, unit: unit, type: type) }

    /// The title line: `Steps per day · 27 May – 2 Jun 2024 · goal 10,000 steps`.
    func title(calendar: GregorianCalendar) -> [String] {
        var parts = [style == .bars && type.kind == .quantity ? "\(type.title) \(measure)" : "\(type.title), \(measure)"]
        if let first = points.first, let last = points.last {
            parts.append(ChartFormat.range(from: first.start, to: last.end, calendar: calendar))
        }
        if let goal { parts.append("goal " + amount(goal)) }
        return parts
    }
}

/// Joins title parts with ` · `, starting a new line where the next part would pass `width`.
func fitted(_ parts: [String], width: Int) -> [String] {
    var lines: [String] = []
    for part in parts {
        if let last = lines.last, last.count + 3 + part.count <= width {
            lines[lines.count - 1] = last + " · " + part
        } else if part.count > width, let of = part.firstRange(of: " of "),
                  part[..<of.lowerBound].count <= width, part[of.upperBound...].count + 3 <= width {
            // `7 h 20 min of 8 h 00 min` wraps before its `of`, keeping each figure whole.
            lines.append(String(part[..<of.lowerBound]))
            lines.append("of " + part[of.upperBound...])
        } else if part.count > width {
            // Any other part wider than the column wraps at its spaces.
            var line = ""
            for word in part.split(separator: " ") {
                if !line.isEmpty && line.count + 1 + word.count > width {
                    lines.append(line)
                    line = String(word)
                } else {
                    line += line.isEmpty ? String(word) : " " + word
                }
            }
            if !line.isEmpty { lines.append(line) }
        } else {
            lines.append(part)
        }
    }
    return lines
}
