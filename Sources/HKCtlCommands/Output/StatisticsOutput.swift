import HealthCore
import HKCtlSupport
import TextSupport

/// Prints a ``StatisticsResult`` (and, for sleep, its nights) as JSON, CSV or a table, with optional per-source
/// figures and an explanation of how every sample counted.
struct StatisticsOutput {
    let result: StatisticsResult
    /// Sleep without buckets: the nights of the range.
    var nights: [SleepNight]?
    /// `--by night`: the nights are the rows (CSV) instead of the range.
    var nightRows = false
    /// `--explain`.
    var explain = false
    /// The zone and calendar of the query.
    let time: TimeContext
    let context: CommandContext
    /// The calendar period of the buckets (`--by week`), to mark the periods only partly in the range or not over
    /// yet and to show whole days as dates; nil for fixed-length buckets (`--every`, `--anchor`).
    var calendarBucket: BucketUnit? = nil

    private var zone: ZoneRules { time.timeZone }
    private var unitText: String { result.unit?.unitString ?? (result.type.kind == .category ? "s" : "") }
    private var isCumulative: Bool { result.type.aggregation?.isCumulative ?? false }
    private var isBucketed: Bool { !result.buckets.isEmpty }
    private var bySource: Bool { result.options.contains(.separateBySource) }

    func print() {
        switch context.globals.format {
        case .json: printJSON()
        case .csv: nightRows ? printNightsCSV() : printCSV()
        case .table: printTable()
        }
    }

    // MARK: - Figures

    /// The figures this result has, as (key, value) with nil for "no data".
    /// `names`: the result's option names (``StatisticsOptions/names``), when the caller has them already.
    private func fields(_ statistics: Statistics, names: [String]? = nil) -> [(String, Double?)] {
        if result.type.isSleepAnalysis {
            return [("asleep", statistics.asleep), ("inBed", statistics.inBed), ("count", Double(statistics.sampleCount))]
        }
        if result.type.kind == .category {
            return [("duration", statistics.durationSeconds), ("count", Double(statistics.sampleCount))]
        }
        return (names ?? result.options.names).map { ($0, Self.figure($0, of: statistics)) } + [("count", Double(statistics.sampleCount))]
    }

    /// The figure an option name stands for, or nil when `statistics` has none.
    private static func figure(_ name: String, of statistics: Statistics) -> Double? {
        switch name {
        case "sum": return statistics.sum
        case "average": return statistics.average
        case "minimum": return statistics.minimum
        case "maximum": return statistics.maximum
        case "mostRecent": return statistics.mostRecent
        case "duration": return statistics.durationSeconds
        default: return nil
        }
    }

    /// Whether a key is a number of seconds rather than a quantity.
    private func isSeconds(_ key: String) -> Bool { key == "duration" || result.type.kind == .category }

    /// A figure as JSON and CSV write it: counts whole, seconds to the millisecond, efficiency as a ratio, quantities
    /// to the decimals of their unit (``DerivedFigure``).
    /// `unitDecimals`: ``DerivedFigure/decimals(unitString:)`` of ``unitText``, when the caller found it once for many
    /// figures (finding it hashes the unit's name).
    private func number(_ key: String, _ value: Double, unitDecimals: Int? = nil) -> String {
        switch key {
        case "count": return NumberFormatting.json(value)
        case "efficiency": return DerivedFigure.ratio(value)
        case "asleep", "inBed", "awake", "asleepUnspecified", "asleepCore", "asleepDeep", "asleepREM": return DerivedFigure.seconds(value)
        default:
            if isSeconds(key) { return DerivedFigure.seconds(value) }
            return DerivedFigure.text(value, decimals: unitDecimals ?? DerivedFigure.decimals(unitString: unitText))
        }
    }

    // MARK: - JSON

    private func date(_ value: Date) -> String { "\"\(ISODate.format(value, in: zone))\"" }

