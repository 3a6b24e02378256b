#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension JSONFileStore {
    /// Stores Health Auto Export samples by ``HAEWritePlan``: under the exclusive lock, reads the visible samples of
    /// their types around their times, plans, and writes the deletions and additions in one write (recorded as one
    /// operation; a ``OperationRecord/Kind/replace`` when it deletes, which `undo` takes back). With `dryRun`
    /// only plans.
    ///
    /// - Parameter run: What the run (the import or push these candidates are a batch of) wrote before: when it
    ///   shows that the batch can meet nothing stored (``HAEImportRun``), the store is not read and the batch is
    ///   written as the plan against no stored samples writes it, through the import's encoded lines (the same
    ///   bytes); the plan returned then holds the outcomes (every candidate added) and no `writes`. Nil: always
    ///   read. Not used for a dry run.
    /// - Parameter hashes: Each candidate's ``HAEImportRun/syncHash(_:)``, when the caller has them.
    /// - Parameter planned: In a dry run, what its earlier batches would have written and deleted: the batch is
    ///   planned against the store with those changes, and its own plan is added to them.
    func storeHealthAutoExport(_ candidates: [HAECandidate], dryRun: Bool, run: HAEImportRun? = nil,
                               hashes: [Int]? = nil, planned earlier: HAEDryRunPlanned? = nil,
                               payloadForms: [String: Set<String>] = [:], payloadSleep: HAEPayloadSleep? = nil) throws -> HAEWritePlan {
        guard !candidates.isEmpty else { return HAEWritePlan() }
        var widened = HAESpans()
        widened.widen(candidates)
        let spans = widened.spans
        let plan = { (readsStore: Bool) throws -> HAEWritePlan in
            var stored: [Sample] = []
            /// Appends the stored samples of `type` the plan weighs against the candidates spanning `span`. With
            /// `settled`, leaves out the lines of samples that end before it and stand for no more than their own time
            /// (``readPartitionWithSequence(_:around:settledBefore:_:)``); returns false when that was not enough: a
            /// point whose period crosses `settled` is weighed against every finer point inside it.
            func read(_ type: String, _ span: (start: Date, end: Date), settled: Date?) throws -> Bool {
                let interval = JSONFileStore.HAEWindow(span)
                var earliest = interval.start
                // HAE points more than a day past the span, left out unless a point reaching into the span reaches them
                // (``LaterPoints``).
                var later = LaterPoints(after: span.end)
                defer { later.leaveOut(from: &stored) }
                var whole = true
                func take(_ sample: Sample) {
                    stored.append(sample)
                    if sample.metadata[HAESampleBuilder.aggregationKey] != nil {
                        let start = HAEWritePlan.periodStart(of: sample)
                        earliest = min(earliest, start)
                        later.note(start: start, of: sample, at: stored.count - 1)
                        if let settled, start < settled, HAEWritePlan.periodEnd(of: sample) > settled { whole = false }
                    }
                }
                let deleted = readsStore ? try self.deletedUUIDs(ofType: type) : Deletions()
                if readsStore {
                    for partition in try self.partitions(ofType: type, overlapping: interval) {
                        try self.readPartitionWithSequence(partition, around: interval, settledBefore: settled) { sample, sequence in
                            guard sample.end >= interval.start, sample.start <= interval.end,
                                  !deleted.hides(sample, sequence: sequence), earlier?.hides(sample) != true else { return }
                            take(sample)
                        }
                    }
                }
                for sample in earlier?.samples(ofType: type, where: { $0.end >= interval.start && $0.start <= interval.end }) ?? [] {
                    take(sample)
                }
                // A stored point whose period starts before the window (a week, where a day of its end comes): the HAE
                // points from its period's start too, so that the plan weighs it against every finer point inside it
                // and deletes a rest held as pieces whole (``HAEPieces``).
                // A heart-rate point's `|min` and `|max` lie in the two milliseconds before its main sample's start
                // (``HAESampleBuilder``): they come with it, so that a point replaced leaves no part behind.
                if earliest < interval.start {
                    let from = earliest.addingTimeInterval(-0.01)
                    let before = DateInterval(start: from, end: interval.start)
                    let inBefore = { (sample: Sample) in
                        sample.end >= from && sample.end < interval.start && sample.metadata[HAESampleBuilder.aggregationKey] != nil
                    }
                    if readsStore {
                        for partition in try self.partitions(ofType: type, overlapping: before) {
                            try self.readPartitionWithSequence(partition, around: before) { sample, sequence in
                                guard inBefore(sample), !deleted.hides(sample, sequence: sequence), earlier?.hides(sample) != true else { return }
                                stored.append(sample)
                            }
                        }
                    }
                    stored += earlier?.samples(ofType: type, where: inBefore) ?? []
                }
                return whole
            }
            for (type, span) in spans.sorted(by: { $0.key < $1.key }) {
                // The day before the span is read for nights re-sent with other times and days re-sent from another
                // zone; of a quantity type, the minutes, hours and samples from elsewhere of that day can meet a
                // candidate only when they reach the span (a minute's margin), or lie inside a point reaching into it.
                let settled = readsStore && self.isQuantity(type) ? span.start.addingTimeInterval(-60) : nil
                let mark = stored.count
                if try !read(type, span, settled: settled) {
                    stored.removeSubrange(mark...)
                    _ = try read(type, span, settled: nil)
                }
            }
            // Asked once per candidate: a catalogue look-up each time cost more than the rest of the plan.
            var cumulativeTypes: [String: Bool] = [:]
            return HAEWritePlan.plan(candidates, stored: stored, payloadForms: payloadForms, payloadSleep: payloadSleep, cumulative: { type in
                if let known = cumulativeTypes[type] { return known }
                let answer = self.isCumulative(type)
                cumulativeTypes[type] = answer
                return answer
            })
        }
        if dryRun {
            var result = HAEWritePlan()
            if try isExistingStore() {
                try withReadAccess { _ in result = try plan(true) }
            } else {
                result = try plan(false)
            }
            earlier?.apply(result)
            return result
        }
        return try withWriteAccess {
            let hashes = run == nil ? [] : hashes ?? candidates.map { HAEImportRun.syncHash($0.syncIdentifier) }
            // A sync identifier twice in the batch: its sendings meet each other in the plan.
            var seen = HAEHashSet(minimumCapacity: hashes.count)
            if let run, hashes.allSatisfy({ seen.insert($0) }), try run.needsNoReading(candidates, hashes: hashes, spans: spans, store: self) {
                // The lines ``HAEWritePlan/planAgainstNothingStored(_:)``'s writes make (each member, then the sample,
                // with sync version 1). Its writes are not returned: the caller reads the outcomes (every candidate added).
                var planned = HAEWritePlan()
                planned.outcomes = Array(repeating: .added, count: candidates.count)
                let lines = try encodeAsAdded(candidates, direct: nil, run: run)
                try writeEncoded(lines, scratch: run.scratch, recovery: .undo)
                lines.recycle(into: run.buffers)
                try run.wrote(candidates, hashes: hashes, store: self)
                return planned
            }
            let planned = try plan(true)
            guard !planned.writes.isEmpty || !planned.deletes.isEmpty else { return planned }
            for sample in planned.writes { try TextRules.check(sample) }
            _ = try writeChanges(deleting: planned.deletes, adding: planned.writes, now: clock(),
                                 record: planned.deletes.isEmpty ? recordMaker : replaceRecordMaker(replacing: planned.deletes.count))
            try run?.wrote(planned.writes, store: self)
            return planned
        }
    }

    /// Writes a batch of Health Auto Export candidates and directly written samples (``HAEDirectPoints``) as the plan
    /// against no stored samples writes it (every one added with sync version 1, in the batch's order), when the run
    /// shows that the batch can meet nothing stored (``HAEImportRun``) and no point is in it twice. Else writes
    /// nothing and returns false: the caller then plans the batch's candidates against the store
    /// (``storeHealthAutoExport(_:dryRun:run:hashes:)``).
    ///
    /// - Parameter hashes: Each candidate's ``HAEImportRun/syncHash(_:)``.
    func writeHealthAutoExportDirectly(_ candidates: [HAECandidate], hashes: [Int], direct: HAEDirectPoints,
                                       run: HAEImportRun) throws -> Bool {
        guard let spans = JSONFileStore.directSpans(hashes: hashes, candidates: candidates, direct: direct) else { return false }
        return try withWriteAccess {
            guard try run.needsNoReading(candidates, hashes: hashes, direct: direct, spans: spans, store: self) else { return false }
            let lines = try encodeAsAdded(candidates, direct: direct, run: run)
            try writeEncoded(lines, scratch: run.scratch, recovery: .undo)
            lines.recycle(into: run.buffers)
            try run.wrote(candidates, hashes: hashes, direct: direct, store: self)
            return true
        }
    }

    /// A batch of ``writeHealthAutoExportDirectly(_:hashes:direct:run:)`` with its lines made ahead, before the store
    /// is asked whether it can be written unread (``writePrepared(_:run:)``): an import makes a batch's lines while
    /// the batch before is written (``HAEWriteAhead``).
    struct PreparedHAEBatch {
        let candidates: [HAECandidate]
        let hashes: [Int]
        let direct: HAEDirectPoints
        let spans: [String: (start: Date, end: Date)]
        let lines: EncodedSampleBatch
    }

    /// The batch with its lines made as ``writeHealthAutoExportDirectly(_:hashes:direct:run:)`` would write them; reads
    /// and locks nothing of the store. Nil when that call would write it otherwise: a point twice in the batch, or a
    /// sample its text rules refuse (the call then reports it as before).
    func prepareHealthAutoExportDirectly(_ candidates: [HAECandidate], direct: HAEDirectPoints,
                                         run: HAEImportRun) -> PreparedHAEBatch? {
        let hashes = candidates.map { HAEImportRun.syncHash($0.syncIdentifier) }
        guard let spans = JSONFileStore.directSpans(hashes: hashes, candidates: candidates, direct: direct),
              let lines = try? encodeAsAdded(candidates, direct: direct, run: run) else { return nil }
        return PreparedHAEBatch(candidates: candidates, hashes: hashes, direct: direct, spans: spans, lines: lines)
    }

    /// Writes a prepared batch as ``writeHealthAutoExportDirectly(_:hashes:direct:run:)`` writes it: the same check
    /// under the exclusive lock, the same lines, the same notes; false (nothing written) when the batch must be planned
    /// against the store after all. Its buffers go back to the run's either way.
    func writePrepared(_ batch: PreparedHAEBatch, run: HAEImportRun) throws -> Bool {
        defer { batch.lines.recycle(into: run.buffers) }
        return try withWriteAccess {
            guard try run.needsNoReading(batch.candidates, hashes: batch.hashes, direct: batch.direct, spans: batch.spans,
                                         store: self) else { return false }
            try writeEncoded(batch.lines, scratch: run.scratch, recovery: .undo)
            try run.wrote(batch.candidates, hashes: batch.hashes, direct: batch.direct, store: self)
            return true
        }
    }

    /// The span of each type of the batch, widened as the plan reads around it; nil when a point is in the batch twice
    /// (its sendings meet each other in the plan: ``HAEWritePlan``).
    private static func directSpans(hashes: [Int], candidates: [HAECandidate],
                                    direct: HAEDirectPoints) -> [String: (start: Date, end: Date)]? {
        var seen = HAEHashSet(minimumCapacity: hashes.count + direct.count)
        for hash in hashes where !seen.insert(hash) { return nil }
        // By index: a row (with its source) is not copied to be looked at.
        let rows = direct.rows
        for index in rows.indices where !seen.insert(rows[index].hash) { return nil }
        var widened = HAESpans()
        widened.widen(candidates)
        for index in rows.indices {
            widened.widen(direct.metrics[Int(rows[index].metric)].type.identifier, rows[index].start, rows[index].end)
        }
        widened.settle()
        return widened.spans
    }

    /// The candidates' lines (each member, then the sample, with sync version 1) and the direct rows' in the batch's
    /// order, ready for one write (``writeEncoded(_:scratch:recovery:)``, undone after a crash rather than finished, as
    /// an import's batches are: a file imported again, or a push sent again (it was not acknowledged), stores it then;
    /// the journal need not hold a second copy). Reads and locks nothing of the store.
    ///
    /// Each sample is checked before its line is made (unless the builder checked it as it is, as it did every row); a
    /// refusal throws.
    private func encodeAsAdded(_ candidates: [HAECandidate], direct: HAEDirectPoints?, run: HAEImportRun) throws -> EncodedSampleBatch {
        let version: (key: String, value: MetadataValue) = (MetadataKeySyncVersion, .number(1))
        var writer = SampleLineWriter(catalogue: catalogue, timeZone: codec.timeZone)
        // The run's buffers: each batch's lines fill the memory the last one's did, rather than pages the kernel must
        // find and clear afresh (a year's import spent more time in page faults than in writing).
        var batch = EncodedSampleBatch(pool: run.buffers)
        func add(_ index: Int) throws {
            for member in candidates[index].members {
                try TextRules.check(member)
                batch.append(member, adding: version, writer: &writer)
            }
            if !candidates[index].checked { try TextRules.check(candidates[index].sample) }
            batch.append(candidates[index].sample, adding: version, writer: &writer)
        }
        var next = 0
        if let direct {
            var lines = HAEDirectLines(receivedThrough: direct.receivedThrough)
            // A metric's rows come one after the other: its type and unit are looked up once.
            var metric: Int32 = -1
            var type = "", unit = "", prefix: [UInt8] = []
            for row in direct.rows {
                while next < row.after {
                    try add(next)
                    next += 1
                }
                if row.metric != metric {
                    metric = row.metric
                    (type, unit) = (direct.metrics[Int(metric)].type.identifier, direct.metrics[Int(metric)].unitText)
                    prefix = direct.metrics[Int(metric)].quotedPrefix
                }
                batch.append(type: type, start: row.start,
                             long: row.end.timeIntervalSince(row.start) > JSONFileStore.longSampleThreshold,
                             uuid: row.uuid, identity: row.uuid) { out in
                    lines.append(row, type: type, unit: unit, quotedPrefix: prefix, created: direct.created, writer: &writer, to: out)
                }
            }
        }
        while next < candidates.count {
            try add(next)
            next += 1
        }
        return batch
    }

    /// ``readPartitionWithSequence(_:limit:_:)`` for the samples around `window`: a line that ``QuantityLineParser``
    /// finds, from its dates, to lie outside the window (widened by a second each side, so every sample that touches it
    /// is inside) is not decoded, since the caller would leave it out. A store's month partition then costs the lines
    /// of the window's days, not the month's. Damage is found as before in every line decoded, and a line is decoded
    /// whenever one before it did not decode (so a damaged line followed by others is still corruption).
    ///
    /// - Parameter settledBefore: When given, a line the parser reads whole whose sample ends before this instant and
    ///   stands for no more than its own time is not decoded either (``isSettled(_:)``): the caller's candidates all
    ///   start after it, so such a sample can meet none of them.
    func readPartitionWithSequence(_ partition: String, around window: DateInterval, settledBefore: Date? = nil,
                                   _ body: (Sample, UInt64) throws -> Void) throws {
        let file = try storeFile(partition)
        var reader = PartitionLineReader()
        var damage: LineDamage?
        var codec = self.codec
        var parser = QuantityLineParser()
        let names = ReadingNames()
        let widened = DateInterval(start: window.start.addingTimeInterval(-1), end: window.end.addingTimeInterval(1))
        try reader.forEachLine(in: file, limit: nil) { line, lineNumber in
            if damage == nil {
                switch parser.parse(line, names: names, window: widened) {
                case .outsideWindow: return
                case .fields(let fields):
                    if let settledBefore, fields.end < settledBefore, JSONFileStore.isSettled(line) { return }
                case .unreadable: break
                }
            }
            guard let sample = try decodeLine(line, number: lineNumber, in: file, damage: &damage, codec: &codec) else { return }
            try body(sample, codec.lastSequence)
        }
        try damage?.throwUnlessTorn(file)
    }

    /// Whether a stored line stands for its own time and no more, so that a batch starting after it cannot meet it: a
    /// sample from elsewhere, or a whole HAE point of a minute, an hour or an instant. Not an HAE day or week, whose
    /// sync identifier is its local date (the same day re-sent from a zone more than a day behind starts after the
    /// stored one ends, and must still replace it), nor a remainder or a piece of one, which names its period
    /// (``HAEWritePlan/periodStartKey``, ``HAEWritePlan/periodEndKey``): the rules find those by their whole period,
    /// and pieces go together. The store's writer spells every key and these values plainly, so a line holds their
    /// bytes when its sample holds them.
    static func isSettled(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !find(periodNeedle, in: line) else { return false }
        guard let form = position(of: aggregationNeedle, in: line) else { return true }
        let rest = UnsafeBufferPointer(rebasing: line[(form + aggregationNeedle.count)...])
        return settledForms.contains { rest.starts(with: $0) }
    }

    /// The bytes both period keys begin with, quoted as a key is.
    private static let periodNeedle = Array("\"HAEPeriod".utf8)
    /// The aggregation's key and the quote its value opens with.
    private static let aggregationNeedle = Array("\"\(HAESampleBuilder.aggregationKey)\":\"".utf8)
    /// The aggregations whose points are named by their UTC start, each with its closing quote.
    private static let settledForms = [HAEPeriod.instant, .minute, .hour].map { Array(($0.name + "\"").utf8) }

    /// The window of stored samples a batch of HAE candidates spanning `span` of a type is planned against: a day
    /// before (a night re-sent with other times keeps its parts' identifiers, not their starts) and eight days after
    /// (whether an export's samples go on past a point's period, a week's included).
    static func HAEWindow(_ span: (start: Date, end: Date)) -> DateInterval {
        DateInterval(start: span.start.addingTimeInterval(-86_400), end: span.end.addingTimeInterval(8 * 86_400))
    }

    /// The HAE points a batch's plan need not meet: the window of one type is read eight days past the batch's span for
    /// the samples from elsewhere (an export made after a point's period covers it), but an HAE point that starts more
    /// than a day after the span meets no candidate (a candidate's sync identifier names its period, and the points it
    /// crosses overlap it), unless a point that starts before then reaches it (a week reaching past the span is weighed
    /// against the finer points inside it). A point's pieces share its period's start, so they stay or go together.
    /// Leaving them out spares the plan most of the samples it read (a re-imported folder's batches).
    struct LaterPoints {
        private let near: Date
        private var limit: Date
        /// The places in the stored samples of the points starting after ``near``, and their starts.
        private var far: [(index: Int, start: Date)] = []

        init(after end: Date) {
            near = end.addingTimeInterval(86_400)
            limit = near
        }

        /// Notes an HAE point just read (its period starting at `start`), at `index` in the stored samples.
        mutating func note(start: Date, of sample: Sample, at index: Int) {
            if start <= near {
                limit = max(limit, HAEWritePlan.periodEnd(of: sample))
            } else {
                far.append((index, start))
            }
        }

        /// Removes from `stored` the points noted far that no point reaches.
        func leaveOut(from stored: inout [Sample]) {
            var gone = far.lazy.filter { $0.start > limit }.map(\.index).makeIterator()
            guard var upcoming = gone.next() else { return }
            var kept = upcoming
            for index in upcoming..<stored.count {
                if index == upcoming {
                    upcoming = gone.next() ?? -1
                    continue
                }
                stored.swapAt(kept, index)
                kept += 1
            }
            stored.removeSubrange(kept...)
        }
    }

    /// Whether one of a type folder's `names` is a partition that ``partitions(ofType:overlapping:)`` would read for
    /// `interval` (a month file in its range, or `long.jsonl`).
    static func anyPartition(_ names: [String], overlaps interval: DateInterval) -> Bool {
        let first = monthKey(interval.start.addingTimeInterval(-longSampleThreshold)), last = monthKey(interval.end)
        let from = monthNumber(ofFileName: first + ".jsonl") ?? .min, to = monthNumber(ofFileName: last + ".jsonl") ?? .max
        return names.contains { name in
            if let month = monthNumber(ofFileName: name) { return month >= from && month <= to }
            return name == "long.jsonl"
        }
    }
}

