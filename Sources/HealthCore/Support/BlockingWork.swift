import Dispatch

/// Runs file work (reads, `flock` waits, `fsync`) on threads of its own, never on Swift concurrency's cooperative
/// pool, whose few threads must not block: the `async` forms of the store's calls go through here.
enum BlockingWork {
    private static let queue = DispatchQueue(label: "HealthCore.blocking-work", attributes: .concurrent)

    /// Runs `work` on a blocking-work thread and returns its result to the awaiting task.
    static func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try work() }) }
        }
    }

    /// Runs `work`, which cannot fail, on a blocking-work thread and returns its result to the awaiting task.
    static func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: work()) }
        }
    }

    /// Starts `work` on a blocking-work thread, for completion-handler APIs.
    static func start(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }
}
