/// The known names nearest to a mistyped one, for "did you mean …?" in messages (types, workout activities,
/// commands and options all use this one rule).
package enum NameSuggestions {
    /// The names of `names` within reach of `name` (an edit distance of at most a third of its length, and at least
    /// 1), nearest first, at most `limit` of them; ties keep the order of `names`.
    package static func nearest(_ name: String, among names: [String], limit: Int = 3) -> [String] {
        let typed = Array(name.lowercased())
        let reach = max(1, typed.count / 3)
        // The distance is at least the difference in length: a name that much longer or shorter is out of reach
        // without aligning the two (which takes the product of their lengths: minutes for a pasted page of text).
        let scored = names.enumerated().compactMap { entry -> (offset: Int, name: String, score: Int)? in
            let known = Array(entry.element.lowercased())
            guard abs(known.count - typed.count) <= reach else { return nil }
            return (entry.offset, entry.element, distance(typed, known))
        }
        return scored.filter { $0.score <= reach }
            .sorted { ($0.score, $0.offset) < ($1.score, $1.offset) }
            .prefix(limit).map(\.name)
    }

    /// The nearest known name, if any is within reach (see ``nearest(_:among:limit:)``).
    package static func closest(_ name: String, among names: [String]) -> String? {
        nearest(name, among: names, limit: 1).first
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours cost 1.
    package static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        var before: [Int] = []
        var previous = Array(0...b.count)
        for (i, ca) in a.enumerated() {
            var current = [i + 1]
            for (j, cb) in b.enumerated() {
                var cost = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1))
                if i > 0, j > 0, ca == b[j - 1], a[i - 1] == cb { cost = min(cost, before[j - 1] + 1) }
                current.append(cost)
            }
            before = previous
            previous = current
        }
        return previous[b.count]
    }
}
