/// The points of one Health Auto Export input (a folder's payloads in name order) that later points of the input take
/// away whole. Imported one file at a time, the later points delete, replace or cut them to nothing (``HAEWritePlan``);
/// imported again, the earlier file would send them again, and they would meet a store without them, be stored again
/// (or replace the later sending they gave way to) and cut what the later points left. So such a point, sent while the
/// later points are stored as they are sent (an import of the same folder again), gives way to them
/// (``HAECandidate/givesWayTo``): the plan does not write it (it still replaces its own earlier sendings that the later
/// points do not meet). Before they are stored (the first import, or where an export's samples hold them and they are
/// not written) it is planned as any other, and they take it away in turn: the first import leaves what importing the
/// files one by one leaves, and the next finds everything unchanged.
///
/// A point gives way, to points of the same type and a related source (``HAEWritePlan/related(_:_:)``) later in the
/// input, when (each is an alternative: one whose points are all stored as sent is enough):
/// 1. **a coarser point holds it** (an hour, then its day; a day, then its week; a reading, then its minute): a
///    coarser form (``HAEWritePlan/level(_:)``) that its own payload holds without the finer point's form (forms a
///    payload holds side by side never cross), over a period from the finer point's start to its end, in a later
///    payload; each such point is an alternative (the day, or the week that took the day in turn);
/// 2. **it is sent again** (the same sync identifier: a day re-sent after the phone moved to another zone, whose
///    period moved with it; a later point of its own payload counts too), for a type whose points lie at two
///    alignments in the input (the others are ``HAELaterSendings``'s);
/// 3. **later points take all of it**, of a cumulative type: points of its own form at another alignment for the time
///    they share (pro rata, as the plan weighs them), and finer points inside it from a payload without its form,
///    whole, adding up to its amount or more.
/// A point's later points are looked for in the store as the sending the store keeps: each later sending from a source
/// related to the one stored replaces it in turn (`Watch`, then `Watch|iPhone`, then `iPhone`). A coarser point that the
/// earlier finer points inside it add up to (the plan finds it held and writes nothing) takes none of them away, and
/// gives way whatever it meets (``HAECandidate/heldAlready``). A point that meets a
/// stored point of another form than theirs (a week it would settle, finer points it would delete) does not give way
/// (``HAEWritePlan/givesWay(_:crossed:isStoredAsSent:)``): one file at a time, those effects outlive it, so the next
/// import replays it and its re-send, to the same samples.
/// Sleep is left out (its nights are decided per payload), as are the other arrays. Only types that a payload holds in
/// a form a later one lacks (or lacks while holding a finer one), or whose points lie at two alignments in payloads a
/// week or less apart, are looked at, and their points built once more for it; a folder of one setting and one zone
/// pays one pass over its payloads' forms and dates.
struct HAEGivingWay {
    /// Per payload, per metric index, per position: the later points that take the one there away, as alternatives
    /// (``HAECandidate/givesWayTo``).
    private var holders: [Int: [Int: [Int: [[Sample]]]]] = [:]
    /// How many points give way.
    private(set) var count = 0
    /// Per payload, per metric index: the positions of points that earlier finer points hold already (the plan writes
    /// nothing for them, so they meet nothing of the store one file at a time).
    private var heldAlready: [Int: [Int: Set<Int>]] = [:]

    /// The positions of `metric`'s points in `payload` that earlier finer points of the input hold already.
    func heldAlready(payload: Int, metric: Int) -> Set<Int> { heldAlready[payload]?[metric] ?? [] }

    /// The positions of `metric`'s points in `payload` that give way, with the points they give way to; nil when none.
    func holders(payload: Int, metric: Int) -> [Int: [[Sample]]]? { holders[payload]?[metric] }

    /// A built point of a looked-at type: its main sample (a heart-rate point's, not its `|min` and `|max`) and where it
    /// is in the input.
    private struct Entry {
        let sample: Sample
        let identifier: String
        let level: Int
        let form: String
        let payload: Int
        let metric: Int
        let position: Int
    }

