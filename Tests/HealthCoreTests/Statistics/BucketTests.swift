import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Calendar buckets: boundaries follow the local calendar, so DST days are 23 or 25 hours long.
struct BucketTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: bucketTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit

    private func calendar(_ zone: String) -> GregorianCalendar {
        GregorianCalendar(timeZone: Kit.zone(zone))
    }

    /// Bucket lengths in hours.
    private func hours(_ boundaries: [Date]) -> [Double] {
        zip(boundaries, boundaries.dropFirst()).map { $1.timeIntervalSince($0) / 3600 }
    }

    private func checkShape(_ boundaries: [Date], covering interval: DateInterval) {
        expectEqual(boundaries.first, interval.start)
        expectEqual(boundaries.last, interval.end)
        #expect(zip(boundaries, boundaries.dropFirst()).allSatisfy { $0 < $1 }, "boundaries must increase")
    }

    func unitNames() {
        expectEqual(BucketUnit.allCases.map(\.rawValue), ["hour", "day", "week", "month", "year"])
        expectNil(BucketUnit(rawValue: "fortnight"))
    }

    func springForwardDayIs23HoursInParis() {
        // 2024-03-30 00:00+01:00 = 03-29T23:00Z … 2024-04-02 00:00+02:00 = 04-01T22:00Z.
        let interval = DateInterval(start: Kit.utc(2024, 3, 29, 23), end: Kit.utc(2024, 4, 1, 22))
        let boundaries = BucketUnit.day.boundaries(covering: interval, calendar: calendar("Europe/Paris"))
        checkShape(boundaries, covering: interval)
        expectEqual(boundaries, [Kit.utc(2024, 3, 29, 23), Kit.utc(2024, 3, 30, 23), Kit.utc(2024, 3, 31, 22), Kit.utc(2024, 4, 1, 22)])
        expectEqual(hours(boundaries), [24, 23, 24])
    }

    func fallBackDayIs25HoursInParis() {
        // 2024-10-26 00:00+02:00 = 10-25T22:00Z … 2024-10-29 00:00+01:00 = 10-28T23:00Z.
        let interval = DateInterval(start: Kit.utc(2024, 10, 25, 22), end: Kit.utc(2024, 10, 28, 23))
        let boundaries = BucketUnit.day.boundaries(covering: interval, calendar: calendar("Europe/Paris"))
        checkShape(boundaries, covering: interval)
        expectEqual(hours(boundaries), [24, 25, 24])
        expectEqual(boundaries[2], Kit.utc(2024, 10, 27, 23))  // midnight 10-28 CET
    }

    /// (zone, local day start in UTC, local day end in UTC, hour buckets expected).
    @Test(arguments: [
        ("Europe/Paris", [2024, 3, 30, 23], [2024, 3, 31, 22], 23),
        ("Europe/Paris", [2024, 10, 26, 22], [2024, 10, 27, 23], 25),
        ("America/New_York", [2024, 3, 10, 5], [2024, 3, 11, 4], 23),
        ("America/New_York", [2024, 11, 3, 4], [2024, 11, 4, 5], 25),
        ("Europe/Paris", [2024, 5, 31, 22], [2024, 6, 1, 22], 24),
    ])
    func hourBucketsOnDSTDays(zone: String, start: [Int], end: [Int], count: Int) {
        let interval = DateInterval(start: Kit.utc(start[0], start[1], start[2], start[3]),
                                    end: Kit.utc(end[0], end[1], end[2], end[3]))
        let cal = calendar(zone)
        // The interval is exactly one local day.
        expectEqual(BucketUnit.day.boundaries(covering: interval, calendar: cal).count, 2)
        let boundaries = BucketUnit.hour.boundaries(covering: interval, calendar: cal)
        checkShape(boundaries, covering: interval)
        expectEqual(boundaries.count, count + 1)
        #expect(hours(boundaries).allSatisfy { $0 == 1 }, "every hour bucket lasts 3600 s")
    }

    func hourBucketsClipAPartialFirstAndLastHour() {
        let interval = DateInterval(start: Kit.utc(2024, 6, 1, 10, 30), end: Kit.utc(2024, 6, 1, 13, 15))
        let boundaries = BucketUnit.hour.boundaries(covering: interval, calendar: calendar("UTC"))
        expectEqual(boundaries, [Kit.utc(2024, 6, 1, 10, 30), Kit.utc(2024, 6, 1, 11), Kit.utc(2024, 6, 1, 12),
                                 Kit.utc(2024, 6, 1, 13), Kit.utc(2024, 6, 1, 13, 15)])
    }

    func halfHourZoneHoursStartOnTheLocalHour() {
        // India is UTC+5:30: local hours begin at :30 past the UTC hour.
        let interval = DateInterval(start: Kit.utc(2024, 6, 1, 0), end: Kit.utc(2024, 6, 1, 2))
        let boundaries = BucketUnit.hour.boundaries(covering: interval, calendar: calendar("Asia/Kolkata"))
        expectEqual(boundaries, [Kit.utc(2024, 6, 1, 0), Kit.utc(2024, 6, 1, 0, 30), Kit.utc(2024, 6, 1, 1, 30),
                                 Kit.utc(2024, 6, 1, 2)])
    }

    func intervalInsideOneBucketIsOneBucket() {
        let interval = DateInterval(start: Kit.utc(2024, 6, 1, 10), end: Kit.utc(2024, 6, 1, 11, 30))
        expectEqual(BucketUnit.day.boundaries(covering: interval, calendar: calendar("UTC")), [interval.start, interval.end])
        expectEqual(BucketUnit.year.boundaries(covering: interval, calendar: calendar("UTC")), [interval.start, interval.end])
    }

    func alignedIntervalHasNoEmptyEdgeBuckets() {
        let interval = DateInterval(start: Kit.utc(2024, 6, 1), end: Kit.utc(2024, 6, 3))
        expectEqual(BucketUnit.day.boundaries(covering: interval, calendar: calendar("UTC")), [Kit.utc(2024, 6, 1), Kit.utc(2024, 6, 2), Kit.utc(2024, 6, 3)])
    }

    func monthBucketsHaveCalendarLengths() {
        // January 31 days, February 29 (2024 is a leap year), March 31.
        let interval = DateInterval(start: Kit.utc(2024, 1, 1), end: Kit.utc(2024, 4, 1))
        let boundaries = BucketUnit.month.boundaries(covering: interval, calendar: calendar("UTC"))
        checkShape(boundaries, covering: interval)
        let expected: [Double] = [744, 696, 744]  // 31 × 24, 29 × 24, 31 × 24
        expectEqual(hours(boundaries), expected)
    }

    func monthBucketsInParisLoseTheDSTHour() {
        // March 2024 in Paris: 31 × 24 − 1 = 743 h; April: 30 × 24 = 720 h.
        let interval = DateInterval(start: Kit.date(2024, 3, 1, zone: "Europe/Paris"), end: Kit.date(2024, 5, 1, zone: "Europe/Paris"))
        let boundaries = BucketUnit.month.boundaries(covering: interval, calendar: calendar("Europe/Paris"))
        expectEqual(hours(boundaries), [743, 720])
    }

    func weekBucketsStartOnMonday() {
        // 2024-06-01 is a Saturday, so 05-27 and 06-03 are Mondays. [Wed 05-22, Wed 06-05) gives a clipped
        // first week (5 days), a whole week, and a clipped last week (2 days).
        let interval = DateInterval(start: Kit.utc(2024, 5, 22), end: Kit.utc(2024, 6, 5))
        let boundaries = BucketUnit.week.boundaries(covering: interval, calendar: calendar("UTC"))
        expectEqual(boundaries, [Kit.utc(2024, 5, 22), Kit.utc(2024, 5, 27), Kit.utc(2024, 6, 3), Kit.utc(2024, 6, 5)])
        let expected: [Double] = [120, 168, 48]  // 5 × 24, 7 × 24, 2 × 24
        expectEqual(hours(boundaries), expected)
    }

    func weekContainingSpringForwardIs167Hours() {
        // Monday 2024-03-25 to Monday 2024-04-01 in Paris contains the 23-hour Sunday.
        let interval = DateInterval(start: Kit.date(2024, 3, 25, zone: "Europe/Paris"), end: Kit.date(2024, 4, 8, zone: "Europe/Paris"))
        let boundaries = BucketUnit.week.boundaries(covering: interval, calendar: calendar("Europe/Paris"))
        expectEqual(hours(boundaries), [167, 168])
    }

    func yearBucketsFollowTheCalendar() {
        let interval = DateInterval(start: Kit.utc(2023, 7, 1), end: Kit.utc(2025, 3, 1))
        let boundaries = BucketUnit.year.boundaries(covering: interval, calendar: calendar("UTC"))
        expectEqual(boundaries, [Kit.utc(2023, 7, 1), Kit.utc(2024, 1, 1), Kit.utc(2025, 1, 1), Kit.utc(2025, 3, 1)])
        // 2024 has 366 days.
        expectEqual(hours(boundaries)[1], 366 * 24)
    }
}

