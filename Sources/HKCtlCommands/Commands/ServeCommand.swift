#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HealthCore
import IngestHTTP
import TextSupport

/// The write end of the running server's wake pipe, for the signal handlers (`write` is async-signal-safe).
nonisolated(unsafe) private var serverWakeDescriptor: Int32 = -1

/// `hkctl serve`: receives Health Auto Export pushes over HTTP; `hkctl serve token`: the tokens that may push.
enum ServeCommand: Command {
    static let name = "serve"
    static let abstract = "Receive Health Auto Export pushes over HTTP (POST /ingest), write-only, with a token per app."
    static let usage = "serve [--listen <host:port>] [--max-body <size>] [-q] | serve token (create <name> | list | revoke <name>)"
    static let arguments: [(label: String, help: String)] = [
        ("<name>", "The pushing program's name: a source, which the owner grants types with 'hkctl auth grant'."),
    ]
    static let options: [OptionSpec] = [
        OptionSpec(name: "listen", valueName: "host:port", help: "The address to listen on (default: 127.0.0.1:8787; port 0 picks a free one)."),
        OptionSpec(name: "max-body", valueName: "size", help: "The largest body accepted, in bytes or with K, M or G (default: 64M); a larger one gets 413 unread."),
        QuietOption.spec,
    ]
    static let formats = ["table", "json"]
    static let discussion = """
        POST /ingest takes the JSON that the iOS app Health Auto Export sends (REST API automation, Export
        Format JSON) with the header 'Authorization: Bearer TOKEN', stores it as 'hkctl import' stores a
        file (re-sends change nothing; a grown figure replaces the old one), and answers with the import
        receipt only once the samples are on disk. GET /health answers 200. Nothing else is served: no
        data can be read through the server.

        Each token stands for a source name: 'hkctl serve token create iphone' prints a new token once
        (only its digest is kept), and the owner grants that source the types it may write, like any
        source ('hkctl auth grant iphone --share steps,heart-rate,...'); a push with other types gets 403
        with the command to run. Samples keep the app's source names (the watch, the phone) and record
        in their metadata the name they arrived through.

        Refused without storing anything: a missing or wrong token (401), a body over --max-body (413,
        before it is read), chunked or length-less bodies (411), other content types (415), malformed
        requests or JSON (400), requests whose head takes over 10 s or whose body stalls for 30 s (408).
        One line per request goes to standard error (time, source, status, added and replaced); -q keeps
        only the failures. SIGTERM or Ctrl-C finishes the requests in flight, then exits 0.

        Listen on 127.0.0.1 and put a TLS reverse proxy (Caddy) or a private network (Tailscale) in
        front: never plain HTTP over the internet (README, "Sync from your iPhone").

        EXAMPLE:
          hkctl serve token create iphone           # prints the token once
          hkctl auth grant iphone --share steps,heart-rate,active-energy,sleep
          hkctl serve --listen 127.0.0.1:8787
        """

