/// Saves an import's encoded batches on a thread of its own, so the next batch is read and encoded while the
/// previous one is written and synced.
///
/// At most one batch is being saved at a time, in the order submitted, so the store gets the same files, lines and
/// change numbers as saving each batch in turn. A failed save is reported by the next ``submit(_:)`` or
/// ``waitUntilIdle()``, and no later batch is saved after it: the store is left as a synchronous import that
/// stopped at that batch leaves it.
final class ImportBatchWriter: @unchecked Sendable {
    private let store: JSONFileStore
    /// Where saved batches' buffers go back, for the next batches.
    let pool = ByteBufferPool()
    /// Where a batch's finished lines are assembled; reused.
    private let scratch = ByteBuffer(capacity: 1 << 20)
    private let condition = Condition()
    private var pending: EncodedSampleBatch?
    private var busy = false
    private var stopped = false
    private var failure: Error?
    private var thread: WorkerThread?
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
        if thread == nil { start() }
        condition.lock()
        defer { condition.unlock() }
        while (busy || pending != nil) && failure == nil { condition.wait() }
        if let failure { throw failure }
        pending = batch
        busy = true
        condition.broadcast()
    }

    /// Waits until every submitted batch is saved (so the store can be read or written by this thread).
    ///
    /// - Throws: The error of a batch's save.
    func waitUntilIdle() throws {
        condition.lock()
        defer { condition.unlock() }
        while busy && failure == nil { condition.wait() }
        if let failure { throw failure }
    }

    /// Ends the thread once it is idle; call it when done, or the thread (and this writer) stay alive.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func start() {
        let thread = WorkerThread { [self] in run() }
        thread.stackSize = 8 << 20
        self.thread = thread
        thread.start()
    }

    private func run() {
        while true {
            condition.lock()
            while pending == nil && !stopped { condition.wait() }
            guard let batch = pending else {
                condition.unlock()
                return
            }
            condition.unlock()
            var error: Error?
            do {
                try store.save(batch, scratch: scratch, beforeWrite: { try self.guardian.check(&$0) },
                               afterWrite: { self.guardian.saved(through: $0) })
            } catch let failed { error = failed }
            batch.recycle(into: pool)
            condition.lock()
            pending = nil
            busy = false
            if let error { failure = error }
            condition.broadcast()
            condition.unlock()
        }
    }
}