    private func jsonFields(_ statistics: Statistics) -> String {
        var parts = fields(statistics).map { key, value in "\"\(key)\":" + (value.map { number(key, $0) } ?? "null") }
        if result.type.kind == .quantity && result.options.contains(.mostRecent) {
            parts.append("\"mostRecentDate\":" + (statistics.mostRecentDate.map(date) ?? "null"))
        }
        if bySource {
            let sources = statistics.sourceStatistics.map { "{\"source\":\(JSONText.quoted($0.source))," + jsonFields($0.statistics) + "}" }
            parts.append("\"sources\":[" + sources.joined(separator: ",") + "]")
        }
        if explain { parts.append("\"explain\":" + jsonExplanation(statistics)) }
        return parts.joined(separator: ",")
    }

    private func printJSON() {
        let total = result.total
        var text = "{\"type\":\(JSONText.quoted(result.type.identifier)),\"unit\":\(JSONText.quoted(unitText))"
        text += ",\"from\":\(date(total.start)),\"to\":\(date(total.end)),"
        text += jsonFields(total)
        if explain {
            text += ",\"zone\":\(JSONText.quoted(zone.identifier)),\"merged\":\(result.mergedSources)"
            text += ",\"sourceOrder\":[" + result.sourceOrder.map(JSONText.quoted).joined(separator: ",") + "]"
        }
        if isBucketed {
            let buckets = result.buckets.map { "{\"start\":\(date($0.start)),\"end\":\(date($0.end))," + jsonFields($0) + "}" }
            text += ",\"buckets\":[" + buckets.joined(separator: ",") + "]"
        } else if nightRows, let nights {
            // `--by night` (and sleep `--by day`): a bucket per night, as every `--by` gives (the script contract),
            // with the sleep figures a bucket holds; `nights` beside it has each night's stages.
            let buckets = nights.map { night in
                "{\"start\":\(date(night.start)),\"end\":\(date(night.end)),\"asleep\":\(number("asleep", night.asleep)),"
                    + "\"inBed\":\(night.inBed.map { number("inBed", $0) } ?? "null"),\"count\":\(night.sampleCount)}"
            }
            text += ",\"buckets\":[" + buckets.joined(separator: ",") + "]"
        }
        if let nights {
            text += ",\"nights\":[" + nights.map(jsonNight).joined(separator: ",") + "]"
        }
        context.console.line(text + "}")
    }

    private func jsonNight(_ night: SleepNight) -> String {
        var parts = ["\"date\":\"\(dayText(night.date))\"", "\"start\":\(date(night.start))", "\"end\":\(date(night.end))"]
        parts += nightFigures(night).map { key, value in "\"\(key)\":" + (value.map { number(key, $0) } ?? "null") }
        parts.append("\"sleepStart\":" + (night.sleepStart.map(date) ?? "null"))
        parts.append("\"sleepEnd\":" + (night.sleepEnd.map(date) ?? "null"))
        return "{" + parts.joined(separator: ",") + "}"
    }

    private func nightFigures(_ night: SleepNight) -> [(String, Double?)] {
        [("asleep", night.asleep), ("inBed", night.inBed), ("awake", night.awake),
         ("asleepUnspecified", night.asleepUnspecified), ("asleepCore", night.asleepCore), ("asleepDeep", night.asleepDeep),
         ("asleepREM", night.asleepREM), ("efficiency", night.efficiency), ("count", Double(night.sampleCount))]
    }

    private func jsonExplanation(_ statistics: Statistics) -> String {
        var parts = ["\"seconds\":" + DerivedFigure.seconds(statistics.end.timeIntervalSince(statistics.start))]
        if let unmerged = statistics.unmergedSum { parts.append("\"unmergedSum\":" + number("sum", unmerged)) }
        let samples = statistics.contributions.map { item -> String in
            var fields = ["\"uuid\":\"\(item.sample.uuid.lowercasedText)\"",
                          "\"source\":\(JSONText.quoted(item.sample.source))",
                          "\"start\":\(date(item.sample.start))", "\"end\":\(date(item.sample.end))",
                          "\"outcome\":\"\(item.outcome.rawValue)\""]
            if let value = item.value { fields.append("\"value\":" + number("value", value)) }
            if let stage = item.stage { fields.append("\"stage\":" + JSONText.quoted(stage)) }
            if let counted = item.counted { fields.append("\"counted\":" + number("sum", counted)) }
            if let weight = item.weight { fields.append("\"weight\":" + DerivedFigure.seconds(weight)) }
            fields.append("\"secondsInInterval\":" + DerivedFigure.seconds(item.secondsInInterval))
            fields.append("\"secondsCounted\":" + DerivedFigure.seconds(item.secondsCounted))
            let overrides = item.overrides.map { override in
                "{\"source\":\(JSONText.quoted(override.source))"
                    + (override.stage.map { ",\"stage\":" + JSONText.quoted($0) } ?? "")
                    + ",\"seconds\":" + DerivedFigure.seconds(override.seconds) + "}"
            }
            fields.append("\"overriddenBy\":[" + overrides.joined(separator: ",") + "]")
            return "{" + fields.joined(separator: ",") + "}"
        }
        parts.append("\"samples\":[" + samples.joined(separator: ",") + "]")
        return "{" + parts.joined(separator: ",") + "}"
    }