    /// Finds the points of `payloads` that give way (`builders[i]` builds payload `i`'s samples; `cumulative` tells
    /// the types whose amounts add up).
    init(_ payloads: borrowing [HealthAutoExportPayload], builders: [HAESampleBuilder], cumulative: (String) -> Bool) {
        let twoSettings = Set(HAEGivingWay.typesInTwoSettings(payloads))
        let coarseThenFine = Set(HAEGivingWay.typesInTwoSettings(payloads, coarseFirst: true))
        let twoAlignments = Set(HAEGivingWay.typesAtTwoAlignments(payloads))
        for type in twoSettings.union(coarseThenFine).union(twoAlignments).sorted() {
            let entries = HAEGivingWay.entries(of: type, in: payloads, builders: builders)
            var byIdentifier: [String: [Int]] = [:]
            for index in entries.indices { byIdentifier[entries[index].identifier, default: []].append(index) }
            // The sending of an entry's point the store keeps: each later sending from a source related to the one
            // stored replaces it in turn (`Watch`, then `Watch|iPhone`, then `iPhone`).
            let last = { (index: Int) -> Int in
                var current = index
                for next in byIdentifier[entries[index].identifier] ?? [] where next > current
                    && HAEWritePlan.related(entries[next].sample.source, entries[current].sample.source) {
                    current = next
                }
                return current
            }
            let held = cumulative(type)
                ? HAEGivingWay.heldByEarlierFiner(entries, formsOfPayload: payloads.indices.map { payloads[$0].forms[type] ?? [] })
                : Array(repeating: false, count: entries.count)
            if twoSettings.contains(type) { findCoarser(in: entries, of: payloads, type: type, isHeld: { held[$0] }, last: last) }
            for index in entries.indices where held[index] {
                heldAlready[entries[index].payload, default: [:]][entries[index].metric, default: []].insert(entries[index].position)
            }
            if twoAlignments.contains(type) { findSentAgain(in: entries, byIdentifier: byIdentifier, last: last) }
            if cumulative(type), twoAlignments.contains(type) || coarseThenFine.contains(type) {
                findCutToNothing(in: entries, of: payloads, type: type, last: last)
            }
        }
    }

    /// Every point of `type` in `payloads`, in input order.
    private static func entries(of type: String, in payloads: borrowing [HealthAutoExportPayload],
                                builders: [HAESampleBuilder]) -> [Entry] {
        var entries: [Entry] = []
        for payload in payloads.indices {
            for (number, metric) in payloads[payload].parsed.metrics.enumerated()
            where HAEMetricKind.typeIdentifier(ofMetric: metric.name) == type {
                for position in metric.points.indices {
                    var main: (sample: Sample, identifier: String)?
                    builders[payload].build(metric, at: position) { built in
                        guard case let .candidate(candidate) = built, candidate.sample.typeIdentifier == type,
                              HAEWritePlan.pointOfPart(type: type, identifier: candidate.syncIdentifier) == nil else { return }
                        main = (candidate.sample, candidate.syncIdentifier)
                    }
                    guard let main, let form = HAEWritePlan.form(of: main.sample) else { continue }
                    entries.append(Entry(sample: main.sample, identifier: main.identifier, level: HAEWritePlan.level(form), form: form,
                                         payload: payload, metric: number, position: position))
                }
            }
        }
        return entries
    }

    /// The types (not sleep) that a payload holds in a form another, later payload lacks while holding a coarser one; or,
    /// `coarseFirst`, while holding a finer one (of an hour or coarser: a day, then its hours).
    private static func typesInTwoSettings(_ payloads: borrowing [HealthAutoExportPayload], coarseFirst: Bool = false) -> [String] {
        var formsByType: [String: [Set<String>]] = [:]
        for payload in payloads.indices {
            for (type, forms) in payloads[payload].forms where type != HAESleep.type {
                formsByType[type, default: []].append(forms)
            }
        }
        return formsByType.filter { _, list in
            guard Set(list).count > 1 else { return false }
            for (index, earlier) in list.enumerated() {
                for later in list[(index + 1)...] {
                    if coarseFirst {
                        let finest = later.map(HAEWritePlan.level).min() ?? 0
                        if earlier.contains(where: { !later.contains($0) && HAEWritePlan.level($0) >= 2 && HAEWritePlan.level($0) > finest }) {
                            return true
                        }
                    } else {
                        let coarsest = later.map(HAEWritePlan.level).max() ?? 0
                        if earlier.contains(where: { !later.contains($0) && HAEWritePlan.level($0) < coarsest }) { return true }
                    }
                }
            }
            return false
        }.keys.sorted()
    }

