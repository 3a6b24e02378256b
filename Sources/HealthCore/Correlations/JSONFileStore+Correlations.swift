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
    /// that replaces a sample no correlation holds costs a listing of the store's types (with more than
    /// ``holderNeedleLimit`` samples, every partition of those types is decoded). Call with a lock held.
    /// The same for the stored workouts associated with one of them (HealthKit's `add(_:to:)`), which may be of any type
    /// but a workout's.
    func correlations(holding samples: [(uuid: UUID, type: String)], limits: [String: Int] = [:]) throws -> [Sample] {
        guard !samples.isEmpty else { return [] }
        let types = JSONFileStore.holderTypes(of: Set(samples.map(\.type)))
        let wanted = Set(samples.map(\.uuid))
        // Each needle is a search of the partition's bytes: past a few dozen (an undo restoring a year of heart rate),
        // decoding the partitions and looking each member up in the set costs less.
        let needles = wanted.count <= JSONFileStore.holderNeedleLimit ? wanted.map { Array($0.lowercasedText.utf8) } : nil
        var found: [Sample] = []
        try forEachStoredSample(of: types, naming: needles, limits: limits) { holder in
            if holder.detail?.correlation?.members.contains(where: { wanted.contains($0.uuid) }) == true
                || holder.detail?.workout?.associatedUUIDs.contains(where: wanted.contains) == true { found.append(holder) }
        }
        return found
    }

    /// The repointings (``CorrelationRepointing``) of the stored correlations and workouts that name one of `samples`,
    /// a key of `successors` (the sample → the sample standing for it now) of the holder's own source (`sources`),
    /// leaving out those in `leaving` (rewritten otherwise), and then of the workouts that name one of those
    /// correlations, whose copy has a new uuid (a workout associated with a food entry whose energy is replaced).
    /// `copyUUID`: the uuid of a correlation's copy, from the correlation's (nil: ``CorrelationRepointing``'s own).
    /// Call with a lock held.
    func holderRepointings(of samples: [(uuid: UUID, type: String)], successors: [UUID: UUID], sources: [UUID: String],
                           leaving: Set<UUID>, limits: [String: Int] = [:],
                           copyUUID: ((UUID) -> UUID)? = nil) throws -> [CorrelationRepointing] {
        guard !successors.isEmpty else { return [] }
        let repointings = CorrelationRepointing.repointings(of: try correlations(holding: samples, limits: limits).filter { !leaving.contains($0.uuid) },
                                                            successors: successors, sources: sources).map { repointing in
            var repointing = repointing
            if let copyUUID, repointing.copy.uuid != repointing.old.uuid { repointing.copy.uuid = copyUUID(repointing.old.uuid) }
            return repointing
        }
        return try following(repointings, leaving: leaving, limits: limits)
    }

    /// Every uuid the stored samples of `types` (correlations, workouts) name: their members and associations, as far
    /// as `limits` reach. Call with a lock held.
    func uuidsNamed(byHoldersOf types: [String], limits: [String: Int] = [:]) throws -> Set<UUID> {
        var named = Set<UUID>()
        try forEachStoredSample(of: types, limits: limits) { holder in
            if let members = holder.detail?.correlation?.members { named.formUnion(members.map(\.uuid)) }
            if let associated = holder.detail?.workout?.associatedUUIDs { named.formUnion(associated) }
        }
        return named
    }

    /// `repointings` followed by the stored workouts (not in `leaving`) that name a correlation one of them rewrites as
    /// a copy (``CorrelationRepointing/following(_:workouts:)``). Call with a lock held.
    func following(_ repointings: [CorrelationRepointing], leaving: Set<UUID>,
                   limits: [String: Int] = [:]) throws -> [CorrelationRepointing] {
        let moved = repointings.filter { $0.copy.uuid != $0.old.uuid }.map { (uuid: $0.old.uuid, type: $0.old.type) }
        guard !moved.isEmpty else { return repointings }
        return CorrelationRepointing.following(repointings, workouts: try correlations(holding: moved, limits: limits)
            .filter { !leaving.contains($0.uuid) })
    }

    /// The correlation types that may hold a sample of one of `types`, and the workout type unless all are workouts:
    /// the types whose samples can name one of them.
    static func holderTypes(of types: Set<String>) -> [String] {
        CorrelationType.all.filter { type in types.contains { type.allows(member: $0) } }.map(\.identifier)
            + (types.contains { $0 != Workout.typeIdentifier } ? [Workout.typeIdentifier] : [])
    }

    /// How many uuids ``correlations(holding:)`` looks for in a partition's bytes before it decodes the partition.
    static let holderNeedleLimit = 64

    /// Adds to `plan` the stored correlations that hold a sample it replaces, each replaced by a copy naming the
    /// sample replacing it (``SyncReplacement/Plan/repoint(holders:)``). Call with a lock held.
    func repointCorrelations(_ plan: inout SyncReplacement.Plan) throws {
        guard !plan.successors.isEmpty else { return }
        let replaced = plan.replaced.filter { plan.successors[$0.uuid] != nil }.map { (uuid: $0.uuid, type: $0.type) }
        try plan.repoint(holders: try correlations(holding: replaced)) { try correlations(holding: $0) }
    }

    /// Calls `body` with every stored, not deleted sample of `types` (correlations, workouts, members); with `needles`, only those
    /// in partitions whose bytes hold one of them; with `limits`, a file as far as its limit only (what readers see while
    /// a batch waits in the journal). Call with a lock held.
    func forEachStoredSample(of types: [String], naming needles: [[UInt8]]? = nil, limits: [String: Int] = [:],
                             _ body: (Sample) throws -> Void) throws {
        let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
        let onDisk = Set(try typeIdentifiersOnDisk())
        for type in types where onDisk.contains(type) {
            let deleted = try deletedUUIDs(ofType: type, limits: limits)
            for partition in try partitions(ofType: type, overlapping: everything) {
                if let needles {
                    guard let bytes = try POSIXFile.readFile(try storeFile(partition)),
                          needles.contains(where: { JSONFileStore.contains(bytes, $0) }) else { continue }
                }
                try readPartitionWithSequence(partition, limit: limits[partition]) { sample, sequence in
                    if !deleted.hides(sample, sequence: sequence) { try body(sample) }
                }
            }
        }
    }
}