    // MARK: - CSV

    /// Whether every bucket is one whole local calendar day (`--by day` from midnight to midnight): its times add
    /// nothing, so tables show the day alone and CSV the dates alone.
    private var bucketsAreWholeDays: Bool {
        guard calendarBucket == .day, isBucketed else { return false }
        let calendar = time.calendar
        return result.buckets.allSatisfy { calendar.startOfDay(for: $0.start) == $0.start && calendar.startOfDay(for: calendar.adding(1, .days, to: $0.start)) == $0.end }
    }

    /// Per bucket: whether it is cut by the range, and whether it is not over yet (totals only: an average so far is
    /// an average), as charts mark them (``ChartSeries/isPartial(start:end:bucket:calendar:)``).
    private var partialBuckets: [(cut: Bool, unfinished: Bool)] {
        guard let unit = calendarBucket else { return result.buckets.map { _ in (false, false) } }
        let totals = isCumulative || result.type.kind == .category
        return result.buckets.map { bucket in
            let unfinished = totals && ChartSeries.isUnfinished(start: bucket.start, end: bucket.end, now: time.now)
            let cut = ChartSeries.isPartial(start: bucket.start, end: bucket.end, bucket: unit, calendar: time.calendar)
            return (cut && !unfinished, unfinished)
        }
    }

    private func printCSV() {
        let names = result.options.names
        let keys = fields(result.total, names: names).map(\.0)
        let sources = bySource ? result.sourceOrder : []
        let wholeDays = bucketsAreWholeDays
        let unitDecimals = DerivedFigure.decimals(unitString: unitText)
        func when(_ date: Date) -> String { wholeDays ? dayText(date) : ISODate.format(date, in: zone) }
        func text(_ key: String, _ value: Double?) -> String { value.map { number(key, $0, unitDecimals: unitDecimals) } ?? "" }
        context.console.line(CSV.row(["start", "end"] + keys + ["unit"] + sources.flatMap { source in keys.map { "\($0)[\(source)]" } }))
        for row in isBucketed ? result.buckets : [result.total] {
            let values = fields(row, names: names).map(text)
            let perSource = sources.flatMap { source -> [String] in
                let own = row.sourceStatistics.first { $0.source == source }?.statistics
                return own.map { fields($0, names: names).map(text) } ?? keys.map { _ in "" }
            }
            context.console.line(CSV.row([when(row.start), when(row.end)] + values
                + [unitText] + perSource))
        }
    }

    private func printNightsCSV() {
        let keys = ["asleep", "inBed", "awake", "asleepUnspecified", "asleepCore", "asleepDeep", "asleepREM", "efficiency", "count"]
        context.console.line(CSV.row(["date", "start", "end"] + keys + ["unit"]))
        for night in nights ?? [] {
            let values = nightFigures(night).map { key, value in value.map { number(key, $0) } ?? "" }
            context.console.line(CSV.row([dayText(night.date), ISODate.format(night.start, in: zone),
                                          ISODate.format(night.end, in: zone)] + values + ["s"]))
        }
    }

    // MARK: - Table

    private static let names: [String: String] = [
        "sum": "total", "count": "samples", "average": "average", "minimum": "minimum", "maximum": "maximum",
        "mostRecent": "latest", "asleep": "asleep", "inBed": "in bed", "duration": "duration",
    ]

    private func show(_ key: String, _ value: Double?) -> String {
        guard let value else { return "-" }
        if key == "count" { return NumberFormatting.human(value, fractionDigits: 0) }
        if isSeconds(key) { return Display.duration(value) }
        return Display.quantity(value, unit: unitText)
    }