extension JSONFileStore {
    /// Whether `identifier` is a quantity type of the store's catalogue.
    func isQuantity(_ identifier: String) -> Bool { catalogue.type(identifier: identifier)?.kind == .quantity }

    /// Whether the amounts of type `identifier` add up (steps, water), so that a part of one can be subtracted.
    func isCumulative(_ identifier: String) -> Bool { catalogue.type(identifier: identifier)?.aggregation?.isCumulative ?? false }

    /// After an import of an Apple Health export: the Health Auto Export samples of `types` that samples from
    /// elsewhere now cover (``HAECoverage``, the rule ``HAEWritePlan`` applies the other way round) are deleted, and
    /// those they cover in part are replaced by their remainder, in one write recorded as a replacement that `undo`
    /// takes back with the import. Reads only the partitions of those types that hold an HAE sample at all (a byte
    /// search per file before decoding).
    ///
    /// - Parameter adding: For a dry run (nothing is written then): the samples the import would have added, of the
    ///   types and times ``HAEDryRunAdditions`` kept, as if they were stored. Nil: the real thing.
    /// - Returns: How many HAE samples were (or would be) deleted or reduced to their remainder.
    func supersedeHealthAutoExport(types: [String], adding: [Sample]? = nil) throws -> Int {
        guard !types.isEmpty, try isExistingStore() else { return 0 }
        guard let adding else {
            return try withWriteAccess {
                let plan = try planSuperseding(types: types, adding: [])
                guard !plan.targets.isEmpty else { return 0 }
                for sample in plan.writes { try TextRules.check(sample) }
                _ = try writeChanges(deleting: plan.targets, adding: plan.writes, now: clock(),
                                     record: replaceRecordMaker(replacing: plan.targets.count))
                return plan.touched
            }
        }
        var touched = 0
        try withReadAccess { _ in touched = try planSuperseding(types: types, adding: adding).touched }
        return touched
    }

