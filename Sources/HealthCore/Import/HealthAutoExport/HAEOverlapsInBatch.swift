/// The types whose points in one batch overlap each other in one form at different periods: days of one source written
/// at two offsets (`2024-05-09 00:00 -0500` and `2024-05-10 00:00 +0100` share six hours), hours of a half-hour zone
/// beside whole hours. Imported one at a time, the later of two such points meets the earlier as a stored point and
/// cuts it to what is left beyond the overlap (``HAEWritePlan``); in one batch the plan lets the later meet the earlier
/// the same way, so the result does not depend on the batch size, and a batch holding them is never written unread.
///
/// Sleep (its nights have rules of their own), readings (form `none`) and a heart-rate point's extra samples (`|min`,
/// `|max`, a millisecond each before its start) are left out. Points of one period (a point sent twice, or by two
/// sources) do not count: only periods that overlap without being the same.
struct HAEOverlapsInBatch {
    private struct Key: Hashable {
        let type: String
        let form: String
    }

    /// The type and form of the points last noted, with their periods and the one reaching furthest: a batch holds a
    /// few types, a metric at a time, so the tables are looked up only when they change.
    private var current: Key?
    private var state = State()
    private var states: [Key: State] = [:]
    /// The type and form of points that came out of time order: their periods are sorted and checked in full.
    private var unsure = Set<Key>()

    private struct State {
        var periods: [(start: Date, end: Date)] = []
        var reach: (start: Date, end: Date)?
    }

    init() {}

    /// The check of a batch of candidates.
    init(_ candidates: [HAECandidate]) {
        for candidate in candidates {
            guard let form = HAEWritePlan.form(of: candidate.sample) else { continue }
            add(type: candidate.sample.typeIdentifier, form: form, start: candidate.sample.start, end: candidate.sample.end,
                isPart: HAEWritePlan.pointOfPart(type: candidate.sample.typeIdentifier, identifier: candidate.syncIdentifier) != nil)
        }
    }

    /// Notes one point of the batch.
    mutating func add(type: String, form: String, start: Date, end: Date, isPart: Bool) {
        guard form != "none", !isPart, type != HAESleep.type, end > start else { return }
        if current?.type != type || current?.form != form {
            if let current { states[current] = state }
            let key = Key(type: type, form: form)
            current = key
            state = states[key] ?? State()
        }
        state.periods.append((start, end))
        // Most batches send a type's points in time order, each from where the one before ended (or the same period
        // again): nothing to sort.
        if let reach = state.reach, start < reach.end, !(start == reach.start && end == reach.end), let current {
            unsure.insert(current)
        }
        if state.reach.map({ end > $0.end }) ?? true { state.reach = (start, end) }
    }

    /// The types with two points of one form whose periods overlap without being the same.
    var types: Set<String> {
        var found = Set<String>()
        for key in unsure where !found.contains(key.type) {
            let periods = (key == current ? state : states[key] ?? State()).periods
                .sorted { $0.start != $1.start ? $0.start < $1.start : $0.end < $1.end }
            // Each period against the one reaching furthest of those before it: any earlier one it overlaps ends no
            // later than that one.
            var reach: (start: Date, end: Date)?
            for period in periods {
                if let reach, period.start < reach.end, !(period.start == reach.start && period.end == reach.end) {
                    found.insert(key.type)
                    break
                }
                if reach.map({ period.end > $0.end }) ?? true { reach = period }
            }
        }
        return found
    }

    /// Whether no type's points overlap each other (``types`` is empty).
    var isEmpty: Bool { unsure.isEmpty || types.isEmpty }
}
