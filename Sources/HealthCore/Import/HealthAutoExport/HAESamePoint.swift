/// The same point twice in one batch of Health Auto Export candidates (the same type, sync identifier and source,
/// compared as the text `type⏎sync identifier⏎source`): only the later one stands. A heart-rate point's `|min` and
/// `|max` samples (which come just before the point's own sample) go with their point: when the point comes again
/// later in the batch, in any shape, the earlier one's minimum and maximum do not stand either, as a later batch would
/// replace them (a re-send with only `Avg` leaves no minimum or maximum behind).
///
/// Sources are numbered first (equal sources, by String equality, share a number), so that a key hashes the numbers
/// and not the source names: hashing a name that is not ASCII (`Jane’s Apple Watch`) normalizes it every time,
/// which was a tenth of an import's time. The parser hands out one String for a repeated name, and those compare
/// equal at once. A batch with a line break in a type, identifier or source is keyed by the text itself, as before,
/// since there the parts could be cut differently and still give the same text.
enum HAESamePoint {
    /// For each candidate, whether it stands (no later candidate is the same point). `hashes`: each candidate's
    /// sync identifier's hash (``HAEImportRun/syncHash(_:)``).
    static func standing(_ candidates: [HAECandidate], hashes: [Int]) -> [Bool] {
        // Most batches hold no sync identifier twice, and then no point twice: found by the identifiers' hashes alone
        // (equal identifiers hash the same).
        var seen = Set<Int>(minimumCapacity: candidates.count)
        if hashes.allSatisfy({ seen.insert($0).inserted }) {
            return Array(repeating: true, count: candidates.count)
        }
        if candidates.contains(where: hasLineBreak) {
            let keys = candidates.map { $0.sample.typeIdentifier + "\n" + $0.syncIdentifier + "\n" + $0.sample.source }
            let points = candidates.map { candidate in
                pointIdentifier(candidate.syncIdentifier).map { candidate.sample.typeIdentifier + "\n" + $0 + "\n" + candidate.sample.source }
            }
            return standing(keys: keys, points: points, isPointSample: { hasFigures(candidates[$0]) })
        }
        var numbers = SourceNumbers()
        let keys = candidates.map { Key(type: $0.sample.typeIdentifier, sync: $0.syncIdentifier, source: numbers.number($0.sample.source)) }
        let points = candidates.indices.map { index in
            pointIdentifier(candidates[index].syncIdentifier).map { Key(type: keys[index].type, sync: $0, source: keys[index].source) }
        }
        return standing(keys: keys, points: points, isPointSample: { hasFigures(candidates[$0]) })
    }

    /// Whether each key is the last of its kind, and for a part of a point (`points[i]`: the key of the point's own
    /// sample, the first with that key after it, which carries the point's figures: `isPointSample`) whether that
    /// point's sample is the last of its kind too. Only heart-rate points are made of parts; another element whose
    /// identifier happens to end in `|min` (a symptom named `min`) is not one.
    private static func standing<K: Hashable>(keys: [K], points: [K?], isPointSample: (Int) -> Bool) -> [Bool] {
        var last: [K: Int] = [:]
        last.reserveCapacity(keys.count)
        for (index, key) in keys.enumerated() { last[key] = index }
        var stands = keys.indices.map { last[keys[$0]] == $0 }
        for index in keys.indices where stands[index] {
            guard let point = points[index] else { continue }
            // The point's own sample comes right after its parts (`|min`, `|max`, the point).
            if let own = keys[(index + 1)..<min(index + 3, keys.count)].firstIndex(of: point), isPointSample(own) {
                stands[index] = last[point] == own
            }
        }
        return stands
    }

    /// Whether a candidate is a heart-rate point's own sample, made with its `Min`, `Avg` and `Max` figures.
    private static func hasFigures(_ candidate: HAECandidate) -> Bool { candidate.sample.metadata["HAEMin"] != nil }

    /// The identifier of the point a `|min` or `|max` sample belongs to (its own without the ending); nil for others.
    private static func pointIdentifier(_ identifier: String) -> String? {
        for part in ["|min", "|max"] where identifier.hasSuffix(part) { return String(identifier.dropLast(part.count)) }
        return nil
    }

    private struct Key: Hashable {
        var type: String
        var sync: String
        var source: Int
    }

    private static func hasLineBreak(_ candidate: HAECandidate) -> Bool {
        candidate.sample.typeIdentifier.utf8.contains(0x0A) || candidate.syncIdentifier.utf8.contains(0x0A)
            || candidate.sample.source.utf8.contains(0x0A)
    }

    /// Numbers for source names: equal names (String equality) get the same number.
    struct SourceNumbers {
        private var last: (name: String, number: Int)?
        private var few: [String] = []
        private var many: [String: Int]?

        mutating func number(_ name: String) -> Int {
            if let last, last.name == name { return last.number }
            let found: Int
            if var many {
                found = many[name] ?? many.count
                if found == many.count { many[name] = found }
                self.many = many
            } else if let index = few.firstIndex(of: name) {
                found = index
            } else {
                found = few.count
                few.append(name)
                // Past a few dozen names a table is quicker than looking through them.
                if few.count > 32 { many = Dictionary(uniqueKeysWithValues: few.enumerated().map { ($1, $0) }) }
            }
            last = (name, found)
            return found
        }
    }
}
