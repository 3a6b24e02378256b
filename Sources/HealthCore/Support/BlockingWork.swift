/// Runs file work (reads, `flock` waits, `fsync`) on threads of its own, never on Swift concurrency's cooperative
/// pool, whose few threads must not block: the `async` forms of the store's calls go through here.
///
/// Each piece of work gets a new thread rather than a Dispatch queue: Dispatch gives a queue about as many threads
/// as there are cores, so a few calls waiting for another process's lock (up to its timeout) would hold up every
/// other call behind them.
enum BlockingWork {
    /// Runs `work` on a thread of its own and returns its result to the awaiting task.
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            WorkerThread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    /// Runs `work`, which cannot fail, on a thread of its own and returns its result to the awaiting task.
    static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            WorkerThread { continuation.resume(returning: work()) }.start()
        }
    }

    /// Starts `work` on a thread of its own, for completion-handler APIs.
    static func start(_ work: @escaping @Sendable () -> Void) {
        WorkerThread(work).start()
    }
}
