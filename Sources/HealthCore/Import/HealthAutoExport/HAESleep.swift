import TextSupport

/// `sleep_analysis` points, in both of HAE's forms.
///
/// - Per stage (`startDate`, `endDate`, `value`): one sleep-analysis sample of that stage (`Core` → asleepCore,
///   `Deep`, `REM`, `Awake`, `In Bed` → inBed, `Asleep` and `Unspecified` → asleepUnspecified).
/// - Per night (`asleep`, `inBed`, `core`, `deep`, `rem`, `awake`, `totalSleep` hours, `sleepStart`, `sleepEnd`,
///   `inBedStart`, `inBedEnd`): samples whose lengths are exactly the night's figures, so that a night's statistics
///   give them back. The asleep stages (core, deep, REM, then unstaged sleep) follow each other from `sleepStart`,
///   awake after them; in bed starts at `inBedStart`. When the figures are longer than the times written (merged
///   sources can give an `inBed` of 13.9 h between 00:17 and 07:16) the samples end at `sleepEnd` (`inBedEnd`)
///   instead, so they stay in the night. Unstaged sleep is `totalSleep − core − deep − rem` when `totalSleep` is
///   written (the newest form, whose `asleep` is the unstaged part and may be 0); otherwise `asleep` is the night's
///   total sleep, and the unstaged part is what it holds beyond the stages (all of it when there are none).
///   Sources: `sleepSource` for sleep and `inBedSource` for in bed (the oldest form), else `source`. The samples
///   are marked `HAEAggregation` `night`, with sync identifiers `HAE|sleep_analysis|<night>|<part>` (``nightName(_:)``).
struct HAESleep {
    let builder: HAESampleBuilder
    static let type = "HKCategoryTypeIdentifierSleepAnalysis"

    func build(_ point: HAEPoint, metric: HAEMetric, kind: HAEMetricKind) -> [HAEBuilt] {
        if point["startDate"] != nil || point["value"] != nil { return [stage(point, metric: metric, kind: kind)] }
        return night(point, metric: metric, kind: kind)
    }

    private static let stages: [String: Int] = [
        "In Bed": 0, "InBed": 0, "Asleep": 1, "Unspecified": 1, "Awake": 2, "Core": 3, "Deep": 4, "REM": 5,
    ]

    private func stage(_ point: HAEPoint, metric: HAEMetric, kind: HAEMetricKind) -> HAEBuilt {
        guard let (start, _) = builder.dateField(point, "startDate") else { return builder.refusedForDate(point, kind: kind, key: "startDate") }
        guard let (end, _) = builder.dateField(point, "endDate") else { return builder.refusedForDate(point, kind: kind, key: "endDate") }
        guard end >= start else {
            return .refused(type: kind.identifier, line: point.line, reason: "'endDate' is before 'startDate'; give the earlier time first")
        }
        guard let value = point["value"]?.text else {
            return .refused(type: kind.identifier, line: point.line, reason: "the sleep stage has no 'value' (Core, Deep, REM, Awake, In Bed, Asleep)")
        }
        let understood: [String] = ["startDate", "endDate", "value", "qty", "source", "date"]
        guard let raw = HAESleep.stages[value], let type = builder.catalogued(kind.identifier) else {
            return builder.untyped(point, metric: metric, identifier: kind.identifier)
        }
        let (identifier, metadata) = builder.marks(start: start, period: .instant, point: point, metric: metric, part: value,
                                                   understood: understood)
        let sample = Sample(uuid: builder.uuids.next(), typeIdentifier: kind.identifier, start: start, end: end, value: .category(raw),
                            source: builder.source(point), created: builder.created, metadata: metadata)
        return builder.check(sample, type: type, identifier: identifier, point: point, metric: metric)
    }

    private func hours(_ point: HAEPoint, _ key: String) -> Double? { point[key]?.number }

