#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing

/// One `hkctl serve` process on a free port of 127.0.0.1, driven by Tests/Helpers/serve_client.py (raw sockets).
struct ServeHarness {
    let spawned: Spawned
    let port: Int
    let cli: CLIRunner

    /// The timeouts every test server runs with (`$HKCTL_SERVE_TEST_TIMEOUTS`): a head within 0.6 s, a body that
    /// never stalls 0.6 s.
    static let testTimeouts = "0.6,0.6"

    /// Starts the server and waits (up to 20 s) for its first line, which names the port.
    static func start(_ cli: CLIRunner, folder: String, label: String = "serve", arguments: [String] = [],
                      environment: [String: String] = [:]) throws -> ServeHarness {
        let (server, log) = try launch(cli, folder: folder, label: label, arguments: ["--listen", "127.0.0.1:0"] + arguments,
                                       environment: ["HKCTL_SERVE_TEST_TIMEOUTS": testTimeouts].merging(environment) { $1 })
        guard let server else { throw HarnessError.didNotStart(log) }
        return server
    }

    /// Starts `hkctl serve ARGUMENTS` as given (no address or timeouts added) and waits up to 20 s for its line naming
    /// the port on 127.0.0.1; nil and the server's log when it exits (or is killed) before that.
    static func launch(_ cli: CLIRunner, folder: String, label: String, arguments: [String],
                       environment: [String: String]) throws -> (server: ServeHarness?, log: String) {
        let spawned = try Spawned.start(["serve"] + arguments, cli: cli, outputFolder: folder, label: label, environment: environment)
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let text = (try? String(contentsOfFile: spawned.stderrPath, encoding: .utf8)) ?? ""
            if let range = text.range(of: "listening on 127.0.0.1:") {
                let digits = text[range.upperBound...].prefix { $0.isNumber }
                if let port = Int(digits), text[range.upperBound...].dropFirst(digits.count).hasPrefix(" ") {
                    return (ServeHarness(spawned: spawned, port: port, cli: cli), text)
                }
            }
            if !spawned.process.isRunning { break }
            usleep(20_000)
        }
        spawned.killNow()
        return (nil, spawned.wait().result.stderr)
    }

    enum HarnessError: Error { case didNotStart(String), client(String) }

    /// What the client saw of one request.
    struct Answer: Sendable {
        var status: Int?
        var body: String
        var head: String
        var elapsed: Double
        var error: String?

        /// The body as a JSON object.
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]) ?? [:] }
    }

    /// A step of a request: bytes to send, seconds to wait, or a signal to send to a process.
    enum Step { case send(String), wait(Double), signal(Int32, to: Int32) }

    /// Runs the requests one after the other (or, with `parallel`, all at once), each on its own connection; the
    /// client gives up on an answer after `timeout` seconds without a byte.
    func requests(_ scenarios: [[Step]], parallel: Bool = false, shutdown: Bool = false, timeout: Double = 30) throws -> [Answer] {
        func encode(_ steps: [Step]) -> [String: Any] {
            ["steps": steps.map { step -> Any in
                switch step {
                case let .send(text): return text
                case let .wait(seconds): return seconds
                case let .signal(number, pid): return ["signal": Int(number), "pid": Int(pid)]
                }
            }, "shutdown": shutdown, "timeout": timeout]
        }
        let payload: Any = parallel ? [["parallel": scenarios.map(encode)]] : scenarios.map(encode)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.clientScript, String(port)]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: payload))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let problems = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0, var list = try JSONSerialization.jsonObject(with: data) as? [Any] else {
            throw HarnessError.client(problems)
        }
        if parallel { list = list.first as? [Any] ?? [] }
        return list.map { item in
            let object = item as? [String: Any] ?? [:]
            return Answer(status: object["status"] as? Int, body: object["body"] as? String ?? "",
                          head: object["head"] as? String ?? "", elapsed: object["elapsed"] as? Double ?? 0,
                          error: object["error"] as? String)
        }
    }

    /// One request.
    func request(_ steps: [Step]) throws -> Answer {
        try requests([steps])[0]
    }

    /// The server's process id.
    var pid: Int32 { spawned.process.processIdentifier }

    /// Sends SIGTERM and waits for the end.
    func terminate() -> CLIResult {
        kill(spawned.process.processIdentifier, SIGTERM)
        return spawned.wait().result
    }

    /// What the server has logged so far.
    var log: String { (try? String(contentsOfFile: spawned.stderrPath, encoding: .utf8)) ?? "" }

    static let clientScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Helpers/serve_client.py").path

    // MARK: - Requests

    /// `POST /ingest` with `body`, the token and JSON content type, in one piece.
    static func push(_ body: String, token: String?, contentType: String = "application/json") -> [Step] {
        [.send(pushHead(bodyLength: body.utf8.count, token: token, contentType: contentType) + body)]
    }

    static func pushHead(bodyLength: Int, token: String?, contentType: String = "application/json") -> String {
        var head = "POST /ingest HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: \(contentType)\r\nContent-Length: \(bodyLength)\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        return head + "\r\n"
    }

    static let health: [Step] = [.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")]
}

/// A Health Auto Export payload of step counts, one point a minute from `first` (minutes after 2024-05-30 00:00
/// UTC; up to two days of them), for `source`.
func stepsPayload(_ values: [Int], firstMinute first: Int = 0, source: String = "Jane’s iPhone", otherMetrics: [String] = []) -> String {
    let points = values.enumerated().map { offset, value in
        let minute = first + offset
        let date = String(format: "2024-05-%02d %02d:%02d:00 +0000", 30 + minute / 1440, minute % 1440 / 60, minute % 60)
        return "{\"date\":\"\(date)\",\"qty\":\(value),\"source\":\"\(source)\"}"
    }
    return "{\"data\":{\"metrics\":[{\"name\":\"step_count\",\"units\":\"count\",\"data\":[" + points.joined(separator: ",") + "]}"
        + otherMetrics.map { "," + $0 }.joined() + "]}}"
}

/// A metric of one point at 2024-05-30 09:00 UTC, for ``stepsPayload(_:firstMinute:source:otherMetrics:)``.
func onePointMetric(_ name: String, units: String, qty: Double) -> String {
    "{\"name\":\"\(name)\",\"units\":\"\(units)\",\"data\":[{\"date\":\"2024-05-30 09:00:00 +0000\",\"qty\":\(qty),\"source\":\"Jane’s Apple Watch\"}]}"
}
