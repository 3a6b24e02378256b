#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TestKit

/// The second independent check of `hkctl serve` (issue 30 §3, README "Sync from your iPhone"), driven by Python's
/// http.client (Tests/Helpers/hae_http_client.py): concurrent pushes of overlapping days, `kill -9` during a push
/// that replaces, and hostile requests the first round did not send. Every figure is worked out by hand.
struct HAEIndependent2ServeTests {
    typealias H = HAEIndependent

    static let client = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Helpers/hae_http_client.py").path

    /// What http.client got for one request.
    struct Answer {
        var status: Int?
        var body: String
        var error: String?
        var totals: [String: Int] { ((try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any])?["totals"] as? [String: Int] ?? [:] }
    }

    /// Runs the requests through hae_http_client.py against `port` (all at once with `parallel`).
    static func send(_ requests: [[String: Any]], port: Int, parallel: Bool = false) throws -> [Answer] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", client, String(port)]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: ["parallel": parallel, "requests": requests]))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let problems = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let list = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]], "client failed: \(problems)")
        return list.map { Answer(status: $0["status"] as? Int, body: $0["body"] as? String ?? "", error: $0["error"] as? String) }
    }

    /// `POST /ingest` with a bearer token and a JSON body.
    static func push(_ body: String, token: String, extra: [String: String] = [:]) -> [String: Any] {
        ["method": "POST", "path": "/ingest", "body": body,
         "headers": ["Authorization": "Bearer \(token)", "Content-Type": "application/json"].merging(extra) { $1 }]
    }

    /// A store with a push token for `iphone` allowed to write steps and heart rate; the token.
    static func token(_ cli: CLIRunner) throws -> String {
        let created = try cli.run(["serve", "token", "create", "iphone"])
        expectEqual(created.status, 0, "\(created.stderr)")
        let granted = try cli.run(["auth", "grant", "iphone", "--share", "steps,heart-rate"])
        expectEqual(granted.status, 0, "\(granted.stderr)")
        return created.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func folder(_ cli: CLIRunner) -> String { URL(fileURLWithPath: cli.storePath).deletingLastPathComponent().path }

    /// A payload of per-day steps (`days`: day of May 2024 → steps, at local midnight +0200) and, optionally,
    /// per-minute heart rate from 25 May 08:00 +0200 (`minutes`: minutes after it → bpm, Min = Avg = Max).
    static func payload(days: [Int: Int] = [:], minutes: [Int: Int] = [:]) -> String {
        var metrics: [String] = []
        if !days.isEmpty {
            let points = days.sorted { $0.key < $1.key }.map { day, steps in
                "{\"date\":\"2024-05-\(String(format: "%02d", day)) 00:00:00 +0200\",\"qty\":\(steps),\"source\":\"Jane’s iPhone\"}"
            }
            metrics.append("{\"name\":\"step_count\",\"units\":\"count\",\"data\":[" + points.joined(separator: ",") + "]}")
        }
        if !minutes.isEmpty {
            let points = minutes.sorted { $0.key < $1.key }.map { minute, bpm in
                let total = 8 * 60 + minute  // minutes after 25 May 00:00 +0200 (before the tests' now, 1 June 12:00 UTC)
                let date = String(format: "2024-05-%02d %02d:%02d:00 +0200", 25 + total / 1440, total % 1440 / 60, total % 60)
                return "{\"date\":\"\(date)\",\"Min\":\(bpm),\"Avg\":\(bpm),\"Max\":\(bpm),\"source\":\"Jane’s Apple Watch\"}"
            }
            metrics.append("{\"name\":\"heart_rate\",\"units\":\"count/min\",\"data\":[" + points.joined(separator: ",") + "]}")
        }
        return "{\"data\":{\"metrics\":[" + metrics.joined(separator: ",") + "]}}"
    }

    /// The samples of `type` in May–June 2024: how many, and their sum.
    static func stored(_ cli: CLIRunner, _ type: String) throws -> (count: Int, sum: Double) {
        let samples = try H.list(cli, type)
        return (samples.count, samples.reduce(0) { $0 + (H.number($1["value"]) ?? 0) })
    }

    /// Twenty pushes at once, push i holding the days i+1 and i+2 of May (day k: 1,000 + k − 1 steps, the same in
    /// both pushes that hold it) and the heart-rate minutes 2i … 2i+3 of 25 May (minute m: 60 + m bpm). Each point
    /// is stored once: 21 days, Σ(1,000 + k) for k = 0 … 20 = 21,000 + 210 = 21,210 steps; 42 minutes,
    /// Σ(60 + m) for m = 0 … 41 = 2,520 + 861 = 3,381. Of the 40 day points 21 are added and 19 unchanged; of the 80
    /// minutes 42 added and 38 unchanged.
    @Test(.timeLimit(.minutes(20))) func twentyConcurrentPushesOfOverlappingDaysGiveExactTotals() throws {
        try CLIRunner.withTemporaryStore { cli in
            let token = try Self.token(cli)
            let server = try ServeHarness.start(cli, folder: Self.folder(cli), arguments: ["--quiet"])
            let pushes = (0..<20).map { i in
                Self.push(Self.payload(days: [i + 1: 1000 + i, i + 2: 1000 + i + 1],
                                       minutes: Dictionary(uniqueKeysWithValues: (2 * i ..< 2 * i + 4).map { ($0, 60 + $0) })), token: token)
            }
            let answers = try Self.send(pushes, port: server.port, parallel: true)
            #expect(answers.allSatisfy { $0.status == 200 }, "\(answers.map { "\($0.status ?? 0) \($0.body.prefix(200))" })")
            let added = answers.reduce(0) { $0 + ($1.totals["added"] ?? 0) }
            let unchanged = answers.reduce(0) { $0 + ($1.totals["alreadyPresent"] ?? 0) }
            let replaced = answers.reduce(0) { $0 + ($1.totals["replaced"] ?? 0) }
            #expect(added == 63 && unchanged == 57 && replaced == 0, "added \(added), unchanged \(unchanged), replaced \(replaced)")
            // Then twenty pushes at once of 25 May, each with another figure (4,000 + 10i, as re-sends of a growing
            // day): one is added and nineteen replace in turn: one sample that day, of one of the figures sent, at
            // sync version 20.
            let grown = try Self.send((0..<20).map { Self.push(Self.payload(days: [25: 4000 + 10 * $0]), token: token) },
                                      port: server.port, parallel: true)
            #expect(grown.allSatisfy { $0.status == 200 }, "\(grown.map(\.body))")
            #expect(grown.reduce(0) { $0 + ($1.totals["added"] ?? 0) } == 1 && grown.reduce(0) { $0 + ($1.totals["replaced"] ?? 0) } == 19)
            expectEqual(server.terminate().status, 0)
            let day = try H.list(cli, "steps").filter { ($0["start"] as? String ?? "").hasPrefix("2024-05-25") }
            expectEqual(day.count, 1, "\(day)")
            #expect(Set(stride(from: 4000.0, through: 4190, by: 10)).contains(H.number(day.first?["value"]) ?? -1))
            expectEqual(H.number((day.first?["metadata"] as? [String: Any])?["HKMetadataKeySyncVersion"]), 20)
            let steps = try Self.stored(cli, "steps"), heart = try Self.stored(cli, "heart-rate")
            #expect(steps.count == 22 && steps.sum == 21210 + (H.number(day.first?["value"]) ?? 0), "\(steps)")
            #expect(heart.count == 42 && heart.sum == 3381, "\(heart)")
        }
    }

    /// `kill -9` while a push that replaces is stored, in three rounds on days and minutes of their own (round r:
    /// May days 6r+1 … 6r+5, heart-rate minutes from 2,000·r after 25 May 08:00). First 5 days of 1,000 steps and 100
    /// minutes at 60 bpm; then a push that grows the 5 days to 2,000 and sends 1,500 minutes at 70 bpm (100 replaced,
    /// 1,400 new). The server is killed during the body, and 10 and 80 ms after the push was sent; after each
    /// kill the round's data is the old state or the new one whole (steps 5 samples summing 5,000 or 10,000, heart
    /// rate 100 samples summing 6,000 or 1,500 summing 105,000), never a mix; the same push again gives the new state
    /// exactly (over all rounds so far: 5(r+1) days summing 10,000(r+1), 1,500(r+1) minutes summing 105,000(r+1)),
    /// and `hkctl doctor` finds the store sound.
    @Test(.timeLimit(.minutes(20))) func killedDuringAReplacingPushTheSamePushAgainGivesExactCounts() throws {
        try CLIRunner.withTemporaryStore { cli in
            let token = try Self.token(cli)
            for (round, delay) in [-1.0, 0.01, 0.08].enumerated() {
                let days = Dictionary(uniqueKeysWithValues: (1...5).map { (6 * round + $0, 1000) })
                let first = Self.payload(days: days, minutes: Dictionary(uniqueKeysWithValues: (0..<100).map { (2000 * round + $0, 60) }))
                let grown = Self.payload(days: days.mapValues { _ in 2000 },
                                         minutes: Dictionary(uniqueKeysWithValues: (0..<1500).map { (2000 * round + $0, 70) }))
                let server = try ServeHarness.start(cli, folder: Self.folder(cli), label: "first-\(round)")
                try expectEqual(Self.send([Self.push(first, token: token)], port: server.port).first?.status, 200)
                var request: [String: Any]
                if delay < 0 {
                    // The head and half the body (ASCII: the client sends raw text as Latin-1), then the kill.
                    let ascii = grown.replacingOccurrences(of: "’", with: "'")
                    request = ["raw": "POST /ingest HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\nContent-Type: application/json\r\n"
                                   + "Content-Length: \(ascii.utf8.count)\r\n\r\n" + ascii.prefix(ascii.count / 2),
                               "kill": ["pid": Int(server.pid), "after": 0.2]]
                } else {
                    request = Self.push(grown, token: token)
                    request["kill"] = ["pid": Int(server.pid), "after": delay]
                }
                _ = try Self.send([request], port: server.port)
                let (_, killed) = server.spawned.wait()
                #expect(killed, "round \(round): the server was not killed")
                let before = (steps: (5 * round, 10000.0 * Double(round)), heart: (1500 * round, 105000.0 * Double(round)))
                let steps = try Self.stored(cli, "steps"), heart = try Self.stored(cli, "heart-rate")
                let old = steps == (before.steps.0 + 5, before.steps.1 + 5000) && heart == (before.heart.0 + 100, before.heart.1 + 6000)
                let new = steps == (before.steps.0 + 5, before.steps.1 + 10000) && heart == (before.heart.0 + 1500, before.heart.1 + 105000)
                #expect(old || new, "round \(round): a mix after the kill: steps \(steps), heart rate \(heart)")
                let again = try ServeHarness.start(cli, folder: Self.folder(cli), label: "again-\(round)")
                let answer = try Self.send([Self.push(grown, token: token)], port: again.port)
                expectEqual(answer.first?.status, 200, "\(answer.first?.body ?? "")")
                expectEqual(again.terminate().status, 0)
                #expect(try Self.stored(cli, "steps") == (5 * (round + 1), 10000.0 * Double(round + 1)), "round \(round)")
                #expect(try Self.stored(cli, "heart-rate") == (1500 * (round + 1), 105000.0 * Double(round + 1)), "round \(round)")
            }
            let doctor = try cli.run(["doctor"])
            expectEqual(doctor.status, 0, "\(doctor.stdout)\(doctor.stderr)")
        }
    }

    /// Requests the first round did not send, each on its own connection: a token in the query string (401: only
    /// the header counts), two Authorization headers (401), Content-Length negative, in hex, with a plus sign, or
    /// twice with different values (400), Content-Length beside chunked (411), a NUL in a header (400), a head over
    /// 16 KiB (431), PUT (405), HEAD /health (405), `/ingest/` (404), a UTF-16 body (400), a body of the wrong content
    /// type with a valid token (415). None stores anything (the store is byte for byte unchanged), the server still
    /// answers, and no token (the real one, the one in the query, or a wrong one sharing its prefix) is in the log.
    /// Then accepted: `application/json; charset=utf-8` and a body with a UTF-8 BOM (200, one day stored once).
    @Test(.timeLimit(.minutes(20))) func hostileRequestsOverHTTPClientEachGetTheir4xxAndChangeNothing() throws {
        try CLIRunner.withTemporaryStore { cli in
            let token = try Self.token(cli)
            let body = Self.payload(days: [10: 4500])
            let before = cli.snapshot()
            let server = try ServeHarness.start(cli, folder: Self.folder(cli))
            let head = "POST /ingest HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\nContent-Type: application/json\r\n"
            let ascii = body.replacingOccurrences(of: "’", with: "'")
            let wrong = String(token.dropLast(4)) + "AAAA"
            let cases: [(String, [String: Any], Int)] = [
                ("token in the query", ["method": "POST", "path": "/ingest?token=\(token)", "body": body,
                                        "headers": ["Content-Type": "application/json"]], 401),
                ("a wrong token", Self.push(body, token: wrong), 401),
                ("two Authorization headers", ["raw": head + "Authorization: Bearer \(wrong)\r\nContent-Length: \(ascii.utf8.count)\r\n\r\n"
                                               + ascii], 401),
                ("negative length", ["raw": head + "Content-Length: -5\r\n\r\n" + ascii], 400),
                ("hex length", ["raw": head + "Content-Length: 0x10\r\n\r\n" + ascii], 400),
                ("plus length", ["raw": head + "Content-Length: +\(ascii.utf8.count)\r\n\r\n" + ascii], 400),
                ("two lengths", ["raw": head + "Content-Length: 5\r\nContent-Length: \(ascii.utf8.count)\r\n\r\n" + ascii], 400),
                ("length and chunked", ["raw": head + "Content-Length: \(ascii.utf8.count)\r\nTransfer-Encoding: chunked\r\n\r\n" + ascii], 411),
                ("NUL in a header", ["raw": "POST /ingest HTTP/1.1\r\nHost: x\u{0}y\r\nContent-Length: 2\r\n\r\n{}"], 400),
                ("head over 16 KiB", ["raw": "POST /ingest HTTP/1.1\r\nHost: x\r\nX-Pad: " + String(repeating: "a", count: 20000) + "\r\n\r\n"], 431),
                ("PUT", ["method": "PUT", "path": "/ingest", "body": body, "headers": ["Authorization": "Bearer \(token)", "Content-Type": "application/json"]], 405),
                ("HEAD /health", ["method": "HEAD", "path": "/health", "headers": [:]], 405),
                ("trailing slash", Self.push(body, token: token).merging(["path": "/ingest/"]) { $1 }, 404),
                ("UTF-16 body", ["raw": head + "Content-Length: \(2 + 2 * ascii.utf16.count)\r\n\r\n\u{FF}\u{FE}"
                                 + ascii.unicodeScalars.map { String($0) + "\u{0}" }.joined()], 400),
                ("text/plain", Self.push(body, token: token, extra: ["Content-Type": "text/plain"]), 415),
            ]
            let answers = try Self.send(cases.map(\.1) + [["method": "GET", "path": "/health", "headers": [:]]], port: server.port, parallel: true)
            for (index, (name, _, expected)) in cases.enumerated() {
                expectEqual(answers[index].status, expected, "\(name): \(answers[index].status.map(String.init) ?? "none") \(answers[index].body) \(answers[index].error ?? "")")
            }
            expectEqual(answers.last?.status, 200, "health: \(answers.last?.body ?? "")")
            expectEqual(cli.snapshot(), before, "a refused request changed the store")
            // Accepted spellings: a charset parameter, and a UTF-8 BOM before the body.
            let accepted = try Self.send([Self.push(body, token: token, extra: ["Content-Type": "application/json; charset=utf-8"]),
                                          Self.push("\u{FEFF}" + body, token: token)], port: server.port)
            expectEqual(accepted.map(\.status), [200, 200], "\(accepted.map(\.body))")
            expectEqual(accepted.map { $0.totals["added"] ?? -1 }, [1, 0], "\(accepted.map(\.body))")
            let log = server.log
            expectEqual(server.terminate().status, 0)
            let secret = String(token.dropFirst(4))
            #expect(!log.contains(secret) && !log.contains(String(wrong.dropFirst(4))), "a token reached the log:\n\(log)")
            #expect(try Self.stored(cli, "steps") == (1, 4500))
        }
    }

    /// A token granted only steps pushes workouts (`workouts-v1-v2-routes.json`, with a GPS route): 403 naming
    /// `hkctl auth grant iphone --share workout`, nothing stored, as sleep from that token is refused (the control:
    /// 403 naming `--share sleep`). (Bug 9: the workouts are stored, 200.)
    @Test(.timeLimit(.minutes(20)))
    func aWorkoutFromATokenNotGrantedWorkoutsIsRefused() throws {
        try CLIRunner.withTemporaryStore { cli in
            let token = try Self.token(cli)
            let before = cli.snapshot()
            let server = try ServeHarness.start(cli, folder: Self.folder(cli))
            let workouts = try String(contentsOfFile: HAEIndependent2.path("workouts-v1-v2-routes.json"), encoding: .utf8)
            let sleep = try String(contentsOfFile: HAEIndependent2.first("sleep-night-first.json"), encoding: .utf8)
            let answers = try Self.send([Self.push(sleep, token: token), Self.push(workouts, token: token)], port: server.port)
            expectEqual(server.terminate().status, 0)
            #expect(answers[0].status == 403 && answers[0].body.contains("hkctl auth grant iphone --share sleep"), "\(answers[0].body)")
            #expect(answers[1].status == 403 && answers[1].body.contains("--share workout"), "\(answers[1].status ?? 0) \(answers[1].body)")
            expectEqual(cli.snapshot(), before)
        }
    }

    /// `--max-body 1K`: a body of exactly 1,024 bytes is stored (200), one of 1,025 gets 413 and is not stored.
    @Test(.timeLimit(.minutes(20))) func aBodyOfExactlyTheLimitIsTakenAndOneByteMoreIsNot() throws {
        try CLIRunner.withTemporaryStore { cli in
            let token = try Self.token(cli)
            let server = try ServeHarness.start(cli, folder: Self.folder(cli), arguments: ["--max-body", "1K"])
            let base = Self.payload(days: [10: 4500]), padding = { (size: Int) in String(base.dropLast()) + String(repeating: " ", count: size - base.utf8.count) + "}" }
            let answers = try Self.send([Self.push(padding(1025), token: token), Self.push(padding(1024), token: token)], port: server.port)
            expectEqual(server.terminate().status, 0)
            expectEqual(answers.map(\.status), [413, 200], "\(answers.map(\.body))")
            #expect(try Self.stored(cli, "steps") == (1, 4500))
        }
    }

    /// `hkctl serve -q` (as README's systemd unit runs it) and a push of one good point and sixteen refused ones:
    /// the client gets 200 with `rejected` 16, and the log has a line for it that says something was refused.
    /// (Bug 15: no line at all with `-q`; without it the line says only "added 1, replaced 0".)
    @Test(.timeLimit(.minutes(20)))
    func aPushWithRefusedPointsIsLoggedEvenQuietly() throws {
        try CLIRunner.withTemporaryStore { cli in
            let token = try Self.token(cli)
            let server = try ServeHarness.start(cli, folder: Self.folder(cli), arguments: ["--quiet"])
            let body = try String(contentsOfFile: HAEIndependent2.path("bad-points-sixteen.json"), encoding: .utf8)
            let answer = try Self.send([Self.push(body, token: token)], port: server.port)
            #expect(answer.first?.status == 200 && answer.first?.totals["rejected"] == 16, "\(answer.first?.body ?? "")")
            let result = server.terminate()
            let lines = result.stderr.split(separator: "\n").filter { $0.contains(" iphone POST /ingest ") }
            #expect(lines.count == 1 && (lines.first?.contains("refused") == true || lines.first?.contains("rejected") == true), "\(result.stderr)")
        }
    }
}