    /// The types (not sleep) whose points lie at two alignments in the input (``HAELaterSendings/oneAlignment``), in
    /// more than one payload.
    private static func typesAtTwoAlignments(_ payloads: borrowing [HealthAutoExportPayload]) -> [String] {
        guard payloads.count > 1 else { return [] }
        var byType: [String: [(payload: Int, metric: Int, span: HAEDateSpan)]] = [:]
        for payload in payloads.indices {
            for (number, metric) in payloads[payload].parsed.metrics.enumerated() {
                guard let span = payloads[payload].dateSpans[number] else { continue }
                let type = HAEMetricKind.typeIdentifier(ofMetric: metric.name)
                guard type != HAESleep.type else { continue }
                byType[type, default: []].append((payload, number, span))
            }
        }
        return byType.filter { _, entries in
            meetAcrossPayloads(entries) && !HAELaterSendings.oneAlignment(entries, of: payloads)
        }.keys.sorted()
    }

    /// Whether a metric's dates come within a week (the longest period) of another payload's metric of the type: only
    /// then can a later payload's point take one of its points away (a synced folder's files share their days; a folder
    /// of one file a year does not, and its dates are not read again for their alignments).
    private static func meetAcrossPayloads(_ entries: [(payload: Int, metric: Int, span: HAEDateSpan)]) -> Bool {
        let week: TimeInterval = 7 * 86_400
        let sorted = entries.sorted { $0.span.first < $1.span.first }
        var reach: (last: Date, payload: Int)?
        for entry in sorted {
            if let reach, entry.span.first.timeIntervalSince(reach.last) <= week, reach.payload != entry.payload { return true }
            if reach.map({ entry.span.last > $0.last }) ?? true { reach = (entry.span.last, entry.payload) }
        }
        return false
    }

    /// Notes the alternatives (each a set of later points) the entry gives way to, beside those other rules found.
    private mutating func note(_ entry: Entry, givesWayTo alternatives: [[Sample]]) {
        if holders[entry.payload]?[entry.metric]?[entry.position] == nil { count += 1 }
        holders[entry.payload, default: [:]][entry.metric, default: [:]][entry.position, default: []] += alternatives
    }

    /// Rule 1: each entry a later entry of a coarser form holds. `last`: the last sending of an entry's point (by index).
    /// `isHeld`: whether an entry is held already by earlier finer points (the plan then writes nothing for it, and it
    /// takes none of them away).
    private mutating func findCoarser(in entries: [Entry], of payloads: borrowing [HealthAutoExportPayload], type: String,
                                      isHeld: (Int) -> Bool, last: (Int) -> Int) {
        let coarse = entries.indices.filter { entries[$0].level > 0 }.sorted { entries[$0].sample.start < entries[$1].sample.start }
        let longest = coarse.map { entries[$0].sample.duration }.max() ?? 0
        for entry in entries {
            // Every later point that holds it, as the store keeps each: whichever of them is stored (the day, or the
            // week that took the day away in turn).
            var finals: [Int] = []
            for index in HAEGivingWay.near(entry.sample, in: coarse, of: entries, longest: longest) {
                let holder = entries[index]
                guard holder.sample.start <= entry.sample.start, holder.payload > entry.payload, holder.level > entry.level,
                      HAEGivingWay.holds(holder.sample, entry.sample), HAEWritePlan.related(holder.sample.source, entry.sample.source),
                      payloads[holder.payload].forms[type]?.contains(entry.form) != true else { continue }
                guard !isHeld(index) else { continue }
                let final = last(index)
                if !finals.contains(final) { finals.append(final) }
            }
            if !finals.isEmpty { note(entry, givesWayTo: finals.map { [entries[$0].sample] }) }
        }
    }

    /// Rule 2: each entry whose sync identifier is sent again later in the input (in its own payload or a later one)
    /// from a related source.
    private mutating func findSentAgain(in entries: [Entry], byIdentifier: [String: [Int]], last: (Int) -> Int) {
        for indices in byIdentifier.values where indices.count > 1 {
            for index in indices {
                // The sending the store keeps, when a later one replaces this one.
                let final = last(index)
                if final != index { note(entries[index], givesWayTo: [[entries[final].sample]]) }
            }
        }
    }

