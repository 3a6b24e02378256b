import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Known issues found in session 32 by a differential fuzz (113 of 1,000 random folders are not a fixed point after
/// one import; steps only), not fixed yet: an import of the same files again must change nothing, and whatever the
/// order the points arrive in, a time must be counted once. Each check records the issue it shows; when the plan is
/// fixed, `withKnownIssue` reports the check as passing unexpectedly, and it becomes a plain test.
struct HAEFixedPointKnownIssueTests {
    @Test(arguments: hAEFixedPointKnownIssueTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// The stored steps as (start, end, value), sorted.
    private static func steps(_ store: JSONFileStore) throws -> [String] {
        let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
        return try store.samples(ofType: "HKQuantityTypeIdentifierStepCount", overlapping: everything).map {
            "\($0.start.timeIntervalSince1970) \($0.end.timeIntervalSince1970) \($0.value) \($0.source)"
        }.sorted()
    }

    /// `texts` as the files `0.json`, ... of a folder, imported into a new file store twice (the second reading every
    /// file); the steps after each import.
    private static func importedTwice(_ texts: [String], zone: ZoneRules) throws -> (first: [String], second: [String]) {
        try ImportTestSupport.withTemporaryDirectory { directory in
            let folder = directory + "/in"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (number, text) in texts.enumerated() {
                try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/\(number).json"))
            }
            let store = JSONFileStore(path: directory + "/store", lockTimeout: 2)
            _ = try HealthImporter(store: store, zoneRules: zone).importFile(atPath: folder)
            let first = try steps(store)
            _ = try HealthImporter(store: store, zoneRules: zone, rereadsUnchangedFiles: true).importFile(atPath: folder)
            return (first, try steps(store))
        }
    }

    private static func day(_ date: String, _ quantity: Int, _ source: String) -> String {
        "{\"date\":\"\(date)\",\"qty\":\(quantity),\"source\":\"\(source)\"}"
    }

    private static func payload(_ points: [String]) -> String {
        "{\"data\":{\"metrics\":[{\"name\":\"step_count\",\"units\":\"count\",\"data\":[" + points.joined(separator: ",") + "]}]}}"
    }

    /// One file with two days of one source written at offsets six hours apart (-0500, then +0100): they overlap by
    /// six hours. The first import keeps both whole (the overlap counted twice, 7,827 steps); the second cuts the
    /// first day to its remainder (7,052.75), while its receipt says nothing was added or replaced. Within one batch
    /// the plan never weighs two sent days of different alignment against each other (`HAEWritePlan`'s `crossed` and
    /// `settle` look only at stored samples), so `--batch-size 1` gives yet other stores.
    func daysAtTwoOffsetsInOneFileAreCountedOnce() throws {
        let text = Self.payload([Self.day("2024-05-09 00:00:00 -0500", 4730, "Garmin"),
                                 Self.day("2024-05-10 00:00:00 +0100", 3097, "Garmin")])
        let (first, second) = try Self.importedTwice([text], zone: ZoneRules(secondsFromGMT: -4 * 3600))
        withKnownIssue("two days of one source at different offsets in one input are not weighed against each other") {
            expectEqual(first, second, "a second import of the same file changes the store")
        }
    }

    /// An hour-level file's first hour of a day, then a day-level file's day from a related source (the minimal case of
    /// 75 of the 113 folders): the first import deletes the hour (a later day deletes finer stored points inside it);
    /// the second stores the hour again and cuts the day to its remainder (a stored day meeting a finer point sent
    /// later keeps what is left), and is then held unchanged. The two rules disagree about a point the same input
    /// already replaced.
    func anHourThenItsDayFromARelatedSourceSettleInOneImport() throws {
        let hourly = "{\"data\":{\"metrics\":[{\"name\":\"step_count\",\"units\":\"count\",\"data\":["
            + Self.day("2024-10-27 00:00:00 -0500", 782, "Watch") + "]},{\"name\":\"heart_rate\",\"units\":\"count/min\",\"data\":["
            + "{\"date\":\"2024-03-31 09:00:00 +0100\",\"source\":\"Watch|iPhone\",\"Avg\":68}]}]}}"
        let daily = Self.payload([Self.day("2024-10-27 00:00:00 -0500", 3792, "Watch|iPhone|Scale")])
        let berlin = try #require(ZoneDatabase.system(environment: [:]).zone(named: "Europe/Berlin"))
        let (first, second) = try Self.importedTwice([hourly, daily], zone: berlin)
        withKnownIssue("an hour the same input's later day deleted comes back on the next import") {
            expectEqual(first, second, "a second import of the same files changes the store")
        }
    }
}

/// The checks ``HAEFixedPointKnownIssueTests/checks(_:)`` runs.
private let hAEFixedPointKnownIssueTestsChecks: [Check<HAEFixedPointKnownIssueTests>] = [
    Check("daysAtTwoOffsetsInOneFileAreCountedOnce", HAEFixedPointKnownIssueTests.daysAtTwoOffsetsInOneFileAreCountedOnce),
    Check("anHourThenItsDayFromARelatedSourceSettleInOneImport", HAEFixedPointKnownIssueTests.anHourThenItsDayFromARelatedSourceSettleInOneImport),
]
