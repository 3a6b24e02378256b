import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Issue 30 (bug 6 of the second HAE round, the usual case): where a coarser Health Auto Export point's rest lies once
/// finer points came for the start of its period ("since the last sync": the week, then Monday and Tuesday; the day,
/// then its first hours). The rest starts after them, so each of those days or hours counts its own figure alone, and
/// the period is kept in the metadata (`HAEPeriodStart`) for every rule that finds the point by its time.
struct HAERemainderShapeTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: hAERemainderShapeTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Support = ImportTestSupport

    private static func payload(_ points: [(date: String, steps: Double)]) -> String { Support.haeSteps(points) }

    private static let week = payload([("2024-05-06 00:00:00", 70000), ("2024-05-13 00:00:00", 35000)])

    private static func push(_ json: String, into store: JSONFileStore) throws { try Support.pushHAE(json, into: store) }

    private static func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    /// The steps between two UTC times (``ImportTestSupport/proRataSteps(_:in:)``).
    private static func steps(_ store: JSONFileStore, _ from: String, _ to: String) throws -> Double {
        try Support.proRataSteps(store, in: DateInterval(start: date(from), end: date(to)))
    }

    /// A day of 4,500, then its hours 00:00 (10) and 01:00 (20): those hours count 10 and 20, the day's rest (4,470)
    /// lies over 02:00–24:00.
    func aDaysRestLiesAfterTheHoursSentForItsStart() throws {
        try Support.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            try Self.push(Self.payload([("2024-05-10 00:00:00", 4500)]), into: store)
            try Self.push(Self.payload([("2024-05-10 00:00:00", 10), ("2024-05-10 01:00:00", 20)]), into: store)
            #expect(abs(try Self.steps(store, "2024-05-10T00:00:00Z", "2024-05-10T01:00:00Z") - 10) < 1e-6)
            #expect(abs(try Self.steps(store, "2024-05-10T01:00:00Z", "2024-05-10T02:00:00Z") - 20) < 1e-6)
            #expect(abs(try Self.steps(store, "2024-05-10T02:00:00Z", "2024-05-10T03:00:00Z") - 4470.0 / 22) < 1e-6)
            #expect(abs(try Self.steps(store, "2024-05-10T00:00:00Z", "2024-05-11T00:00:00Z") - 4500) < 1e-6)
        }
    }

    /// The week (70,000), then Monday (12,000) and Tuesday (9,000): those days count their own figures, the rest
    /// (49,000) lies over Wednesday to Sunday, and the remainder names its period's start. Monday re-sent grown
    /// (12,500) takes 500 off the rest; the same payloads again write nothing.
    func aWeeksRestLiesAfterTheDaysSentForItsStart() throws {
        try Support.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            try Self.push(Self.week, into: store)
            try Self.push(Self.payload([("2024-05-06 00:00:00", 12000), ("2024-05-07 00:00:00", 9000)]), into: store)
            #expect(abs(try Self.steps(store, "2024-05-06T00:00:00Z", "2024-05-07T00:00:00Z") - 12000) < 1e-6)
            #expect(abs(try Self.steps(store, "2024-05-07T00:00:00Z", "2024-05-08T00:00:00Z") - 9000) < 1e-6)
            #expect(abs(try Self.steps(store, "2024-05-08T00:00:00Z", "2024-05-09T00:00:00Z") - 49000.0 / 5) < 1e-6)
            #expect(abs(try Self.steps(store, "2024-05-06T00:00:00Z", "2024-05-13T00:00:00Z") - 70000) < 1e-6)
            let rest = try store.samples(ofType: "HKQuantityTypeIdentifierStepCount",
                                         overlapping: DateInterval(start: Self.date("2024-05-10T00:00:00Z"), duration: 1))
            #expect(rest.count == 1 && rest[0].start == Self.date("2024-05-08T00:00:00Z"))
            expectEqual(rest.first?.metadata[HAEWritePlan.periodStartKey], .number(Self.date("2024-05-06T00:00:00Z").timeIntervalSince1970))

            try Self.push(Self.payload([("2024-05-06 00:00:00", 12500), ("2024-05-07 00:00:00", 9000)]), into: store)
            #expect(abs(try Self.steps(store, "2024-05-06T00:00:00Z", "2024-05-07T00:00:00Z") - 12500) < 1e-6)
            #expect(abs(try Self.steps(store, "2024-05-06T00:00:00Z", "2024-05-13T00:00:00Z") - 70000) < 1e-6)

            let before = try Support.sampleFiles(folder + "/store")
            try Self.push(Self.week, into: store)
            try Self.push(Self.payload([("2024-05-06 00:00:00", 12500), ("2024-05-07 00:00:00", 9000)]), into: store)
            try expectEqual(Support.sampleFiles(folder + "/store"), before, "the same payloads again write nothing")
        }
    }
}

/// The checks ``HAERemainderShapeTests/checks(_:)`` runs.
private let hAERemainderShapeTestsChecks: [Check<HAERemainderShapeTests>] = [
    Check("aDaysRestLiesAfterTheHoursSentForItsStart",
          HAERemainderShapeTests.aDaysRestLiesAfterTheHoursSentForItsStart),
    Check("aWeeksRestLiesAfterTheDaysSentForItsStart",
          HAERemainderShapeTests.aWeeksRestLiesAfterTheDaysSentForItsStart),
]
