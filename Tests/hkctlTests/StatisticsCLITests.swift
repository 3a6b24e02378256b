import Foundation
import Testing
import TestKit

/// `stats` with merged sources, per-source figures, buckets of any length, nights and --explain; `sources` and
/// `trend`. Each test runs the built binary against its own temporary store (UTC, now 2024-06-01T12:00:00Z
/// unless set otherwise).
struct StatisticsCLITests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: statisticsCLITestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static let watch = "Jane’s Apple Watch"
    private static let phone = "Jane’s iPhone"

    // MARK: Helpers

    private func object(_ result: CLIResult, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        try #require(result.status == 0, "exit \(result.status): \(result.stderr)", sourceLocation: sourceLocation)
        let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
        return try #require(parsed as? [String: Any], "not one object: \(result.stdout)", sourceLocation: sourceLocation)
    }

    private func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

    private func add(_ cli: CLIRunner, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try cli.run(["add"] + arguments)
        try #require(result.status == 0, "add \(arguments): \(result.stderr)", sourceLocation: sourceLocation)
    }

    /// Lets `source` write `types` (comma-separated), as the owner.
    private func grant(_ cli: CLIRunner, _ source: String, _ types: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let result = try cli.run(["auth", "grant", source, "--share", types])
        try #require(result.status == 0, "auth grant \(source): \(result.stderr)", sourceLocation: sourceLocation)
    }

    /// The WWDC 2020 day: watch 6,902 steps; phone 900 duplicates while the watch is worn, 1,100 while it is not.
    private func addWWDCDay(_ cli: CLIRunner) throws {
        try grant(cli, Self.watch, "steps")
        try grant(cli, Self.phone, "steps")
        try add(cli, ["steps", "3000", "--from", "07:00", "--to", "08:00", "--source", Self.watch])
        try add(cli, ["steps", "3902", "--from", "09:00", "--to", "10:00", "--source", Self.watch])
        try add(cli, ["steps", "900", "--from", "07:10", "--to", "07:40", "--source", Self.phone])
        try add(cli, ["steps", "1100", "--from", "10:30", "--to", "11:30", "--source", Self.phone])
    }

    // MARK: Merging

    func mergedByDefaultWithTheSameJSONShape() throws {
        try CLIRunner.withTemporaryStore { cli in
            try addWWDCDay(cli)
            let merged = try object(cli.run(["stats", "steps", "--format", "json"]))
            expectEqual(Set(merged.keys), ["type", "unit", "from", "to", "sum", "count"])
            expectEqual(number(merged["sum"]), 8_002)  // 6,902 + 1,100
            expectEqual(number(merged["count"]), 3)
            let plain = try object(cli.run(["stats", "steps", "--no-merge", "--format", "json"]))
            expectEqual(number(plain["sum"]), 8_902)
            expectEqual(number(plain["count"]), 4)
        }
    }

    func bySourceAddsPerSourceFigures() throws {
        try CLIRunner.withTemporaryStore { cli in
            try addWWDCDay(cli)
            let stats = try object(cli.run(["stats", "steps", "--by-source", "--every", "3h", "--format", "json"]))
            let sources = try #require(stats["sources"] as? [[String: Any]])
            expectEqual(sources.map { $0["source"] as? String }, [Self.watch, Self.phone])
            expectEqual(sources.map { number($0["sum"]) }, [6_902, 2_000])
            let buckets = try #require(stats["buckets"] as? [[String: Any]])
            // 06:00–09:00: watch 3,000, the phone's 900 dropped; 09:00–12:00: watch 3,902 + phone 1,100.
            expectEqual(buckets.map { number($0["sum"]) }, [0, 0, 3_000, 5_002, 0, 0, 0, 0])
            let early = try #require(buckets[2]["sources"] as? [[String: Any]])
            expectEqual(early.map { number($0["sum"]) }, [3_000, 900])

            let csv = try cli.run(["stats", "steps", "--by-source", "--format", "csv"])
            #expect(csv.stdout.hasPrefix("start,end,sum,count,unit,sum[\(Self.watch)],count[\(Self.watch)],sum[\(Self.phone)]"))
            let table = try cli.run(["stats", "steps", "--by-source", "--by", "hour"])
            // A source's column keeps its spelling (case, the typographic apostrophe).
            #expect(table.stdout.contains("Jane’s Apple Watch") && !table.stdout.contains("JANE"), "\(table.stdout)")
        }
    }

    func storedPriorityIsUsed() throws {
        try CLIRunner.withTemporaryStore { cli in
            try addWWDCDay(cli)
            // The documented priorities.json format, written directly: the phone first.
            let document = #"{"priorities":{"HKQuantityTypeIdentifierStepCount":["Jane’s iPhone"]},"version":1}"#
            try Data(document.utf8).write(to: URL(fileURLWithPath: cli.storePath + "/priorities.json"))
            let stats = try object(cli.run(["stats", "steps", "--format", "json"]))
            // Phone first: the watch's 07:00–08:00 loses 07:10–07:40 → 3,000 × 30/60 = 1,500.
            // 1,500 + 3,902 + 900 + 1,100 = 7,402.
            expectEqual(number(stats["sum"]), 7_402)
        }
    }

    func explainShowsDroppedAndSplitSamples() throws {
        try CLIRunner.withTemporaryStore { cli in
            try addWWDCDay(cli)
            try add(cli, ["steps", "1200", "--from", "2024-05-31T23:00", "--to", "2024-06-01T01:00"])
            let table = try cli.run(["stats", "steps", "--explain"])
            expectEqual(table.status, 0)
            #expect(table.stdout.contains("Explanation (zone "))
            #expect(table.stdout.contains("dropped"))
            #expect(table.stdout.contains("covered by \(Self.watch)"))
            #expect(table.stdout.contains("split"))
            #expect(table.stdout.contains("1 h 00 min of 2 h 00 min in this interval"))
            let json = try object(cli.run(["stats", "steps", "--explain", "--format", "json"]))
            let explain = try #require(json["explain"] as? [String: Any])
            expectEqual(number(explain["unmergedSum"]), 9_502)
            let samples = try #require(explain["samples"] as? [[String: Any]])
            expectEqual(samples.map { $0["outcome"] as? String }, ["split", "counted", "dropped", "counted", "counted"])
            expectEqual(json["sourceOrder"] as? [String], [Self.watch, Self.phone, "hkctl"])
        }
    }

    // MARK: Options and filters

    func figureFlagsChooseTheFigures() throws {
        try CLIRunner.withTemporaryStore { cli in
            try add(cli, ["heart-rate", "60bpm", "--at", "08:00"])
            try add(cli, ["heart-rate", "120bpm", "--at", "08:10"])
            let stats = try object(cli.run(["stats", "heart-rate", "--from", "2024-06-01T08:00", "--to", "2024-06-01T09:00",
                                             "--average", "--max", "--format", "json"]))
            expectEqual(Set(stats.keys), ["type", "unit", "from", "to", "average", "maximum", "count"])
            // 60 bpm for 10 min, 120 bpm for 10 min (a reading holds 10 minutes at most, not the 50 left): 90.
            #expect(abs((number(stats["average"]) ?? 0) - 90) < 1e-9)
            let refused = try cli.run(["stats", "heart-rate", "--sum"])
            expectEqual(refused.status, 64)
            #expect(refused.stderr.contains("'--sum' does not apply to heart-rate"))
            #expect(refused.stderr.contains("--average"))
        }
    }

    @Test(arguments: [
        (["stats", "steps", "--average"], "'--average' does not apply to steps"),
        (["stats", "sleep", "--duration"], "sleep gives time asleep"),
        (["stats", "steps", "--by", "day", "--every", "6h"], "Give one of"),
        (["stats", "steps", "--every", "5x"], "'5x' is invalid for '--every <length>'"),
        (["stats", "steps", "--by", "night"], "'--by night' applies to sleep only"),
        (["stats", "steps", "--anchor", "06:00"], "'--anchor' needs"),
        (["stats", "steps", "--week-start", "fri"], "'fri' is invalid for '--week-start <day>'"),
        (["stats", "steps", "--meta", "=x"], "'=x' is invalid for '--meta <key=value>'"),
        (["stats", "sleep", "--night-cutoff", "noon"], "night cut-off 'noon'"),
        (["stats", "steps", "--night-cutoff", "18:00"], "'--night-cutoff' applies to sleep nights only"),
        (["stats", "steps", "--every", "1m", "--from", "1990-01-01", "--to", "2024-01-01"], "more than 200000"),
    ])
    func refusesBadStatisticsOptions(arguments: [String], fragment: String) throws {
        try CLIRunner.withTemporaryStore { cli in
            let result = try cli.run(arguments)
            expectEqual(result.status, 64)
            #expect(result.stderr.hasPrefix("Error: "))
            #expect(result.stderr.contains(fragment), "\(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }

    func filtersBySourceMetadataAndStrictDates() throws {
        try CLIRunner.withTemporaryStore { cli in
            try grant(cli, "Tea app", "water")
            try add(cli, ["water", "500mL", "--at", "08:00", "--meta", "drink=tea", "--source", "Tea app"])
            try add(cli, ["water", "250mL", "--at", "09:00"])
            try add(cli, ["steps", "1200", "--from", "2024-05-31T23:00", "--to", "2024-06-01T01:00"])
            #expect(number(try object(cli.run(["stats", "water", "--meta", "drink=tea", "--format", "json"]))["sum"]) == 500)
            #expect(number(try object(cli.run(["stats", "water", "--only-source", "hkctl", "--format", "json"]))["sum"]) == 250)
            let both = try object(cli.run(["stats", "water", "--only-source", "hkctl", "--only-source", "Tea app", "--format", "json"]))
            expectEqual(number(both["sum"]), 750)
            #expect(number(try object(cli.run(["stats", "steps", "--format", "json"]))["sum"]) == 600)
            #expect(number(try object(cli.run(["stats", "steps", "--strict-start", "--format", "json"]))["sum"]) == 0)
            #expect(number(try object(cli.run(["stats", "steps", "--strict-end", "--format", "json"]))["sum"]) == 1_200)
        }
    }

    // MARK: Buckets

    func everyAndAnchorMakeBucketsOfAnyLength() throws {
        try CLIRunner.withTemporaryStore { cli in
            try add(cli, ["steps", "300", "--from", "10:10", "--to", "10:25"])
            let quarter = try object(cli.run(["stats", "steps", "--every", "15m", "--from", "2024-06-01T10:00", "--to",
                                              "2024-06-01T10:30", "--format", "json"]))
            let buckets = try #require(quarter["buckets"] as? [[String: Any]])
            expectEqual(buckets.map { number($0["sum"]) }, [100, 200])
            let anchored = try object(cli.run(["stats", "steps", "--by", "day", "--anchor", "06:00", "--from", "2024-05-31",
                                               "--to", "2024-06-01", "--format", "json"]))
            let days = try #require(anchored["buckets"] as? [[String: Any]])
            expectEqual(days.map { $0["start"] as? String }, ["2024-05-31T00:00:00+00:00", "2024-05-31T06:00:00+00:00",
                                                              "2024-06-01T06:00:00+00:00"])
        }
    }

    func dayBucketsAcrossSpringForwardInParis() throws {
        try CLIRunner.withTemporaryStore { cli in
            let stats = try object(cli.run(["stats", "steps", "--from", "2024-03-30", "--to", "2024-04-01", "--by", "day",
                                            "--tz", "Europe/Paris", "--format", "json"],
                                           environment: ["HKCTL_NOW": "2024-04-02T12:00:00Z"]))
            let buckets = try #require(stats["buckets"] as? [[String: Any]])
            expectEqual(buckets.map { $0["start"] as? String }, ["2024-03-30T00:00:00+01:00", "2024-03-31T00:00:00+01:00",
                                                              "2024-04-01T00:00:00+02:00"])
            expectEqual(buckets.map { number($0["sum"]) }, [0, 0, 0])
        }
    }

    func weekStartChangesWeekBuckets() throws {
        try CLIRunner.withTemporaryStore { cli in
            let sunday = try object(cli.run(["stats", "steps", "--from", "2024-05-29", "--to", "2024-06-04", "--by", "week",
                                             "--week-start", "sun", "--format", "json"]))
            let buckets = try #require(sunday["buckets"] as? [[String: Any]])
            expectEqual(buckets.map { $0["start"] as? String }, ["2024-05-29T00:00:00+00:00", "2024-06-02T00:00:00+00:00"])
        }
    }

    // MARK: Sleep

    func sleepListsNightsWithMergedStages() throws {
        try CLIRunner.withTemporaryStore { cli in
            try grant(cli, Self.phone, "sleep")
            try grant(cli, Self.watch, "sleep")
            try add(cli, ["sleep", "23:00-07:00", "--source", Self.phone])
            try add(cli, ["sleep", "--from", "2024-05-31T23:30", "--to", "2024-06-01T03:00", "--stage", "core", "--source", Self.watch])
            try add(cli, ["sleep", "--from", "2024-06-01T03:00", "--to", "2024-06-01T03:30", "--stage", "awake", "--source", Self.watch])
            try add(cli, ["sleep", "--from", "2024-06-01T03:30", "--to", "2024-06-01T06:30", "--stage", "rem", "--source", Self.watch])
            let stats = try object(cli.run(["stats", "sleep", "--week", "--format", "json"]))
            let nights = try #require(stats["nights"] as? [[String: Any]])
            expectEqual(nights.count, 7)
            expectEqual(nights.first?["date"] as? String, "2024-05-26")
            let last = try #require(nights.last)
            expectEqual(last["date"] as? String, "2024-06-01")
            // Watch 23:30–06:30 wins (core 3.5 h, awake 30 min, REM 3 h); the phone fills 23:00–23:30 and 06:30–07:00.
            expectEqual(number(last["asleep"]), 7.5 * 3600)
            expectEqual(number(last["awake"]), 1_800)
            expectEqual(number(last["asleepCore"]), 3.5 * 3600)
            expectEqual(number(last["asleepREM"]), 3.0 * 3600)
            expectEqual(number(last["asleepUnspecified"]), 3_600)
            expectEqual(number(nights[0]["asleep"]), 0)
            #expect(nights[0]["efficiency"] is NSNull)

            let csv = try cli.run(["stats", "sleep", "--week", "--by", "night", "--format", "csv"])
            let lines = csv.stdout.split(separator: "\n")
            expectEqual(lines.first, "date,start,end,asleep,inBed,awake,asleepUnspecified,asleepCore,asleepDeep,asleepREM,efficiency,count,unit")
            expectEqual(lines.count, 8)
            let table = try cli.run(["stats", "sleep", "--week"])
            #expect(table.stdout.contains("Nights (named after the morning they end on; 12:00 to 12:00):"))
            #expect(table.stdout.contains("2024-06-01  7 h 30 min"))
        }
    }

    // MARK: sources and trend (need SourcesCommand and TrendCommand registered in HKCtl.commands)

    func sourcesListsAndSetsPriority() throws {
        try CLIRunner.withTemporaryStore { cli in
            try addWWDCDay(cli)
            let listed = try cli.run(["sources", "--format", "json"])
            expectEqual(listed.status, 0, "\(listed.stderr)")
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
            expectEqual(rows.map { $0["source"] as? String }, [Self.watch, Self.phone])
            expectEqual(rows.map { number($0["count"]) }, [2, 2])
            expectEqual(rows.first?["first"] as? String, "2024-06-01T07:00:00+00:00")

            let set = try cli.run(["sources", "priority", "steps", Self.phone, "Nobody"])
            expectEqual(set.status, 0)
            #expect(set.stderr.contains("Warning: no steps samples from 'Nobody'"))
            #expect(set.stdout.contains("1  \(Self.phone)"))
            #expect(number(try object(cli.run(["stats", "steps", "--format", "json"]))["sum"]) == 7_402)

            let shown = try object(cli.run(["sources", "priority", "steps", "--format", "json"]))
            expectEqual(shown["stored"] as? [String], [Self.phone, "Nobody"])
            let reset = try cli.run(["sources", "priority", "steps", "--reset"])
            expectEqual(reset.status, 0)
            #expect(number(try object(cli.run(["stats", "steps", "--format", "json"]))["sum"]) == 8_002)

            let duplicate = try cli.run(["sources", "priority", "steps", "A", "A"])
            expectEqual(duplicate.status, 64)
            #expect(duplicate.stderr.contains("'A' is named twice"))
            // Only the owner changes the order; another source may look at it.
            let notOwner = try cli.run(["sources", "priority", "steps", Self.phone, "--source", Self.watch])
            expectEqual(notOwner.status, 77)
            try expectEqual(cli.run(["sources", "priority", "steps", "--source", Self.watch]).status, 0)
        }
    }

    func trendOfWeightAndSteps() throws {
        try CLIRunner.withTemporaryStore { cli in
            // Weight 70.0 on 05-27 (Monday) rising 0.2 kg a day to 71.0 on 06-01.
            for (offset, day) in ["05-27", "05-28", "05-29", "05-30", "05-31", "06-01"].enumerated() {
                try add(cli, ["weight", "\(70 + 0.2 * Double(offset))kg", "--at", "2024-\(day)T07:00"])
                try add(cli, ["steps", "\(1000 * (offset + 1))", "--from", "2024-\(day)T09:00", "--to", "2024-\(day)T10:00"])
            }
            let trend = try object(cli.run(["trend", "weight", "--week", "--window", "3", "--format", "json"]))
            expectEqual(trend["measure"] as? String, "average")
            let days = try #require(trend["days"] as? [[String: Any]])
            expectEqual(days.count, 7)
            #expect(days[0]["value"] is NSNull)
            #expect(abs((number(days[6]["movingAverage"]) ?? 0) - 70.8) < 1e-9)  // (70.6 + 70.8 + 71.0) / 3
            let change = try #require(trend["change"] as? [String: Any])
            #expect(abs((number(change["absolute"]) ?? 0) - 1.0) < 1e-9)
            let weekdays = try #require(trend["weekdays"] as? [[String: Any]])
            expectEqual(weekdays.first?["weekday"] as? String, "monday")

            let steps = try cli.run(["trend", "steps", "--week"])
            expectEqual(steps.status, 0, "\(steps.stderr)")
            #expect(steps.stdout.contains("WEEKDAY"))
            #expect(steps.stdout.contains("monday"))
        }
    }

    /// Sound levels convert to pressures reading by reading (`list --unit Pa`), but their figures stay in dB: an
    /// average of levels is an energy average of the levels, which pressures averaged first would not give (a review
    /// found 0.1109 Pa, the mean of 0.02 and 0.2 Pa, for 77.03 dB).
    func soundLevelFiguresStayInDecibels() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "noise", "60dBASPL", "--at", "2024-05-01T08:00", "-q"]).status, 0)
            try expectEqual(cli.run(["add", "noise", "0.2Pa", "--at", "2024-05-01T09:00", "-q"]).status, 0)
            let listed = try cli.run(["list", "noise", "--unit", "Pa", "--format", "csv", "--from", "2024-05-01"])
            expectEqual(listed.status, 0, "\(listed.stderr)")
            #expect(listed.stdout.contains(",0.02,Pa") && listed.stdout.contains(",0.2,Pa"), "\(listed.stdout)")
            let average = try cli.run(["stats", "noise", "--from", "2024-05-01", "--to", "2024-05-01", "--average", "--format", "csv"])
            #expect(average.stdout.contains(",77.0329,2,dBASPL"), "\(average.stdout) \(average.stderr)")
            let before = cli.snapshot()
            for arguments in [["stats", "noise", "--from", "2024-05-01", "--to", "2024-05-01", "--average", "--unit", "Pa"],
                              ["config", "set", "unit.noise", "Pa"]] {
                let refused = try cli.run(arguments)
                expectEqual(refused.status, 65, "\(arguments): \(refused.stderr)")
                #expect(refused.stderr.hasPrefix("Error: The unit 'Pa' does not measure noise"), "\(arguments): \(refused.stderr)")
                expectEqual(cli.snapshot(), before, "\(arguments)")
            }
        }
    }
}

