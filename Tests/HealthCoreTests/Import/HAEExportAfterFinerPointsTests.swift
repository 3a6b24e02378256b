import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Issue 30: an Apple Health export imported after Health Auto Export sent a week's total and then finer points (days)
/// inside that week. The week is stored as its remainder beyond the days (`HAETotal`); the export covers some of
/// those days. Each step must count once: the export's days replace HAE's days, and the week's remainder is what is
/// left of its total beyond the export's samples and the HAE days the export does not cover, whatever came first.
struct HAEExportAfterFinerPointsTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: hAEExportAfterFinerPointsTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Support = ImportTestSupport
    private static let source = "Jane’s iPhone"

    /// A week of steps from Monday 6 May 2024 (UTC): 70,000.
    private static let week = """
        {"data":{"metrics":[{"name":"step_count","units":"count","data":[
          {"date":"2024-05-06 00:00:00 +0000","qty":70000,"source":"Jane’s iPhone"},
          {"date":"2024-05-13 00:00:00 +0000","qty":35000,"source":"Jane’s iPhone"}]}]}}
        """

    private static func day(_ date: String, _ steps: Int) -> String {
        """
        {"data":{"metrics":[{"name":"step_count","units":"count","data":[
          {"date":"\(date) 00:00:00 +0000","qty":\(steps),"source":"Jane’s iPhone"}]}]}}
        """
    }

    private static func push(_ json: String, into store: JSONFileStore) throws { try Support.pushHAE(json, into: store) }

    private static func steps(_ value: Int, _ start: String, _ end: String) -> String {
        Support.record(value: String(value), source: source, start: start + " +0000", end: end + " +0000")
    }

    private static func date(_ text: String) -> Date {
        ISO8601DateFormatter().date(from: text + "T00:00:00Z")!
    }

    /// Every visible step between two UTC dates (``ImportTestSupport/proRataSteps(_:in:)``).
    private static func total(_ store: JSONFileStore, from: String, to: String) throws -> Double {
        try Support.proRataSteps(store, in: DateInterval(start: date(from), end: date(to)))
    }

    /// Week 70,000, then HAE's Monday 12,000 (the week's rest 58,000), then an export whose Monday is the same
    /// 12,000 steps: the week still counts 70,000 (before the fix: 58,000, Monday's steps subtracted twice).
    func anExportOfADayHAEAlreadySentKeepsTheWeeksTotal() throws {
        try Support.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            try Self.push(Self.week, into: store)
            try Self.push(Self.day("2024-05-06", 12000), into: store)
            #expect(abs(try Self.total(store, from: "2024-05-06", to: "2024-05-13") - 70000) < 1e-6)
            let body = [Self.steps(7000, "2024-05-06 08:00:00", "2024-05-06 12:00:00"),
                        Self.steps(5000, "2024-05-06 15:00:00", "2024-05-06 23:00:00")].joined(separator: "\n")
            _ = try Support.importXML(Support.export(body), into: store)
            #expect(abs(try Self.total(store, from: "2024-05-06", to: "2024-05-13") - 70000) < 1e-6)
            // HAE re-sends the week and the Monday as they were: nothing is written.
            let before = try Support.sampleFiles(folder + "/store")
            try Self.push(Self.week, into: store)
            try Self.push(Self.day("2024-05-06", 12000), into: store)
            try expectEqual(Support.sampleFiles(folder + "/store"), before)
            #expect(abs(try Self.total(store, from: "2024-05-06", to: "2024-05-13") - 70000) < 1e-6)
            // Monday is the export's alone: the week's rest lies after the day HAE had sent for its start.
            #expect(abs(try Self.total(store, from: "2024-05-06", to: "2024-05-07") - 12000) < 1e-6)
        }
    }

    /// Week 70,000, HAE's Monday 12,000 and Tuesday 9,000, then an export made on Tuesday at noon (Monday 12,000,
    /// Tuesday morning 3,000): the export's 15,000, Tuesday's rest 6,000 and the week's rest 49,000.
    func anExportMadeDuringADayHAESentKeepsTheWeeksTotal() throws {
        try Support.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            try Self.push(Self.week, into: store)
            try Self.push(Self.day("2024-05-06", 12000), into: store)
            try Self.push(Self.day("2024-05-07", 9000), into: store)
            let body = [Self.steps(12000, "2024-05-06 08:00:00", "2024-05-06 20:00:00"),
                        Self.steps(3000, "2024-05-07 08:00:00", "2024-05-07 12:00:00")].joined(separator: "\n")
            _ = try Support.importXML(Support.export(body), into: store)
            #expect(abs(try Self.total(store, from: "2024-05-06", to: "2024-05-13") - 70000) < 1e-6)
            // Monday is the export's alone (the HAE day, covered, is gone and the week's rest starts after it).
            #expect(abs(try Self.total(store, from: "2024-05-06", to: "2024-05-07") - 12000) < 1e-6)
        }
    }

    /// After the export reduced the week, HAE sends Wednesday (10,000): the week's rest goes down by it, not by the
    /// export's steps a second time.
    func aDaySentAfterTheExportReducedTheWeekCountsOnce() throws {
        try Support.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            try Self.push(Self.week, into: store)
            try Self.push(Self.day("2024-05-06", 12000), into: store)
            let body = Self.steps(12000, "2024-05-06 08:00:00", "2024-05-06 20:00:00")
            _ = try Support.importXML(Support.export(body), into: store)
            try Self.push(Self.day("2024-05-08", 10000), into: store)
            #expect(abs(try Self.total(store, from: "2024-05-06", to: "2024-05-13") - 70000) < 1e-6)
        }
    }

    /// The other order: the export first (Monday 12,000), then HAE's week, Monday and Tuesday (9,000): 70,000.
    func theWeekAndItsDaysAfterTheExportCountOnce() throws {
        try Support.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            try store.save([])
            _ = try Support.importXML(Support.export(Self.steps(12000, "2024-05-06 08:00:00", "2024-05-06 20:00:00")), into: store)
            try Self.push(Self.week, into: store)
            try Self.push(Self.day("2024-05-06", 12000), into: store)
            try Self.push(Self.day("2024-05-07", 9000), into: store)
            #expect(abs(try Self.total(store, from: "2024-05-06", to: "2024-05-13") - 70000) < 1e-6)
        }
    }
}

/// The checks ``HAEExportAfterFinerPointsTests/checks(_:)`` runs.
private let hAEExportAfterFinerPointsTestsChecks: [Check<HAEExportAfterFinerPointsTests>] = [
    Check("anExportOfADayHAEAlreadySentKeepsTheWeeksTotal",
          HAEExportAfterFinerPointsTests.anExportOfADayHAEAlreadySentKeepsTheWeeksTotal),
    Check("anExportMadeDuringADayHAESentKeepsTheWeeksTotal",
          HAEExportAfterFinerPointsTests.anExportMadeDuringADayHAESentKeepsTheWeeksTotal),
    Check("aDaySentAfterTheExportReducedTheWeekCountsOnce",
          HAEExportAfterFinerPointsTests.aDaySentAfterTheExportReducedTheWeekCountsOnce),
    Check("theWeekAndItsDaysAfterTheExportCountOnce",
          HAEExportAfterFinerPointsTests.theWeekAndItsDaysAfterTheExportCountOnce),
]
