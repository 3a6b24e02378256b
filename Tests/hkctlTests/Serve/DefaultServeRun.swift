import Foundation
import Testing
import TestKit

/// `hkctl serve` with no options, driven through its real timeouts (10 s for a head, 30 s of silence in a body) on a
/// thread of its own, started when the run is planned rather than when the test's turn comes, so that its half minute
/// of waiting overlaps the other tests (``ServeDefaultsTests``). The thread takes no expectation: it gathers what
/// happened, stops the server and removes its folder, and the test checks the outcome. It runs once a process: a run
/// with `--repetitions` checks the same outcome again.
final class DefaultServeRun: @unchecked Sendable {
    static let shared = DefaultServeRun()

    /// What the run saw, for the test to check.
    struct Outcome: @unchecked Sendable {
        var tokenCreated = CLIResult(status: -1, stdout: "", stderr: "")
        var granted = CLIResult(status: -1, stdout: "", stderr: "")
        /// Whether the server got 127.0.0.1:8787; else what it said when it could not, and it ran on a free port.
        var onDefaultPort = false
        var refusedLog = ""
        var port = 0
        var log = ""
        /// The four answers (over the limit, at the limit then silent, a head never finished, `/health`), or nil
        /// when no server started.
        var answers: [ServeHarness.Answer]?
        var stopped: CLIResult?
        /// The store's files before the server started and after it stopped.
        var before: [String: Data] = [:]
        var after: [String: Data] = [:]
    }

    /// The trait that starts the run when the test is planned (Swift Testing prepares every trait of the tests it
    /// will run before it runs any).
    struct StartsWhenPlanned: TestTrait {
        func prepare(for test: Test) async throws { DefaultServeRun.shared.start() }
    }

    private let condition = NSCondition()
    private var started = false
    private var result: Result<Outcome, Error>?

    /// Starts the run on its own thread, once.
    func start() {
        condition.lock()
        defer { condition.unlock() }
        guard !started else { return }
        started = true
        Thread { [self] in
            let outcome = Result { try Self.run() }
            condition.lock()
            result = outcome
            condition.broadcast()
            condition.unlock()
        }.start()
    }

    /// The run's outcome, waited for off the test threads (started here if no trait started it).
    func outcome() async throws -> Outcome {
        start()
        return try await OwnThread.value { [self] in
            condition.lock()
            defer { condition.unlock() }
            while result == nil { condition.wait() }
            return try result!.get()
        }
    }

    private static func run() throws -> Outcome {
        let folder = TestSupport.scratchRoot + "hkctl-e2e-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cli = CLIRunner(storePath: folder + "/store")
        var outcome = Outcome()
        outcome.tokenCreated = try cli.run(["serve", "token", "create", "iphone"])
        outcome.granted = try cli.run(["auth", "grant", "iphone", "--share", "steps"])
        let token = outcome.tokenCreated.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        outcome.before = cli.snapshot()
        // The real timeouts: the test variable set empty leaves the defaults.
        let defaults = ["HKCTL_SERVE_TEST_TIMEOUTS": ""]
        var (started, log) = try ServeHarness.launch(cli, folder: folder, label: "serve-default", arguments: [], environment: defaults)
        outcome.onDefaultPort = started != nil
        if started == nil {
            outcome.refusedLog = log
            (started, log) = try ServeHarness.launch(cli, folder: folder, label: "serve-free-port", arguments: ["--listen", "127.0.0.1:0"],
                                                     environment: defaults)
        }
        outcome.log = log
        guard let server = started else { return outcome }
        outcome.port = server.port
        typealias S = ServeHarness
        let limit = 64 << 20
        let requests: [[S.Step]] = [
            [.send(S.pushHead(bodyLength: limit + 1, token: token))],
            [.send(S.pushHead(bodyLength: limit, token: token) + "{\"data\":")],
            [.send("POST /ingest HTTP/1.1\r\nHost: 127.0.0.1\r\n")],
            S.health,
        ]
        defer { if outcome.stopped == nil { _ = server.terminate() } }
        outcome.answers = try server.requests(requests, parallel: true, timeout: 90)
        outcome.stopped = server.terminate()
        outcome.after = cli.snapshot()
        return outcome
    }
}
