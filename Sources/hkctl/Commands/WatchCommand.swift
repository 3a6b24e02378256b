#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthCore

/// Set by SIGINT/SIGTERM; the watch loop checks it between polls.
nonisolated(unsafe) private var stopRequested: sig_atomic_t = 0

/// `hkctl watch`: prints new samples and deletions as they happen, from any process, like `tail -f`.
enum WatchCommand: Command {
    static let name = "watch"
    static let abstract = "Print samples and deletions as other processes write them, until interrupted."
    static let usage = "watch [--type <type> ...] [--interval <ms>] [--format jsonl]"
    static let arguments: [(label: String, help: String)] = []
    static let options: [OptionSpec] = [
        OptionSpec(name: "type", valueName: "type", repeatable: true, help: "Only this type (repeatable; default: all)."),
        OptionSpec(name: "interval", valueName: "ms", help: "How often to look for changes (default: 200)."),
    ]
    static let formats = ["jsonl"]
    static let discussion = """
        Prints one JSON object per line, as 'hkctl changes --format jsonl' does, starting from now.
        Stops cleanly (exit 0) on Ctrl-C or SIGTERM, or when the reader of its output goes away.
        """

    /// Whether standard output is a pipe whose reader has closed it.
    private static func outputReaderGone() -> Bool {
        var descriptor = pollfd(fd: 1, events: Int16(POLLOUT), revents: 0)
        guard poll(&descriptor, 1, 0) > 0 else { return false }
        return descriptor.revents & Int16(POLLERR | POLLHUP) != 0
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
        signal(SIGINT) { _ in stopRequested = 1 }
        signal(SIGTERM) { _ in stopRequested = 1 }
        signal(SIGPIPE, SIG_IGN)
        // A parent may have started us with these signals blocked; watch must still hear them.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &signals, nil)
        var anchor = try context.store().currentAnchor()
        while stopRequested == 0 {
            // Opened on every poll, so a change of permissions applies at once.
            let changes = try context.healthStore().changes(since: anchor, types: types)
            if !changes.added.isEmpty || !changes.deleted.isEmpty {
                let zone = context.globals.time.timeZone
                for sample in changes.added { context.console.line("{\"added\":" + ChangeOutput.sample(sample, context: context) + "}") }
                for tombstone in changes.deleted { context.console.line("{\"deleted\":" + ChangeOutput.tombstone(tombstone, zone: zone) + "}") }
                context.console.line("{\"anchor\":\"\(changes.anchor)\"}")
                context.console.flush()
                if context.console.outputClosed { return }
            }
            anchor = changes.anchor
            if outputReaderGone() { return }
            var slept = 0
            while slept < interval && stopRequested == 0 {
                usleep(useconds_t(min(50, interval - slept) * 1000))
                slept += 50
            }
        }
    }
}
