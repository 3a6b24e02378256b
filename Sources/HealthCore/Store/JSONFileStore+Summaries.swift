extension JSONFileStore {
    /// The partitions of `identifier` a read of `interval` with `plan` needs, in read order.
    func partitions(ofType identifier: String, overlapping interval: DateInterval, plan: ReadPlan) throws -> [String] {
        let all = try partitions(ofType: identifier, overlapping: interval)
        guard let only = plan.only else { return all }
        return try all.filter { only.contains(try storeFile($0)) }
    }

    /// The identity of the type's tombstone file (``FileIdentity/absent`` when there is none), nil when it cannot
    /// be told.
    func tombstoneIdentity(ofType identifier: String) throws -> FileIdentity? {
        FileIdentity.of(try storeFile(JSONFileStore.tombstonePath(identifier)))
    }

    /// Where a read with `plan` finds summaries (or stored readings), or nil when it takes none: the plan takes none, a batch was
    /// interrupted (its journal limits what readers see), or the tombstone file changed while its deletions were read
    /// (`before` is its identity from before).
    func summaryAccess(ofType identifier: String, tombstonesBefore before: FileIdentity?, plan: ReadPlan) throws
        -> SummaryAccess? {
        guard plan.accepts != nil || plan.takesReadings, let before, try tombstoneIdentity(ofType: identifier) == before
        else { return nil }
        var access = SummaryAccess(store: path, tombstones: before, accepts: plan.accepts ?? { _ in false })
        access.needsSequences = plan.needsSequences
        access.takesReadings = plan.takesReadings
        access.keepsReadings = plan.keepsReadings
        return access
    }
}