    /// One sample the owner deleted, replaced or wrote in place of another, as ``weighHealthAutoExportAgain(after:)``
    /// needs it: its type, its source, and whether it is a Health Auto Export sample itself.
    struct OwnerChange {
        var type: String
        var source: String
        var isHealthAutoExport: Bool

        init(type: String, source: String, isHealthAutoExport: Bool) {
            self.type = type
            self.source = source
            self.isHealthAutoExport = isHealthAutoExport
        }

        init(_ sample: Sample) {
            self.init(type: sample.typeIdentifier, source: sample.source,
                      isHealthAutoExport: sample.metadata[HAESampleBuilder.aggregationKey] != nil)
        }
    }

    /// After the owner deleted or corrected samples, or saved a greater sync version of one (``delete(uuids:now:ignoringMissing:source:types:)``,
    /// ``replace(_:with:source:now:)``, ``saveReporting(_:)`` call it themselves): the Health Auto Export points of the
    /// cumulative types of those of `changed` that are neither HAE's nor typed in by the owner weighed again against
    /// the samples stored now (``supersedeHealthAutoExport(types:adding:)``), so that a remainder an export's sample
    /// reduced (``HAEWritePlan/exportHeldKey``) is what the rule gives without it or with its correction. With a store
    /// that records its writes, the write is part of the operation under way, which `undo` takes back whole.
    /// - Returns: How many HAE samples were deleted or reduced.
    @discardableResult
    func weighHealthAutoExportAgain(after changed: [OwnerChange]) throws -> Int {
        let types = Set(changed.lazy.filter { change in
            !change.isHealthAutoExport && change.source != AuthorizationState.ownerSource && self.isCumulative(change.type)
        }.map(\.type))
        guard !types.isEmpty else { return 0 }
        return try supersedeHealthAutoExport(types: types.sorted())
    }

