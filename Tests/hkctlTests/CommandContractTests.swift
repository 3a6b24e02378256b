import Foundation
import Testing
import TestKit
import TextSupport

/// The keys of a sample in `list --format json` and `add --format json`.
/// A sample `add` saved: its fields, and `metadata` with the zone it was recorded in (`HKTimeZone`, issue 31).
private let sampleKeys: Set<String> = ["uuid", "type", "start", "end", "value", "unit", "source", "metadata"]
private let waterIdentifier = "HKQuantityTypeIdentifierDietaryWater"
private let stepsIdentifier = "HKQuantityTypeIdentifierStepCount"
private let weightIdentifier = "HKQuantityTypeIdentifierBodyMass"
private let sleepIdentifier = "HKCategoryTypeIdentifierSleepAnalysis"

private func jsonArray(_ result: CLIResult, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Any]] {
    try #require(result.status == 0, "exit \(result.status): \(result.stderr)", sourceLocation: sourceLocation)
    let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    return try #require(parsed as? [[String: Any]], "not an array of objects: \(result.stdout)",
                        sourceLocation: sourceLocation)
}

private func jsonObject(_ result: CLIResult, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
    try #require(result.status == 0, "exit \(result.status): \(result.stderr)", sourceLocation: sourceLocation)
    let parsed = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    return try #require(parsed as? [String: Any], "not one object: \(result.stdout)", sourceLocation: sourceLocation)
}

private func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

private func isClose(_ value: Any?, _ expected: Double, tolerance: Double = 1e-6) -> Bool {
    guard let actual = number(value) else { return false }
    return abs(actual - expected) <= tolerance * max(1, abs(expected))
}

private func requireAdd(_ cli: CLIRunner, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
    let result = try cli.run(["add"] + arguments)
    try #require(result.status == 0, "add \(arguments): \(result.stderr)", sourceLocation: sourceLocation)
}

private func isLowercaseUUID(_ value: Any?) -> Bool {
    guard let text = value as? String, let uuid = UUID(uuidString: text) else { return false }
    return uuid.uuidString.lowercased() == text
}

private func date(_ value: Any?) -> Date? {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    return (value as? String).flatMap { formatter.date(from: $0) }
}

/// One way of typing a water amount.
struct WaterAmount: Sendable, CustomTestStringConvertible {
    let arguments: [String]
    /// The value and unit `add` echoes: the amount as typed.
    let value: Double
    let unit: String
    /// The same amount in the type's display unit, as `list` shows it.
    let milliliters: Double
    var testDescription: String { arguments.joined(separator: " ") }
}

/// A named range option and the water values (one sample each, see `seedRanges`) it must list, newest first.
struct RangeCase: Sendable, CustomTestStringConvertible {
    let options: [String]
    let values: [Double]
    var testDescription: String { options.isEmpty ? "(no range)" : options.joined(separator: " ") }
}

/// Where a global option goes on the command line.
struct Placement: Sendable, CustomTestStringConvertible {
    let arguments: [String]
    var testDescription: String { arguments.joined(separator: " ") }
}

/// A zone's day with a daylight-saving change and its length in hours.
struct DSTDay: Sendable, CustomTestStringConvertible {
    let zone: String
    let day: String
    let now: String
    let hours: Int
    let from: String
    let to: String
    var testDescription: String { "\(zone) \(day): \(hours) h" }
}

