extension JSONFileStore {
    /// The newest `limit` samples of a type overlapping `interval`, newest first (``Sample/chronological(_:_:)``
    /// reversed).
    ///
    /// Month partitions are read newest first until they have given `limit` samples; long samples (their own
    /// partition) are always read. Lines in the writer's plain quantity shape are read by the positional reader
    /// (``QuantityLineParser``) and only the newest `limit` of them are decoded in full; any other line is decoded
    /// as it is read.
    ///
    /// Before a month is read, the plain lines at its end (where a month's newest samples almost always are) are
    /// read first, and with the candidates already kept they give a bar: once `limit` accepted samples start at or
    /// after it, a line of the month that starts before it cannot be in the answer, and is recognised from its
    /// start alone (its day, or its date) and not read further, as a windowed read passes over a line outside its
    /// window. A month of minute-level heart rate is then read to its dates, not decoded line by line.
    public func latestSamples(ofType identifier: String, overlapping interval: DateInterval, limit: Int) throws -> [Sample] {
        var found: [Sample] = []
        var candidates = NewestCandidates(limit: limit)
        try withReadAccess { limits in
            let deleted = try deletedUUIDs(ofType: identifier, limits: limits)
            // Newest first: `long.jsonl`, then the months from the last.
            let partitions = Array(try self.partitions(ofType: identifier, overlapping: interval).reversed())
            for partition in partitions where partition.hasSuffix("/long.jsonl") {
                try readPartitionWithSequence(partition, limit: limits[partition]) { sample, sequence in
                    if sample.overlaps(interval) && !deleted.hides(sample, sequence: sequence) { found.append(sample) }
                }
            }
            var fromMonths = 0
            var codec = self.codec
            var reader = PartitionLineReader()
            var parser = QuantityLineParser()
            let names = ReadingNames()
            /// A plain line's place in the answer's order, when it is a sample the answer may hold (inside the
            /// interval, not deleted); `.unreadable` when the full decoder must read it.
            func accepted(_ line: UnsafeBufferPointer<UInt8>) -> (fields: QuantityLineParser.Fields, uuid: UUIDKey)?? {
                switch parser.parse(line, names: names, window: interval) {
                case .outsideWindow: return .some(nil)
                case .unreadable: return nil
                case .fields(let fields):
                    // The parser checked the uuid's text.
                    let key = UUIDKey(checkedText: line.baseAddress! + QuantityLineParser.uuidOffset)
                    if !deleted.isEmpty {
                        let source = String(decoding: UnsafeBufferPointer(rebasing: line[fields.source]), as: UTF8.self)
                        if deleted.hides(key, source: source, sequence: fields.sequence) { return .some(nil) }
                    }
                    return (fields, key)
                }
            }
            for partition in partitions where !partition.hasSuffix("/long.jsonl") {
                if fromMonths >= limit { break }
                let file = try storeFile(partition)
                let kept = candidates.keptTimes
                let bar = try reader.withBuffer { buffer in
                    try LatestBar.find(in: file, length: limits[partition], limit: limit, buffer: buffer, kept: kept) { line in
                        guard case .some(.some(let found)) = accepted(line) else { return nil }
                        return (found.fields.start, found.fields.end)
                    }
                }
                var damage: LineDamage?
                try reader.forEachLine(in: file, limit: limits[partition]) { line, lineNumber in
                    if damage == nil {
                        if let bar, parser.startsBefore(bar, line: line) { return }
                        switch accepted(line) {
                        case .some(nil): return
                        case nil: break
                        case .some(.some(let found)):
                            candidates.offer(LatestCandidate(start: found.fields.start, end: found.fields.end,
                                                             uuid: found.uuid, line: [], file: file, number: lineNumber),
                                             line: line)
                            fromMonths += 1
                            return
                        }
                    }
                    guard let sample = try decodeLine(line, number: lineNumber, in: file, damage: &damage, codec: &codec),
                          sample.overlaps(interval), !deleted.hides(sample, sequence: codec.lastSequence) else { return }
                    found.append(sample)
                    fromMonths += 1
                }
                try damage?.throwUnlessTorn(file)
            }
        }
        // Only the newest `limit` plain lines can be in the answer: decode just those.
        var codec = self.codec
        for candidate in candidates.newestFirst {
            do {
                found.append(try candidate.line.withUnsafeBufferPointer { try codec.decode($0) })
            } catch {
                throw StoreError.corrupt(candidate.file, line: candidate.number, reason: "\(error)")
            }
        }
        // Usually only decoded candidates, already newest first: then there is nothing to sort.
        if found.indices.dropFirst().allSatisfy({ Sample.chronological(found[$0], found[$0 - 1]) }) {
            return Array(found.prefix(limit))
        }
        return Array(found.sortedChronologically().reversed().prefix(limit))
    }
}

/// The newest `limit` candidates offered, listed newest first as a stable sort from newest to oldest of all of
/// them would list them (of equal ones, the first offered comes first); only candidates that may still be among
/// them keep a copy of their line.
///
/// Offers are appended; when twice `limit` are held, they are sorted and cut back to `limit`, and the oldest one
/// kept becomes the bar a later offer must pass. So an offer costs one comparison and, if kept, an append, in
/// any order of months and lines; with no limit, everything is sorted once at the end, as before.
private struct NewestCandidates {
    let limit: Int
    /// The newest `limit` as of the last cut, newest first, then the offers kept since, in offer order.
    private var kept: [LatestCandidate] = []
    /// The oldest of the newest `limit` at the last cut: an offer that is not newer cannot be in the answer.
    private var bar: LatestCandidate?
    /// Line buffers of dropped candidates, reused for the next copies.
    private var spares: [[UInt8]] = []

    init(limit: Int) {
        self.limit = max(limit, 0)
    }

    /// The start and end of every candidate kept.
    var keptTimes: [(start: Date, end: Date)] { kept.map { ($0.start, $0.end) } }

    var newestFirst: [LatestCandidate] {
        // `sort` is stable: equal candidates stay in offer order (those kept at a cut were offered first).
        Array(kept.sorted(by: >).prefix(limit))
    }

    mutating func offer(_ candidate: LatestCandidate, line: UnsafeBufferPointer<UInt8>) {
        guard limit > 0 else { return }
        if let bar, !(candidate > bar) { return }
        var copy = candidate
        copy.line = spares.popLast() ?? []
        copy.line.removeAll(keepingCapacity: true)
        copy.line.append(contentsOf: line)
        kept.append(copy)
        // (`limit` may be Int.max: "all of them", never cut.)
        if kept.count - limit >= limit {
            kept.sort(by: >)
            spares.append(contentsOf: kept[limit...].map(\.line))
            kept.removeSubrange(limit...)
            bar = kept[limit - 1]
        }
    }
}

/// A plain line that may be among the newest: its order (as ``Sample/chronological(_:_:)`` orders samples) and a
/// copy of its bytes to decode if it is.
private struct LatestCandidate: ChronologicallyOrdered {
    var start: Date
    var end: Date
    var uuid: UUIDKey
    var line: [UInt8]
    var file: String
    var number: Int
}
