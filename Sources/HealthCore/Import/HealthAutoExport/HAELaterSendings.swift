/// The dates of one metric's points in a payload: the first and the last, and whether each is later than the one before
/// (then the metric sends no time twice).
struct HAEDateSpan: Sendable {
    var first: Date
    var last: Date
    var increasing: Bool

    /// Nil when there are no dates.
    init?(_ dates: [(date: Date, offset: Int)]) {
        guard let head = dates.first else { return nil }
        var first = head.date, last = head.date, increasing = true
        var previous = head.date
        for entry in dates.dropFirst() {
            if entry.date <= previous { increasing = false }
            previous = entry.date
            if entry.date < first { first = entry.date }
            if entry.date > last { last = entry.date }
        }
        self.first = first
        self.last = last
        self.increasing = increasing
    }
}

/// The points of one Health Auto Export input (a payload, or a folder's payloads in name order) that a later point of
/// the same input sends again: each such point is stored as its last sending, the earlier ones are counted as unchanged
/// and not planned.
///
/// HAE re-sends yesterday and today at every run, so a synced folder holds each day in several files, with figures that
/// grow. Stored one sending after the other, every import of the folder replayed them: the first file's figure
/// replaced the last file's stored one, the next file's replaced that, and so on, so the store ended right but every
/// import counted them replaced, bumped their sync versions and wrote them again (seen by `changes`, `watch` and
/// `undo`). A point sent only in its last form ends the same: the last sending replaces the others in turn.
///
/// A sending is superseded by a later one when the later gives every sync identifier of the earlier's points (a
/// heart-rate point's `|min` and `|max` parts go with the point: a re-send with the average alone replaces them; a
/// sexual-activity point of two events is not superseded by one of a single event, which leaves the second standing),
/// the same stretch of time (first start to last end), one source each, the same (a re-send whose sources grew, `Watch`
/// then `Watch|iPhone`, is left to the plan: an export's `iPhone` samples may cover the later and not the earlier,
/// which then stands), the later's payload holding its type in no form the earlier's does not (forms a payload holds
/// side by side do not cross: a minute from a file of minutes removes the readings inside it, one from a file of
/// minutes and readings does not), and the later one refused nothing (a refused re-send leaves the earlier standing). A
/// type whose points in the input lie at two alignments (hours of a half-hour zone beside whole-zone hours; days of two
/// offsets) is left to the plan whole: where such points overlap, the later sending wins the overlap, which depends on
/// every sending in turn. Sleep is left out (its nights are decided per payload, ``HAEPayloadSleep``), as are the other
/// arrays (workouts, state of mind). Only metrics that can send a time twice are looked at: those whose dates do not
/// only grow, or whose dates overlap another metric's of the same type, so a single file's import pays one pass over
/// the spans.
struct HAELaterSendings {
    /// Per payload, per metric index: the positions of the points a later sending re-sends.
    private var superseded: [Int: [Int: Set<Int>]] = [:]
    /// How many points are superseded.
    private(set) var count = 0

    /// The positions of `metric`'s points in `payload` that a later sending re-sends; nil when none is.
    func positions(payload: Int, metric: Int) -> Set<Int>? { superseded[payload]?[metric] }

    /// What a point of a metric gave when built, for comparing sendings.
    private struct Sending {
        var refused = false
        var identifiers: Set<String> = []
        /// The points it sends: its identifiers, a heart-rate part's (`|min`, `|max`) as its point's.
        var points: Set<String> = []
        var sources: Set<String> = []
        var former = false
        /// The forms its type takes in its payload (``HealthAutoExportPayload/forms``).
        var forms: Set<String> = []
        /// From its samples' first start to their last end: a later sending of the same identifiers may stand for
        /// another stretch (a day of 25 hours where the import's zone is not the phone's: its end comes from the next
        /// day in the same file), and then does not replace what the earlier replaced.
        var start: Date?
        var end: Date?

        /// Whether this later sending supersedes `earlier`, whose one source is `source`.
        func supersedes(_ earlier: Sending, source: String) -> Bool {
            !refused && !former && sources.count == 1 && sources.first == source && identifiers.isSuperset(of: earlier.points)
                && forms.isSubset(of: earlier.forms) && start == earlier.start && end == earlier.end
        }
    }

    /// A point of a looked-at metric: its date, and where it is in the input (payload, metric, position: the order the
    /// import meets it in).
    private struct Ref {
        let seconds: Double
        let offset: Int32
        let payload: Int32
        let metric: Int32
        let position: Int32

        func sameTime(_ other: Ref) -> Bool { seconds == other.seconds && offset == other.offset }

        static func precedes(_ a: Ref, _ b: Ref) -> Bool {
            if a.seconds != b.seconds { return a.seconds < b.seconds }
            if a.offset != b.offset { return a.offset < b.offset }
            if a.payload != b.payload { return a.payload < b.payload }
            if a.metric != b.metric { return a.metric < b.metric }
            return a.position < b.position
        }
    }