    private func printTable() {
        let total = result.total
        let console = context.console
        console.line("\(result.type.title), \(Display.time(total.start, in: zone)) to \(Display.time(total.end, in: zone)) (\(zone.identifier))")
        if isBucketed {
            printBucketTable()
        } else {
            var table = TableWriter(headers: ["", ""], rightAligned: [1])
            for (key, value) in fields(total) { table.add([StatisticsOutput.names[key]!, show(key, value)]) }
            if result.options.contains(.mostRecent), let latest = total.mostRecentDate {
                table.add(["latest at", Display.time(latest, in: zone)])
            }
            if let unmerged = total.unmergedSum, unmerged != total.sum {
                table.add(["plain sum", show("sum", unmerged)])
            }
            for line in table.lines().dropFirst() { console.line(line) }
            if bySource { printSourceTable(total) }
        }
        if let nights, !nights.isEmpty { printNightTable(nights) }
        if explain { printExplanation() }
    }

    private func printBucketTable() {
        let keys = fields(result.total).map(\.0)
        let main = keys.first!
        let sources = bySource ? result.sourceOrder : []
        // Whole local days show as one DAY column; a source's column keeps the source's spelling.
        let wholeDays = bucketsAreWholeDays
        let dates = wholeDays ? ["DAY"] : ["START", "END"]
        let headers = dates + keys.map { StatisticsOutput.names[$0]!.uppercased() } + sources
        var table = TableWriter(headers: headers, rightAligned: Set(dates.count..<headers.count))
        let partial = partialBuckets
        // The total row is told apart by position, not by value: a single bucket equals the total.
        for (index, bucket) in result.buckets.enumerated() {
            let perSource = sources.map { source in
                show(main, bucket.sourceStatistics.first { $0.source == source }.flatMap { own in fields(own.statistics).first?.1 })
            }
            let mark = partial[index].cut || partial[index].unfinished ? "*" : ""
            let when = wholeDays ? [dayText(bucket.start) + mark]
                : [Display.time(bucket.start, in: zone) + mark, Display.time(bucket.end, in: zone)]
            table.add(when + fields(bucket).map { show($0.0, $0.1) } + perSource)
        }
        let total = result.total
        let totalSources = sources.map { source in
            show(main, total.sourceStatistics.first { $0.source == source }.flatMap { own in fields(own.statistics).first?.1 })
        }
        table.add((wholeDays ? ["all"] : ["all", ""]) + fields(total).map { show($0.0, $0.1) } + totalSources)
        for line in table.lines() { context.console.line(line) }
        if let unit = calendarBucket,
           let note = ChartSeries.partialNote(bucket: unit, cut: partial.filter(\.cut).count, unfinished: partial.filter(\.unfinished).count) {
            context.console.line(note)
        }
        if !sources.isEmpty {
            context.console.line("Source columns show each source's own \(StatisticsOutput.names[main]!), without merging.")
        }
    }

    private func printSourceTable(_ statistics: Statistics) {
        let keys = fields(statistics).map(\.0)
        var table = TableWriter(headers: ["SOURCE"] + keys.map { StatisticsOutput.names[$0]!.uppercased() },
                                rightAligned: Set(1...keys.count))
        for own in statistics.sourceStatistics { table.add([own.source] + fields(own.statistics).map { show($0.0, $0.1) }) }
        context.console.line("")
        context.console.line("By source (each alone, without merging):")
        for line in table.lines() { context.console.line(line) }
    }

    private func printNightTable(_ nights: [SleepNight]) {
        var table = TableWriter(headers: ["NIGHT", "ASLEEP", "IN BED", "AWAKE", "CORE", "DEEP", "REM", "UNSPEC.", "EFFICIENCY", "SLEEP"],
                                rightAligned: Set(1...8))
        for night in nights {
            var span = "-"
            if let start = night.sleepStart, let end = night.sleepEnd { span = "\(clock(start))–\(clock(end))" }
            let figures = [night.asleep, night.inBed, night.awake, night.asleepCore, night.asleepDeep, night.asleepREM,
                           night.asleepUnspecified]
            table.add([dayText(night.date)] + figures.map { figure in
                guard night.sampleCount > 0, let figure else { return "-" }
                return Display.duration(figure)
            }
                + [night.efficiency.map { NumberFormatting.human($0 * 100, fractionDigits: 0) + " %" } ?? "-", span])
        }
        context.console.line("")
        let cutoff = nights.first.map { clock($0.end) } ?? "12:00"
        context.console.line("Nights (named after the morning they end on; \(cutoff) to \(cutoff)):")
        for line in table.lines() { context.console.line(line) }
    }

