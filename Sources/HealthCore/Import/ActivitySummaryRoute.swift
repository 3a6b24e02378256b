/// How an import of an Apple Health export into a store that holds no activity summary yet writes its summaries:
/// with its other records, in its batches, rather than held for HealthKit's sync rule (``ImportSyncHold``) and saved
/// at its end, one file a month, after everything else (60 ms of a ten-year export's first import). With nothing
/// stored, the rule can only keep each day's first summary and compare a later one of the same day with it, so the
/// first of each day goes with the batches and any later one is held, to be saved by the rule once the first is
/// stored (``ActivitySummaryVersion``).
///
/// Another process may store summaries of the same days meanwhile (a second import of another export): then, at
/// the end, the summaries written this way are saved by the rule again (``settle(_:)``), which finds them stored
/// under their own uuids and leaves one summary a day, the one of the greatest version.
struct ActivitySummaryRoute {
    /// Whether the store held summaries when the first one came; nil before.
    private var storeHeldSummaries: Bool?
    /// The days (sync keys) written directly.
    private var days: Set<SyncReplacement.Key> = []
    /// The summaries written directly.
    var written: [Sample] = []

    /// Whether the summary marked `mark` goes with the import's batches to `store`: a summary, the store held none
    /// when the first came, and the first of its day in this import.
    mutating func writesDirectly(_ mark: SyncReplacement.Mark, store: SampleStore) throws -> Bool {
        guard mark.key.type == ActivitySummaryVersion.typeIdentifier else { return false }
        if storeHeldSummaries == nil {
            let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
            if let file = store as? JSONFileStore {
                storeHeldSummaries = try !file.partitions(ofType: ActivitySummaryVersion.typeIdentifier, overlapping: everything).isEmpty
            } else {
                var held = false
                try store.forEachSample(ofType: ActivitySummaryVersion.typeIdentifier, overlapping: everything) { _ in held = true }
                storeHeldSummaries = held
            }
        }
        guard storeHeldSummaries == false else { return false }
        return days.insert(mark.key).inserted
    }

    /// After the import's last batch: when another writer may have written to the store meanwhile (the batch writer's
    /// guard saw one; a store written without it cannot tell), saves the summaries written directly by the sync rule,
    /// which finds them stored and drops any other copy of their days but the greatest version.
    func settle(_ store: SampleStore, writer: ImportBatchWriter?) throws {
        guard !written.isEmpty else { return }
        if let writer, try !writer.guardian.otherWritersWrote() { return }
        _ = try store.saveSyncedRecords(written, dryRun: false)
    }
}
