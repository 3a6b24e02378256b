/// Saves an import's encoded batches on a thread of its own, so the next batch is read and encoded while the
/// previous one is written and synced.
///
/// At most one batch is being saved at a time, in the order submitted, so the store gets the same files, lines and
/// change numbers as saving each batch in turn. A failed save is reported by the next ``submit(_:)`` or
/// ``waitUntilIdle()``, and no later batch is saved after it: the store is left as a synchronous import that
/// stopped at that batch leaves it.
final class ImportBatchWriter: @unchecked Sendable {
    private let store: JSONFileStore
    /// Where saved batches' buffers go back, for the next batches (one a batch: a batch of 20,000 records holds
    /// about 8 MB of lines, of long workouts several times that).
    let pool = ByteBufferPool(limit: 64 << 20, firstCapacity: 16 << 20)
    /// Where a batch's finished lines are assembled; reused.
    private let scratch = ByteBuffer(capacity: 16 << 20)
    private let thread = OneAtATimeThread()
    /// The first save that failed (set by the thread; read once it is idle).
    private var failure: Error?
    /// Drops what other writers stored meanwhile from each batch, under the lock the batch is appended under.
    let guardian: ConcurrentWriteGuard

    /// Creates a writer to `store`; its thread starts with the first batch.
    ///
    /// - Throws: Store errors from reading the store's change counter.
    init(store: JSONFileStore, catalogue: SampleTypeCatalogue) throws {
        self.store = store
        guardian = try ConcurrentWriteGuard(store: store, catalogue: catalogue)
    }

    /// Queues `batch` for saving once the batch before it is saved.
    ///
    /// - Throws: The error of an earlier batch's save; `batch` is then dropped.
    func submit(_ batch: EncodedSampleBatch) throws {
        thread.wait()
        if let failure { throw failure }
        thread.hand { [self] in
            do {
                try store.save(batch, scratch: scratch, beforeWrite: { try self.guardian.check(&$0) },
                               afterWrite: { self.guardian.saved(through: $0) })
            } catch {
                failure = error
            }
            batch.recycle(into: pool)
        }
    }

    /// Waits until every submitted batch is saved (so the store can be read or written by this thread).
    ///
    /// - Throws: The error of a batch's save.
    func waitUntilIdle() throws {
        thread.wait()
        if let failure { throw failure }
    }

    /// Ends the thread once it is idle; call it when done, or the thread (and this writer) stay alive.
    func stop() {
        thread.stop()
    }
}
