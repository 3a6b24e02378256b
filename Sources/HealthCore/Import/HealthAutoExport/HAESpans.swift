/// Per type, the time a batch of Health Auto Export samples spans (the earliest start, the latest end): what
/// ``JSONFileStore/storeHealthAutoExport(_:dryRun:run:hashes:)`` reads the store around, and ``HAEImportRun`` checks.
struct HAESpans {
    /// Each type's own span: a batch that ends one metric's year and starts another's must not read both years.
    private(set) var spans: [String: (start: Date, end: Date)] = [:]
    /// A batch holds a few types one after the other: a type's span is widened locally while its run lasts.
    private var current: (type: String, start: Date, end: Date)?

    var isEmpty: Bool { spans.isEmpty && current == nil }

    /// Widens by each candidate's sample, its members, and the sample under the type an earlier version kept the
    /// element under (read around the same time).
    mutating func widen(_ candidates: [HAECandidate]) {
        // By index: a candidate is not copied to be looked at.
        for index in candidates.indices {
            widen(candidates[index].sample)
            for member in candidates[index].members { widen(member) }
            if let former = candidates[index].former {
                widen(former.type, candidates[index].sample.start, candidates[index].sample.end)
            }
        }
        settle()
    }

    private mutating func widen(_ sample: Sample) { widen(sample.typeIdentifier, sample.start, sample.end) }

    /// Widens `type`'s span to hold `start` to `end`. Read ``spans`` after the last call.
    mutating func widen(_ type: String, _ start: Date, _ end: Date) {
        if let run = current, run.type == type {
            if start < run.start { current!.start = start }
            if end > run.end { current!.end = end }
            return
        }
        settle()
        current = (type, start, end)
    }

    /// Folds the current type's span into ``spans``.
    mutating func settle() {
        guard let current else { return }
        if let span = spans[current.type] {
            spans[current.type] = (min(span.start, current.start), max(span.end, current.end))
        } else {
            spans[current.type] = (current.start, current.end)
        }
        self.current = nil
    }
}
