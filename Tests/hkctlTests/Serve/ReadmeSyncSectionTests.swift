#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TestKit

/// README's "Sync from your iPhone", pasted as a newcomer pastes it: its commands, read from the README itself, run
/// through `/bin/sh` with hkctl installed where its Set-up puts it (`~/.local/bin`); the systemd unit's `ExecStart`;
/// the cron line with cron's own `PATH`; and the Caddyfile, which Caddy reads only with a block's `{` at the end of
/// its line and `}` alone on one.
struct ReadmeSyncSectionTests {
    static let readmePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md").path

    /// The text of README's section `## title`, up to the next `## ` heading.
    static func section(_ title: String) throws -> String {
        let text = try String(contentsOfFile: readmePath, encoding: .utf8)
        let start = try #require(text.range(of: "\n## \(title)\n"), "README has no section '\(title)'")
        let rest = text[start.upperBound...]
        return String(rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)])
    }

    /// The fenced blocks of `language` in `text`, each as its lines.
    static func blocks(_ language: String, in text: String) -> [[String]] {
        var found: [[String]] = [], current: [String]? = nil
        for line in text.components(separatedBy: "\n") {
            if current == nil, line == "```" + language {
                current = []
            } else if current != nil, line == "```" {
                found.append(current!)
                current = nil
            } else {
                current?.append(line)
            }
        }
        return found
    }

    /// A line as `/bin/sh -c` runs it, in `environment` only.
    static func shell(_ line: String, environment: [String: String]) throws -> CLIResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", line]
        process.environment = environment
        return try CLIRunner.collect(process)
    }

    /// A push of every metric the README's grant names: steps, distance, active and basal energy, flights, heart rate,
    /// resting heart rate, HRV, a night of sleep and weight.
    static let everyGrantedMetric = """
        {"data":{"metrics":[
        {"name":"step_count","units":"count","data":[{"date":"2024-05-30 00:00:00 +0000","qty":8000,"source":"Jane’s iPhone"}]},
        {"name":"walking_running_distance","units":"km","data":[{"date":"2024-05-30 00:00:00 +0000","qty":5.5,"source":"Jane’s iPhone"}]},
        {"name":"active_energy","units":"kcal","data":[{"date":"2024-05-30 00:00:00 +0000","qty":420,"source":"Jane’s Apple Watch"}]},
        {"name":"basal_energy_burned","units":"kcal","data":[{"date":"2024-05-30 00:00:00 +0000","qty":1600,"source":"Jane’s Apple Watch"}]},
        {"name":"flights_climbed","units":"count","data":[{"date":"2024-05-30 00:00:00 +0000","qty":9,"source":"Jane’s iPhone"}]},
        {"name":"heart_rate","units":"count/min","data":[{"date":"2024-05-30 00:00:00 +0000","Min":52,"Avg":71,"Max":140,"source":"Jane’s Apple Watch"}]},
        {"name":"resting_heart_rate","units":"count/min","data":[{"date":"2024-05-30 00:00:00 +0000","qty":55,"source":"Jane’s Apple Watch"}]},
        {"name":"heart_rate_variability","units":"ms","data":[{"date":"2024-05-30 00:00:00 +0000","qty":48,"source":"Jane’s Apple Watch"}]},
        {"name":"weight_body_mass","units":"kg","data":[{"date":"2024-05-30 00:00:00 +0000","qty":71.5,"source":"Jane’s iPhone"}]},
        {"name":"sleep_analysis","units":"hr","data":[{"date":"2024-05-30 00:00:00 +0000","sleepStart":"2024-05-29 23:00:00 +0000",
         "sleepEnd":"2024-05-30 06:00:00 +0000","inBedStart":"2024-05-29 22:45:00 +0000","inBedEnd":"2024-05-30 06:15:00 +0000",
         "core":4,"deep":1,"rem":2,"awake":0,"asleep":0,"totalSleep":7,"inBed":7.5,"source":"Jane’s Apple Watch"}]}
        ]}}
        """

    @Test(.timeLimit(.minutes(20))) func theSyncSectionWorksAsWritten() throws {
        let section = try Self.section("Sync from your iPhone")
        let shellBlocks = Self.blocks("sh", in: section)
        expectEqual(shellBlocks.count, 2, "\(shellBlocks)")
        // The set-up: each `hkctl` line of the first block, its comment dropped.
        let setup = (shellBlocks.first ?? []).filter { $0.hasPrefix("hkctl ") }.map { line in
            String(line[..<(line.range(of: "#")?.lowerBound ?? line.endIndex)]).trimmingCharacters(in: .whitespaces)
        }
        #expect(setup.first?.hasPrefix("hkctl serve token create ") == true && setup.count == 3, "\(setup)")
        let unit = try #require(Self.blocks("ini", in: section).first, "no systemd unit")
        #expect(unit.contains("WantedBy=default.target") && unit.contains("[Service]"), "\(unit)")
        let execStart = try #require(unit.first { $0.hasPrefix("ExecStart=") }, "\(unit)")
        let cron = try #require(shellBlocks.last?.first { $0.hasPrefix("*/") }, "no cron line")

        try CLIRunner.withTemporaryStore { cli in
            let folder = URL(fileURLWithPath: cli.storePath).deletingLastPathComponent().path
            // A home with hkctl where README's Set-up copies it.
            let home = folder + "/home"
            try FileManager.default.createDirectory(atPath: home + "/.local/bin", withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: home + "/.local/bin/hkctl", withDestinationPath: CLIRunner.binaryURL.path)
            let terminal = ["PATH": home + "/.local/bin:/usr/bin:/bin", "HOME": home, "HKCTL_STORE": cli.storePath, "TZ": "UTC",
                            "HKCTL_NOW": "2024-06-01T12:00:00Z"]
            var token = ""
            for line in setup where line != "hkctl serve" {
                let result = try Self.shell(line, environment: terminal)
                expectEqual(result.status, 0, "\(line): \(result.stderr)")
                if line.contains(" token create ") { token = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) }
            }
            #expect(token.hasPrefix("hkp_"), "\(token)")
            // The unit's command: %h is the home; the address made a free port (8787 may be taken on this machine).
            var words = execStart.dropFirst("ExecStart=".count).split(separator: " ").map(String.init)
            #expect(words.first == "%h/.local/bin/hkctl" && words.dropFirst().first == "serve", "\(execStart)")
            if let listen = words.firstIndex(of: "--listen"), listen + 1 < words.count { words[listen + 1] = "127.0.0.1:0" }
            let (started, log) = try ServeHarness.launch(cli, folder: folder, label: "readme-unit", arguments: Array(words.dropFirst(2)), environment: [:])
            let server = try #require(started, "the unit's command did not start: \(log)")
            // The token README's command made, sent as README says, for every type README's grant names: all stored.
            let answer = try server.request(ServeHarness.push(Self.everyGrantedMetric, token: token))
            expectEqual(answer.status, 200, "\(answer.body)")
            let totals = answer.json["totals"] as? [String: Any]
            #expect(totals?["rejected"] as? Int == 0 && (totals?["added"] as? Int ?? 0) >= 10, "\(answer.body)")
            // README refuses only what is not HTTP/1.1 or 1.0: a client that speaks 1.0 (curl -0) is served.
            #expect(section.contains("not HTTP/1.1 or 1.0"), "README's list of refusals")
            let head10 = ServeHarness.pushHead(bodyLength: Self.everyGrantedMetric.utf8.count, token: token)
                .replacingOccurrences(of: "POST /ingest HTTP/1.1", with: "POST /ingest HTTP/1.0")
            let again = try server.request([.send(head10 + Self.everyGrantedMetric)])
            #expect(again.status == 200 && (again.json["totals"] as? [String: Any])?["added"] as? Int == 0, "\(again.head) \(again.body)")
            let result = server.terminate()
            expectEqual(result.status, 0, "\(result.stderr)")
            // The unit runs with --quiet: the push that succeeded has no line.
            #expect(!result.stderr.contains(" 200 "), "\(result.stderr)")
            let night = try cli.run(["stats", "sleep", "--by", "night", "--from", "2024-05-30", "--to", "2024-05-30", "--format", "json"])
            let nights = (try JSONSerialization.jsonObject(with: Data(night.stdout.utf8)) as? [String: Any])?["nights"] as? [[String: Any]]
            expectEqual((nights?.first?["asleep"] as? NSNumber)?.doubleValue, 7.0 * 3600, "\(night.stdout)\(night.stderr)")
            expectEqual((nights?.first?["inBed"] as? NSNumber)?.doubleValue, 7.5 * 3600, "\(night.stdout)\(night.stderr)")

            // The cron line, as cron runs it: /bin/sh, PATH /usr/bin:/bin, the user's HOME, the default store.
            let fields = cron.split(separator: " ", maxSplits: 5)
            let command = String(try #require(fields.last))
            let sync = home + "/Sync/HealthAutoExport"
            try FileManager.default.createDirectory(atPath: sync, withIntermediateDirectories: true)
            try stepsPayload([10, 20, 30]).write(toFile: sync + "/HealthAutoExport-2024-05-30.json", atomically: true, encoding: .utf8)
            let cronEnvironment = ["PATH": "/usr/bin:/bin", "HOME": home, "SHELL": "/bin/sh", "LOGNAME": "jane"]
            for run in 1...2 {
                let ran = try Self.shell(command, environment: cronEnvironment)
                #expect(ran.status == 0 && ran.stdout.isEmpty && ran.stderr.isEmpty, "cron run \(run) of '\(command)': \(ran.status) \(ran.stderr)")
            }
            let store = home + "/.local/share/hkctl"
            let listed = try cli.run(["list", "steps", "--from", "2024-05-30", "--to", "2024-05-31", "--format", "json", "--store", store])
            let samples = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
            expectEqual(samples.count, 3, "\(listed.stdout)\(listed.stderr)")
        }

        // The Caddyfile: a block's `{` ends its line, its `}` stands alone.
        let caddy = try #require(Self.blocks("caddyfile", in: section).first, "no Caddyfile block")
        #expect(caddy.contains { $0.trimmingCharacters(in: .whitespaces) == "reverse_proxy 127.0.0.1:8787" }, "\(caddy)")
        for line in caddy {
            if let brace = line.firstIndex(of: "{") { #expect(line[brace...] == "{" && line.dropLast().last == " ", "\(line)") }
            if line.contains("}") { expectEqual(line.trimmingCharacters(in: .whitespaces), "}", "\(line)") }
        }
    }
}
