extension JSONFileStore {
    /// The member uuids of the correlations among `uuids` (not deleted), so that deleting a correlation deletes
    /// its members in the same batch. Call with a lock held.
    func correlationMembers(of uuids: Set<UUID>) throws -> [UUID] {
        var members: [UUID] = []
        let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
        let onDisk = Set(try typeIdentifiersOnDisk())
        for type in CorrelationType.all where onDisk.contains(type.identifier) {
            let deleted = try deletedUUIDs(ofType: type.identifier)
            for partition in try partitions(ofType: type.identifier, overlapping: everything) {
                try readPartitionWithSequence(partition) { sample, sequence in
                    guard uuids.contains(sample.uuid), !deleted.hides(sample, sequence: sequence) else { return }
                    members += sample.detail?.correlation?.members.map(\.uuid) ?? []
                }
            }
        }
        return members
    }
}