/// The checks ``BucketTests/checks(_:)`` runs.
private let bucketTestsChecks: [Check<BucketTests>] = [
    Check("unitNames", BucketTests.unitNames),
    Check("springForwardDayIs23HoursInParis", BucketTests.springForwardDayIs23HoursInParis),
    Check("fallBackDayIs25HoursInParis", BucketTests.fallBackDayIs25HoursInParis),
    Check("hourBucketsClipAPartialFirstAndLastHour", BucketTests.hourBucketsClipAPartialFirstAndLastHour),
    Check("halfHourZoneHoursStartOnTheLocalHour", BucketTests.halfHourZoneHoursStartOnTheLocalHour),
    Check("intervalInsideOneBucketIsOneBucket", BucketTests.intervalInsideOneBucketIsOneBucket),
    Check("alignedIntervalHasNoEmptyEdgeBuckets", BucketTests.alignedIntervalHasNoEmptyEdgeBuckets),
    Check("monthBucketsHaveCalendarLengths", BucketTests.monthBucketsHaveCalendarLengths),
    Check("monthBucketsInParisLoseTheDSTHour", BucketTests.monthBucketsInParisLoseTheDSTHour),
    Check("weekBucketsStartOnMonday", BucketTests.weekBucketsStartOnMonday),
    Check("weekContainingSpringForwardIs167Hours", BucketTests.weekContainingSpringForwardIs167Hours),
    Check("yearBucketsFollowTheCalendar", BucketTests.yearBucketsFollowTheCalendar),
]
