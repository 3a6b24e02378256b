extension HealthImporter {
    /// Stores a Health Auto Export payload's samples (see docs/IMPORT.md, "Health Auto Export files").
    ///
    /// Every metric name HAE writes maps to its HealthKit type and unit; points of names or types the catalogue cannot type
    /// yet, and the elements of the payload's other arrays (`medications`, `symptoms`, ...), are kept
    /// untyped (``ImportReceipt/Counts/keptGenerically``), so nothing is dropped; `workouts` become typed workouts
    /// with their statistics and routes (``HAEWorkouts``), and `stateOfMind` typed ``StateOfMind``s
    /// (``HAEStateOfMind``). Each sample has a sync identifier
    /// derived from metric, time and source: importing the same payload again changes nothing
    /// (``ImportReceipt/Counts/alreadyPresent``), and a re-send with a changed value replaces the stored sample
    /// (``ImportReceipt/Counts/replaced``; a deletion and an addition that `changes`, anchored queries and `undo`
    /// see). A point the payload sends twice is stored as its last sending, the earlier counted as unchanged
    /// (``HAELaterSendings``; a folder's files are one input the same way). A point whose time is already covered by
    /// samples of its type from elsewhere (an Apple Health export) is
    /// not stored either, so nothing counts twice (``HAEWritePlan``). Points that cannot be read are refused and
    /// listed with their lines.
    ///
    /// The samples are written in batches of ``batchSize`` (or a few more: the samples of one point stay together), each
    /// all or nothing, under the store's lock.
    ///
    /// - Parameters:
    ///   - payload: The parsed payload.
    ///   - receivedThrough: The program that pushed it (recorded in each sample's metadata as `HAEReceivedThrough`);
    ///     nil for files. When the store is a ``HealthStore`` of another source than the owner, that source is the
    ///     program (when this is nil), and it must be allowed to write every type the payload writes.
    /// - Returns: Per type: added, replaced, unchanged (already present or covered), kept untyped, refused.
    /// - Throws: ``StoreError`` when the store cannot be written (batches written before stay written);
    ///   ``AuthorizationError`` when the store is a ``HealthStore`` whose source may not write one of the payload's
    ///   types (nothing is written).
    public func importHealthAutoExport(_ payload: HealthAutoExportPayload, receivedThrough: String?) throws -> ImportReceipt {
        importing.lock()
        defer { importing.unlock() }
        return try storeHealthAutoExport([payload], receivedThrough: receivedThrough)
    }

    /// Stores payloads one after the other into one receipt; problems name the payload when there are several.
    /// Call with ``importing`` held. Each metric's points are let go once built (memory then holds the metrics not yet
    /// stored), when the caller gave the payloads up (`consume`).
    func storeHealthAutoExport(_ payloads: consuming [HealthAutoExportPayload], receivedThrough: String?) throws -> ImportReceipt {
        var receipt = ImportReceipt(inputKind: .healthAutoExport, dryRun: dryRun)
        let fileStore: JSONFileStore?
        var receivedThrough = receivedThrough
        // Types Apple computes, which a relaying source may not write: their points are refused one by one.
        var appleComputed = Set<String>()
        if let health = store as? HealthStore {
            // Another source than the owner is the program the payload came through: it needs permission for every
            // type the payload writes that a source can be granted, and the samples keep the payload's own sources.
            // What has no type yet (`HealthAutoExport_<name>`) needs none: no grant can name it. Types Apple computes
            // (exercise, stand and move minutes) can never be granted; refusing the whole payload for them would stop
            // every push of an app set to send all metrics, so only their points are refused, with the reason.
            if !health.isOwner {
                let identifiers = Set(payloads.flatMap(\.sampleTypeIdentifiers))
                appleComputed = identifiers.intersection(AuthorizationState.unshareableTypes)
                try health.checkMaySave(identifiers.subtracting(appleComputed)
                    .filter { !$0.hasPrefix(HAESampleBuilder.untypedPrefix) }.sorted())
                receivedThrough = receivedThrough ?? health.source
            }
            fileStore = health.storage
        } else {
            fileStore = store as? JSONFileStore
        }
        let created = Sample.millisecondPrecision(fileStore?.clock() ?? Date())
        // What the payloads' earlier batches wrote: later batches that can meet nothing stored are not read back.
        let run = readsEveryHAEBatch ? nil : HAEImportRun()
        lastHAERun = run
        let several = payloads.count > 1
        let builders = payloads.map { payload in
            HAESampleBuilder(catalogue: catalogue, defaultSource: payload.defaultSource, zone: timeZone, rules: zoneRules, level: payload.level,
                             offsets: payload.offsets, dayStarts: payload.dayStarts, created: created, receivedThrough: receivedThrough)
        }
        // Points the input sends again later: each is stored as its last sending (importing the input again then
        // finds it unchanged rather than replaying its sendings).
        let later = HAELaterSendings(payloads, builders: builders)
        // Points later points of the input take away whole: they give way to them (importing the input again then
        // finds them unchanged rather than storing them again beside what the later points left).
        let givingWay = HAEGivingWay(payloads, builders: builders) { catalogue.type(identifier: $0)?.aggregation?.isCumulative ?? false }
        // Batches written unread go to a thread of their own while the next is built (``HAEWriteAhead``).
        let writeAhead = writesHAEDirectly && !dryRun ? fileStore.flatMap { store in run.map { HAEWriteAhead(store: store, run: $0) } } : nil
        defer { writeAhead?.stop() }
        for index in payloads.indices {
            var metrics = payloads[index].takeMetrics()
            let payload = payloads[index]
            let builder = builders[index]
            let prefix = several ? payload.name + ": " : ""
            // What every batch of the payload plans with: the forms its types take, and its sleep.
            let facts = PayloadFacts(forms: payload.forms, sleep: HAEPayloadSleep(metrics, builder: builder))
            // Written in batches as the metrics are read, so memory holds one batch of samples, not the year's.
            var pending: [HAECandidate] = []
            // The batch's samples written straight from the points, between the candidates (``HAEDirectPoints``):
            // only when a batch can be written unread, which needs the run's notes and a file store.
            let directly = writesHAEDirectly && run != nil && !dryRun && fileStore != nil
            var direct = HAEDirectPoints(created: created, receivedThrough: receivedThrough)
            func refuse(_ type: String, _ line: Int, _ reason: String) {
                receipt.counts[type, default: ImportReceipt.Counts()].rejected += 1
                receipt.record(ImportReceipt.Problem(line: line, type: type, reason: prefix + reason))
            }
            // The points met so far: each candidate knows its point's number (``HAECandidate/point``).
            var pointsMet = 0
            // Whether the point being built is sent again later in the input (``HAELaterSendings``): its samples
            // count as unchanged and are not planned.
            var superseded = false
            // The later points the point being built gives way to (``HAEGivingWay``).
            var holder: [[Sample]] = []
            // Whether earlier finer points of the input hold the point being built already.
            var heldAlready = false
            func take(_ built: HAEBuilt) {
                switch built {
                case var .candidate(candidate):
                    candidate.point = pointsMet
                    candidate.givesWayTo = holder
                    candidate.heldAlready = heldAlready
                    if appleComputed.contains(candidate.sample.typeIdentifier) {
                        refuse(candidate.sample.typeIdentifier, candidate.line, "'\(candidate.metric)' is computed by Apple and no "
                               + "source may write it; the owner keeps it by importing the app's files instead")
                        return
                    }
                    if superseded {
                        receipt.counts[candidate.sample.typeIdentifier, default: ImportReceipt.Counts()].alreadyPresent += 1
                        receipt.counts[candidate.sample.typeIdentifier, default: ImportReceipt.Counts()].sentAgain += 1
                        return
                    }
                    pending.append(candidate)
                case let .refused(type, line, reason): refuse(type, line, reason)
                }
            }
            // Waits for the batch written ahead: counts it, or plans it when it could not be written unread after all.
            func settle() throws {
                guard let (batch, written) = try writeAhead?.settle() else { return }
                if written {
                    count(batch.candidates, direct: batch.direct, into: &receipt)
                } else {
                    try write(batch.direct.candidates(merging: batch.candidates, builder: builder, refuse: refuse), fileStore: fileStore,
                              run: run, payload: facts, into: &receipt)
                }
            }
            // A batch ends between points, never between the samples of one (a heart-rate point's minimum, maximum
            // and rest): a later batch would take the point's own sample for a re-send replacing the others.
            func flush() throws {
                if direct.isEmpty {
                    try settle()
                    try write(pending, fileStore: fileStore, run: run, payload: facts, into: &receipt)
                } else if let writeAhead, writeAhead.ahead,
                          let prepared = fileStore!.prepareHealthAutoExportDirectly(pending, direct: direct, run: run!) {
                    // Its lines made while the batch before is written; then handed over once that one is settled.
                    try settle()
                    writeAhead.write(prepared)
                    direct.removeAll()
                } else {
                    try settle()
                    let unread = try write(pending, direct: direct, builder: builder, fileStore: fileStore!, run: run!, payload: facts,
                                           into: &receipt, refuse: refuse)
                    writeAhead?.ahead = unread
                    direct.removeAll()
                }
                pending.removeAll(keepingCapacity: true)
            }
            func endOfPoint() throws {
                pointsMet += 1
                if pending.count + direct.count >= batchSize { try flush() }
            }
            do {
                for number in metrics.indices {
                    // The list's only holder while it is built, when the payload was given up: its memory goes after.
                    let metric = metrics[number]
                    metrics[number].points = HAEPointList()
                    let positions = later.positions(payload: index, metric: number)
                    let holders = givingWay.holders(payload: index, metric: number)
                    let held = givingWay.heldAlready(payload: index, metric: number)
                    if positions != nil || holders != nil {
                        for position in metric.points.indices {
                            superseded = positions?.contains(position) ?? false
                            holder = holders?[position] ?? []
                            heldAlready = held.contains(position)
                            builder.build(metric, at: position, into: take)
                            superseded = false
                            holder = []
                            heldAlready = false
                            try endOfPoint()
                        }
                        continue
                    }
                    guard directly, let shared = builder.directMetric(metric, serial: (index, number), refused: appleComputed) else {
                        try builder.build(metric, into: take, afterPoint: endOfPoint)
                        continue
                    }
                    let points = metric.points
                    for point in points.indices {
                        if !builder.direct(shared, points: points, at: point, after: pending.count, metric: direct.number(of: shared),
                                           into: &direct.rows) {
                            builder.build(points[point], metric: metric, kind: shared.kind, into: take)
                        }
                        try endOfPoint()
                    }
                }
                for item in payload.parsed.others {
                    switch item.array {
                    case HAEWorkouts.array: take(HAEWorkouts.candidate(item, builder: builder))
                    case HAEStateOfMind.array: take(HAEStateOfMind.candidate(item, builder: builder))
                    default: take(HAEOtherArrays.candidate(item, builder: builder))
                    }
                    try endOfPoint()
                }
                try flush()
                // A later payload's batches are planned with its own builder and facts.
                try settle()
            } catch {
                // The batch in flight came before what failed: its own failure is the one to report.
                _ = try writeAhead?.settle()
                throw error
            }
        }
        return receipt
    }

    /// Writes a batch with samples kept as ``HAEDirectPoints`` rows: straight to the store when it can be written
    /// unread (``JSONFileStore/writeHealthAutoExportDirectly(_:hashes:direct:run:)``), every sample added; else the
    /// rows' samples are built by `builder` in their places and the batch planned as any other.
    /// Returns whether the batch was written unread.
    private func write(_ candidates: [HAECandidate], direct: HAEDirectPoints, builder: HAESampleBuilder, fileStore: JSONFileStore,
                       run: HAEImportRun, payload: PayloadFacts, into receipt: inout ImportReceipt,
                       refuse: (String, Int, String) -> Void) throws -> Bool {
        let hashes = candidates.map { HAEImportRun.syncHash($0.syncIdentifier) }
        guard try fileStore.writeHealthAutoExportDirectly(candidates, hashes: hashes, direct: direct, run: run) else {
            try write(direct.candidates(merging: candidates, builder: builder, refuse: refuse), fileStore: fileStore, run: run,
                      payload: payload, into: &receipt)
            return false
        }
        count(candidates, direct: direct, into: &receipt)
        return true
    }

    /// Counts a batch written unread: every candidate and row added.
    private func count(_ candidates: [HAECandidate], direct: HAEDirectPoints, into receipt: inout ImportReceipt) {
        for candidate in candidates {
            if candidate.generic {
                receipt.counts[candidate.sample.typeIdentifier, default: ImportReceipt.Counts()].keptGenerically += 1
            } else {
                receipt.counts[candidate.sample.typeIdentifier, default: ImportReceipt.Counts()].added += 1
            }
        }
        // A metric's rows one after the other: its count is looked up once.
        var metric: Int32 = -1
        var added = 0
        for index in direct.rows.indices {
            if direct.rows[index].metric != metric {
                if metric >= 0 { receipt.counts[direct.metrics[Int(metric)].type.identifier, default: ImportReceipt.Counts()].added += added }
                metric = direct.rows[index].metric
                added = 0
            }
            added += 1
        }
        if metric >= 0 { receipt.counts[direct.metrics[Int(metric)].type.identifier, default: ImportReceipt.Counts()].added += added }
    }

    /// Writes one batch (the same point twice in it: the later sending meets the earlier one as a later batch would,
    /// and replaces it or leaves it unchanged: ``HAEWritePlan``) and counts what happened. `payload`: what the batch's
    /// payload holds in all its batches (its forms and its sleep).
    private func write(_ batch: [HAECandidate], fileStore: JSONFileStore?, run: HAEImportRun?,
                       payload: PayloadFacts, into receipt: inout ImportReceipt) throws {
        guard !batch.isEmpty else { return }
        let hashes = batch.map { HAEImportRun.syncHash($0.syncIdentifier) }
        let plan: HAEWritePlan
        if let fileStore {
            plan = try fileStore.storeHealthAutoExport(batch, dryRun: dryRun, run: run, hashes: hashes,
                                                       planned: dryRun ? dryRunHAEPlanned : nil, payloadForms: payload.forms,
                                                       payloadSleep: payload.sleep)
        } else if let memory = store as? InMemorySampleStore {
            let earlier = dryRun ? dryRunHAEPlanned : nil
            plan = memory.modify { stored in
                let planned = HAEWritePlan.plan(batch, stored: earlier?.applied(to: stored) ?? stored, payloadForms: payload.forms,
                                                payloadSleep: payload.sleep) {
                    catalogue.type(identifier: $0)?.aggregation?.isCumulative ?? false
                }
                earlier?.apply(planned)
                if !dryRun {
                    let gone = Set(planned.deletes.map(\.uuid))
                    stored.removeAll { gone.contains($0.uuid) }
                    stored += planned.writes
                }
                return planned
            }
        } else {
            let planned = HAEWritePlan.plan(batch, stored: [], payloadForms: payload.forms, payloadSleep: payload.sleep)
            if !dryRun { try store.saveImported(planned.writes) }
            plan = planned
        }
        // Counted type by type as the candidates come (a batch holds a few types, one after the other).
        var type: String?
        var counts = ImportReceipt.Counts()
        // By index: a candidate is not copied to be counted.
        for index in 0..<min(batch.count, plan.outcomes.count) {
            let outcome = plan.outcomes[index]
            if type != batch[index].sample.typeIdentifier {
                if let type { receipt.counts[type] = counts }
                type = batch[index].sample.typeIdentifier
                counts = receipt.counts[batch[index].sample.typeIdentifier] ?? ImportReceipt.Counts()
            }
            switch outcome {
            case .added: if batch[index].generic { counts.keptGenerically += 1 } else { counts.added += 1 }
            case .replaced: counts.replaced += 1
            case .unchanged, .covered: counts.alreadyPresent += 1
            }
            if outcome == .covered { counts.covered += 1 }
        }
        if let type { receipt.counts[type] = counts }
    }

    /// What the plan of each batch of a payload reads of the whole payload (``HealthAutoExportPayload/forms``,
    /// ``HAEPayloadSleep``).
    struct PayloadFacts {
        let forms: [String: Set<String>]
        let sleep: HAEPayloadSleep?
    }
}
