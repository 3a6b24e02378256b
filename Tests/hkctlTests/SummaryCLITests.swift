import Foundation
import Testing

/// `stats` keeps per-partition summaries in `derived/` (docs/STORE.md, "Derived files") and answers the same with
/// them, after an add makes one stale, with one damaged, and with the folder deleted.
struct SummaryCLITests {
    @Test func statsAnswerTheSameThroughSummaries() throws {
        try CLIRunner.withTemporaryStore { cli in
            for (value, from, to) in [("500", "2024-03-04T09:00:00Z", "2024-03-04T09:20:00Z"),
                                      ("700", "2024-04-10T23:50:00Z", "2024-04-11T00:20:00Z")] {
                let added = try cli.run(["add", "steps", value, "--from", from, "--to", to])
                try #require(added.status == 0, "add: \(added.stderr)")
            }
            let query = ["stats", "steps", "--from", "2024-03-01", "--to", "2024-05-31", "--by", "month", "--format", "csv"]
            let first = try cli.run(query)
            try #require(first.status == 0, "stats: \(first.stderr)")
            let summary = cli.storePath + "/derived/summaries/HKQuantityTypeIdentifierStepCount/2024-03.summary"
            let attributes = try FileManager.default.attributesOfItem(atPath: summary)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            #expect(try cli.run(query).stdout == first.stdout)

            // Stale after an add, damaged, or gone: the same answer as the lines give.
            let added = try cli.run(["add", "steps", "40", "--from", "2024-03-05T10:00:00Z", "--to", "2024-03-05T10:05:00Z"])
            try #require(added.status == 0, "add: \(added.stderr)")
            let withAdd = try cli.run(query)
            #expect(withAdd.stdout.contains(",540,"), "the add is missing: \(withAdd.stdout)")
            var bytes = try #require(FileManager.default.contents(atPath: summary))
            bytes[bytes.count - 20] ^= 1
            try bytes.write(to: URL(fileURLWithPath: summary))
            #expect(try cli.run(query).stdout == withAdd.stdout)
            try FileManager.default.removeItem(atPath: cli.storePath + "/derived")
            #expect(try cli.run(query).stdout == withAdd.stdout)
            #expect(try cli.run(["doctor"]).status == 0)
        }
    }
}
