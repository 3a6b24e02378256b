extension JSONFileStore {
    /// Which sample lines the tombstones of a type hide: a tombstone hides the lines with its uuid that were written
    /// before it (a lower change number) by the same source. So a sample restored later (an import of an old
    /// export) is visible again, and one source's deletion never hides another source's sample that shares a uuid.
    ///
    /// One hash lookup per line read. Kept small, because a store instance remembers it between reads (see
    /// ``JSONFileStore/deletedUUIDs(ofType:limits:)``): one table entry per deleted uuid, sources numbered, and only a
    /// uuid deleted more than once (by several sources, or again after a restore) has a list of its own.
    struct Deletions {
        /// A tombstone: its change number and its source's number in ``sources`` (-1: any source).
        private struct Mark {
            var sequence: UInt64
            var source: Int32
        }

        private var first: [UUIDKey: Mark] = [:]
        private var more: [UUIDKey: [Mark]] = [:]
        private var sources: [String] = []
        private var sourceNumbers: [String: Int32] = [:]

        init() {}

        init(_ tombstones: [Tombstone]) {
            for tombstone in tombstones { add(tombstone) }
        }

        /// Whether no tombstone is known.
        var isEmpty: Bool { first.isEmpty }
        /// How many tombstones are known.
        private(set) var count = 0

        /// Adds a tombstone.
        mutating func add(_ tombstone: Tombstone) {
            var source: Int32 = -1
            if let name = tombstone.source {
                if let known = sourceNumbers[name] { source = known } else {
                    source = Int32(sources.count)
                    sources.append(name)
                    sourceNumbers[name] = source
                }
            }
            count += 1
            let key = UUIDKey(tombstone.uuid), mark = Mark(sequence: tombstone.sequence, source: source)
            if first[key] == nil { first[key] = mark } else { more[key, default: []].append(mark) }
        }

        /// Whether the line of `sample`, written with change number `sequence` (0 if unknown), is deleted.
        func hides(_ sample: Sample, sequence: UInt64) -> Bool {
            hides(UUIDKey(sample.uuid), source: sample.source, sequence: sequence)
        }

        /// ``hides(_:sequence:)`` for a line known by its uuid's key and its source.
        func hides(_ uuid: UUIDKey, source: String, sequence: UInt64) -> Bool {
            guard let mark = first[uuid] else { return false }
            if covers(mark, source: source, sequence: sequence) { return true }
            return more[uuid]?.contains { covers($0, source: source, sequence: sequence) } ?? false
        }

        private func covers(_ mark: Mark, source: String, sequence: UInt64) -> Bool {
            (sequence == 0 || mark.sequence > sequence) && (mark.source < 0 || sources[Int(mark.source)] == source)
        }
    }
}
