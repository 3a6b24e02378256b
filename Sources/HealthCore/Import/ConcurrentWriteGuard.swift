/// Keeps an import from storing a record twice while other processes write the same store.
///
/// The import decides which records are new from what it read of the store (``IdentityIndex``), without holding the
/// lock between batches. Another writer, typically a second import of the same export, may store the same records
/// meanwhile. So each batch is checked again under the exclusive lock it is appended under
/// (``check(_:)``): every change number the store handed out since this import began, and that this import did not
/// use, belongs to another writer, and the batch's lines whose uuid or identity another writer stored under such
/// a number are dropped. Without other writers the check costs one read of the counter per batch.
final class ConcurrentWriteGuard {
    private let store: JSONFileStore
    private var identity: RecordIdentity
    /// The counter when this import last looked: at its start, then after each of its own batches.
    private var seen: UInt64
    /// The change numbers other writers used since this import began.
    private var foreign: [ClosedRange<UInt64>] = []
    /// Lines dropped because another writer stored them first, per type.
    private(set) var dropped: [String: Int] = [:]

    /// Starts watching `store` from its current change number.
    ///
    /// - Throws: Store errors from reading the counter.
    init(store: JSONFileStore, catalogue: SampleTypeCatalogue) throws {
        self.store = store
        identity = RecordIdentity(catalogue: catalogue)
        seen = try store.currentAnchor().sequence
    }

    /// Drops from `batch` what other writers stored since this import last looked. Call under the exclusive lock.
    func check(_ batch: inout EncodedSampleBatch) throws {
        // Not the end of another boot's block, below which that boot's writers go on numbering
        // (``JSONFileStore/anchorSequence()``).
        let counter = try store.anchorSequence()
        if counter > seen { foreign.append(seen + 1...counter) }
        seen = counter
        guard let lowest = foreign.first?.lowerBound else { return }
        var stored = UUIDSet()
        for partition in batch.partitions {
            if let last = try store.lastSequence(in: partition.path), last < lowest { continue }
            try store.readPartitionWithSequence(partition.path) { sample, sequence in
                guard foreign.contains(where: { $0.contains(sequence) }) else { return }
                stored.insert(sample.uuid)
                stored.insert(identity.uuid(for: sample))
            }
        }
        guard stored.count > 0 else { return }
        for (type, count) in batch.removeLines(where: { _, key in stored.contains(key.uuid) || stored.contains(key.identity) }) {
            dropped[type, default: 0] += count
        }
    }

    /// Records the last change number this import's batch used.
    func saved(through last: UInt64) {
        seen = last
    }
}
