extension JSONFileStore {
    /// The newest `limit` samples of a type overlapping `interval`, newest first (``Sample/chronological(_:_:)``
    /// reversed).
    ///
    /// Month partitions are read newest first until they have given `limit` samples; long samples (their own
    /// partition) are always read. Lines in the writer's plain quantity shape are read by the positional reader
    /// (``QuantityLineParser``) and only the newest `limit` of them are decoded in full; any other line is decoded
    /// as it is read.
    public func latestSamples(ofType identifier: String, overlapping interval: DateInterval, limit: Int) throws -> [Sample] {
        var found: [Sample] = []
        var candidates: [LatestCandidate] = []
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
            var reader = PartitionLineReader()
            var parser = QuantityLineParser()
            let names = ReadingNames()
            for partition in partitions where !partition.hasSuffix("/long.jsonl") {
                if fromMonths >= limit { break }
                let file = path + "/" + partition
                var damage: LineDamage?
                try reader.forEachLine(in: file, limit: limits[partition]) { line, lineNumber in
                    if damage == nil {
                        switch parser.parse(line, names: names, window: interval) {
                        case .outsideWindow: return
                        case .unreadable: break
                        case .fields(let fields):
                            // The parser checked the uuid's text.
                            let key = UUIDKey(checkedText: line.baseAddress! + QuantityLineParser.uuidOffset)
                            if !deleted.isEmpty {
                                let source = String(decoding: UnsafeBufferPointer(rebasing: line[fields.source]), as: UTF8.self)
                                if deleted.hides(key, source: source, sequence: fields.sequence) { return }
                            }
                            candidates.append(LatestCandidate(start: fields.start, end: fields.end, uuid: key,
                                                              line: Array(line), file: file, number: lineNumber))
                            fromMonths += 1
                            return
                        }
                    }
                    guard let sample = try decodeLine(line, number: lineNumber, in: file, damage: &damage),
                          sample.overlaps(interval), !deleted.hides(sample, sequence: codec.lastSequence) else { return }
                    found.append(sample)
                    fromMonths += 1
                }
                try damage?.throwUnlessTorn(file)
            }
        }
        // Only the newest `limit` plain lines can be in the answer: decode just those.
        candidates.sort(by: >)
        for candidate in candidates.prefix(limit) {
            do {
                found.append(try candidate.line.withUnsafeBufferPointer { try codec.decode($0) })
            } catch {
                throw StoreError.corrupt(candidate.file, line: candidate.number, reason: "\(error)")
            }
        }
        return Array(found.sorted(by: Sample.chronological).reversed().prefix(limit))
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