    /// For a dry run of an export's import (``HAEDryRunAdditions``): the visible Health Auto Export samples of
    /// `type`, read under the store's read access; none when the store does not exist yet.
    func healthAutoExportSamples(readingOfType type: String) throws -> [Sample] {
        guard try isExistingStore() else { return [] }
        var ours: [Sample] = []
        try withReadAccess { _ in ours = try healthAutoExportSamples(ofType: type) }
        return ours
    }

    /// The visible Health Auto Export samples of a type, reading only the partitions that hold one. `limits`: the
    /// lines of each file to read (``withReadAccess(_:)``'s, while a batch waits in the journal).
    func healthAutoExportSamples(ofType type: String, limits: [String: Int] = [:]) throws -> [Sample] {
        let needle = Array(HAESampleBuilder.aggregationKey.utf8)
        let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
        let deleted = try deletedUUIDs(ofType: type, limits: limits)
        var ours: [Sample] = []
        for partition in try partitions(ofType: type, overlapping: everything) {
            // A file this instance started and alone wrote, without the mark, holds none (an export's first import
            // would read back everything it wrote).
            if let owned = ownedFiles[partition], !owned.marksHAE, owned.describes(try storeFile(partition)) { continue }
            readCounts.withLock { $0.partitionsSearchedForHAE += 1 }
            guard let bytes = try POSIXFile.readFile(try storeFile(partition)), JSONFileStore.find(needle, in: bytes) else { continue }
            try readPartitionWithSequence(partition, limit: limits[partition]) { sample, sequence in
                guard sample.metadata[HAESampleBuilder.aggregationKey] != nil, !deleted.hides(sample, sequence: sequence) else { return }
                ours.append(sample)
            }
        }
        return ours
    }

