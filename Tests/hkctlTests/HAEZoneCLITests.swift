import Foundation
import Testing
import TestKit

/// `hkctl import` of Health Auto Export days in the zone `--tz` (or `TZ`) names: a day where summer time ends lasts 25
/// hours in Berlin, 24 in UTC (the fully static binary's Foundation knows no zone but GMT, so the importer once took
/// every day for 24 hours whatever the zone).
struct HAEZoneCLITests {
    @Test(arguments: hAEZoneCLITestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    func aDayWhereSummerTimeEndsLastsWhatTheZoneSays() throws {
        let payload = "{\"data\":{\"metrics\":[{\"name\":\"step_count\",\"units\":\"count\",\"data\":["
            + "{\"date\":\"2023-10-29 00:00:00 +0200\",\"qty\":2500,\"source\":\"Watch\"},"
            + "{\"date\":\"2023-10-27 00:00:00 +0200\",\"qty\":2000,\"source\":\"Watch\"}]}]}}"
        for (zone, end) in [("Europe/Berlin", "2023-10-29T23:00:00+00:00"), ("UTC", "2023-10-29T22:00:00+00:00")] {
            for viaEnvironment in [false, true] {
                try CLIRunner.withTemporaryStore { cli in
                    let path = S19ReviewHAECLITests.folder(of: cli) + "/days.json"
                    try payload.write(toFile: path, atomically: true, encoding: .utf8)
                    let imported = viaEnvironment
                        ? try cli.run(["import", path, "-q"], environment: ["TZ": zone])
                        : try cli.run(["--tz", zone, "import", path, "-q"])
                    expectEqual(imported.status, 0, "\(imported.stderr)")
                    let listed = try cli.run(["list", "steps", "--format", "json"])
                    let samples = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
                    let day = samples.first { ($0["start"] as? String) == "2023-10-28T22:00:00+00:00" }
                    expectEqual(day?["end"] as? String, end, "\(zone), \(viaEnvironment ? "TZ" : "--tz"): \(listed.stdout)")
                }
            }
        }
    }

    /// A phone in a zone without summer time (Johannesburg, +0200 all year) imported where the zone is Berlin, which is
    /// +0200 too at the start of the day its summer time ends: the payload's next day says the day is 24 hours (a
    /// review: it was given Berlin's 25 and overlapped the next day by an hour).
    func aPhonesOwnNextDaySaysHowLongItsDayIs() throws {
        let payload = "{\"data\":{\"metrics\":[{\"name\":\"step_count\",\"units\":\"count\",\"data\":["
            + ["2023-10-28", "2023-10-29", "2023-10-30"].map { "{\"date\":\"\($0) 00:00:00 +0200\",\"qty\":2500,\"source\":\"Watch\"}" }
                .joined(separator: ",") + "]}]}}"
        try CLIRunner.withTemporaryStore { cli in
            let path = S19ReviewHAECLITests.folder(of: cli) + "/days.json"
            try payload.write(toFile: path, atomically: true, encoding: .utf8)
            let imported = try cli.run(["--tz", "Europe/Berlin", "import", path, "-q"])
            expectEqual(imported.status, 0, "\(imported.stderr)")
            let listed = try cli.run(["list", "steps", "--format", "json"])
            let samples = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
            let day = samples.first { ($0["start"] as? String) == "2023-10-28T22:00:00+00:00" }
            expectEqual(day?["end"] as? String, "2023-10-29T22:00:00+00:00", "\(listed.stdout)")
        }
    }
}

/// The checks ``HAEZoneCLITests/checks(_:)`` runs.
private let hAEZoneCLITestsChecks: [Check<HAEZoneCLITests>] = [
    Check("aDayWhereSummerTimeEndsLastsWhatTheZoneSays", HAEZoneCLITests.aDayWhereSummerTimeEndsLastsWhatTheZoneSays),
    Check("aPhonesOwnNextDaySaysHowLongItsDayIs", HAEZoneCLITests.aPhonesOwnNextDaySaysHowLongItsDayIs),
]
