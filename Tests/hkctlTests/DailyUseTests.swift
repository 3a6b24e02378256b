import Foundation
import Testing
import TestKit

/// What a person and their cron scripts meet every day (issue 22).
struct DailyUseTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: dailyUseTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// A range delete from a script cannot ask, so it deletes nothing without --yes and says how to go on.
    func aRangeDeleteThatCannotAskNeedsYes() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "water", "250mL", "--at", "08:00"]).status, 0)
            try expectEqual(cli.run(["add", "water", "300mL", "--at", "09:00"]).status, 0)
            let before = cli.snapshot()
            let refused = try cli.run(["delete", "water", "--today"])
            expectEqual(refused.status, 64)
            #expect(refused.stderr.contains("--yes") && refused.stderr.contains("2 samples"), "\(refused.stderr)")
            #expect(refused.stdout.isEmpty)
            expectEqual(cli.snapshot(), before)
            let dry = try cli.run(["delete", "water", "--today", "--dry-run"])
            #expect(dry.status == 0 && dry.stdout.contains("300 mL"), "\(dry.stdout)")
            let done = try cli.run(["delete", "water", "--today", "--yes"])
            expectEqual(done.status, 0, "\(done.stderr)")
            try expectEqual(cli.run(["list", "water", "--format", "json"]).stdout, "[]\n")
        }
    }

    /// Deleting one sample by its uuid names exactly what goes, so it needs no --yes.
    func aDeleteByUUIDNeedsNoConfirmation() throws {
        try CLIRunner.withTemporaryStore { cli in
            let added = try cli.run(["add", "water", "250mL", "--at", "08:00", "--format", "json"])
            let uuid = String(try #require(added.stdout.firstMatch(of: /[0-9a-f-]{36}/)).output)
            let result = try cli.run(["delete", uuid])
            expectEqual(result.status, 0, "\(result.stderr)")
        }
    }

    // MARK: Sleep by the night

    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Last night (23:10–07:05) and the night before with stages: every figure of `stats sleep` is by the night.
    private func twoNights(_ cli: CLIRunner) throws {
        try expectEqual(cli.run(["add", "sleep", "23:10-07:05"]).status, 0)
        try expectEqual(cli.run(["add", "sleep", "core", "--from", "2024-05-30T22:00", "--to", "2024-05-31T02:00"]).status, 0)
        try expectEqual(cli.run(["add", "sleep", "inbed", "--from", "2024-05-30T21:30", "--to", "2024-05-31T06:30"]).status, 0)
        try expectEqual(cli.run(["add", "sleep", "rem", "--from", "2024-05-31T02:00", "--to", "2024-05-31T06:00"]).status, 0)
    }

    func todayIsLastNightWholeAndTheTopLevelIsItsNight() throws {
        try CLIRunner.withTemporaryStore { cli in
            try twoNights(cli)
            let today = try json(try cli.run(["stats", "sleep", "--today", "--format", "json"]).stdout)
            let nights = try #require(today["nights"] as? [[String: Any]])
            expectEqual(nights.count, 1)
            expectEqual((today["asleep"] as? Double), 28_500, "7 h 55 min, not cut at midnight: \(today)")
            expectEqual((today["asleep"] as? Double), (nights[0]["asleep"] as? Double))
            #expect(today["inBed"] is NSNull && nights[0]["inBed"] is NSNull && nights[0]["efficiency"] is NSNull,
                    "no in-bed sample last night: unknown, not 0")
            let table = try cli.run(["stats", "sleep", "--today"]).stdout
            #expect(!table.contains("100 %") && table.contains("7 h 55 min"), "\(table)")
            // The dashboard and the trend say the same.
            let dashboard = try json(try cli.run(["today", "--format", "json"]).stdout)
            expectEqual(((dashboard["sleep"] as? [String: Any])?["asleep"] as? Double), 28_500)
            // The clock's figure is there when asked for.
            let clipped = try json(try cli.run(["stats", "sleep", "--today", "--clip-to-days", "--format", "json"]).stdout)
            expectEqual((clipped["asleep"] as? Double), 25_500, "\(clipped)")
        }
    }

    func byDayIsByNightAndTheWeekSumsItsNights() throws {
        try CLIRunner.withTemporaryStore { cli in
            try twoNights(cli)
            for format in ["json", "csv", "table"] {
                let byDay = try cli.run(["stats", "sleep", "--week", "--by", "day", "--format", format])
                let byNight = try cli.run(["stats", "sleep", "--week", "--by", "night", "--format", format])
                #expect(byDay.status == 0 && byDay.stdout == byNight.stdout, "\(format): \(byDay.stdout)\(byDay.stderr)")
            }
            let week = try json(try cli.run(["stats", "sleep", "--week", "--format", "json"]).stdout)
            let nights = try #require(week["nights"] as? [[String: Any]])
            expectEqual(nights.count, 7)
            let sum = nights.compactMap { $0["asleep"] as? Double }.reduce(0, +)
            #expect((week["asleep"] as? Double) == sum && sum == Double(28_500 + 8 * 3600), "\(week)")
            expectEqual((week["inBed"] as? Double), Double(9 * 3600))
            let night = try #require(nights.first { ($0["date"] as? String) == "2024-05-31" })
            #expect((night["inBed"] as? Double) == Double(9 * 3600) && (night["efficiency"] as? Double) == 0.8889,  // 8/9, a ratio to 4 decimals
                    "\(night)")
            // `--by night` (and `--by day`) has `buckets` as every `--by` does (a review: only `nights`), one a night,
            // each the night's figures.
            let byNight = try json(try cli.run(["stats", "sleep", "--week", "--by", "night", "--format", "json"]).stdout)
            let perNight = try #require(byNight["buckets"] as? [[String: Any]], "\(byNight)")
            let listed = try #require(byNight["nights"] as? [[String: Any]])
            expectEqual(perNight.count, 7)
            expectEqual(perNight.compactMap { $0["start"] as? String }, listed.compactMap { $0["start"] as? String })
            expectEqual(perNight.compactMap { $0["asleep"] as? Double }, listed.compactMap { $0["asleep"] as? Double })
            expectEqual(perNight.compactMap { $0["count"] as? Int }, listed.compactMap { $0["count"] as? Int })
            let monthly = try json(try cli.run(["stats", "sleep", "--week", "--by", "month", "--format", "json"]).stdout)
            let buckets = try #require(monthly["buckets"] as? [[String: Any]])
            expectEqual(buckets.compactMap { $0["asleep"] as? Double }.sum, sum, "\(monthly)")
        }
    }

    func typingANightIsForgivingAndHonest() throws {
        try CLIRunner.withTemporaryStore { cli in
            let length = try cli.run(["add", "sleep", "8h"])
            expectEqual(length.status, 65)
            #expect(length.stderr.contains("23:10-07:05") && length.stderr.contains("--from"), "\(length.stderr)")
            let yesterday = try cli.run(["add", "sleep", "yesterday 22:30-06:45", "--format", "json"])
            expectEqual(yesterday.status, 0, "\(yesterday.stderr)")
            #expect(yesterday.stdout.contains("2024-05-31T22:30:00") && yesterday.stdout.contains("2024-06-01T06:45:00"))
            let daytime = try cli.run(["add", "sleep", "07:00-23:00", "--on", "2024-05-30"])
            expectEqual(daytime.status, 0)
            #expect(daytime.stderr.contains("07:00–23:00") && daytime.stderr.contains("16 hours"), "\(daytime.stderr)")
            #expect(daytime.stderr.contains("write it as 23:00-07:00"), "\(daytime.stderr)")
            // The same clock time twice is a whole day: no reversed range to suggest (it would be the same text).
            let wholeDay = try cli.run(["add", "sleep", "10:00-10:00", "--on", "2024-05-27"])
            expectEqual(wholeDay.status, 0)
            #expect(wholeDay.stderr.contains("24 hours of sleep, longer than a night") && !wholeDay.stderr.contains("write it as"),
                    "\(wholeDay.stderr)")
            try expectEqual(cli.run(["add", "sleep", "deep", "--from", "2024-05-29T01:00", "--to", "2024-05-29T02:00"]).status, 0)
            let overlapping = try cli.run(["add", "sleep", "23:00-06:30", "--on", "2024-05-29"])
            expectEqual(overlapping.status, 0)
            #expect(overlapping.stderr.contains("overlaps 1 sleep stage sample"), "\(overlapping.stderr)")
            let ordinary = try cli.run(["add", "sleep", "23:00-06:30", "--on", "2024-05-28"])
            #expect(ordinary.stderr.isEmpty, "\(ordinary.stderr)")
        }
    }

    func nightIsOfferedWhereverPeriodsAre() throws {
        try CLIRunner.withTemporaryStore { cli in
            let bash = try cli.run(["completions", "bash"]).stdout
            #expect(bash.contains("--by) COMPREPLY=($(compgen -W 'hour day week month year night'"), "night is not completed")
            let wrong = try cli.run(["stats", "steps", "--by", "fortnight"])
            #expect(wrong.status == 64 && wrong.stderr.contains("night"), "\(wrong.stderr)")
        }
    }

    func configGetStorePrintsTheStoreInUse() throws {
        try CLIRunner.withTemporaryStore { cli in
            let result = try cli.run(["config", "get", "store"])
            #expect(result.status == 0 && result.stdout == cli.storePath + "\n", "\(result.stdout)\(result.stderr)")
            let other = try cli.run(["--store", cli.storePath + "-other", "config", "get", "store"])
            expectEqual(other.stdout, cli.storePath + "-other\n")
        }
    }

    /// Every JSON timestamp has one shape: seconds and offset always, milliseconds only when they are not zero.
    func jsonTimestampsHaveOneShape() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "water", "1L", "--at", "2024-06-01T08:00:00.250Z"]).status, 0)
            try expectEqual(cli.run(["add", "water", "1L", "--at", "09:00"]).status, 0)
            let outputs = [try cli.run(["list", "water", "--format", "json"]).stdout,
                           try cli.run(["export", "--format", "jsonl"]).stdout,
                           try cli.run(["changes", "--format", "jsonl"]).stdout]
            for output in outputs {
                let stamps = output.matches(of: /"(?:start|end)":"([^"]+)"/).map { String($0.output.1) }
                #expect(stamps.count >= 4, "\(output)")
                for stamp in stamps {
                    #expect(stamp.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?[+-]\d{2}:\d{2}/) != nil, "\(stamp)")
                    expectEqual(stamp.contains("."), stamp.contains("08:00:00"), "\(stamp): milliseconds only when not zero")
                }
            }
        }
    }

    // MARK: Help a person who typed it wrong

    func aMistypedTypeGetsTheNearestNamesNotAllOfThem() throws {
        try CLIRunner.withTemporaryStore { cli in
            let result = try cli.run(["add", "watr", "0.5L"])
            expectEqual(result.status, 64)
            #expect(result.stderr.contains("did you mean 'water'?"), "\(result.stderr)")
            #expect(result.stderr.count < 200 && !result.stderr.contains("menstrual-flow"), "\(result.stderr)")
            let two = try cli.run(["list", "wieght"])
            #expect(two.stderr.contains("'weight'") && two.stderr.contains("'height'"), "\(two.stderr)")
            let none = try cli.run(["add", "xyzzy", "1"])
            #expect(none.stderr.contains("hkctl types") && !none.stderr.contains("did you mean"), "\(none.stderr)")
        }
    }

    func anAmountOutOfRangeIsReportedInTheUnitTyped() throws {
        try CLIRunner.withTemporaryStore { cli in
            let heart = try cli.run(["add", "heart-rate", "610count/min"])
            expectEqual(heart.status, 65)
            #expect(heart.stderr.contains("610 count/min is outside the plausible range 15–300 count/min"), "\(heart.stderr)")
            let water = try cli.run(["add", "water", "40L"])
            #expect(water.stderr.contains("40 L is outside the plausible range 0–20 L"), "\(water.stderr)")
        }
    }

    func countsAreWholeAndNothingIsNoSample() throws {
        try CLIRunner.withTemporaryStore { cli in
            for arguments in [["add", "steps", "12.5"], ["add", "flights", "2.5"], ["add", "water", "0L"], ["add", "steps", "0"]] {
                let result = try cli.run(arguments)
                expectEqual(result.status, 65, "\(arguments): \(result.stderr)")
                #expect(!FileManager.default.fileExists(atPath: cli.storePath + "/samples"), "\(arguments) wrote")
            }
            #expect(try cli.run(["add", "steps", "12.5"]).stderr.contains("whole numbers"))
            #expect(try cli.run(["add", "water", "0L"]).stderr.contains("nothing to log"))
            try expectEqual(cli.run(["add", "steps", "12"]).status, 0)
            try expectEqual(cli.run(["add", "bmi", "23.4"]).status, 0, "a discrete count (BMI) keeps its decimals")
        }
    }

    func globalOptionsAloneShowTheDashboardAndMistakesGetFittingMessages() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "water", "250mL", "--at", "08:00"]).status, 0)
            let dashboard = try cli.run(["--color", "never"])
            #expect(dashboard.status == 0 && dashboard.stdout.hasPrefix("Today"), "\(dashboard.stdout)\(dashboard.stderr)")
            #expect(dashboard.stdout == (try cli.run(["today", "--color", "never"])).stdout)
            let version = try cli.run(["-v"])
            #expect(version.status == 64 && version.stderr.contains("did you mean '--version'?"), "\(version.stderr)")
            #expect(!version.stderr.contains("before the subcommand"))
            let misplaced = try cli.run(["--color", "never", "list", "water"])
            #expect(misplaced.status == 64 && misplaced.stderr.contains("before the subcommand"))
        }
    }

    // MARK: One set of number rules

    func tablesRoundAsPeopleReadAndKeepFullPrecisionInJSON() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "water", "682.53mL", "--at", "08:00"]).status, 0)
            try expectEqual(cli.run(["add", "water", "0.5L", "--at", "09:00"]).status, 0)
            try expectEqual(cli.run(["add", "weight", "72.46kg", "--at", "07:00"]).status, 0)
            let water = try cli.run(["stats", "water"]).stdout
            #expect(water.contains("1183 mL") || water.contains("1,183 mL"), "whole mL: \(water)")
            #expect(!water.contains(".53"), "\(water)")
            let json = try cli.run(["stats", "water", "--format", "json"]).stdout
            #expect(json.contains("\"sum\":1182.53"), "JSON keeps full precision: \(json)")
            let weight = try cli.run(["list", "weight"]).stdout
            #expect(weight.contains("72.5 kg") && !weight.contains("72.46"), "\(weight)")
            #expect(try cli.run(["list", "weight", "--format", "csv"]).stdout.contains("72.46"))
            // A US fluid-ounce preference reads 'fl oz' in tables and the dashboard; JSON keeps HealthKit's spelling.
            try expectEqual(cli.run(["config", "set", "unit.water", "fl_oz_us"]).status, 0)
            let ounces = try cli.run(["list", "water"]).stdout
            #expect(ounces.contains("fl oz") && !ounces.contains("fl_oz_us"), "\(ounces)")
            let dashboard = try cli.run(["today", "--color", "never"]).stdout
            #expect(dashboard.contains("fl oz") && !dashboard.contains("fl_oz_us"), "\(dashboard)")
            #expect(try cli.run(["list", "water", "--format", "json"]).stdout.contains("\"unit\":\"fl_oz_us\""))
        }
    }

    func trendsShowWhatMeansSomething() throws {
        try CLIRunner.withTemporaryStore { cli in
            for (day, steps) in [("2024-05-28", "4211"), ("2024-05-30", "12013"), ("2024-06-01", "8002")] {
                try expectEqual(cli.run(["add", "steps", steps, "--at", day + "T10:00"]).status, 0)
            }
            let steps = try cli.run(["trend", "steps", "--week"]).stdout
            #expect(steps.contains("4,211") && steps.contains("12,013") && steps.contains("8,002"), "grouped whole steps: \(steps)")
            #expect(!steps.contains("Change"), "no change line for a cumulative type: \(steps)")
            #expect(try cli.run(["trend", "steps", "--week", "--format", "json"]).stdout.contains("\"change\":{"))
            try expectEqual(cli.run(["add", "weight", "72.4kg", "--at", "2024-05-10T07:00"]).status, 0)
            try expectEqual(cli.run(["add", "weight", "71.9kg", "--at", "2024-05-31T07:00"]).status, 0)
            let weight = try cli.run(["trend", "weight"]).stdout
            let rows = weight.split(separator: "\n").filter { $0.hasPrefix("2024-") }
            expectEqual(rows.count, 2, "only the days with readings: \(weight)")
            #expect(weight.contains("Change"), "\(weight)")
        }
    }
}