    /// Rule 3: each entry of a cumulative type whose later points (later in the input: in a later payload, or after it
    /// in its own) take all of it: points of its own form at another alignment, for the time they share, pro rata, and
    /// finer points inside it from a payload without its form, whole (as the plan weighs a stored point they meet);
    /// each point weighed once, as the sending the store keeps (a point cut, then met by a re-send of its cutter, is
    /// weighed again against the re-send).
    private mutating func findCutToNothing(in entries: [Entry], of payloads: borrowing [HealthAutoExportPayload], type: String,
                                           last: (Int) -> Int) {
        let sorted = entries.indices.filter { entries[$0].level > 0 }.sorted { entries[$0].sample.start < entries[$1].sample.start }
        let longest = sorted.map { entries[$0].sample.duration }.max() ?? 0
        for (position, entry) in entries.enumerated() where entry.level > 0 && entry.sample.end > entry.sample.start {
            guard case let .quantity(amount) = entry.sample.value else { continue }
            var taken = 0.0
            var cutters: [Sample] = []
            var weighed = Set<Int>()
            for found in HAEGivingWay.near(entry.sample, in: sorted, of: entries, longest: longest) {
                guard found > position, entries[found].identifier != entry.identifier,
                      case let index = last(found), weighed.insert(index).inserted else { continue }
                let other = entries[index]
                guard HAEWritePlan.related(other.sample.source, entry.sample.source),
                      case let .quantity(quantity) = other.sample.value, let value = try? quantity.value(in: amount.unit) else { continue }
                if other.form == entry.form {
                    guard other.sample.end > entry.sample.start, other.sample.start < entry.sample.end,
                          other.sample.end > other.sample.start else { continue }
                    let shared = min(other.sample.end, entry.sample.end).timeIntervalSince(max(other.sample.start, entry.sample.start))
                    taken += value * shared / other.sample.duration
                } else {
                    guard other.level < entry.level, HAEGivingWay.holds(entry.sample, other.sample),
                          payloads[other.payload].forms[type]?.contains(entry.form) != true else { continue }
                    taken += value
                }
                cutters.append(other.sample)
            }
            if !cutters.isEmpty, amount.value - taken <= max(1e-9, abs(amount.value) * 1e-9) { note(entry, givesWayTo: [cutters]) }
        }
    }

    /// The indices of `list` (indices into `entries`, sorted by start; `longest` the longest duration among them) whose
    /// entries start from `longest` before `sample` to its end: every one that can meet it.
    private static func near(_ sample: Sample, in list: [Int], of entries: [Entry], longest: TimeInterval) -> ArraySlice<Int> {
        let from = sample.start.addingTimeInterval(-longest)
        var low = 0, high = list.count
        while low < high {
            let middle = (low + high) / 2
            if entries[list[middle]].sample.start < from { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < list.count, entries[list[end]].sample.start <= sample.end { end += 1 }
        return list[low..<end]
    }

    /// For each of `entries` (of a cumulative type), whether the earlier finer points of the input inside it add up
    /// to its amount: the plan then finds it held already and writes nothing, so it takes none of them away.
    /// `formsOfPayload`: each payload's forms of the type. Each point is summed over those that can meet it only.
    private static func heldByEarlierFiner(_ entries: [Entry], formsOfPayload: [Set<String>]) -> [Bool] {
        let sorted = entries.indices.sorted { entries[$0].sample.start < entries[$1].sample.start }
        let longest = entries.map(\.sample.duration).max() ?? 0
        return entries.indices.map { index in
            let holder = entries[index]
            guard holder.level > 0, case let .quantity(amount) = holder.sample.value else { return false }
            var sum = 0.0
            var any = false
            for other in near(holder.sample, in: sorted, of: entries, longest: longest) where other < index {
                let part = entries[other]
                guard part.level < holder.level, holds(holder.sample, part.sample),
                      HAEWritePlan.related(part.sample.source, holder.sample.source),
                      !formsOfPayload[holder.payload].contains(part.form),
                      case let .quantity(quantity) = part.sample.value, let value = try? quantity.value(in: amount.unit) else { continue }
                sum += value
                any = true
            }
            return any && abs(sum - amount.value) <= max(1e-9, abs(amount.value) * 1e-9)
        }
    }

    /// Whether `outer`'s period holds `inner` as the plan finds a finer point inside a coarser one: overlapping it (an
    /// instant strictly inside), from its start to its end.
    private static func holds(_ outer: Sample, _ inner: Sample) -> Bool {
        outer.start < inner.end && inner.start < outer.end && outer.start <= inner.start && inner.end <= outer.end
    }
}