    static func run(_ arguments: ParsedArguments, context: CommandContext) throws {
        let words = arguments.positionals
        if words.first == "token" {
            try runToken(Array(words.dropFirst()), arguments, context: context)
            return
        }
        if let extra = words.first {
            throw UsageError(message: "Unexpected argument '\(extra)'; did you mean 'serve token \(extra)'?", command: name)
        }
        try context.requireOwner(to: "run the server")
        var limits = ServerLimits()
        if let text = arguments.value("max-body") {
            guard let bytes = parseSize(text) else {
                throw UsageError(message: "The value '\(text)' is invalid for '--max-body <size>'; use bytes or K, M, G (1K to 4G)", command: name)
            }
            limits.maxBodyBytes = bytes
        }
        try applyTestTimeouts(context.environment, to: &limits)
        let listenText = arguments.value("listen") ?? ListenAddress.standard.description
        guard let address = ListenAddress(parsing: listenText) else {
            throw UsageError(message: "The value '\(listenText)' is invalid for '--listen <host:port>'; use an IP address and a port, such as 127.0.0.1:8787 or [::1]:8787", command: name)
        }
        // The tokens document is read once now, so a damaged one stops the server at start, not at the first push.
        _ = try context.store().pushTokens()
        let listener: Listener
        do { listener = try Listener(address: address) } catch { throw ServeError.cannotListen(error.description) }
        let nowIsPinned = arguments.value("now") != nil || !(context.environment["HKCTL_NOW"] ?? "").isEmpty
        let log = ServeLog(console: context.console, quiet: context.console.quiet)
        let server = HTTPServer(listener: listener, handler: IngestHandler(ingestor: StorePushIngestor(context: context, nowIsPinned: nowIsPinned)),
                                limits: limits, paths: IngestHandler.paths) { log.write($0) }
        serverWakeDescriptor = listener.wakeDescriptor
        signal(SIGINT) { _ in wakeServer() }
        signal(SIGTERM) { _ in wakeServer() }
        signal(SIGPIPE, SIG_IGN)
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &signals, nil)
        // Always printed (tests and service logs read the port from it), -q or not.
        context.console.error("hkctl serve: listening on \(listener.address.description) (POST /ingest, GET /health); store \(context.globals.storePath)")
        server.run()
        context.console.error("hkctl serve: stopped; every request answered was stored.")
    }

    private static func runToken(_ words: [String], _ arguments: ParsedArguments, context: CommandContext) throws {
        try context.requireOwner(to: "manage push tokens")
        let store = context.store()
        switch words.first {
        case "create":
            guard words.count == 2 else {
                throw UsageError(message: words.count < 2 ? "Missing expected argument '<name>'" : "Unexpected argument '\(words[2])'", command: name)
            }
            let token = try store.createPushToken(for: words[1], now: context.globals.time.now)
            if context.globals.format == .json {
                context.console.line("{\"name\":\(JSONText.quoted(words[1])),\"token\":\(JSONText.quoted(token))}")
            } else {
                context.console.line(token)
            }
            context.console.note("Token for '\(words[1])' (shown this once; only its digest is kept). Send it as the header 'Authorization: Bearer TOKEN', and allow the types: hkctl auth grant \(ShellQuoting.quote(words[1])) --share TYPES")
        case "list":
            guard words.count == 1 else { throw UsageError(message: "Unexpected argument '\(words[1])'", command: name) }
            let tokens = try store.pushTokens()
            let zone = context.globals.time.timeZone
            if context.globals.format == .json {
                context.console.line("[" + tokens.map {
                    "{\"name\":\(JSONText.quoted($0.name)),\"created\":\(JSONText.quoted(ISODate.format($0.created, in: zone)))}"
                }.joined(separator: ",") + "]")
            } else if tokens.isEmpty {
                context.console.note("No push tokens; make one with 'hkctl serve token create NAME'.")
            } else {
                var table = TableWriter(headers: ["NAME", "CREATED"])
                for token in tokens { table.add([token.name, ISODate.format(token.created, in: zone)]) }
                for line in table.lines() { context.console.line(line) }
            }
        case "revoke":
            guard words.count == 2 else {
                throw UsageError(message: words.count < 2 ? "Missing expected argument '<name>'" : "Unexpected argument '\(words[2])'", command: name)
            }
            try store.revokePushToken(for: words[1])
            context.console.note("Revoked the push token of '\(words[1])'; its pushes are refused from now on.")
        case let other?:
            throw UsageError(message: "Unknown token action '\(other)'; use create, list or revoke", command: name)
        case nil:
            throw UsageError(message: "Missing expected argument: create, list or revoke", command: name)
        }
    }

    /// `64M`, `512K`, `1G`, `1048576`: bytes, 1 K = 1024; from 1 K to 4 G.
    static func parseSize(_ text: String) -> Int? {
        var digits = Substring(text.uppercased())
        if digits.hasSuffix("B") && digits.count > 1 && !digits.dropLast().last!.isNumber { digits = digits.dropLast() }
        var factor = 1
        if let last = digits.last, let power = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30][String(last)] {
            factor = power
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(digits) else { return nil }
        let bytes = value * factor
        return (1 << 10...4 << 30).contains(bytes) ? bytes : nil
    }

    /// `$HKCTL_SERVE_TEST_TIMEOUTS=HEADER,BODY` (seconds): shorter timeouts, for tests only.
    private static func applyTestTimeouts(_ environment: [String: String], to limits: inout ServerLimits) throws {
        guard let text = environment["HKCTL_SERVE_TEST_TIMEOUTS"], !text.isEmpty else { return }
        let parts = text.split(separator: ",").map { StrictNumber.parse(String($0)) }
        guard parts.count == 2, let header = parts[0], let body = parts[1], header > 0, body > 0 else {
            throw UsageError(message: "$HKCTL_SERVE_TEST_TIMEOUTS must be 'HEADER,BODY' in seconds", command: name)
        }
        limits.headerTimeout = header
        limits.bodyTimeout = body
        limits.sendTimeout = body
    }
}

/// Wakes the server's accept loop so that it stops; safe in a signal handler.
private func wakeServer() {
    var byte: UInt8 = 1
    _ = write(serverWakeDescriptor, &byte, 1)
}

/// Why the server did not start.
enum ServeError: Error, CustomStringConvertible {
    case cannotListen(String)

    var description: String {
        switch self {
        case let .cannotListen(message): return message
        }
    }
}

/// The server's log: one line per request on standard error, written whole from any connection's thread.
final class ServeLog: @unchecked Sendable {
    private let console: Console
    private let quiet: Bool
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    init(console: Console, quiet: Bool) {
        self.console = console
        self.quiet = quiet
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    /// `2024-06-01T08:00:00Z iphone POST /ingest 200 added 10, replaced 2`; under -q, successes are left out unless
    /// they refused part of the push (`..., refused 3`).
    func write(_ entry: RequestLogEntry) {
        if quiet && entry.status == .ok && !entry.evenWhenQuiet { return }
        let status = entry.status.map { String($0.rawValue) } ?? "-"
        var line = "\(ISODate.format(Date(), in: .gmt)) \(entry.source) \(entry.method) \(entry.path) \(status)"
        if !entry.note.isEmpty { line += " " + entry.note }
        pthread_mutex_lock(mutex)
        console.error(line)
        pthread_mutex_unlock(mutex)
    }
}
