import Foundation

/// Waits for a blocking call (a client that waits out a server's timeouts, another process) on a thread of its own,
/// so that it holds none of the few threads Swift Testing runs tests on (as many as the machine has cores): the
/// suite's other tests use the processor meanwhile instead of queueing behind it. Only the waiting goes there:
/// `#expect` belongs in the test's own task, where its issues are attributed to the test.
enum OwnThread {
    static func value<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, Error>) in
            Thread {
                do {
                    continuation.resume(returning: try body())
                } catch {
                    continuation.resume(throwing: error)
                }
            }.start()
        }
    }
}
