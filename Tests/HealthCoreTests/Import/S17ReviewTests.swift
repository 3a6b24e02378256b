import Foundation
import Testing
@testable import HealthCore
import TestKit

/// Issue 30: a reviewer's probes of session 17's HAE changes (settle finest form first, undo weighed by
/// `HAESuperseding`, rests held as pieces with `HAEPeriodEnd`). Each test states the figure a person expects.
struct S17ReviewTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: s17ReviewTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Support = ImportTestSupport
    private static let type = "HKQuantityTypeIdentifierStepCount"
    private static let iPhone = "Jane’s iPhone"

    /// A step payload with `source` and every date written at `offset`.
    private static func payload(_ points: [(String, Double)], source: String = iPhone, offset: String = "+0000") -> String {
        let data = points.map { #"{"date":"\#($0.0) \#(offset)","qty":\#($0.1),"source":"\#(source)"}"# }
        return #"{"data":{"metrics":[{"name":"step_count","units":"count","data":["# + data.joined(separator: ",") + "]}]}}"
    }

    @discardableResult
    private static func push(_ json: String, into store: JSONFileStore, zone: TimeZone = .gmt, dryRun: Bool = false) throws -> ImportReceipt {
        let payload = try HealthAutoExportPayload(bytes: Array(json.utf8), name: "payload.json")
        return try HealthImporter(store: store, dryRun: dryRun, timeZone: zone).importHealthAutoExport(payload, receivedThrough: nil)
    }

    private static func push(_ points: [(String, Double)], into store: JSONFileStore, source: String = iPhone) throws {
        try push(payload(points, source: source), into: store)
    }

    private static func steps(_ value: Int, _ start: String, _ end: String, source: String = iPhone) -> String {
        Support.record(value: String(value), source: source, start: start + " +0000", end: end + " +0000")
    }

    @discardableResult
    private static func exportXML(_ records: [String], into store: JSONFileStore, dryRun: Bool = false) throws -> ImportReceipt {
        try Support.importXML(Support.export(records.joined(separator: "\n")), into: store, dryRun: dryRun)
    }

    private static func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    /// Merged statistics (`StatisticsRequest`, as `hkctl stats`) per bucket from `first` (UTC midnight) on.
    private static func stats(_ store: JSONFileStore, from first: String, count: Int, unit: BucketUnit = .day,
                              merged: Bool = true, sources: Set<String>? = nil, zone: ZoneRules = .gmt,
                              start: Date? = nil) throws -> [Double] {
        let begin = start ?? date(first + "T00:00:00Z")
        let length: TimeInterval = unit == .week ? 7 * 86_400 : unit == .hour ? 3600 : 86_400
        let end = begin.addingTimeInterval(Double(count) * length + (zone == .gmt ? 0 : 3600))
        let request = StatisticsRequest(type: .steps, interval: DateInterval(start: begin, end: end), bucketUnit: unit,
                                        predicate: SamplePredicate(sources: sources), mergesSources: merged)
        let result = try request.run(on: store, calendar: GregorianCalendar(timeZone: zone))
        return Array(result.buckets.map { $0.sum ?? 0 }.prefix(count))
    }

    /// Pro-rata steps of each UTC day from `first` (as `stats --no-merge` counts).
    private static func days(_ store: JSONFileStore, from first: String, count: Int) throws -> [Double] {
        let start = date(first + "T00:00:00Z")
        return try (0..<count).map { day in
            try Support.proRataSteps(store, in: DateInterval(start: start.addingTimeInterval(Double(day) * 86_400), duration: 86_400))
        }
    }

    private static func close(_ got: [Double], _ want: [Double], _ tolerance: Double = 1e-6) -> Bool {
        got.count == want.count && zip(got, want).allSatisfy { abs($0 - $1) < tolerance }
    }

    /// The visible HAE step samples, as (start, end, value) sorted: to compare two stores or find orphans.
    private static func haeSamples(_ store: JSONFileStore) throws -> [String] {
        let all = DateInterval(start: date("2024-01-01T00:00:00Z"), end: date("2025-01-01T00:00:00Z"))
        return try store.samples(ofType: type, overlapping: all)
            .filter { $0.metadata[HAESampleBuilder.aggregationKey] != nil }
            .map { "\($0.start.timeIntervalSince1970)-\($0.end.timeIntervalSince1970)=\(($0.value.quantity?.value ?? 0).rounded())|\($0.source)" }
            .sorted()
    }

    private static let week0506 = [("2024-05-06 00:00:00", 70000.0), ("2024-05-13 00:00:00", 35000.0)]

    /// S1. Week 70,000, then Tuesday alone 9,000: `StatisticsRequest` by day (merged and not) gives Tuesday 9,000 and
    /// the six others 61,000 / 6; by week 70,000; by hour Tuesday's hours add to 9,000 and Monday's to 61,000 / 6.
    func s1StatisticsQueriesSeeThePiecesOnce() throws {
        try Support.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            try Self.push(Self.week0506, into: store)
            try Self.push([("2024-05-07 00:00:00", 9000)], into: store)
            let other = 61000.0 / 6
            let want = [other, 9000, other, other, other, other, other]
            let merged = try Self.stats(store, from: "2024-05-06", count: 7)
            let plain = try Self.stats(store, from: "2024-05-06", count: 7, merged: false)
            #expect(Self.close(merged, want), "merged by day \(merged)")
            #expect(Self.close(plain, want), "unmerged by day \(plain)")
            let week = try Self.stats(store, from: "2024-05-06", count: 1, unit: .week)
            #expect(Self.close(week, [70000]), "by week \(week)")
            let hours = try Self.stats(store, from: "2024-05-06", count: 48, unit: .hour)
            #expect(abs(hours[0..<24].sum - other) < 1e-6 && abs(hours[24...].sum - 9000) < 1e-6, "by hour \(hours)")
        }
    }

    /// S2. Week, Tuesday 9,000, Thursday 11,000; the week re-sent grown (77,000) replaces the days inside it (as
    /// documented: finer stored points inside a sent point's period go) and counts 77,000; Tuesday and Thursday sent
    /// again: they keep their figures, the five others (77,000 - 20,000) / 5 each, no piece of the old rest left (one
    /// sample for each day sent, and three pieces: Monday, Wednesday, Friday to Sunday); the same three payloads again
    /// write nothing.
    func s2AGrownWeekLeavesNoOldPieces() throws {
        try Support.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            try Self.push(Self.week0506, into: store)
            try Self.push([("2024-05-07 00:00:00", 9000)], into: store)
            try Self.push([("2024-05-09 00:00:00", 11000)], into: store)
            let grown = [("2024-05-06 00:00:00", 77000.0), ("2024-05-13 00:00:00", 35000.0)]
            try Self.push(grown, into: store)
            let whole = try Self.days(store, from: "2024-05-06", count: 7)
            #expect(abs(whole.sum - 77000) < 1e-6, "grown week \(whole)")
            try Self.push([("2024-05-07 00:00:00", 9000)], into: store)
            try Self.push([("2024-05-09 00:00:00", 11000)], into: store)
            let rest = 57000.0 / 5
            let got = try Self.days(store, from: "2024-05-06", count: 7)
            #expect(Self.close(got, [rest, 9000, rest, 11000, rest, rest, rest]), "\(got)")
            let inWeek = try Self.haeSamples(store).filter { !$0.hasPrefix("\(Self.date("2024-05-13T00:00:00Z").timeIntervalSince1970)") }
            expectEqual(inWeek.count, 5, "\(inWeek)")
            let before = try Support.sampleFiles(folder + "/store")
            try Self.push(grown, into: store)
            try Self.push([("2024-05-07 00:00:00", 9000)], into: store)
            try Self.push([("2024-05-09 00:00:00", 11000)], into: store)
            try expectEqual(Support.sampleFiles(folder + "/store"), before, "identical re-sends rewrote the store")
        }
    }

    /// S3. A week across a month's end (Mon 29 Apr 2024, April and May partitions): Wednesday 1 May 9,000, Sunday
    /// 5 May 6,000, Monday 29 Apr 12,000 one by one: those days keep their figures and the four others
    /// (70,000 - 27,000) / 4 each; identical re-sends write nothing; an export at Tuesday noon (Monday 12,000, Tuesday
    /// 3,000) keeps the week at 70,000 and undoing it brings the figures back.
    func s3AWeekAcrossAMonthsEnd() throws {
        try Support.withTemporaryDirectory { folder in
            var store: JSONFileStore {
                JSONFileStore(path: folder + "/store", timeZone: .gmt, recording: OperationRecording(kind: .import, source: "hkctl", date: Date()))
            }
            let week = [("2024-04-29 00:00:00", 70000.0), ("2024-05-06 00:00:00", 35000.0)]
            try Self.push(week, into: store)
            try Self.push([("2024-05-01 00:00:00", 9000)], into: store)
            try Self.push([("2024-05-05 00:00:00", 6000)], into: store)
            try Self.push([("2024-04-29 00:00:00", 12000)], into: store)
            let rest = 43000.0 / 4
            let want = [12000, rest, 9000, rest, rest, rest, 6000]
            var got = try Self.days(store, from: "2024-04-29", count: 7)
            #expect(Self.close(got, want), "\(got)")
            let merged = try Self.stats(store, from: "2024-04-29", count: 7)
            #expect(Self.close(merged, want), "statistics \(merged)")
            let before = try Support.sampleFiles(folder + "/store")
            try Self.push(week, into: store)
            try Self.push([("2024-05-01 00:00:00", 9000)], into: store)
            try Self.push([("2024-05-05 00:00:00", 6000)], into: store)
            try Self.push([("2024-04-29 00:00:00", 12000)], into: store)
            try expectEqual(Support.sampleFiles(folder + "/store"), before, "identical re-sends rewrote the store")
            try Self.exportXML([Self.steps(12000, "2024-04-29 08:00:00", "2024-04-29 20:00:00"),
                                Self.steps(3000, "2024-04-30 08:00:00", "2024-04-30 12:00:00")], into: store)
            got = try Self.days(store, from: "2024-04-29", count: 7)
            #expect(abs(got.sum - 70000) < 1e-6, "week after the export \(got)")
            #expect(Self.close([got[0], got[2], got[6]], [12000, 9000, 6000]), "\(got)")
            _ = try JSONFileStore(path: folder + "/store", timeZone: .gmt).undo(source: "hkctl", now: Date())
            got = try Self.days(store, from: "2024-04-29", count: 7)
            #expect(Self.close(got, want), "after undoing the export \(got)")
        }
    }

    /// S4. The push window: week, Monday 12,000 alone (the rest from Tuesday on), then Sunday's last two hours
    /// (22:00 50, 23:00 100), then Saturday 8,000: the week 70,000, Monday 12,000, Sunday 22–24 150, Saturday 8,000;
    /// the same payloads again write nothing.
    func s4HoursAndADayAtTheWeeksEnd() throws {
        try Support.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            let monday = [("2024-05-06 00:00:00", 12000.0)], hours = [("2024-05-12 22:00:00", 50.0), ("2024-05-12 23:00:00", 100.0)]
            let saturday = [("2024-05-11 00:00:00", 8000.0)]
            try Self.push(Self.week0506, into: store)
            try Self.push(monday, into: store)
            try Self.push(hours, into: store)
            try Self.push(saturday, into: store)
            let got = try Self.days(store, from: "2024-05-06", count: 7)
            #expect(abs(got.sum - 70000) < 1e-6, "week \(got)")
            #expect(Self.close([got[0], got[5]], [12000, 8000]), "\(got)")
            let late = try Support.proRataSteps(store, in: DateInterval(start: Self.date("2024-05-12T22:00:00Z"), duration: 7200))
            #expect(abs(late - 150) < 1e-6, "Sunday 22–24 \(late)")
            let before = try Support.sampleFiles(folder + "/store")
            for points in [Self.week0506, monday, hours, saturday] { try Self.push(points, into: store) }
            try expectEqual(Support.sampleFiles(folder + "/store"), before, "identical re-sends rewrote the store")
        }
    }

    /// S5. A week in Europe/Berlin where summer time begins (Mon 25 Mar 2024, 167 hours), Tuesday 9,000 and Sunday
    /// (23 hours) 6,000 alone: local days Tuesday 9,000, Sunday 6,000, the other five 11,000 each; the local week 70,000.
    func s5ADSTWeekInBerlin() throws {
        try Support.withTemporaryDirectory { folder in
            let zoneRules = IndependentTestKit.zone("Europe/Berlin")
            let zone = TimeZone(identifier: "Europe/Berlin")!
            let store = JSONFileStore(path: folder + "/store", timeZone: zoneRules)
            let week = #"{"data":{"metrics":[{"name":"step_count","units":"count","data":[{"date":"2024-03-25 00:00:00 +0100","qty":70000,"source":"Jane’s iPhone"},{"date":"2024-04-01 00:00:00 +0200","qty":35000,"source":"Jane’s iPhone"}]}]}}"#
            try Self.push(week, into: store, zone: zone)
            try Self.push(Self.payload([("2024-03-26 00:00:00", 9000)], offset: "+0100"), into: store, zone: zone)
            try Self.push(Self.payload([("2024-03-31 00:00:00", 6000)], offset: "+0100"), into: store, zone: zone)
            let monday = Self.date("2024-03-24T23:00:00Z")
            let got = try Self.stats(store, from: "", count: 7, zone: zoneRules, start: monday)
            #expect(Self.close(got, [11000, 9000, 11000, 11000, 11000, 11000, 6000]), "local days \(got)")
            let week1 = try Self.stats(store, from: "", count: 1, unit: .week, zone: zoneRules, start: monday)
            #expect(Self.close(week1, [70000]), "local week \(week1)")
        }
    }

    /// S6. Dry runs against the real thing, on a store with a week's rest in pieces (week, Tuesday, Thursday): a push
    /// of Sunday and then an export at Wednesday noon, each dry first: the dry run writes nothing and reports the
    /// counts the real one does.
    func s6DryRunsAgreeWithTheRealOnes() throws {
        try Support.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            try Self.push(Self.week0506, into: store)
            try Self.push([("2024-05-07 00:00:00", 9000)], into: store)
            try Self.push([("2024-05-09 00:00:00", 11000)], into: store)
            var before = try Support.sampleFiles(folder + "/store")
            let sunday = Self.payload([("2024-05-12 00:00:00", 6000)])
            let dryPush = try Self.push(sunday, into: store, dryRun: true)
            try expectEqual(Support.sampleFiles(folder + "/store"), before, "a dry push wrote")
            let realPush = try Self.push(sunday, into: store)
            expectEqual(dryPush.counts, realPush.counts, "dry \(dryPush.counts) real \(realPush.counts)")
            let records = [Self.steps(12000, "2024-05-06 08:00:00", "2024-05-06 20:00:00"),
                           Self.steps(9000, "2024-05-07 08:00:00", "2024-05-07 20:00:00"),
                           Self.steps(2000, "2024-05-08 08:00:00", "2024-05-08 12:00:00")]
            before = try Support.sampleFiles(folder + "/store")
            let dry = try Self.exportXML(records, into: store, dryRun: true)
            try expectEqual(Support.sampleFiles(folder + "/store"), before, "a dry import wrote")
            let real = try Self.exportXML(records, into: store)
            #expect(dry.supersededHealthAutoExport == real.supersededHealthAutoExport && dry.counts == real.counts,
                    "dry \(dry.supersededHealthAutoExport) \(dry.counts) real \(real.supersededHealthAutoExport) \(real.counts)")
            let got = try Self.days(store, from: "2024-05-06", count: 7)
            #expect(abs(got.sum - 70000) < 1e-6 && Self.close([got[0], got[1], got[3], got[6]], [12000, 9000, 11000, 6000]), "\(got)")
            before = try Support.sampleFiles(folder + "/store")
            let again = try Self.exportXML(records, into: store)
            try expectEqual(Support.sampleFiles(folder + "/store"), before, "the same export again rewrote the store (superseded \(again.supersededHealthAutoExport))")
        }
    }

    /// S11. Undo of a token's newest push after the owner's export: "phone" pushes the week, Tuesday 9,000 and Thursday
    /// 11,000; the owner imports an export at Wednesday noon (Monday 12,000, Tuesday 9,000, Wednesday 2,000 to noon);
    /// "phone"'s Thursday push is undone. Expected: the week 70,000, Monday 12,000, Tuesday 9,000, no day below zero;
    /// the undo's plan says what the undo does.
    func s11UndoOfATokensDayAfterAnExport() throws {
        try Support.withTemporaryDirectory { folder in
            func store(_ source: String) -> JSONFileStore {
                JSONFileStore(path: folder + "/store", timeZone: .gmt, recording: OperationRecording(kind: .import, source: source, date: Date()))
            }
            try Self.push(Self.week0506, into: store("phone"))
            try Self.push([("2024-05-07 00:00:00", 9000)], into: store("phone"))
            try Self.push([("2024-05-09 00:00:00", 11000)], into: store("phone"))
            try Self.exportXML([Self.steps(12000, "2024-05-06 08:00:00", "2024-05-06 20:00:00"),
                                Self.steps(9000, "2024-05-07 08:00:00", "2024-05-07 20:00:00"),
                                Self.steps(2000, "2024-05-08 08:00:00", "2024-05-08 12:00:00")], into: store("hkctl"))
            let plain = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            var got = try Self.days(plain, from: "2024-05-06", count: 7)
            #expect(abs(got.sum - 70000) < 1e-6, "before the undo \(got)")
            let shown = try #require(try plain.undoPlan(source: "phone"))
            let done = try plain.undo(source: "phone", now: Date())
            #expect(shown.restored == done.restored && shown.alreadyPresent == done.alreadyPresent,
                    "plan \(shown.restored)/\(shown.alreadyPresent), done \(done.restored)/\(done.alreadyPresent)")
            got = try Self.days(plain, from: "2024-05-06", count: 7)
            #expect(abs(got.sum - 70000) < 1e-6 && Self.close(Array(got[0...1]), [12000, 9000]) && got.allSatisfy { $0 >= -1e-6 },
                    "after undoing Thursday \(got)")
        }
    }

    /// S7. Undo newest first returns to the figures before each operation: week, Tuesday, Thursday, an export at
    /// Tuesday noon, the week re-sent grown (77,000: it replaces the days inside it, as documented), Sunday 6,000.
    /// After all six: Monday 12,000 and Tuesday 3,000 (the export's), Sunday 6,000, and the week's rest 56,000 over
    /// Tuesday noon to Saturday's end; then each undo gives the figures of the step before, down to an empty store.
    /// Run for the week of Mon 6 May and for the week of Mon 29 Apr (across a month's end).
    @Test(arguments: ["2024-05-06", "2024-04-29"])
    func s7UndoNewestFirstRetracesEveryStep(monday: String) throws {
        let base = Self.date(monday + "T00:00:00Z")
        let format = ISO8601DateFormatter()
        format.formatOptions = [.withFullDate]
        /// The day `n` days after the Monday, "yyyy-MM-dd", and `time` after it.
        func day(_ n: Int, _ time: String = "00:00:00") -> String { format.string(from: base.addingTimeInterval(Double(n) * 86_400)) + " " + time }
        try Support.withTemporaryDirectory { folder in
            var store: JSONFileStore {
                JSONFileStore(path: folder + "/store", timeZone: .gmt, recording: OperationRecording(kind: .import, source: "hkctl", date: Date()))
            }
            let steps: [() throws -> Void] = [
                { try Self.push([(day(0), 70000), (day(7), 35000)], into: store) },
                { try Self.push([(day(1), 9000)], into: store) },
                { try Self.push([(day(3), 11000)], into: store) },
                { try Self.exportXML([Self.steps(12000, day(0, "08:00:00"), day(0, "20:00:00")),
                                      Self.steps(3000, day(1, "08:00:00"), day(1, "12:00:00"))], into: store) },
                { try Self.push([(day(0), 77000), (day(7), 35000)], into: store) },
                { try Self.push([(day(6), 6000)], into: store) },
            ]
            var figures: [[Double]] = [try Self.days(store, from: monday, count: 14)]
            for step in steps {
                try step()
                figures.append(try Self.days(store, from: monday, count: 14))
            }
            let last = figures.last!
            let share: Double = 56000.0 / 4.5
            let want: [Double] = [12000, 3000 + share / 2, share, share, share, share, 6000]
            #expect(Self.close(Array(last[0..<7]), want), "after all six \(last)")
            for index in stride(from: steps.count - 1, through: 0, by: -1) {
                _ = try JSONFileStore(path: folder + "/store", timeZone: .gmt).undo(source: "hkctl", now: Date())
                let got = try Self.days(store, from: monday, count: 14)
                #expect(Self.close(got, figures[index]), "undoing step \(index + 1): got \(got), before it \(figures[index])")
            }
        }
    }

    /// S8. Another source's points interleaved (Garmin's own week 50,000 and Thursday 8,000; iPhone's week, Tuesday
    /// 9,000 and Sunday 6,000): each source's days add up on their own (iPhone: Tuesday 9,000, Sunday 6,000, others
    /// 11,000; Garmin: Thursday 8,000, others 7,000), unmerged 120,000 in all.
    func s8AnotherSourcesPointsInterleaved() throws {
        try Support.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            let garmin = "Garmin Connect"
            try Self.push(Self.week0506, into: store)
            try Self.push([("2024-05-06 00:00:00", 50000), ("2024-05-13 00:00:00", 20000)], into: store, source: garmin)
            try Self.push([("2024-05-07 00:00:00", 9000)], into: store)
            try Self.push([("2024-05-09 00:00:00", 8000)], into: store, source: garmin)
            try Self.push([("2024-05-12 00:00:00", 6000)], into: store)
            let phone = try Self.stats(store, from: "2024-05-06", count: 7, merged: false, sources: [Self.iPhone])
            let other = try Self.stats(store, from: "2024-05-06", count: 7, merged: false, sources: [garmin])
            #expect(Self.close(phone, [11000, 9000, 11000, 11000, 11000, 11000, 6000]), "iPhone \(phone)")
            #expect(Self.close(other, [7000, 7000, 7000, 8000, 7000, 7000, 7000]), "Garmin \(other)")
            let all = try Self.days(store, from: "2024-05-06", count: 7)
            #expect(abs(all.sum - 120000) < 1e-6, "\(all)")
        }
    }

    /// S9. The same sequence (week, Tuesday, an export at Wednesday noon, Thursday, Sunday) in four fresh stores gives
    /// the same figures and the same stored HAE samples every time, and the week 70,000.
    func s9SameInputSameStore() throws {
        var runs: [[String]] = []
        var totals: [[Double]] = []
        for _ in 0..<4 {
            try Support.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
                try Self.push(Self.week0506, into: store)
                try Self.push([("2024-05-07 00:00:00", 9000)], into: store)
                try Self.exportXML([Self.steps(12000, "2024-05-06 08:00:00", "2024-05-06 20:00:00"),
                                    Self.steps(9000, "2024-05-07 08:00:00", "2024-05-07 20:00:00"),
                                    Self.steps(2000, "2024-05-08 08:00:00", "2024-05-08 12:00:00")], into: store)
                try Self.push([("2024-05-09 00:00:00", 11000)], into: store)
                try Self.push([("2024-05-12 00:00:00", 6000)], into: store)
                runs.append(try Self.haeSamples(store))
                totals.append(try Self.days(store, from: "2024-05-06", count: 7))
                let before = try Support.sampleFiles(folder + "/store")
                for points in [Self.week0506, [("2024-05-07 00:00:00", 9000.0)], [("2024-05-09 00:00:00", 11000.0)],
                               [("2024-05-12 00:00:00", 6000.0)]] { try Self.push(points, into: store) }
                try expectEqual(Support.sampleFiles(folder + "/store"), before, "identical re-sends after the export rewrote the store")
            }
        }
        expectEqual(Set(runs).count, 1, "\(Set(runs).count) different stores")
        expectEqual(Set(totals.map { $0.map { ($0 * 1000).rounded() } }).count, 1, "\(totals)")
        #expect(abs(totals[0].sum - 70000) < 1e-6 && Self.close([totals[0][0], totals[0][1], totals[0][3], totals[0][6]], [12000, 9000, 11000, 6000]),
                "\(totals[0])")
    }

    /// S10. Heart rate and sleep are untouched by step pieces: their files are byte for byte the same after a step week,
    /// Tuesday alone and a grown week; and a heart-rate week then Tuesday alone leaves no piece (no HAEPeriodEnd) and
    /// the week's own reading whole.
    func s10HeartRateAndSleepUnaffected() throws {
        try Support.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            let heart = #"{"data":{"metrics":[{"name":"heart_rate","units":"count/min","data":[{"date":"2024-05-06 00:00:00 +0000","Min":50,"Avg":70,"Max":150,"source":"Jane’s iPhone"},{"date":"2024-05-13 00:00:00 +0000","Min":52,"Avg":72,"Max":140,"source":"Jane’s iPhone"}]}]}}"#
            let sleep = #"{"data":{"metrics":[{"name":"sleep_analysis","units":"hr","data":[{"date":"2024-05-08 00:00:00 +0000","totalSleep":7,"asleep":0,"core":4,"deep":2,"rem":1,"awake":0,"inBed":0,"sleepStart":"2024-05-07 23:00:00 +0000","sleepEnd":"2024-05-08 06:00:00 +0000","source":"Jane’s iPhone"}]}]}}"#
            try Self.push(heart, into: store)
            try Self.push(#"{"data":{"metrics":[{"name":"heart_rate","units":"count/min","data":[{"date":"2024-05-07 00:00:00 +0000","Min":55,"Avg":65,"Max":120,"source":"Jane’s iPhone"}]}]}}"#, into: store)
            try Self.push(sleep, into: store)
            let others = try Support.sampleFiles(folder + "/store").filter { !$0.key.contains(Self.type) }
            try Self.push(Self.week0506, into: store)
            try Self.push([("2024-05-07 00:00:00", 9000)], into: store)
            try Self.push([("2024-05-06 00:00:00", 77000), ("2024-05-13 00:00:00", 35000)], into: store)
            try expectEqual(Support.sampleFiles(folder + "/store").filter { !$0.key.contains(Self.type) }, others, "steps changed other types")
            let all = DateInterval(start: Self.date("2024-05-01T00:00:00Z"), end: Self.date("2024-06-01T00:00:00Z"))
            let rates = try store.samples(ofType: "HKQuantityTypeIdentifierHeartRate", overlapping: all)
            #expect(!rates.contains { $0.metadata["HAEPeriodEnd"] != nil || $0.metadata[HAEWritePlan.totalKey] != nil },
                    "heart rate got pieces")
            let weekAverage = rates.first { $0.metadata["HAEAvg"] == .number(70) }
            expectEqual(weekAverage.map { abs($0.start.timeIntervalSince(Self.date("2024-05-06T00:00:00Z"))) < 1 && $0.end == Self.date("2024-05-13T00:00:00Z") }, true,
                        "the week's average is gone or cut")
            let sleepSamples = try store.samples(ofType: "HKCategoryTypeIdentifierSleepAnalysis", overlapping: all)
            #expect(!sleepSamples.isEmpty)
        }
    }

    /// S12. Days at both ends and a day's own hours: week, Monday 12,000, Sunday 6,000 (the rest one piece Tuesday to
    /// Saturday); Monday re-sent grown (13,000): Monday 13,000, Sunday 6,000, the five others 10,200 each. Then Tuesday
    /// 9,000 and Tuesday's hours 10:00 500 and 11:00 700: Tuesday 9,000 (1,200 of it 10–12), the week 70,000; the same
    /// payloads again write nothing.
    func s12DaysAtBothEndsAndADaysHours() throws {
        try Support.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            try Self.push(Self.week0506, into: store)
            try Self.push([("2024-05-06 00:00:00", 12000)], into: store)
            try Self.push([("2024-05-12 00:00:00", 6000)], into: store)
            try Self.push([("2024-05-06 00:00:00", 13000)], into: store)
            var got = try Self.days(store, from: "2024-05-06", count: 7)
            #expect(Self.close(got, [13000, 10200, 10200, 10200, 10200, 10200, 6000]), "Monday grown \(got)")
            try Self.push([("2024-05-07 00:00:00", 9000)], into: store)
            let hours = [("2024-05-07 10:00:00", 500.0), ("2024-05-07 11:00:00", 700.0)]
            try Self.push(hours, into: store)
            got = try Self.days(store, from: "2024-05-06", count: 7)
            let tenToNoon = try Support.proRataSteps(store, in: DateInterval(start: Self.date("2024-05-07T10:00:00Z"), duration: 7200))
            #expect(abs(got.sum - 70000) < 1e-6 && Self.close([got[0], got[1], got[6]], [13000, 9000, 6000]), "\(got)")
            #expect(abs(tenToNoon - 1200) < 1e-6, "Tuesday 10–12 \(tenToNoon)")
            let before = try Support.sampleFiles(folder + "/store")
            for points in [Self.week0506, [("2024-05-06 00:00:00", 13000.0)], [("2024-05-12 00:00:00", 6000.0)],
                           [("2024-05-07 00:00:00", 9000.0)], hours] { try Self.push(points, into: store) }
            try expectEqual(Support.sampleFiles(folder + "/store"), before, "identical re-sends rewrote the store")
        }
    }

    /// S13. Two exports after a week's pieces: week, Tuesday 9,000, Thursday 11,000; export 1 made Wednesday noon
    /// (Monday 12,000, Tuesday 9,000, Wednesday 2,000 08–12); export 2 made Friday 18:00 (the same, and Wednesday
    /// 3,000 13–20, Thursday 11,000, Friday 10,000 08–18): the week 70,000 after each, Monday 12,000, Tuesday 9,000,
    /// Thursday 11,000; another app's 500 steps on Wednesday then make it 70,500; export 2 again writes nothing.
    func s13TwoExportsAfterAWeeksPieces() throws {
        try Support.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            try Self.push(Self.week0506, into: store)
            try Self.push([("2024-05-07 00:00:00", 9000)], into: store)
            try Self.push([("2024-05-09 00:00:00", 11000)], into: store)
            let first = [Self.steps(12000, "2024-05-06 08:00:00", "2024-05-06 20:00:00"),
                         Self.steps(9000, "2024-05-07 08:00:00", "2024-05-07 20:00:00"),
                         Self.steps(2000, "2024-05-08 08:00:00", "2024-05-08 12:00:00")]
            try Self.exportXML(first, into: store)
            var got = try Self.days(store, from: "2024-05-06", count: 7)
            #expect(abs(got.sum - 70000) < 1e-6 && Self.close([got[0], got[1], got[3]], [12000, 9000, 11000]), "export 1 \(got)")
            let second = first + [Self.steps(3000, "2024-05-08 13:00:00", "2024-05-08 20:00:00"),
                                  Self.steps(11000, "2024-05-09 08:00:00", "2024-05-09 20:00:00"),
                                  Self.steps(10000, "2024-05-10 08:00:00", "2024-05-10 18:00:00")]
            try Self.exportXML(second, into: store)
            got = try Self.days(store, from: "2024-05-06", count: 7)
            #expect(abs(got.sum - 70000) < 1e-6 && Self.close([got[0], got[1], got[3]], [12000, 9000, 11000]), "export 2 \(got)")
            try Self.exportXML([Self.steps(500, "2024-05-08 09:00:00", "2024-05-08 09:30:00", source: "Pedometer++")], into: store)
            got = try Self.days(store, from: "2024-05-06", count: 7)
            #expect(abs(got.sum - 70500) < 1e-6, "another app's 500 \(got)")
            let before = try Support.sampleFiles(folder + "/store")
            try Self.exportXML(second, into: store)
            try expectEqual(Support.sampleFiles(folder + "/store"), before, "export 2 again rewrote the store")
        }
    }

    /// S14. Undo of the owner's export after a token's later push re-laid the week's pieces: "phone" pushes the week,
    /// Tuesday 9,000 and Thursday 11,000; the owner imports an export made Wednesday noon (Monday 12,000, Tuesday
    /// 9,000, Wednesday 2,000 08–12); "phone" pushes Sunday 6,000; the owner's export is undone. Expected: as if the
    /// export never came: Tuesday 9,000, Thursday 11,000, Sunday 6,000, the week 70,000, Monday, Wednesday, Friday and
    /// Saturday 11,000 each.
    func s14UndoOfAnExportAfterATokensLaterPush() throws {
        try Support.withTemporaryDirectory { folder in
            func store(_ source: String) -> JSONFileStore {
                JSONFileStore(path: folder + "/store", timeZone: .gmt, recording: OperationRecording(kind: .import, source: source, date: Date()))
            }
            try Self.push(Self.week0506, into: store("phone"))
            try Self.push([("2024-05-07 00:00:00", 9000)], into: store("phone"))
            try Self.push([("2024-05-09 00:00:00", 11000)], into: store("phone"))
            try Self.exportXML([Self.steps(12000, "2024-05-06 08:00:00", "2024-05-06 20:00:00"),
                                Self.steps(9000, "2024-05-07 08:00:00", "2024-05-07 20:00:00"),
                                Self.steps(2000, "2024-05-08 08:00:00", "2024-05-08 12:00:00")], into: store("hkctl"))
            try Self.push([("2024-05-12 00:00:00", 6000)], into: store("phone"))
            let plain = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            var got = try Self.days(plain, from: "2024-05-06", count: 7)
            #expect(abs(got.sum - 70000) < 1e-6, "before the undo \(got)")
            _ = try plain.undo(source: "hkctl", now: Date())
            got = try Self.days(plain, from: "2024-05-06", count: 7)
            #expect(Self.close(got, [11000, 9000, 11000, 11000, 11000, 11000, 6000]), "after undoing the export \(got)")
        }
    }

    /// S15. Undo of a day push after another source's later day push re-laid the week's rest (no export): "phone"
    /// pushes the week; the owner pushes Tuesday 9,000; "phone" pushes Sunday 6,000; the owner's Tuesday push is undone.
    /// Expected: the week and Sunday alone: Sunday 6,000, the six others 64,000 / 6, the week 70,000.
    func s15UndoOfADayAfterAnotherSourcesLaterDay() throws {
        try Support.withTemporaryDirectory { folder in
            func store(_ source: String) -> JSONFileStore {
                JSONFileStore(path: folder + "/store", timeZone: .gmt, recording: OperationRecording(kind: .import, source: source, date: Date()))
            }
            try Self.push(Self.week0506, into: store("phone"))
            try Self.push([("2024-05-07 00:00:00", 9000)], into: store("hkctl"))
            try Self.push([("2024-05-12 00:00:00", 6000)], into: store("phone"))
            let plain = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            _ = try plain.undo(source: "hkctl", now: Date())
            let got = try Self.days(plain, from: "2024-05-06", count: 7)
            let other = 64000.0 / 6
            #expect(Self.close(got, [other, other, other, other, other, other, 6000]), "after undoing Tuesday \(got)")
        }
    }

    /// S16. Undo of a week push after another source's day made it pieces: the owner pushes the week; "phone" pushes
    /// Tuesday 9,000 and Sunday 6,000; the owner's week push is undone. Expected: Tuesday 9,000 and Sunday 6,000 alone,
    /// 15,000 in all (no piece of the week left); the undo's plan says what the undo does.
    func s16UndoOfAWeekAfterAnotherSourcesDays() throws {
        try Support.withTemporaryDirectory { folder in
            func store(_ source: String) -> JSONFileStore {
                JSONFileStore(path: folder + "/store", timeZone: .gmt, recording: OperationRecording(kind: .import, source: source, date: Date()))
            }
            try Self.push(Self.week0506, into: store("hkctl"))
            try Self.push([("2024-05-07 00:00:00", 9000)], into: store("phone"))
            try Self.push([("2024-05-12 00:00:00", 6000)], into: store("phone"))
            let plain = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            let shown = try #require(try plain.undoPlan(source: "hkctl"))
            let done = try plain.undo(source: "hkctl", now: Date())
            #expect(shown.restored == done.restored && shown.changes == done.changes)
            let got = try Self.days(plain, from: "2024-05-06", count: 14)
            #expect(Self.close(got, [0, 9000, 0, 0, 0, 0, 6000, 0, 0, 0, 0, 0, 0, 0]), "after undoing the week \(got)")
        }
    }
}

