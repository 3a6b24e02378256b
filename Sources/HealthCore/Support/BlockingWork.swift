/// Runs file work (reads, `flock` waits, `fsync`) on threads of its own, never on Swift concurrency's cooperative
/// pool, whose few threads must not block: the `async` forms of the store's calls go through here, and what they
/// throw is a ``HealthError`` (HealthKit's codes, the detailed error kept as its ``HealthError/underlyingError``).
///
/// Each piece of work gets a new thread rather than a Dispatch queue: Dispatch gives a queue about as many threads
/// as there are cores, so a few calls waiting for another process's lock (up to its timeout) would hold up every
/// other call behind them.
enum BlockingWork {
    /// Runs `work` on a thread of its own and returns its result to the awaiting task; an error it throws reaches
    /// the task as a ``HealthError``.
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            WorkerThread { continuation.resume(with: Result { try healthErrors(work) }) }.start()
        }
    }

    /// Runs `work`, turning what it throws into a ``HealthError`` (task cancellation stays a `CancellationError`).
    static func healthErrors<T>(_ work: () throws -> T) throws -> T {
        do {
            return try work()
        } catch let cancelled as CancellationError {
            throw cancelled
        } catch {
            throw HealthError(error)
        }
    }

    /// Runs `work`, which cannot fail, on a thread of its own and returns its result to the awaiting task.
    static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            WorkerThread { continuation.resume(returning: work()) }.start()
        }
    }

    /// Runs `work` on a thread of its own and reports to a HealthKit-style completion handler: `(true, nil)` when it
    /// succeeds, `(false, error)` with a ``HealthError`` when it throws.
    static func complete(_ completion: @escaping @Sendable (Bool, Error?) -> Void, _ work: @escaping @Sendable () throws -> Void) {
        start {
            do {
                try healthErrors(work)
                completion(true, nil)
            } catch {
                completion(false, error)
            }
        }
    }

    /// Starts `work` on a thread of its own, for completion-handler APIs.
    static func start(_ work: @escaping @Sendable () -> Void) {
        WorkerThread(work).start()
    }
}
