import Foundation
import Testing
import TestKit

/// `stats` keeps per-partition summaries in `derived/` (docs/STORE.md, "Derived files") and answers the same with
/// them, after an add makes one stale, with one damaged, and with the folder deleted.
struct SummaryCLITests {
    @Test func statsAnswerTheSameThroughSummaries() throws {
        try CLIRunner.withTemporaryStore { cli in
            // 120 walks of 5 steps in March (a month worth a summary), one of 700 in April across midnight.
            var records = (0..<120).map { index in
                let start = String(format: "2024-03-04 %02d:%02d:00 +0000", 9 + index / 60, index % 60)
                let end = String(format: "2024-03-04 %02d:%02d:30 +0000", 9 + index / 60, index % 60)
                return "<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Watch\" unit=\"count\" creationDate=\"\(end)\" "
                    + "startDate=\"\(start)\" endDate=\"\(end)\" value=\"5\"/>"
            }
            records.append("<Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Watch\" unit=\"count\" "
                + "creationDate=\"2024-04-11 00:20:00 +0000\" startDate=\"2024-04-10 23:50:00 +0000\" "
                + "endDate=\"2024-04-11 00:20:00 +0000\" value=\"700\"/>")
            let export = cli.storePath + "-export.xml"
            try ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
                 + records.joined(separator: "\n") + "\n</HealthData>\n").write(toFile: export, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: export) }
            let imported = try cli.run(["import", export])
            try #require(imported.status == 0, "import: \(imported.stderr)")
            let query = ["stats", "steps", "--from", "2024-03-01", "--to", "2024-05-31", "--by", "month", "--format", "csv"]
            let first = try cli.run(query)
            try #require(first.status == 0, "stats: \(first.stderr)")
            let summary = cli.storePath + "/derived/summaries/HKQuantityTypeIdentifierStepCount/2024-03.summary"
            let attributes = try FileManager.default.attributesOfItem(atPath: summary)
            expectEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
            try expectEqual(cli.run(query).stdout, first.stdout)
            // A chart into a path it may not write is refused before the store is read: no summary is left behind
            // (one source so far: the query would take summaries).
            try FileManager.default.removeItem(atPath: cli.storePath + "/derived")
            let refused = try cli.run(["chart", "steps", "--from", "2024-03-01", "--to", "2024-05-31", "--by", "month",
                                       "--svg", cli.storePath + "-missing-folder/steps.svg"])
            #expect(refused.status != 0 && refused.stderr.hasPrefix("Error: "), "\(refused.status) \(refused.stderr)")
            #expect(!FileManager.default.fileExists(atPath: cli.storePath + "/derived"), "a refused chart left summaries")
            try expectEqual(cli.run(query).stdout, first.stdout)

            // Stale after an add, damaged, or gone: the same answer as the lines give.
            let added = try cli.run(["add", "steps", "40", "--from", "2024-03-05T10:00:00Z", "--to", "2024-03-05T10:05:00Z"])
            try #require(added.status == 0, "add: \(added.stderr)")
            let withAdd = try cli.run(query)
            #expect(first.stdout.contains(",600,120,"), "\(first.stdout)")
            #expect(withAdd.stdout.contains(",640,121,"), "the add is missing: \(withAdd.stdout)")
            var bytes = try #require(FileManager.default.contents(atPath: summary))
            bytes[bytes.count - 20] ^= 1
            try bytes.write(to: URL(fileURLWithPath: summary))
            try expectEqual(cli.run(query).stdout, withAdd.stdout)
            try FileManager.default.removeItem(atPath: cli.storePath + "/derived")
            try expectEqual(cli.run(query).stdout, withAdd.stdout)
            try expectEqual(cli.run(["doctor"]).status, 0)
        }
    }
}
