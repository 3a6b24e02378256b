import Foundation
import Testing
import TestKit

/// Through the binary: an hour of heart rate from Health Auto Export (Min/Avg/Max), then an Apple Health export whose
/// readings of the same watch cover it. `stats` for that hour gives the export's readings alone: the point's minimum
/// and maximum, stored as samples of their own at its start, went with it (they stayed, and the hour's minimum and
/// maximum were 55 and 95 from a point that was gone).
struct HAEHeartRateCLITests {
    @Test(arguments: hAEHeartRateCLITestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    func anExportCoveringAnHourLeavesNoMinimumOrMaximumOfIt() throws {
        let hours = #"{"data":{"metrics":[{"name":"heart_rate","units":"count/min","data":["#
            + #"{"date":"2024-05-10 10:00:00 +0200","Min":55,"Avg":70,"Max":95,"source":"Watch"},"#
            + #"{"date":"2024-05-10 11:00:00 +0200","Min":60,"Avg":72,"Max":90,"source":"Watch"}]}]}}"#
        let record = { (time: String, value: Int) in
            #"<Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" creationDate="2024-05-10 12:30:00 +0200" "#
                + #"startDate="2024-05-10 \#(time) +0200" endDate="2024-05-10 \#(time) +0200" value="\#(value)"/>"#
        }
        let export = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
            + " <ExportDate value=\"2024-05-12 08:00:00 +0200\"/>\n"
            + [record("10:05:00", 68), record("10:40:00", 75), record("12:10:00", 71)].joined(separator: "\n") + "\n</HealthData>\n"
        try CLIRunner.withTemporaryStore { cli in
            let folder = S19ReviewHAECLITests.folder(of: cli)
            try hours.write(toFile: folder + "/hours.json", atomically: true, encoding: .utf8)
            try export.write(toFile: folder + "/export.xml", atomically: true, encoding: .utf8)
            for file in ["hours.json", "export.xml"] {
                let imported = try cli.run(["--tz", "UTC", "import", folder + "/" + file, "-q"])
                expectEqual(imported.status, 0, "\(file): \(imported.stderr)")
            }
            let hour = try cli.run(["--tz", "UTC", "stats", "heart-rate", "--from", "2024-05-10T08:00:00Z", "--to", "2024-05-10T09:00:00Z",
                                    "--format", "json"])
            expectEqual(hour.status, 0, "\(hour.stderr)")
            let figures = try #require(try JSONSerialization.jsonObject(with: Data(hour.stdout.utf8)) as? [String: Any])
            expectEqual(figures["minimum"] as? Double, 68, "\(hour.stdout)")
            expectEqual(figures["maximum"] as? Double, 75, "\(hour.stdout)")
            expectEqual(figures["count"] as? Int, 2, "\(hour.stdout)")
            // The next hour, which the readings do not reach into, keeps its own three figures.
            let next = try cli.run(["--tz", "UTC", "stats", "heart-rate", "--from", "2024-05-10T09:00:00Z", "--to", "2024-05-10T10:00:00Z",
                                    "--format", "json"])
            let kept = try #require(try JSONSerialization.jsonObject(with: Data(next.stdout.utf8)) as? [String: Any])
            expectEqual(kept["minimum"] as? Double, 60, "\(next.stdout)")
            expectEqual(kept["maximum"] as? Double, 90, "\(next.stdout)")
        }
    }
}

/// The checks ``HAEHeartRateCLITests/checks(_:)`` runs.
private let hAEHeartRateCLITestsChecks: [Check<HAEHeartRateCLITests>] = [
    Check("anExportCoveringAnHourLeavesNoMinimumOrMaximumOfIt", HAEHeartRateCLITests.anExportCoveringAnHourLeavesNoMinimumOrMaximumOfIt),
]
