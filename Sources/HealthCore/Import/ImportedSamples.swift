/// What an import has accepted, kept so ``IdentityIndex`` can tell what reading a partition back from the store would
/// give without reading it (and so without waiting for the batch being written).
///
/// That is possible for a type that had no files in the store when the import first met it: its files then hold
/// only this import's samples. Reading the month `M` of such a type gives the samples of the batches already handed
/// over that overlap `M`: from month `M` itself (none, the first time `M` is read), from month `M - 1` (those that run
/// into `M`) and from `long.jsonl`. Those are the ones remembered here. Any other case says nil and the index reads
/// the store as before.
final class ImportedSamples {
    private struct Entry {
        var uuid: UUID
        var identity: UUID
        var batch: Int
    }

    private struct Key: Hashable {
        var type: String
        var month: Int
    }

    private let store: JSONFileStore
    /// Types that had no files when first met (true) or had some (false).
    private var newTypes: [String: Bool] = [:]
    /// Month-file samples that overlap the month after their own, by type and their own month.
    private var crossing: [Key: [Entry]] = [:]
    /// Samples longer than two days (`long.jsonl`), by type.
    private var long: [String: [(start: Date, end: Date, entry: Entry)]] = [:]
    /// The type of the last sample accepted and whether it is new (a lookup saved for runs of one type).
    private var lastType: (type: String, isNew: Bool)?
    /// Months already answered or read: a second read (after the index dropped it) goes to the store.
    private var answered: Set<Key> = []
    /// The number of the batch being filled; lower numbers are handed over.
    private var batch = 0

    init(store: JSONFileStore) {
        self.store = store
    }

    /// Remembers an accepted sample.
    func accepted(type: String, start: Date, end: Date, uuid: UUID, identity: UUID) {
        if let last = lastType, last.type == type {
            guard last.isNew else { return }
        } else {
            guard let isNew = newTypes[type] else { return }
            lastType = (type, isNew)
            guard isNew else { return }
        }
        let entry = Entry(uuid: uuid, identity: identity, batch: batch)
        if end.timeIntervalSince(start) > JSONFileStore.longSampleThreshold {
            long[type, default: []].append((start, end, entry))
            return
        }
        let month = IdentityIndex.month(of: start)
        let next = ImportedSamples.interval(month + 1)
        if start == end ? start >= next.start && start < next.end : end >= next.start && start < next.end {
            crossing[Key(type: type, month: month), default: []].append(entry)
        }
    }

    /// Marks the end of a batch: what was accepted so far counts as saved.
    func batchHandedOver() {
        batch += 1
    }

    /// The samples (uuid and identity) reading month `month` of `type` from the store would give, or nil when the
    /// store must be read.
    ///
    /// - Throws: The store's error when its folder cannot be listed.
    func samples(type: String, month: Int) throws -> [(uuid: UUID, identity: UUID)]? {
        let key = Key(type: type, month: month)
        guard answered.insert(key).inserted else { return nil }
        if newTypes[type] == nil {
            // The same check (and errors) as a read of the store, then the type's folder.
            newTypes[type] = try !store.isExistingStore() || store.folderEntries(JSONFileStore.typeFolder(type)).isEmpty
        }
        guard newTypes[type] == true else { return nil }
        var samples: [(uuid: UUID, identity: UUID)] = []
        for entry in crossing[Key(type: type, month: month - 1)] ?? [] where entry.batch < batch {
            samples.append((entry.uuid, entry.identity))
        }
        let interval = ImportedSamples.interval(month)
        for span in long[type] ?? [] where span.entry.batch < batch {
            let sample = (start: span.start, end: span.end)
            let overlaps = sample.start == sample.end
                ? sample.start >= interval.start && sample.start < interval.end
                : sample.end >= interval.start && sample.start < interval.end
            if overlaps { samples.append((span.entry.uuid, span.entry.identity)) }
        }
        return samples
    }

    private static func interval(_ month: Int) -> DateInterval {
        DateInterval(start: IdentityIndex.startOfMonth(month), end: IdentityIndex.startOfMonth(month + 1))
    }
}
