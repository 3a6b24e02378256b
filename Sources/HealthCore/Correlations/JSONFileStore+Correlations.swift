import TextSupport

extension JSONFileStore {
    /// The member uuids of the correlations among `uuids` (not deleted), so that deleting a correlation deletes
    /// its members in the same batch. Call with a lock held.
    func correlationMembers(of uuids: Set<UUID>) throws -> [UUID] {
        var members: [UUID] = []
        try forEachStoredSample(of: CorrelationType.all.map(\.identifier)) { correlation in
            if uuids.contains(correlation.uuid) { members += correlation.detail?.correlation?.members.map(\.uuid) ?? [] }
        }
        return members
    }

    /// The stored, not deleted correlations that name one of `samples` as a member: only correlation types that may
    /// hold one of their types are read, and only the partitions whose bytes name one of them are decoded, so a save
    /// that replaces a sample no correlation holds costs a listing of the store's types. Call with a lock held.
    /// The same for the stored workouts associated with one of them (HealthKit's `add(_:to:)`), which may be of any type
    /// but a workout's.
    func correlations(holding samples: [(uuid: UUID, type: String)]) throws -> [Sample] {
        let types = CorrelationType.all.filter { type in samples.contains { type.allows(member: $0.type) } }.map(\.identifier)
            + (samples.contains { $0.type != Workout.typeIdentifier } ? [Workout.typeIdentifier] : [])
        guard !samples.isEmpty else { return [] }
        let wanted = Set(samples.map(\.uuid))
        let needles = wanted.map { Array($0.lowercasedText.utf8) }
        var found: [Sample] = []
        try forEachStoredSample(of: types, naming: needles) { holder in
            if holder.detail?.correlation?.members.contains(where: { wanted.contains($0.uuid) }) == true
                || holder.detail?.workout?.associatedUUIDs.contains(where: wanted.contains) == true { found.append(holder) }
        }
        return found
    }

    /// Adds to `plan` the stored correlations that hold a sample it replaces, each replaced by a copy naming the
    /// sample replacing it (``SyncReplacement/Plan/repoint(holders:)``). Call with a lock held.
    func repointCorrelations(_ plan: inout SyncReplacement.Plan) throws {
        guard !plan.successors.isEmpty else { return }
        let replaced = plan.replaced.filter { plan.successors[$0.uuid] != nil }.map { (uuid: $0.uuid, type: $0.type) }
        plan.repoint(holders: try correlations(holding: replaced))
    }

    /// Calls `body` with every stored, not deleted sample of `types` (correlations, workouts, members); with `needles`, only those
    /// in partitions whose bytes hold one of them. Call with a lock held.
    func forEachStoredSample(of types: [String], naming needles: [[UInt8]]? = nil,
                                     _ body: (Sample) throws -> Void) throws {
        let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
        let onDisk = Set(try typeIdentifiersOnDisk())
        for type in types where onDisk.contains(type) {
            let deleted = try deletedUUIDs(ofType: type)
            for partition in try partitions(ofType: type, overlapping: everything) {
                if let needles {
                    guard let bytes = try POSIXFile.readFile(try storeFile(partition)),
                          needles.contains(where: { JSONFileStore.contains(bytes, $0) }) else { continue }
                }
                try readPartitionWithSequence(partition) { sample, sequence in
                    if !deleted.hides(sample, sequence: sequence) { try body(sample) }
                }
            }
        }
    }
}