    /// The visible samples of a type in `span` that can stand for Health Auto Export points (``HAECoverage``): not
    /// HAE's, and not typed in by the store's owner. `limits` as for ``healthAutoExportSamples(ofType:limits:)``;
    /// `excluding`: samples to leave out (those a write under way deletes).
    func samplesFromElsewhere(ofType type: String, in span: DateInterval, limits: [String: Int] = [:],
                              excluding: Set<UUID> = []) throws -> [Sample] {
        var others: [Sample] = []
        let deleted = try deletedUUIDs(ofType: type, limits: limits)
        for partition in try partitions(ofType: type, overlapping: span) {
            try readPartitionWithSequence(partition, limit: limits[partition]) { sample, sequence in
                guard JSONFileStore.isFromElsewhere(sample, in: span), !excluding.contains(sample.uuid),
                      !deleted.hides(sample, sequence: sequence) else { return }
                others.append(sample)
            }
        }
        return others
    }

    /// Whether `sample` can stand for Health Auto Export points in `span`: not HAE's, not the owner's, touching it.
    static func isFromElsewhere(_ sample: Sample, in span: DateInterval) -> Bool {
        sample.metadata[HAESampleBuilder.aggregationKey] == nil && HAEWritePlan.isFromHealthKit(sample)
            && sample.end >= span.start && sample.start <= span.end
    }