/// The checks ``DailyUseTests/checks(_:)`` runs.
private let dailyUseTestsChecks: [Check<DailyUseTests>] = [
    Check("aRangeDeleteThatCannotAskNeedsYes", DailyUseTests.aRangeDeleteThatCannotAskNeedsYes),
    Check("aDeleteByUUIDNeedsNoConfirmation", DailyUseTests.aDeleteByUUIDNeedsNoConfirmation),
    Check("todayIsLastNightWholeAndTheTopLevelIsItsNight", DailyUseTests.todayIsLastNightWholeAndTheTopLevelIsItsNight),
    Check("byDayIsByNightAndTheWeekSumsItsNights", DailyUseTests.byDayIsByNightAndTheWeekSumsItsNights),
    Check("typingANightIsForgivingAndHonest", DailyUseTests.typingANightIsForgivingAndHonest),
    Check("nightIsOfferedWhereverPeriodsAre", DailyUseTests.nightIsOfferedWhereverPeriodsAre),
    Check("configGetStorePrintsTheStoreInUse", DailyUseTests.configGetStorePrintsTheStoreInUse),
    Check("jsonTimestampsHaveOneShape", DailyUseTests.jsonTimestampsHaveOneShape),
    Check("aMistypedTypeGetsTheNearestNamesNotAllOfThem", DailyUseTests.aMistypedTypeGetsTheNearestNamesNotAllOfThem),
    Check("anAmountOutOfRangeIsReportedInTheUnitTyped", DailyUseTests.anAmountOutOfRangeIsReportedInTheUnitTyped),
    Check("countsAreWholeAndNothingIsNoSample", DailyUseTests.countsAreWholeAndNothingIsNoSample),
    Check("globalOptionsAloneShowTheDashboardAndMistakesGetFittingMessages",
          DailyUseTests.globalOptionsAloneShowTheDashboardAndMistakesGetFittingMessages),
    Check("tablesRoundAsPeopleReadAndKeepFullPrecisionInJSON",
          DailyUseTests.tablesRoundAsPeopleReadAndKeepFullPrecisionInJSON),
    Check("trendsShowWhatMeansSomething", DailyUseTests.trendsShowWhatMeansSomething),
]
