#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthCore

/// Set by SIGINT/SIGTERM; the watch loop checks it after each wake-up.
nonisolated(unsafe) private var stopRequested: sig_atomic_t = 0
/// The write end of the pipe the watch loop waits on: the store's change monitor and the signal handlers write a byte.
nonisolated(unsafe) private var wakeDescriptor: Int32 = -1

/// Wakes the watch loop; safe in a signal handler (`write` is async-signal-safe) and on the monitor's thread.
private func wakeWatch() {
    var byte: UInt8 = 1
    _ = write(wakeDescriptor, &byte, 1)
}

/// `hkctl watch`: prints new samples and deletions as they happen, from any process, like `tail -f`.
enum WatchCommand: Command {
    static let name = "watch"
    static let showsSampleTimes = true
    static let abstract = "Print samples and deletions as other processes write them, until interrupted."
    static let usage = "watch [--type <type> ...] [--interval <ms>] [--format jsonl]"
    static let arguments: [(label: String, help: String)] = []
    static let options: [OptionSpec] = [
        OptionSpec(name: "type", valueName: "type", repeatable: true, help: "Only this type (repeatable; default: all)."),
        OptionSpec(name: "interval", valueName: "ms", help: "How often to look for changes where the store cannot be watched for them, as on macOS (default: 200)."),
    ]
    static let formats = ["jsonl"]
    static let discussion = """
        Prints one JSON object per line, as 'hkctl changes --format jsonl' does, starting from now.
        Stops cleanly (exit 0) on Ctrl-C or SIGTERM, or when the reader of its output goes away.
        Exits 66 when the store disappears while it watches (its folder moved, removed or emptied).
        """

    /// Whether standard output is a pipe whose reader has closed it.
    private static func outputReaderGone() -> Bool {
        var descriptor = pollfd(fd: 1, events: Int16(POLLOUT), revents: 0)
        guard poll(&descriptor, 1, 0) > 0 else { return false }
        return descriptor.revents & Int16(POLLERR | POLLHUP) != 0
    }

    /// Sleeps until the pipe `fd` has a byte (a change or a signal), standard output's reader goes away, or
    /// `timeout` milliseconds pass (-1: no limit); empties the pipe.
    private static func waitForWake(_ fd: Int32, timeout: Int32) {
        var descriptors = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
        // Standard output is watched for its reader closing (POLLERR/POLLHUP), when it is open at all.
        if fcntl(1, F_GETFD) != -1 { descriptors.append(pollfd(fd: 1, events: 0, revents: 0)) }
        _ = poll(&descriptors, nfds_t(descriptors.count), timeout)
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(fd, &buffer, buffer.count) > 0 {}
    }

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        if let extra = arguments.positionals.first {
            throw UsageError(message: "Unexpected argument '\(extra)'", command: name)
        }
        let types = try arguments.values["type"].map { try $0.map { try context.type($0).identifier } }
        var interval = 200
        if let text = arguments.value("interval") {
            guard let value = Int(text), (10...60_000).contains(value) else {
                throw UsageError(message: "The value '\(text)' is invalid for '--interval <ms>'; use 10 to 60000", command: name)
            }
            interval = value
        }
        // A pipe the loop waits on, written by the store's change monitor and by the signal handlers; both ends are
        // non-blocking, so a full pipe (a wake-up already pending) never blocks a writer. It stays open until exit:
        // the monitor's thread may still be writing when the loop returns.
        var wake: [Int32] = [-1, -1]
        guard pipe(&wake) == 0 else { throw StoreError.readFailed(context.globals.storePath, reason: "no pipe for watching") }
        for fd in wake { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        wakeDescriptor = wake[1]
        signal(SIGINT) { _ in
            stopRequested = 1
            wakeWatch()
        }
        signal(SIGTERM) { _ in
            stopRequested = 1
            wakeWatch()
        }
        signal(SIGPIPE, SIG_IGN)
        // A parent may have started us with these signals blocked; watch must still hear them.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &signals, nil)
        // Watching starts before the anchor is read, so a change in between is never missed.
        let monitor = StoreChangeMonitor(directory: context.store().path) { wakeWatch() }
        defer { monitor.stop() }
        // With inotify the loop sleeps until a change; elsewhere it also looks every `interval` milliseconds.
        let timeout = monitor.usesNotifications ? Int32(-1) : Int32(interval)
        var anchor = try context.store().currentAnchor()
        while stopRequested == 0 {
            // Opened on every look, so a change of permissions applies at once.
            let store = try context.healthStore()
            let changes = try store.changes(since: anchor, types: types)
            if !changes.added.isEmpty || !changes.deleted.isEmpty {
                try ChangeOutput.printLines(changes, store: store, context: context)
                context.console.flush()
                if context.console.outputClosed { return }
            }
            anchor = changes.anchor
            if outputReaderGone() { return }
            waitForWake(wake[0], timeout: timeout)
        }
    }
}
