import Foundation
import Testing
import TestKit
@testable import HealthCore

/// The change monitor wakes on writes from another `HealthStore`, also for a store folder created after it started,
/// with inotify and with the polling fallback, and is quiet after stop().
struct StoreChangeMonitorTests {
    @Test(arguments: [false, true])
    func wakesOnAWriteToAStoreCreatedLater(polling: Bool) async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            // Two levels that do not exist yet: the monitor waits for both.
            let path = folder + "/deeper/store"
            let wakes = LiveTestSupport.Counter()
            let monitor = StoreChangeMonitor(directory: path, polling: polling) { wakes.bump() }
            #if os(Linux)
            expectEqual(monitor.usesNotifications, !polling)
            #endif
            defer { monitor.stop() }
            try HealthStore(directory: path).save([LiveTestSupport.steps(100, at: "2024-05-01T08:00:00Z")])
            #expect(await LiveTestSupport.eventually { wakes.value > 0 })
            let before = wakes.value
            try HealthStore(directory: path).save([LiveTestSupport.steps(200, at: "2024-05-01T09:00:00Z")])
            #expect(await LiveTestSupport.eventually { wakes.value > before })
        }
    }

    @Test func quietAfterStop() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let path = folder + "/store"
            let wakes = LiveTestSupport.Counter()
            let monitor = StoreChangeMonitor(directory: path) { wakes.bump() }
            monitor.stop()
            monitor.stop()
            try HealthStore(directory: path).save([LiveTestSupport.steps(100, at: "2024-05-01T08:00:00Z")])
            try await Task.sleep(for: .milliseconds(300))
            expectEqual(wakes.value, 0)
        }
    }
}
