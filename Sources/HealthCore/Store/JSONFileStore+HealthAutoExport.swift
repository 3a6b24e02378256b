import Foundation

extension JSONFileStore {
    /// Stores Health Auto Export samples by ``HAEWritePlan``: under the exclusive lock, reads the visible samples of
    /// their types around their times, plans, and writes the deletions and additions in one write (recorded as one
    /// operation; a ``OperationRecord/Kind/replace`` when it deletes, which `undo` takes back). With `dryRun`
    /// only plans.
    func storeHealthAutoExport(_ candidates: [HAECandidate], dryRun: Bool) throws -> HAEWritePlan {
        guard !candidates.isEmpty else { return HAEWritePlan() }
        var types = Set<String>()
        var earliest = Date.distantFuture, latest = Date.distantPast
        for candidate in candidates {
            for sample in [candidate.sample] + candidate.members {
                types.insert(sample.typeIdentifier)
                earliest = min(earliest, sample.start)
                latest = max(latest, sample.end)
            }
        }
        let interval = DateInterval(start: earliest, end: latest.addingTimeInterval(0.001))
        let plan = { () throws -> HAEWritePlan in
            var stored: [Sample] = []
            for type in types.sorted() {
                let deleted = try self.deletedUUIDs(ofType: type)
                for partition in try self.partitions(ofType: type, overlapping: interval) {
                    try self.readPartitionWithSequence(partition) { sample, sequence in
                        guard sample.end >= interval.start, sample.start <= interval.end,
                              !deleted.hides(sample, sequence: sequence) else { return }
                        stored.append(sample)
                    }
                }
            }
            return HAEWritePlan.plan(candidates, stored: stored)
        }
        if dryRun {
            guard try isExistingStore() else { return HAEWritePlan.plan(candidates, stored: []) }
            var result = HAEWritePlan()
            try withReadAccess { _ in result = try plan() }
            return result
        }
        return try withWriteAccess {
            let planned = try plan()
            guard !planned.writes.isEmpty || !planned.deletes.isEmpty else { return planned }
            for sample in planned.writes { try TextRules.check(sample) }
            _ = try writeChanges(deleting: planned.deletes, adding: planned.writes, now: clock(),
                                 record: planned.deletes.isEmpty ? recordMaker : replaceRecordMaker(replacing: planned.deletes.count))
            return planned
        }
    }
}