/// The checks ``StatisticsCLITests/checks(_:)`` runs.
private let statisticsCLITestsChecks: [Check<StatisticsCLITests>] = [
    Check("soundLevelFiguresStayInDecibels", StatisticsCLITests.soundLevelFiguresStayInDecibels),
    Check("mergedByDefaultWithTheSameJSONShape", StatisticsCLITests.mergedByDefaultWithTheSameJSONShape),
    Check("bySourceAddsPerSourceFigures", StatisticsCLITests.bySourceAddsPerSourceFigures),
    Check("storedPriorityIsUsed", StatisticsCLITests.storedPriorityIsUsed),
    Check("explainShowsDroppedAndSplitSamples", StatisticsCLITests.explainShowsDroppedAndSplitSamples),
    Check("figureFlagsChooseTheFigures", StatisticsCLITests.figureFlagsChooseTheFigures),
    Check("filtersBySourceMetadataAndStrictDates", StatisticsCLITests.filtersBySourceMetadataAndStrictDates),
    Check("everyAndAnchorMakeBucketsOfAnyLength", StatisticsCLITests.everyAndAnchorMakeBucketsOfAnyLength),
    Check("dayBucketsAcrossSpringForwardInParis", StatisticsCLITests.dayBucketsAcrossSpringForwardInParis),
    Check("weekStartChangesWeekBuckets", StatisticsCLITests.weekStartChangesWeekBuckets),
    Check("sleepListsNightsWithMergedStages", StatisticsCLITests.sleepListsNightsWithMergedStages),
    Check("sourcesListsAndSetsPriority", StatisticsCLITests.sourcesListsAndSetsPriority),
    Check("trendOfWeightAndSteps", StatisticsCLITests.trendOfWeightAndSteps),
]