    // MARK: - Explanation

    private func printExplanation() {
        let console = context.console
        console.line("")
        let merge: String
        if result.mergedSources {
            merge = "overlapping sources merged by priority: "
                + (result.sourceOrder.isEmpty ? "no samples" : result.sourceOrder.joined(separator: " > "))
        } else if result.type.kind == .quantity && !isCumulative {
            merge = "discrete readings: every source counts"
        } else {
            merge = "sources not merged: every sample counts"
        }
        console.line("Explanation (zone \(zone.identifier); \(merge)):")
        for (interval, isTotal) in (isBucketed ? result.buckets : []).map({ ($0, false) }) + [(result.total, true)] {
            let hours = interval.end.timeIntervalSince(interval.start) / 3600
            var heading = "\(isTotal ? "Whole range" : "Bucket") \(ISODate.format(interval.start, in: zone)) → "
                + "\(ISODate.format(interval.end, in: zone)) (\(NumberFormatting.human(hours)) h"
            if zone.secondsFromGMT(for: interval.start) != zone.secondsFromGMT(for: interval.end) { heading += ", crosses a DST change" }
            heading += "): " + fields(interval).map { "\(StatisticsOutput.names[$0.0]!) \(show($0.0, $0.1))" }.joined(separator: ", ")
            if let unmerged = interval.unmergedSum, unmerged != interval.sum { heading += " (plain sum \(show("sum", unmerged)))" }
            console.line(heading)
            if isTotal && isBucketed {
                console.line("  (the samples are listed per bucket above)")
                continue
            }
            if interval.contributions.isEmpty { console.line("  no samples") }
            for item in interval.contributions { console.line("  " + explanationLine(item)) }
        }
    }

    private func explanationLine(_ item: SampleContribution) -> String {
        let sample = item.sample
        let when = sample.start == sample.end ? Display.time(sample.start, in: zone)
            : "\(Display.time(sample.start, in: zone))–\(Display.time(sample.end, in: zone).suffix(5))"
        var parts = [item.outcome.rawValue + String(repeating: " ", count: max(0, 7 - item.outcome.rawValue.count)), when, sample.source]
        if let stage = item.stage { parts.append(stage) }
        if let value = item.value {
            var amount = Display.quantity(value, unit: result.unit?.unitString ?? "")
            if let counted = item.counted, counted != value { amount += " → " + Display.quantity(counted, unit: result.unit?.unitString ?? "") }
            parts.append(amount)
        }
        let text = parts.joined(separator: "  ")
        var notes: [String] = []
        if sample.duration > 0 && item.secondsInInterval < sample.duration {
            notes.append("\(Display.duration(item.secondsInInterval)) of \(Display.duration(sample.duration)) in this interval")
        }
        if item.stage != nil && item.secondsCounted < item.secondsInInterval {
            notes.append("\(Display.duration(item.secondsCounted)) counted")
        }
        for override in item.overrides {
            let what = override.stage.map { "\(override.source) (\($0))" } ?? override.source
            notes.append(sample.start == sample.end ? "\(what) has data at that moment"
                : "\(Display.duration(override.seconds)) covered by \(what)")
        }
        if let weight = item.weight { notes.append("weighted \(Display.duration(weight))") }
        return notes.isEmpty ? text : text + "  (" + notes.joined(separator: "; ") + ")"
    }

    // MARK: - Helpers

    /// `07:05`, the local time of day.
    private func clock(_ date: Date) -> String { String(Display.time(date, in: zone).dropFirst(11)) }

    /// `2024-06-01`, the local date.
    /// The `YYYY-MM-DD` that starts the date's text (ASCII, so its first ten bytes: taking ten characters cost
    /// every row about 700 instructions).
    private func dayText(_ date: Date) -> String { ISODate.localDayText(date, in: zone) }
}