    /// Finds the superseded points of `payloads` (`builders[i]` builds payload `i`'s samples).
    init(_ payloads: borrowing [HealthAutoExportPayload], builders: [HAESampleBuilder]) {
        // The metrics that can meet another sending of one of their times.
        var byType: [String: [(payload: Int, metric: Int, span: HAEDateSpan)]] = [:]
        for payload in payloads.indices {
            for (number, metric) in payloads[payload].parsed.metrics.enumerated() {
                guard let span = payloads[payload].dateSpans[number] else { continue }
                byType[HAEMetricKind.typeIdentifier(ofMetric: metric.name), default: []].append((payload, number, span))
            }
        }
        for entries in byType.values {
            // By first date: an entry overlaps an earlier one when it starts before the latest end so far, a later one
            // when the next starts before its own end.
            let sorted = entries.sorted { $0.span.first < $1.span.first }
            var looked: [(payload: Int, metric: Int)] = []
            var latest: Date?
            for index in sorted.indices {
                let entry = sorted[index]
                let before = latest.map { entry.span.first <= $0 } ?? false
                let after = index + 1 < sorted.count && sorted[index + 1].span.first <= entry.span.last
                if !entry.span.increasing || before || after { looked.append((entry.payload, entry.metric)) }
                latest = max(latest ?? entry.span.last, entry.span.last)
            }
            if !looked.isEmpty, HAELaterSendings.oneAlignment(entries, of: payloads) { find(in: looked, of: payloads, builders: builders) }
        }
    }

    /// Whether a type's points in the input (its metric `entries`) lie at one alignment per aggregation: hours of one
    /// offset modulo an hour (a change of summer time moves whole hours), days and weeks of one offset. Hours of a
    /// half-hour zone beside whole-zone hours overlap them, and where two zones' points overlap the later sending wins
    /// for the overlap: which one that is depends on every sending in turn, so no sending of such a type is left out.
    static func oneAlignment(_ entries: [(payload: Int, metric: Int, span: HAEDateSpan)],
                                     of payloads: borrowing [HealthAutoExportPayload]) -> Bool {
        var seen: [HAEPeriod: Int] = [:]
        for entry in entries {
            let level = payloads[entry.payload].level
            guard level >= .hour else { continue }
            let points = payloads[entry.payload].parsed.metrics[entry.metric].points
            guard let dateKey = points.keyNumber("date") else { continue }
            for position in points.indices {
                guard let date = points.date(of: position, key: dateKey) else { continue }
                let phase = level >= .day ? date.offset : (date.offset % 3_600 + 3_600) % 3_600
                if let known = seen[level], known != phase { return false }
                seen[level] = phase
            }
        }
        return true
    }

    /// Finds the superseded points among the `looked` metrics (of one type) of `payloads`: their points sorted by time,
    /// then in input order, so that the sendings of one time lie side by side (a type's points at a time in memory:
    /// 24 bytes each).
    private mutating func find(in looked: [(payload: Int, metric: Int)], of payloads: borrowing [HealthAutoExportPayload],
                               builders: [HAESampleBuilder]) {
        var refs: [Ref] = []
        for (payload, number) in looked {
            let points = payloads[payload].parsed.metrics[number].points
            guard let dateKey = points.keyNumber("date") else { continue }
            for position in points.indices {
                guard let date = points.date(of: position, key: dateKey) else { continue }
                refs.append(Ref(seconds: date.seconds, offset: Int32(clamping: date.offset), payload: Int32(payload),
                                metric: Int32(number), position: Int32(position)))
            }
        }
        refs.sort(by: Ref.precedes)
        var start = 0
        while start < refs.count {
            var end = start + 1
            while end < refs.count && refs[end].sameTime(refs[start]) { end += 1 }
            if end - start > 1 { compare(refs[start..<end], of: payloads, builders: builders) }
            start = end
        }
    }

    /// Marks the sendings of one time (`run`, in input order) that a later one supersedes.
    private mutating func compare(_ run: ArraySlice<Ref>, of payloads: borrowing [HealthAutoExportPayload],
                                  builders: [HAESampleBuilder]) {
        let sendings = run.map { ref -> Sending in
            var sending = Sending()
            let metric = payloads[Int(ref.payload)].parsed.metrics[Int(ref.metric)]
            sending.forms = payloads[Int(ref.payload)].forms[HAEMetricKind.typeIdentifier(ofMetric: metric.name)] ?? []
            builders[Int(ref.payload)].build(metric, at: Int(ref.position)) { built in
                switch built {
                case let .candidate(candidate):
                    sending.identifiers.insert(candidate.syncIdentifier)
                    sending.start = min(sending.start ?? candidate.sample.start, candidate.sample.start)
                    sending.end = max(sending.end ?? candidate.sample.end, candidate.sample.end)
                    sending.points.insert(HAEWritePlan.pointOfPart(type: candidate.sample.typeIdentifier,
                                                                   identifier: candidate.syncIdentifier) ?? candidate.syncIdentifier)
                    sending.sources.insert(candidate.sample.source)
                    if candidate.former != nil { sending.former = true }
                case .refused:
                    sending.refused = true
                }
            }
            return sending
        }
        for (index, earlier) in sendings.enumerated() {
            guard !earlier.points.isEmpty, !earlier.former, earlier.sources.count == 1,
                  let source = earlier.sources.first else { continue }
            // The nearest later sendings first, and only so many: a time sent thousands of times by sources that
            // supersede nothing must not cost a comparison of each pair (leaving one unsuperseded only replays it).
            let superseding = sendings[(index + 1)..<min(sendings.count, index + 1 + HAELaterSendings.reach)].contains { later in
                later.supersedes(earlier, source: source)
            }
            if superseding {
                let ref = run[run.startIndex + index]
                superseded[Int(ref.payload), default: [:]][Int(ref.metric), default: []].insert(Int(ref.position))
                count += 1
            }
        }
    }

    /// How many later sendings of its time a sending is compared with.
    static let reach = 64
}
