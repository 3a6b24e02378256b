extension JSONFileStore {
    /// The member uuids of the correlations among `uuids` (not deleted), so that deleting a correlation deletes
    /// its members in the same batch. Call with a lock held.
    func correlationMembers(of uuids: Set<UUID>) throws -> [UUID] {
        var members: [UUID] = []
        try forEachStoredCorrelation { correlation in
            if uuids.contains(correlation.uuid) { members += correlation.detail?.correlation?.members.map(\.uuid) ?? [] }
        }
        return members
    }

    /// The stored, not deleted correlations that name one of `uuids` as a member; none when `uuids` is empty or the
    /// store holds no correlations. Call with a lock held.
    func correlations(holding uuids: some Collection<UUID>) throws -> [Sample] {
        guard !uuids.isEmpty else { return [] }
        let wanted = Set(uuids)
        var found: [Sample] = []
        try forEachStoredCorrelation { correlation in
            if correlation.detail?.correlation?.members.contains(where: { wanted.contains($0.uuid) }) == true { found.append(correlation) }
        }
        return found
    }

    /// Adds to `plan` the stored correlations that hold a sample it replaces, each replaced by a copy naming the
    /// sample replacing it (``SyncReplacement/Plan/repoint(holders:)``). Call with a lock held.
    func repointCorrelations(_ plan: inout SyncReplacement.Plan) throws {
        guard !plan.successors.isEmpty else { return }
        plan.repoint(holders: try correlations(holding: plan.successors.keys))
    }

    /// Calls `body` with every stored, not deleted correlation of either type. Call with a lock held.
    private func forEachStoredCorrelation(_ body: (Sample) throws -> Void) throws {
        let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
        let onDisk = Set(try typeIdentifiersOnDisk())
        for type in CorrelationType.all where onDisk.contains(type.identifier) {
            let deleted = try deletedUUIDs(ofType: type.identifier)
            for partition in try partitions(ofType: type.identifier, overlapping: everything) {
                try readPartitionWithSequence(partition) { sample, sequence in
                    if !deleted.hides(sample, sequence: sequence) { try body(sample) }
                }
            }
        }
    }
}