/// The checks ``S17ReviewTests/checks(_:)`` runs.
private let s17ReviewTestsChecks: [Check<S17ReviewTests>] = [
    Check("s1StatisticsQueriesSeeThePiecesOnce", S17ReviewTests.s1StatisticsQueriesSeeThePiecesOnce),
    Check("s2AGrownWeekLeavesNoOldPieces", S17ReviewTests.s2AGrownWeekLeavesNoOldPieces),
    Check("s3AWeekAcrossAMonthsEnd", S17ReviewTests.s3AWeekAcrossAMonthsEnd),
    Check("s4HoursAndADayAtTheWeeksEnd", S17ReviewTests.s4HoursAndADayAtTheWeeksEnd),
    Check("s5ADSTWeekInBerlin", S17ReviewTests.s5ADSTWeekInBerlin),
    Check("s6DryRunsAgreeWithTheRealOnes", S17ReviewTests.s6DryRunsAgreeWithTheRealOnes),
    Check("s11UndoOfATokensDayAfterAnExport", S17ReviewTests.s11UndoOfATokensDayAfterAnExport),
    Check("s8AnotherSourcesPointsInterleaved", S17ReviewTests.s8AnotherSourcesPointsInterleaved),
    Check("s9SameInputSameStore", S17ReviewTests.s9SameInputSameStore),
    Check("s10HeartRateAndSleepUnaffected", S17ReviewTests.s10HeartRateAndSleepUnaffected),
    Check("s12DaysAtBothEndsAndADaysHours", S17ReviewTests.s12DaysAtBothEndsAndADaysHours),
    Check("s13TwoExportsAfterAWeeksPieces", S17ReviewTests.s13TwoExportsAfterAWeeksPieces),
    Check("s14UndoOfAnExportAfterATokensLaterPush", S17ReviewTests.s14UndoOfAnExportAfterATokensLaterPush),
    Check("s15UndoOfADayAfterAnotherSourcesLaterDay", S17ReviewTests.s15UndoOfADayAfterAnotherSourcesLaterDay),
    Check("s16UndoOfAWeekAfterAnotherSourcesDays", S17ReviewTests.s16UndoOfAWeekAfterAnotherSourcesDays),
]
