/// Writes an import's Health Auto Export batches that can be written unread on a thread of its own, so that the next
/// batch is built and its lines made while one is checked, written and synced.
///
/// One batch at a time is in flight, and the importer settles it (``settle()``) before it does anything else with the
/// store: before the next batch is written, planned, or the import ends. Each batch is checked under the store's
/// exclusive lock as ``JSONFileStore/writeHealthAutoExportDirectly(_:hashes:direct:run:)`` checks it and written with
/// the same lines, in the same order, so the store gets what writing the batches in turn gives it; a batch that must
/// be planned after all comes back from ``settle()`` unwritten, and the importer plans it before the next is handed
/// over. A batch's lines are made ahead only while batches are written unread (``ahead``): one that is not wastes
/// the lines made for it, and a push or a folder read again, whose batches meet what is stored, makes none ahead.
final class HAEWriteAhead {
    private let thread = OneAtATimeThread()
    private let store: JSONFileStore
    private let run: HAEImportRun
    /// The batch handed to the thread and not yet settled, and what its write gave (read after the thread is done).
    private var inFlight: JSONFileStore.PreparedHAEBatch?
    private var outcome: Result<Bool, Error> = .success(false)
    /// Whether the last batch settled (or written in turn) was written unread: the next one's lines are then made
    /// ahead.
    var ahead = false

    init(store: JSONFileStore, run: HAEImportRun) {
        self.store = store
        self.run = run
    }

    /// Hands `batch` to the thread. Call ``settle()`` first: one batch is in flight at a time.
    func write(_ batch: JSONFileStore.PreparedHAEBatch) {
        precondition(inFlight == nil, "HAEWriteAhead: a batch is in flight; settle it first")
        inFlight = batch
        let (store, run) = (self.store, self.run)
        thread.hand { [self] in
            outcome = Result { try store.writePrepared(batch, run: run) }
        }
    }

    /// Waits for the batch in flight and returns it with whether it was written (false: nothing of it was, and the
    /// caller must plan it); nil when none is in flight.
    ///
    /// - Throws: The batch's write error (nothing of it was written, as ``JSONFileStore/writeEncoded(_:scratch:recovery:)``
    ///   promises).
    func settle() throws -> (batch: JSONFileStore.PreparedHAEBatch, written: Bool)? {
        guard let batch = inFlight else { return nil }
        thread.wait()
        inFlight = nil
        let written = try outcome.get()
        ahead = written
        if written { run.writtenAhead += 1 } else { run.declinedAhead += 1 }
        return (batch, written)
    }

    /// Ends the thread once its batch is done; call it when the import ends, also when it fails.
    func stop() {
        thread.wait()
        thread.stop()
    }
}