struct CommandContractTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: commandContractTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    // MARK: - add

    static let waterAmounts: [WaterAmount] = [
        WaterAmount(arguments: ["0.5L"], value: 0.5, unit: "L", milliliters: 500),
        WaterAmount(arguments: ["500", "mL"], value: 500, unit: "mL", milliliters: 500),
        WaterAmount(arguments: ["16.9fl_oz_us"], value: 16.9, unit: "fl_oz_us", milliliters: 16.9 * 29.5735295625),
    ]

    @Test(arguments: CommandContractTests.waterAmounts)
    func addWater(_ amount: WaterAmount) throws {
        try CLIRunner.withTemporaryStore { cli in
            let added = try jsonObject(cli.run(["add", "water"] + amount.arguments + ["--at", "08:00", "--format", "json"]))
            expectEqual(Set(added.keys), sampleKeys)
            #expect(isLowercaseUUID(added["uuid"]))
            expectEqual(added["type"] as? String, waterIdentifier)
            expectEqual(added["start"] as? String, "2024-06-01T08:00:00+00:00")
            expectEqual(added["end"] as? String, "2024-06-01T08:00:00+00:00")
            #expect(isClose(added["value"], amount.value))
            expectEqual(added["unit"] as? String, amount.unit)
            expectEqual(added["source"] as? String, "hkctl")

            let listed = try jsonArray(cli.run(["list", "water", "--format", "json"]))
            expectEqual(listed.count, 1)
            expectEqual(listed.first?["uuid"] as? String, added["uuid"] as? String)
            #expect(isClose(listed.first?["value"], amount.milliliters))
            expectEqual(listed.first?["unit"] as? String, "mL")
        }
    }

    func addPrintsTheSavedSampleWithItsUUIDInEveryFormat() throws {
        try CLIRunner.withTemporaryStore { cli in
            let table = try cli.run(["add", "water", "0.5L", "--at", "07:00"])
            expectEqual(table.status, 0, "\(table.stderr)")
            let json = try cli.run(["add", "water", "0.25L", "--at", "08:00", "--format", "json"])
            let csv = try cli.run(["add", "water", "0.75L", "--at", "09:00", "--format", "csv"])
            expectEqual(csv.status, 0, "\(csv.stderr)")
            let object = try jsonObject(json)
            let listed = try jsonArray(cli.run(["list", "water", "--format", "json"]))
            try #require(listed.count == 3)
            let uuids = listed.compactMap { $0["uuid"] as? String }
            expectEqual(uuids.count, 3)
            // Newest first: 09:00 (csv), 08:00 (json), 07:00 (table).
            #expect(table.stdout.contains(uuids[2]), "table output: \(table.stdout)")
            expectEqual(object["uuid"] as? String, uuids[1])
            let csvLines = csv.stdout.split(separator: "\n").map(String.init)
            expectEqual(csvLines.count, 2)
            expectEqual(csvLines.first, "uuid,type,start,end,value,unit,source,metadata")
            #expect(csvLines.last?.hasPrefix(uuids[0] + ",") ?? false, "csv output: \(csv.stdout)")
            #expect(table.stderr.isEmpty && json.stderr.isEmpty && csv.stderr.isEmpty)
        }
    }

    func addStepsOverAnInterval() throws {
        try CLIRunner.withTemporaryStore { cli in
            let added = try jsonObject(cli.run(["add", "steps", "8000", "--from", "08:00", "--to", "09:00", "--format", "json"]))
            expectEqual(Set(added.keys), sampleKeys)
            expectEqual(added["type"] as? String, stepsIdentifier)
            expectEqual(added["start"] as? String, "2024-06-01T08:00:00+00:00")
            expectEqual(added["end"] as? String, "2024-06-01T09:00:00+00:00")
            #expect(isClose(added["value"], 8000))
            expectEqual(added["unit"] as? String, "count")
        }
    }

    func addWeightInPoundsAndStones() throws {
        try CLIRunner.withTemporaryStore { cli in
            let pounds = try jsonObject(cli.run(["add", "weight", "160lb", "--at", "07:00", "--format", "json"]))
            expectEqual(pounds["type"] as? String, weightIdentifier)
            #expect(isClose(pounds["value"], 160))
            expectEqual(pounds["unit"] as? String, "lb")
            let stones = try jsonObject(cli.run(["add", "weight", "11st", "--at", "07:30", "--format", "json"]))
            #expect(isClose(stones["value"], 11))
            expectEqual(stones["unit"] as? String, "st")

            let inKilograms = try jsonArray(cli.run(["list", "weight", "--format", "json"]))
            expectEqual(inKilograms.count, 2)
            #expect(isClose(inKilograms.first?["value"], 11 * 6.35029318))
            #expect(isClose(inKilograms.last?["value"], 160 * 0.45359237))
            #expect(inKilograms.allSatisfy { $0["unit"] as? String == "kg" })

            let inPounds = try jsonArray(cli.run(["list", "weight", "--unit", "lb", "--format", "json"]))
            #expect(isClose(inPounds.first?["value"], 154))
            #expect(isClose(inPounds.last?["value"], 160))
            #expect(inPounds.allSatisfy { $0["unit"] as? String == "lb" })
        }
    }

    func addSleepAsAClockRangeEndingThisMorning() throws {
        try CLIRunner.withTemporaryStore { cli in
            let added = try jsonObject(cli.run(["add", "sleep", "23:10-07:05", "--format", "json"]))
            expectEqual(Set(added.keys), sampleKeys)
            expectEqual(added["type"] as? String, sleepIdentifier)
            expectEqual(added["start"] as? String, "2024-05-31T23:10:00+00:00")
            expectEqual(added["end"] as? String, "2024-06-01T07:05:00+00:00")
            expectEqual(added["value"] as? String, "asleepUnspecified")
            #expect(added["unit"] is NSNull)
        }
    }

    func addSleepWithFromToAndStage() throws {
        try CLIRunner.withTemporaryStore { cli in
            let added = try jsonObject(cli.run(["add", "sleep", "--from", "2024-06-01T01:00", "--to", "2024-06-01T02:30",
                                                "--stage", "deep", "--format", "json"]))
            expectEqual(added["start"] as? String, "2024-06-01T01:00:00+00:00")
            expectEqual(added["end"] as? String, "2024-06-01T02:30:00+00:00")
            expectEqual(added["value"] as? String, "asleepDeep")
            #expect(added["unit"] is NSNull)

            let listed = try jsonArray(cli.run(["list", "sleep", "--format", "json"]))
            expectEqual(listed.count, 1)
            expectEqual(listed.first.map { Set($0.keys) }, sampleKeys)
            expectEqual(listed.first?["value"] as? String, "asleepDeep")
            #expect(listed.first?["unit"] is NSNull)
            expectEqual(listed.first?["type"] as? String, sleepIdentifier)
        }
    }

    // MARK: - list

    func listIsNewestFirstWithExactKeysLimitAndUnit() throws {
        try CLIRunner.withTemporaryStore { cli in
            try requireAdd(cli, ["water", "200mL", "--at", "08:00"])
            try requireAdd(cli, ["water", "100mL", "--at", "07:00"])
            try requireAdd(cli, ["water", "300mL", "--at", "09:00"])

            let all = try jsonArray(cli.run(["list", "water", "--format", "json"]))
            expectEqual(all.count, 3)
            expectEqual(all.map { number($0["value"]) }, [300, 200, 100])
            expectEqual(all.map { $0["start"] as? String }, [
                "2024-06-01T09:00:00+00:00", "2024-06-01T08:00:00+00:00", "2024-06-01T07:00:00+00:00",
            ])
            for sample in all {
                expectEqual(Set(sample.keys), sampleKeys)
                expectEqual(sample["type"] as? String, waterIdentifier)
                #expect(sample["value"] is NSNumber)
                expectEqual(sample["unit"] as? String, "mL")
                expectEqual(sample["source"] as? String, "hkctl")
                #expect(isLowercaseUUID(sample["uuid"]))
            }

            let limited = try jsonArray(cli.run(["list", "water", "--limit", "2", "--format", "json"]))
            expectEqual(limited.map { number($0["value"]) }, [300, 200])

            let inLiters = try jsonArray(cli.run(["list", "water", "--unit", "L", "--format", "json"]))
            expectEqual(inLiters.count, 3)
            #expect(isClose(inLiters.first?["value"], 0.3))
            #expect(inLiters.allSatisfy { $0["unit"] as? String == "L" })

            let empty = try jsonArray(cli.run(["list", "steps", "--format", "json"]))
            #expect(empty.isEmpty)
        }
    }

    func listAsCSV() throws {
        try CLIRunner.withTemporaryStore { cli in
            try requireAdd(cli, ["water", "100mL", "--at", "07:00"])
            try requireAdd(cli, ["water", "300mL", "--at", "09:00"])
            let result = try cli.run(["list", "water", "--format", "csv"])
            expectEqual(result.status, 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            // The metadata column is always there (empty for a sample without metadata), so scripts see one header.
            expectEqual(lines.first, "uuid,type,start,end,value,unit,source,metadata")
            expectEqual(lines.count, 4)
            expectEqual(lines.last, "")
            let first = lines.count > 1 ? lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init) : []
            expectEqual(first.count, 8)
            if first.count == 8 {
                #expect(UUID(uuidString: first[0]) != nil)
                expectEqual(Array(first[1...]), [waterIdentifier, "2024-06-01T09:00:00+00:00", "2024-06-01T09:00:00+00:00",
                                                 "300", "mL", "hkctl", "\"{\"\"HKTimeZone\"\":\"\"GMT\"\"}\""])
            }
            let empty = try cli.run(["list", "steps", "--format", "csv"])
            expectEqual(empty.status, 0)
            expectEqual(empty.stdout, "uuid,type,start,end,value,unit,source,metadata\n")
        }
    }

    /// RFC 4180: a field with a comma, a quote or a line break is quoted, its quotes doubled; others are not.
    func csvQuotesFieldsThatNeedIt() throws {
        try CLIRunner.withTemporaryStore { cli in
            let folder = (cli.storePath as NSString).deletingLastPathComponent
            let xml = """
                <?xml version="1.0" encoding="UTF-8"?>
                <HealthData locale="en_US">
                 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Bob, &quot;the&quot; phone" unit="count" \
                startDate="2024-05-31 08:00:00 +0000" endDate="2024-05-31 08:10:00 +0000" value="420"/>
                 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Zoë’s watch" unit="count" \
                startDate="2024-05-31 09:00:00 +0000" endDate="2024-05-31 09:10:00 +0000" value="42"/>
                </HealthData>

                """
            try xml.write(toFile: folder + "/quoted.xml", atomically: true, encoding: .utf8)
            let imported = try cli.run(["import", folder + "/quoted.xml"])
            expectEqual(imported.status, 0, "\(imported.stderr)")
            let result = try cli.run(["list", "steps", "--from", "2024-05-31", "--to", "2024-05-31", "--format", "csv"])
            expectEqual(result.status, 0, "\(result.stderr)")
            let lines = result.stdout.split(separator: "\n").map(String.init)
            expectEqual(lines.count, 3)
            #expect(lines.contains { $0.hasSuffix(",420,count,\"Bob, \"\"the\"\" phone\",") }, "\(lines)")
            #expect(lines.contains { $0.hasSuffix(",42,count,Zoë’s watch,") }, "\(lines)")
        }
    }

    /// Water samples: today 100, yesterday 200, 4 days ago 300, 22 days ago 400, 138 days ago 500, 17 months ago 600.
    private static func seedRanges(_ cli: CLIRunner) throws {
        for (value, time) in [(600, "2023-01-01T08:00"), (500, "2024-01-15T08:00"), (400, "2024-05-10T08:00"),
                              (300, "2024-05-28T08:00"), (200, "2024-05-31T08:00"), (100, "2024-06-01T08:00")] {
            try requireAdd(cli, ["water", "\(value)mL", "--at", time])
        }
    }

    static let ranges: [RangeCase] = [
        RangeCase(options: [], values: [100, 200, 300, 400, 500, 600]),
        RangeCase(options: ["--today"], values: [100]),
        RangeCase(options: ["--yesterday"], values: [200]),
        RangeCase(options: ["--week"], values: [100, 200, 300]),
        RangeCase(options: ["--month"], values: [100, 200, 300, 400]),
        RangeCase(options: ["--year"], values: [100, 200, 300, 400, 500]),
        // A date-only --to includes that whole day.
        RangeCase(options: ["--from", "2024-05-28", "--to", "2024-05-31"], values: [200, 300]),
        RangeCase(options: ["--from", "2024-05-28", "--to", "2024-05-31T07:59"], values: [300]),
        RangeCase(options: ["--from", "2024-05-31T08:00"], values: [100, 200]),
        RangeCase(options: ["--to", "2024-01-15"], values: [500, 600]),
    ]

    @Test(arguments: CommandContractTests.ranges)
    func listRange(_ range: RangeCase) throws {
        try CLIRunner.withTemporaryStore { cli in
            try Self.seedRanges(cli)
            let listed = try jsonArray(cli.run(["list", "water", "--format", "json"] + range.options))
            expectEqual(listed.compactMap { number($0["value"]) }, range.values)
        }
    }

    // MARK: - stats

    func statsWaterToday() throws {
        try CLIRunner.withTemporaryStore { cli in
            try requireAdd(cli, ["water", "500mL", "--at", "08:00"])
            try requireAdd(cli, ["water", "0.25L", "--at", "10:00"])
            try requireAdd(cli, ["water", "1L", "--at", "2024-05-31T10:00"])
            let stats = try jsonObject(cli.run(["stats", "water", "--today", "--format", "json"]))
            expectEqual(Set(stats.keys), ["type", "unit", "from", "to", "sum", "count"])
            expectEqual(stats["type"] as? String, waterIdentifier)
            expectEqual(stats["unit"] as? String, "mL")
            expectEqual(stats["from"] as? String, "2024-06-01T00:00:00+00:00")
            expectEqual(stats["to"] as? String, "2024-06-02T00:00:00+00:00")
            #expect(isClose(stats["sum"], 750))
            #expect(isClose(stats["count"], 2))

            let liters = try jsonObject(cli.run(["stats", "water", "--today", "--unit", "L", "--format", "json"]))
            expectEqual(liters["unit"] as? String, "L")
            #expect(isClose(liters["sum"], 0.75))

            // The default range is today.
            let defaulted = try jsonObject(cli.run(["stats", "water", "--format", "json"]))
            #expect(isClose(defaulted["sum"], 750))
        }
    }

    func statsStepsByDayOverAWeek() throws {
        try CLIRunner.withTemporaryStore { cli in
            try requireAdd(cli, ["steps", "8000", "--from", "08:00", "--to", "09:00"])
            try requireAdd(cli, ["steps", "3000", "--from", "2024-05-28T10:00", "--to", "2024-05-28T11:00"])
            let stats = try jsonObject(cli.run(["stats", "steps", "--week", "--by", "day", "--format", "json"]))
            #expect(isClose(stats["sum"], 11000))
            let buckets = try #require(stats["buckets"] as? [[String: Any]])
            expectEqual(buckets.count, 7)
            expectEqual(buckets.first?["start"] as? String, "2024-05-26T00:00:00+00:00")
            expectEqual(buckets.last?["end"] as? String, "2024-06-02T00:00:00+00:00")
            let sums = buckets.map { number($0["sum"]) }
            expectEqual(sums, [0, 0, 3000, 0, 0, 0, 8000])
            expectEqual(buckets.map { number($0["count"]) }, [0, 0, 1, 0, 0, 0, 1])
        }
    }

    func statsWeightIsDiscrete() throws {
        try CLIRunner.withTemporaryStore { cli in
            try requireAdd(cli, ["weight", "70kg", "--at", "07:00"])
            try requireAdd(cli, ["weight", "72kg", "--at", "08:00"])
            try requireAdd(cli, ["weight", "71kg", "--at", "2024-05-30T07:00"])
            let stats = try jsonObject(cli.run(["stats", "weight", "--week", "--by", "day", "--format", "json"]))
            expectEqual(stats["unit"] as? String, "kg")
            #expect(isClose(stats["average"], 71))
            #expect(isClose(stats["minimum"], 70))
            #expect(isClose(stats["maximum"], 72))
            #expect(isClose(stats["mostRecent"], 72))
            #expect(isClose(stats["count"], 3))
            expectNil(stats["sum"])
            let buckets = try #require(stats["buckets"] as? [[String: Any]])
            expectEqual(buckets.count, 7)
            for (index, bucket) in buckets.enumerated() where index != 4 && index != 6 {
                for key in ["average", "minimum", "maximum", "mostRecent"] {
                    #expect(bucket[key] is NSNull, "bucket \(index) \(key)")
                }
                #expect(isClose(bucket["count"], 0))
            }
            if buckets.count == 7 {
                #expect(isClose(buckets[6]["average"], 71))
                #expect(isClose(buckets[6]["mostRecent"], 72))
                #expect(isClose(buckets[4]["average"], 71))
                #expect(isClose(buckets[4]["minimum"], 71))
            }

            let pounds = try jsonObject(cli.run(["stats", "weight", "--today", "--unit", "lb", "--format", "json"]))
            expectEqual(pounds["unit"] as? String, "lb")
            // A derived figure in lb keeps 3 decimals (docs/STATISTICS.md, "Rounding in JSON and CSV").
            expectEqual(number(pounds["maximum"]), 158.733)
        }
    }

    func statsSleepCountsOverlapsOnce() throws {
        try CLIRunner.withTemporaryStore { cli in
            try requireAdd(cli, ["sleep", "23:10-07:05"])
            try requireAdd(cli, ["sleep", "--from", "2024-06-01T01:00", "--to", "2024-06-01T02:00", "--stage", "deep"])
            try requireAdd(cli, ["sleep", "22:50-07:15", "--stage", "inbed"])
            let stats = try jsonObject(cli.run(["stats", "sleep", "--from", "2024-05-31", "--to", "2024-06-01",
                                                "--format", "json"]))
            expectEqual(stats["type"] as? String, sleepIdentifier)
            expectEqual(stats["unit"] as? String, "s")
            #expect(isClose(stats["asleep"], 7 * 3600 + 55 * 60))
            #expect(isClose(stats["inBed"], 8 * 3600 + 25 * 60))
            #expect(isClose(stats["count"], 3))

            // Calendar days, when asked for: the night is cut at midnight.
            let byDay = try jsonObject(cli.run(["stats", "sleep", "--from", "2024-05-31", "--to", "2024-06-01",
                                                "--by", "day", "--clip-to-days", "--format", "json"]))
            let buckets = try #require(byDay["buckets"] as? [[String: Any]])
            expectEqual(buckets.count, 2)
            let asleepPerDay: [Double?] = buckets.map { number($0["asleep"]) }
            let expectedPerDay: [Double?] = [3000, 25_500]  // 23:10-24:00 and 00:00-07:05
            expectEqual(asleepPerDay, expectedPerDay)
        }
    }

    func statsSplitsAStraddlingSampleAcrossDays() throws {
        try CLIRunner.withTemporaryStore { cli in
            try requireAdd(cli, ["steps", "1000", "--from", "2024-05-30T23:00", "--to", "2024-05-31T01:00"])
            let stats = try jsonObject(cli.run(["stats", "steps", "--from", "2024-05-30", "--to", "2024-05-31",
                                                "--by", "day", "--format", "json"]))
            #expect(isClose(stats["sum"], 1000))
            let buckets = try #require(stats["buckets"] as? [[String: Any]])
            expectEqual(buckets.count, 2)
            expectEqual(buckets.map { number($0["sum"]) }, [500, 500])

            let yesterday = try jsonObject(cli.run(["stats", "steps", "--yesterday", "--format", "json"]))
            #expect(isClose(yesterday["sum"], 500))
        }
    }

    static let dstDays: [DSTDay] = [
        DSTDay(zone: "Europe/Paris", day: "2024-03-31", now: "2024-03-31T20:00:00Z", hours: 23,
               from: "2024-03-31T00:00:00+01:00", to: "2024-04-01T00:00:00+02:00"),
        DSTDay(zone: "America/New_York", day: "2024-11-03", now: "2024-06-01T12:00:00Z", hours: 25,
               from: "2024-11-03T00:00:00-04:00", to: "2024-11-04T00:00:00-05:00"),
    ]

    @Test(arguments: CommandContractTests.dstDays)
    func hourBucketsFollowDaylightSaving(_ day: DSTDay) throws {
        try CLIRunner.withTemporaryStore { cli in
            let stats = try jsonObject(cli.run(
                ["stats", "steps", "--from", day.day, "--to", day.day, "--by", "hour", "--format", "json", "--tz", day.zone],
                environment: ["HKCTL_NOW": day.now]))
            expectEqual(stats["from"] as? String, day.from)
            expectEqual(stats["to"] as? String, day.to)
            let buckets = try #require(stats["buckets"] as? [[String: Any]])
            expectEqual(buckets.count, day.hours)
            for (index, bucket) in buckets.enumerated() {
                let start = try #require(date(bucket["start"]))
                let end = try #require(date(bucket["end"]))
                expectEqual(end.timeIntervalSince(start), 3600, "bucket \(index)")
                #expect(isClose(bucket["sum"], 0))
                if index + 1 < buckets.count { expectEqual(bucket["end"] as? String, buckets[index + 1]["start"] as? String) }
            }
        }
    }

    // MARK: - types

    func typesAsJSON() throws {
        try CLIRunner.withTemporaryStore { cli in
            let types = try jsonArray(cli.run(["types", "--format", "json"]))
            let names = types.compactMap { $0["name"] as? String }
            expectEqual(names.count, types.count)
            expectEqual(Set(names).count, names.count, "duplicate names")
            #expect(Set(names).isSuperset(of: ["water", "steps", "weight", "sleep"]))
            let aggregations: Set<String> = ["cumulative", "discreteArithmetic", "discreteTemporallyWeighted",
                                             "discreteEquivalentContinuousLevel", "category"]
            for type in types {
                // The documented contract keys, plus kind and examples.
                expectEqual(Set(type.keys), ["name", "identifier", "unit", "aggregation", "kind", "examples"], "\(type)")
                #expect((type["identifier"] as? String)?.hasPrefix("HK") ?? false, "\(type)")
                #expect(type["unit"] is String || type["unit"] is NSNull, "\(type)")
                #expect(aggregations.contains(type["aggregation"] as? String ?? ""), "\(type)")
            }
            let byName = Dictionary(uniqueKeysWithValues: types.compactMap { type in (type["name"] as? String).map { ($0, type) } })
            expectEqual(byName["water"]?["identifier"] as? String, waterIdentifier)
            expectEqual(byName["water"]?["unit"] as? String, "mL")
            expectEqual(byName["water"]?["aggregation"] as? String, "cumulative")
            expectEqual(byName["steps"]?["unit"] as? String, "count")
            expectEqual(byName["weight"]?["unit"] as? String, "kg")
            expectEqual(byName["weight"]?["aggregation"] as? String, "discreteArithmetic")
            expectEqual(byName["sleep"]?["identifier"] as? String, sleepIdentifier)
            #expect(byName["sleep"]?["unit"] is NSNull)
            // Reading the catalogue creates no store.
            #expect(!FileManager.default.fileExists(atPath: cli.storePath))
        }
    }

    // MARK: - the store on disk

    func storeIsPrivate() throws {
        try CLIRunner.withTemporaryStore { cli in
            try requireAdd(cli, ["water", "0.5L"])
            try requireAdd(cli, ["sleep", "23:10-07:05"])
            let files = FileManager.default
            func mode(_ path: String) throws -> Int {
                try #require((files.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue)
            }
            try expectEqual(mode(cli.storePath), 0o700)
            let entries = try #require(files.subpaths(atPath: cli.storePath))
            #expect(entries.contains("hkctl-store.json"))
            #expect(entries.contains("samples/\(waterIdentifier)/2024-06.jsonl"))
            for entry in entries {
                let path = cli.storePath + "/" + entry
                var isFolder: ObjCBool = false
                _ = files.fileExists(atPath: path, isDirectory: &isFolder)
                try expectEqual(mode(path), (isFolder.boolValue ? 0o700 : 0o600), "\(entry)")
            }
        }
    }

    // MARK: - global options and environment

    static let formatPlacements: [Placement] = [
        Placement(arguments: ["--format", "json", "list", "water"]),
        Placement(arguments: ["list", "--format", "json", "water"]),
        Placement(arguments: ["list", "water", "--format", "json"]),
        Placement(arguments: ["list", "water", "--format=json"]),
        Placement(arguments: ["--format=json", "list", "water"]),
    ]

    @Test(arguments: CommandContractTests.formatPlacements)
    func formatBeforeOrAfterTheSubcommand(_ placement: Placement) throws {
        try CLIRunner.withTemporaryStore { cli in
            try requireAdd(cli, ["water", "0.5L", "--at", "08:00"])
            let reference = try cli.run(["list", "water", "--format", "json"])
            let result = try cli.run(placement.arguments)
            expectEqual(result.status, 0, "\(result.stderr)")
            expectEqual(result.stdout, reference.stdout)
            try expectEqual(jsonArray(result).count, 1)
        }
    }

    static let storePlacements: [Placement] = [
        Placement(arguments: ["--store", "{other}", "add", "water", "0.5L"]),
        Placement(arguments: ["add", "--store", "{other}", "water", "0.5L"]),
        Placement(arguments: ["add", "water", "0.5L", "--store", "{other}"]),
        Placement(arguments: ["--tz", "UTC", "--store={other}", "--source", "hkctl", "add", "water", "0.5L"]),
    ]

    @Test(arguments: CommandContractTests.storePlacements)
    func storeBeforeOrAfterTheSubcommand(_ placement: Placement) throws {
        try CLIRunner.withTemporaryStore { cli in
            let other = (cli.storePath as NSString).deletingLastPathComponent + "/other-store"
            let result = try cli.run(placement.arguments.map { $0.replacingOccurrences(of: "{other}", with: other) })
            expectEqual(result.status, 0, "\(result.stderr)")
            #expect(FileManager.default.fileExists(atPath: other + "/hkctl-store.json"))
            #expect(!FileManager.default.fileExists(atPath: cli.storePath), "$HKCTL_STORE was used instead of --store")
            let listed = try jsonArray(cli.run(["--store", other, "list", "water", "--format", "json"]))
            expectEqual(listed.count, 1)
        }
    }

    func timeZoneBeforeTheSubcommand() throws {
        try CLIRunner.withTemporaryStore { cli in
            try requireAdd(cli, ["water", "0.5L", "--at", "2024-06-01T08:00:00Z"])
            let listed = try jsonArray(cli.run(["--tz", "Europe/Paris", "list", "water", "--format", "json"]))
            expectEqual(listed.first?["start"] as? String, "2024-06-01T10:00:00+02:00")
            let added = try jsonObject(cli.run(["--tz", "Europe/Paris", "add", "water", "1L", "--at", "09:00", "--format", "json"]))
            expectEqual(added["start"] as? String, "2024-06-01T09:00:00+02:00")
        }
    }

    func sourceComesFromTheEnvironmentAndTheOptionOverridesIt() throws {
        try CLIRunner.withTemporaryStore { cli in
            // Sources other than the owner need the owner's permission to write (see AuthCLITests).
            for source in ["my-watch", "scale", "phone"] {
                try expectEqual(cli.run(["auth", "grant", source, "--share", "water"]).status, 0)
            }
            let fromEnvironment = try jsonObject(cli.run(["add", "water", "0.1L", "--at", "07:00", "--format", "json"],
                                                         environment: ["HKCTL_SOURCE": "my-watch"]))
            expectEqual(fromEnvironment["source"] as? String, "my-watch")
            let overridden = try jsonObject(cli.run(["add", "water", "0.2L", "--at", "08:00", "--source", "scale",
                                                     "--format", "json"], environment: ["HKCTL_SOURCE": "my-watch"]))
            expectEqual(overridden["source"] as? String, "scale")
            let before = try jsonObject(cli.run(["--source", "phone", "add", "water", "0.3L", "--at", "09:00",
                                                 "--format", "json"]))
            expectEqual(before["source"] as? String, "phone")
            let defaulted = try jsonObject(cli.run(["add", "water", "0.4L", "--at", "10:00", "--format", "json"]))
            expectEqual(defaulted["source"] as? String, "hkctl")

            let listed = try jsonArray(cli.run(["list", "water", "--format", "json"]))
            expectEqual(listed.map { $0["source"] as? String }, ["hkctl", "phone", "scale", "my-watch"])
        }
    }
}