    /// Where samples from elsewhere can meet `points` (HAE points, not empty): from the first one's period's start (a
    /// remainder weighed over its whole period again starts later than it), to eight days after the last one's end
    /// (whether the samples go on past a point's period, a week's included).
    static func supersedingSpan(of points: [Sample]) -> DateInterval {
        let start = points.map(HAEWritePlan.periodStart(of:)).min()!, end = points.map(\.end).max()!
        return DateInterval(start: start, end: end.addingTimeInterval(8 * 86_400))
    }

    /// What ``supersedeHealthAutoExport(types:adding:)`` deletes and writes, read under a lock the caller holds.
    private func planSuperseding(types: [String], adding: [Sample]) throws
        -> (targets: [(uuid: UUID, type: String, source: String)], writes: [Sample], touched: Int) {
        var targets: [(uuid: UUID, type: String, source: String)] = []
        var writes: [Sample] = []
        var members: [UUID: (type: String, source: String)] = [:]
        var touched = 0
        for type in types.sorted() {
            let ours = try healthAutoExportSamples(ofType: type)
            guard !ours.isEmpty else { continue }
            let span = JSONFileStore.supersedingSpan(of: ours)
            var others = try samplesFromElsewhere(ofType: type, in: span)
            others += adding.filter { $0.typeIdentifier == type && JSONFileStore.isFromElsewhere($0, in: span) }
            // None at all is weighed too: a remainder whose samples were deleted since is whole again.
            others.sort { $0.start < $1.start }
            let longest = others.reduce(0) { max($0, $1.duration) }
            for outcome in HAESuperseding.weigh(ours, by: others, longest: longest, cumulative: isCumulative(type)) {
                let sample = outcome.point
                touched += 1
                targets += outcome.parts.map { ($0.uuid, $0.typeIdentifier, $0.source) }
                for var kept in outcome.kept {
                    kept.uuid = UUID()
                    writes.append(kept)
                }
                for member in sample.detail?.correlation?.members ?? [] {
                    members[member.uuid] = (member.typeIdentifier, sample.source)
                }
            }
        }
        let chosen = Set(targets.map(\.uuid))
        for (uuid, member) in members where !chosen.contains(uuid) {
            targets.append((uuid, member.type, member.source))
        }
        return (targets, writes, touched)
    }

    /// Decodes a sample line an import composed (``DirectLineComposer``), for a dry run that must see it as stored.
    func decodeComposedLine(_ bytes: [UInt8]) -> Sample? {
        var codec = self.codec
        return bytes.withUnsafeBufferPointer { try? codec.decode($0) }
    }

    /// Whether `needle` occurs in `bytes` (memchr for its first byte, then memcmp).
    static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { find(needle, in: $0) }
    }

    /// ``find(_:in:)`` in bytes held elsewhere.
    static func find(_ needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        position(of: needle, in: haystack) != nil
    }

    /// Where `needle` first occurs in `haystack` (memchr for its first byte, then memcmp), nil when it does not.
    static func position(of needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let first = needle.first else { return 0 }
        return needle.withUnsafeBufferPointer { wanted in
            guard let base = haystack.baseAddress, haystack.count >= wanted.count else { return nil }
            var index = 0
            let last = haystack.count - wanted.count
            while index <= last {
                guard let found = memchr(base + index, Int32(first), last - index + 1) else { return nil }
                index = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
                if memcmp(base + index, wanted.baseAddress!, wanted.count) == 0 { return index }
                index += 1
            }
            return nil
        }
    }
}
