import Foundation
@testable import HealthCore

/// Helpers for the long-running query tests: a thread-safe counter, waiting with a generous timeout, and a write by
/// a separate `hkctl` process.
enum LiveTestSupport {
    struct TimedOut: Error {}

    /// Runs `body`, throwing ``TimedOut`` (and cancelling it) if it takes longer than `seconds` of running time.
    ///
    /// Running time, not wall-clock time: every test shares Swift concurrency's cooperative pool (two threads on a
    /// two-core machine), and a synchronous test that waits long for a process (the crash injection, a server's
    /// timeouts) holds one of them. While the pool is held, neither the query under test nor this timer can run, so a
    /// wall-clock limit would expire without the query ever having had a chance. The timer wakes every 100 ms and
    /// counts at most ``starvedStep`` for one wake-up that came late. A query that never delivers still fails.
    static func withTimeout<T: Sendable>(_ seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                var clock = RunningClock()
                while clock.elapsed < seconds {
                    try await Task.sleep(for: .milliseconds(100))
                    clock.tick()
                }
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw TimedOut() }
            return value
        }
    }

    /// Waits until `condition` holds, looking every 20 ms, for at most `seconds` of running time (see
    /// ``withTimeout(_:_:)`` for why not wall-clock time); returns whether it held.
    static func eventually(_ seconds: Double = 120, _ condition: () -> Bool) async -> Bool {
        var clock = RunningClock()
        while clock.elapsed < seconds {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
            clock.tick()
        }
        return condition()
    }

    /// The most one late wake-up counts towards a limit: a longer gap means the task could not run at all.
    static let starvedStep = 0.5

    /// Time that counts towards a limit: the gaps between wake-ups, each capped at ``starvedStep``.
    struct RunningClock {
        private var last = Date()
        private(set) var elapsed = 0.0

        mutating func tick() {
            let now = Date()
            elapsed += min(now.timeIntervalSince(last), LiveTestSupport.starvedStep)
            last = now
        }
    }

    /// A count that several threads bump.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        private var errors: [Error] = []

        func bump(_ error: Error? = nil) {
            lock.lock()
            count += 1
            if let error { errors.append(error) }
            lock.unlock()
        }

        var value: Int {
            lock.lock()
            defer { lock.unlock() }
            return count
        }

        var errorCount: Int {
            lock.lock()
            defer { lock.unlock() }
            return errors.count
        }
    }

    static func steps(_ value: Double, at start: String, source: String = AuthorizationState.ownerSource) -> Sample {
        TestSupport.quantitySample(.steps, value, "count", start: start, source: source)
    }

    static func weight(_ value: Double, at start: String) -> Sample {
        TestSupport.quantitySample(.weight, value, "kg", start: start,
                                   source: AuthorizationState.ownerSource)
    }

    /// The built `hkctl`, when there is one (`$HKCTL_BINARY`, else this package's debug build).
    static var hkctl: String? {
        if let path = ProcessInfo.processInfo.environment["HKCTL_BINARY"] { return path }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let path = root.appendingPathComponent(".build/debug/hkctl").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    /// Runs `hkctl ARGS` on the store in `store`; returns its exit status.
    static func runHkctl(_ binary: String, _ arguments: [String], store: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin", "HKCTL_STORE": store, "TZ": "UTC",
                               "HKCTL_NOW": "2024-06-01T12:00:00Z", "HOME": NSTemporaryDirectory()]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