/// The checks ``CommandContractTests/checks(_:)`` runs.
private let commandContractTestsChecks: [Check<CommandContractTests>] = [
    Check("addPrintsTheSavedSampleWithItsUUIDInEveryFormat",
          CommandContractTests.addPrintsTheSavedSampleWithItsUUIDInEveryFormat),
    Check("addStepsOverAnInterval", CommandContractTests.addStepsOverAnInterval),
    Check("addWeightInPoundsAndStones", CommandContractTests.addWeightInPoundsAndStones),
    Check("addSleepAsAClockRangeEndingThisMorning", CommandContractTests.addSleepAsAClockRangeEndingThisMorning),
    Check("addSleepWithFromToAndStage", CommandContractTests.addSleepWithFromToAndStage),
    Check("listIsNewestFirstWithExactKeysLimitAndUnit",
          CommandContractTests.listIsNewestFirstWithExactKeysLimitAndUnit),
    Check("listAsCSV", CommandContractTests.listAsCSV),
    Check("csvQuotesFieldsThatNeedIt", CommandContractTests.csvQuotesFieldsThatNeedIt),
    Check("statsWaterToday", CommandContractTests.statsWaterToday),
    Check("statsStepsByDayOverAWeek", CommandContractTests.statsStepsByDayOverAWeek),
    Check("statsWeightIsDiscrete", CommandContractTests.statsWeightIsDiscrete),
    Check("statsSleepCountsOverlapsOnce", CommandContractTests.statsSleepCountsOverlapsOnce),
    Check("statsSplitsAStraddlingSampleAcrossDays", CommandContractTests.statsSplitsAStraddlingSampleAcrossDays),
    Check("typesAsJSON", CommandContractTests.typesAsJSON),
    Check("storeIsPrivate", CommandContractTests.storeIsPrivate),
    Check("timeZoneBeforeTheSubcommand", CommandContractTests.timeZoneBeforeTheSubcommand),
    Check("sourceComesFromTheEnvironmentAndTheOptionOverridesIt",
          CommandContractTests.sourceComesFromTheEnvironmentAndTheOptionOverridesIt),
]
