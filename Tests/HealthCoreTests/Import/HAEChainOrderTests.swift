import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Issue 30: Health Auto Export points of three and four nested forms (a week, its days, a day's hours, an hour's
/// minutes), in every order, with an export after them. Each step counts once: every stored point keeps what it holds
/// beyond the finer points inside its period, so the forms add up to the coarsest one's figure.
struct HAEChainOrderTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: hAEChainOrderTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Support = ImportTestSupport

    private static let week: [(date: String, steps: Double)] = [("2024-05-06 00:00:00", 70000), ("2024-05-13 00:00:00", 35000)]
    private static let days: [(date: String, steps: Double)] = [("2024-05-06 00:00:00", 12000), ("2024-05-07 00:00:00", 9000)]
    private static let hours: [(date: String, steps: Double)] = [("2024-05-07 00:00:00", 100), ("2024-05-07 01:00:00", 200)]
    private static let minutes: [(date: String, steps: Double)] = [("2024-05-07 00:00:00", 10), ("2024-05-07 00:01:00", 20)]

    private static func total(_ store: JSONFileStore, _ from: String, _ to: String) throws -> Double {
        let formatter = ISO8601DateFormatter()
        return try Support.proRataSteps(store, in: DateInterval(start: formatter.date(from: from)!, end: formatter.date(from: to)!))
    }

    private static func push(_ points: [(date: String, steps: Double)], into store: JSONFileStore) throws {
        try Support.pushHAE(Support.haeSteps(points), into: store)
    }

    /// Week, days, hours, minutes, finest last: the week 70,000, Tuesday 9,000, Tuesday's first hour 100 and its
    /// first minute 10; the same four payloads again write nothing.
    func fourFormsInsideEachOtherCountOnce() throws {
        try Support.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            for points in [Self.week, Self.days, Self.hours, Self.minutes] { try Self.push(points, into: store) }
            #expect(abs(try Self.total(store, "2024-05-06T00:00:00Z", "2024-05-13T00:00:00Z") - 70000) < 1e-6)
            #expect(abs(try Self.total(store, "2024-05-07T00:00:00Z", "2024-05-08T00:00:00Z") - 9000) < 1e-6)
            #expect(abs(try Self.total(store, "2024-05-07T00:00:00Z", "2024-05-07T01:00:00Z") - 100) < 1e-6)
            #expect(abs(try Self.total(store, "2024-05-07T00:00:00Z", "2024-05-07T00:01:00Z") - 10) < 1e-6)
            let before = try Support.sampleFiles(folder + "/store")
            for points in [Self.week, Self.days, Self.hours, Self.minutes] { try Self.push(points, into: store) }
            try expectEqual(Support.sampleFiles(folder + "/store"), before, "the same payloads again rewrote the store")
        }
    }

    /// The three payloads in every order: whichever form came last, the week counts 70,000 (a coarser point sent after
    /// finer ones takes their place; a finer one sent after a coarser one comes off it).
    @Test(arguments: [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]])
    func everyOrderOfWeekDaysAndHoursKeepsTheWeeksTotal(order: [Int]) throws {
        try Support.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            let payloads = [Self.week, Self.days, Self.hours]
            for index in order { try Self.push(payloads[index], into: store) }
            let week = try Self.total(store, "2024-05-06T00:00:00Z", "2024-05-13T00:00:00Z")
            #expect(abs(week - 70000) < 1e-6, "order \(order): week got \(week)")
            let next = try Self.total(store, "2024-05-13T00:00:00Z", "2024-05-20T00:00:00Z")
            #expect(abs(next - 35000) < 1e-6, "order \(order): next week got \(next)")
        }
    }

    /// Week, days and hours, then an export made on Tuesday at noon (Monday 12,000; Tuesday 3,000 from 08:00): the
    /// week still counts 70,000 and Tuesday 9,000, and the three payloads sent again afterwards write nothing.
    func anExportAfterThreeFormsTakesEachStepOffOnce() throws {
        try Support.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            for points in [Self.week, Self.days, Self.hours] { try Self.push(points, into: store) }
            let records = [Support.record(value: "12000", source: "Jane’s iPhone", start: "2024-05-06 08:00:00 +0000", end: "2024-05-06 20:00:00 +0000"),
                           Support.record(value: "3000", source: "Jane’s iPhone", start: "2024-05-07 08:00:00 +0000", end: "2024-05-07 12:00:00 +0000")]
            _ = try Support.importXML(Support.export(records.joined(separator: "\n")), into: store)
            let week = try Self.total(store, "2024-05-06T00:00:00Z", "2024-05-13T00:00:00Z")
            let tuesday = try Self.total(store, "2024-05-07T00:00:00Z", "2024-05-08T00:00:00Z")
            #expect(abs(week - 70000) < 1e-6, "week got \(week)")
            #expect(abs(tuesday - 9000) < 1e-6, "Tuesday got \(tuesday)")
            let before = try Support.sampleFiles(folder + "/store")
            for points in [Self.week, Self.days, Self.hours] { try Self.push(points, into: store) }
            try expectEqual(Support.sampleFiles(folder + "/store"), before, "the same payloads after the export rewrote the store")
            #expect(abs(try Self.total(store, "2024-05-06T00:00:00Z", "2024-05-13T00:00:00Z") - 70000) < 1e-6)
        }
    }
}

/// The checks ``HAEChainOrderTests/checks(_:)`` runs.
private let hAEChainOrderTestsChecks: [Check<HAEChainOrderTests>] = [
    Check("fourFormsInsideEachOtherCountOnce", HAEChainOrderTests.fourFormsInsideEachOtherCountOnce),
    Check("anExportAfterThreeFormsTakesEachStepOffOnce",
          HAEChainOrderTests.anExportAfterThreeFormsTakesEachStepOffOnce),
]
