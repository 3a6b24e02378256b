#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Wakes when the store in a folder changes, whichever process wrote: what long-running queries and observers
/// (``AnchoredObjectQueryDescriptor/results(for:)``, ``ObserverQuery``, ``AnchoredObjectQuery`` and
/// ``StatisticsCollectionQuery`` with an update handler) wait on.
///
/// Every write to a store (a save, a deletion, an import) takes new change numbers, so it rewrites the store's
/// `sequence` counter before its lines and records the last number in the `.lock` file when it is done. The monitor
/// watches those two files: on Linux with inotify (a thread blocked in `poll(2)` on the inotify descriptor, no
/// timer), elsewhere by looking at them twice a second. A folder that does not exist yet is waited for.
///
/// A wake-up means "something may have changed": a write wakes it more than once, and a caller asks the store what
/// changed (``HealthStore/changes(since:types:limit:)``), which waits for the writer's lock. `onChange` runs on the
/// monitor's own thread, never on Swift concurrency's pool, one call at a time. ``stop()`` (or releasing the monitor)
/// ends the thread within a few milliseconds.
public final class StoreChangeMonitor: Sendable {
    private let watcher: ChangeWatcher

    /// Starts watching the store in `directory`.
    ///
    /// - Parameters:
    ///   - directory: The store folder; it need not exist yet.
    ///   - polling: Look at the files every half second even where inotify is available (as on macOS).
    ///   - onChange: Called on the monitor's thread after the store may have changed.
    public init(directory: String, polling: Bool = false, onChange: @escaping @Sendable () -> Void) {
        watcher = ChangeWatcher(directory: directory, polling: polling, onChange: onChange)
    }

    /// Starts watching the folder of `store`.
    public convenience init(store: HealthStore, onChange: @escaping @Sendable () -> Void) {
        self.init(directory: store.storage.path, onChange: onChange)
    }

    /// Whether the monitor is told of changes by the system (inotify) rather than looking for them.
    public var usesNotifications: Bool { watcher.usesNotifications }

    /// Stops watching: `onChange` is not called after the current call, if any, returns. Calling it again does nothing.
    public func stop() { watcher.stop() }

    deinit { watcher.stop() }

    /// A sequence that yields once after each change to the store in `directory` (several changes in a row may
    /// yield once), until the consuming task is cancelled or stops iterating. The folder is watched from the moment
    /// this returns, so a change made after it is never missed.
    public static func changes(in directory: String) async -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        // inotify_add_watch and stat are file-system calls: off the cooperative pool.
        let monitor = await BlockingWork.run { StoreChangeMonitor(directory: directory) { continuation.yield() } }
        continuation.onTermination = { _ in monitor.stop() }
        return stream
    }
}