    private func night(_ point: HAEPoint, metric: HAEMetric, kind: HAEMetricKind) -> [HAEBuilt] {
        let figureKeys = ["asleep", "inBed", "core", "deep", "rem", "awake", "totalSleep"]
        for key in figureKeys {
            if let value = point[key], value != .null {
                guard let number = value.number, number.isFinite, number >= 0, number <= 48 else {
                    return [.refused(type: kind.identifier, line: point.line, reason: "'\(key)' is \(value.described), not a number of hours from 0 to 48")]
                }
            }
        }
        guard figureKeys.contains(where: { hours(point, $0) != nil }) else {
            return [builder.untyped(point, metric: metric, identifier: kind.identifier)]
        }
        guard let (date, offset) = builder.date(point) ?? builder.dateField(point, "sleepEnd") ?? builder.dateField(point, "inBedEnd") else {
            return [builder.refusedForDate(point, kind: kind)]
        }
        guard let type = builder.catalogued(kind.identifier) else {
            return [builder.untyped(point, metric: metric, identifier: kind.identifier)]
        }
        let core = hours(point, "core") ?? 0, deep = hours(point, "deep") ?? 0, rem = hours(point, "rem") ?? 0
        let staged = core + deep + rem
        let unstaged: Double
        if let total = hours(point, "totalSleep") {
            unstaged = max(0, total - staged)
        } else if let asleep = hours(point, "asleep") {
            unstaged = asleep + 1e-9 >= staged ? max(0, asleep - staged) : asleep
        } else {
            unstaged = 0
        }
        let awake = hours(point, "awake") ?? 0
        let sleepSource = point["sleepSource"]?.text ?? builder.source(point)
        let inBedSource = point["inBedSource"]?.text ?? builder.source(point)
        let sleepStart = builder.dateField(point, "sleepStart")?.0, sleepEnd = builder.dateField(point, "sleepEnd")?.0
        let inBedStart = builder.dateField(point, "inBedStart")?.0, inBedEnd = builder.dateField(point, "inBedEnd")?.0
        for (start, end, name) in [(sleepStart, sleepEnd, "sleep"), (inBedStart, inBedEnd, "inBed")] {
            if let start, let end, end < start {
                return [.refused(type: kind.identifier, line: point.line,
                                 reason: "'\(name)End' is before '\(name)Start'; give the earlier time first")]
            }
        }
        let nightName = HAESleep.nightName(builder.dateField(point, "sleepEnd") ?? builder.dateField(point, "inBedEnd") ?? (date, offset))
        let understood: [String] = figureKeys + ["date", "source", "sleepSource", "inBedSource", "sleepStart", "sleepEnd",
                                                 "inBedStart", "inBedEnd"]
        var results: [HAEBuilt] = []
        // Merged sources can sum to more than a day (an `inBed` of 34 h was seen), which no sample can hold: such a
        // figure is limited to the span the night's times write (or to the longest sample the type allows), and kept
        // as written in `HAEHours`, so the night is stored rather than refused at every re-send.
        let longest = type.maximumDuration ?? .infinity
        func limited(_ seconds: Double, start: Date?, end: Date?) -> Double {
            guard seconds > longest else { return seconds }
            if let start, let end, end > start { return min(longest, end.timeIntervalSince(start)) }
            return longest
        }
        var written: [String: Double] = [:]
        func add(_ part: String, raw: Int, start: Date, seconds: Double, source: String) {
            guard seconds > 0 else { return }
            var extra: [String: MetadataValue] = [HAESampleBuilder.aggregationKey: .string("night")]
            if let hours = written[part] { extra["HAEHours"] = .number(hours) }
            var metadata = builder.marks(start: start, period: .instant, point: point, metric: metric, part: nil,
                                         understood: understood, extra: extra).1
            let identifier = HAESampleBuilder.syncPrefix + metric.name + "|" + nightName + "|" + part
            metadata[MetadataKeySyncIdentifier] = .string(identifier)
            let sample = Sample(uuid: builder.uuids.next(), typeIdentifier: kind.identifier, start: start, end: start.addingTimeInterval(seconds), value: .category(raw),
                                source: source, created: builder.created, metadata: metadata)
            results.append(builder.check(sample, type: type, identifier: identifier, point: point, metric: metric))
        }
        let parts: [(String, Int, Double)] = [("core", 3, core), ("deep", 4, deep), ("rem", 5, rem), ("asleep", 1, unstaged),
                                              ("awake", 2, awake)]
        let partSeconds = parts.map { part, _, value in
            let seconds = HAESleep.seconds(value)
            let kept = limited(seconds, start: sleepStart ?? inBedStart, end: sleepEnd ?? inBedEnd)
            if kept < seconds { written[part] = value }
            return kept
        }
        let sleepSeconds = partSeconds.reduce(0, +)
        var cursor = HAESleep.placement(length: sleepSeconds, start: sleepStart ?? inBedStart, end: sleepEnd ?? inBedEnd, fallback: date)
        for ((part, raw, _), seconds) in zip(parts, partSeconds) {
            add(part, raw: raw, start: cursor, seconds: seconds, source: sleepSource)
            cursor = cursor.addingTimeInterval(seconds)
        }
        if let inBed = hours(point, "inBed") {
            let asWritten = HAESleep.seconds(inBed)
            let seconds = limited(asWritten, start: inBedStart ?? sleepStart, end: inBedEnd ?? sleepEnd)
            if seconds < asWritten { written["inBed"] = inBed }
            let start = HAESleep.placement(length: seconds, start: inBedStart ?? sleepStart, end: inBedEnd ?? sleepEnd, fallback: date)
            add("inBed", raw: 0, start: start, seconds: seconds, source: inBedSource)
        }
        return results
    }

    /// Hours as seconds, to the millisecond (sample dates are kept to the millisecond).
    static func seconds(_ hours: Double) -> Double { (hours * 3_600_000).rounded() / 1000 }

    /// Where samples `length` seconds long in all start: at `start`, unless they would run past `end`, then so that
    /// they end at `end`.
    static func placement(length: Double, start: Date?, end: Date?, fallback: Date) -> Date {
        guard let start else { return end.map { $0.addingTimeInterval(-length) } ?? fallback }
        if let end, start.addingTimeInterval(length) > end.addingTimeInterval(1) { return end.addingTimeInterval(-length) }
        return start
    }

    /// The night a sleep ending at `end` (written with `offset`) belongs to, as `yyyy-MM-dd`: the local date of the
    /// morning it ends on, with nights cut at noon as ``NightCutoff`` does by default. HAE's `date` cannot name it:
    /// one file dates two nights `2023-01-24 04:15` and `2023-01-24 21:13`.
    static func nightName(_ end: (Date, Int)) -> String {
        String(ExportDateParser.format(end.0.addingTimeInterval(12 * 3600), offsetSeconds: end.1).prefix(10))
    }
}
