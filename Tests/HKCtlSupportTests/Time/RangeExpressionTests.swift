import Foundation
import Testing
import TestKit
@testable import HealthCore
@testable import HKCtlSupport

/// `--today`, `--yesterday`, `--week`, `--from/--to` as half-open intervals, including DST days.
struct RangeExpressionTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: rangeExpressionTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit

    private func context(_ zone: String = "UTC", now: Date = TestSupport.referenceNow) -> TimeContext {
        TimeContext(now: now, timeZone: Kit.zone(zone))
    }

    private func expression(_ text: String, _ context: TimeContext) throws -> TimeExpression {
        try TimeExpression.parse(text, in: context)
    }

    func todayIsMidnightToMidnight() throws {
        let interval = try RangeExpression.today.interval(in: context())
        expectEqual(interval.start, Kit.utc(2024, 6, 1))
        expectEqual(interval.end, Kit.utc(2024, 6, 2))
        expectEqual(interval.duration, 86_400)
    }

    /// Santiago skips 2024-09-08's midnight (00:00 -04:00 -> 01:00 -03:00): that day starts at 01:00 and, like every
    /// day, ends where the next starts (23 hours), so a sample at 00:30 on 09-09 is not in it (a review: it was counted
    /// on both days).
    func aDayWhoseMidnightIsSkippedEndsWhereTheNextStarts() throws {
        let day = DateInterval(start: Kit.utc(2024, 9, 8, 4), end: Kit.utc(2024, 9, 9, 3))
        let evening = context("America/Santiago", now: Kit.utc(2024, 9, 8, 23))
        try expectEqual(RangeExpression.today.interval(in: evening), day)
        let next = context("America/Santiago", now: Kit.utc(2024, 9, 9, 13))
        try expectEqual(RangeExpression.yesterday.interval(in: next), day)
        try expectEqual(RangeExpression.lastDays(2).interval(in: evening),
                        DateInterval(start: Kit.utc(2024, 9, 7, 4), end: Kit.utc(2024, 9, 9, 3)))
        let date = try expression("2024-09-08", evening)
        try expectEqual(RangeExpression.between(from: date, to: date).interval(in: evening), day)
        try expectEqual(PeriodExpression.interval(of: "2024-09-08", in: evening), day)
        try expectEqual(PeriodExpression.interval(of: "2024-09-07", in: evening),
                        DateInterval(start: Kit.utc(2024, 9, 7, 4), end: Kit.utc(2024, 9, 8, 4)))
        try expectEqual(PeriodExpression.interval(of: "from 2024-09-07 to 2024-09-08", in: evening),
                        DateInterval(start: Kit.utc(2024, 9, 7, 4), end: Kit.utc(2024, 9, 9, 3)))
        expectEqual(evening.startOfNextDay(after: Kit.utc(2024, 9, 8, 12)), Kit.utc(2024, 9, 9, 3))
    }

    func yesterdayIsTheDayBefore() throws {
        let interval = try RangeExpression.yesterday.interval(in: context())
        expectEqual(interval.start, Kit.utc(2024, 5, 31))
        expectEqual(interval.end, Kit.utc(2024, 6, 1))
    }

    func lastSevenDaysEndWithToday() throws {
        // Today is 06-01; the six days before it start on 05-26; the range ends at midnight after today.
        let interval = try RangeExpression.lastDays(7).interval(in: context())
        expectEqual(interval.start, Kit.utc(2024, 5, 26))
        expectEqual(interval.end, Kit.utc(2024, 6, 2))
        expectEqual(interval.duration, 7 * 86_400)
        try expectEqual(RangeExpression.lastDays(1).interval(in: context()), RangeExpression.today.interval(in: context()))
        // 30 days: 06-01 − 29 days = 05-03.
        try expectEqual(RangeExpression.lastDays(30).interval(in: context()).start, Kit.utc(2024, 5, 3))
        // 365 days: 2024-06-01 − 364 days = 2023-06-03 (2024 has Feb 29 in between).
        try expectEqual(RangeExpression.lastDays(365).interval(in: context()).start, Kit.utc(2023, 6, 3))
    }

    func todayFollowsTheContextZone() throws {
        // Paris is UTC+2 on 2024-06-01: the local day runs from 05-31T22:00Z to 06-01T22:00Z.
        let interval = try RangeExpression.today.interval(in: context("Europe/Paris"))
        expectEqual(interval.start, Kit.utc(2024, 5, 31, 22))
        expectEqual(interval.end, Kit.utc(2024, 6, 1, 22))
    }

    func dstWeekInParisHasSevenDaysWithOne23HourDay() throws {
        // now = 2024-04-02T10:00Z (12:00 CEST). The week runs 2024-03-27 00:00+01:00 (03-26T23:00Z)
        // to 2024-04-03 00:00+02:00 (04-02T22:00Z): 7 × 24 h − 1 h = 167 h.
        let paris = context("Europe/Paris", now: Kit.utc(2024, 4, 2, 10))
        let week = try RangeExpression.lastDays(7).interval(in: paris)
        expectEqual(week.start, Kit.utc(2024, 3, 26, 23))
        expectEqual(week.end, Kit.utc(2024, 4, 2, 22))
        expectEqual(week.duration, 167 * 3600)

        let days = BucketUnit.day.boundaries(covering: week, calendar: paris.calendar)
        let lengths = zip(days, days.dropFirst()).map { $1.timeIntervalSince($0) / 3600 }
        // 03-27, 28, 29, 30 are 24 h; 03-31 is 23 h; 04-01, 04-02 are 24 h.
        expectEqual(lengths, [24, 24, 24, 24, 23, 24, 24])
    }

    func dstDaysAsToday() throws {
        // Spring forward in Paris (2024-03-31): 23 h. Fall back (2024-10-27): 25 h.
        try expectEqual(RangeExpression.today.interval(in: context("Europe/Paris", now: Kit.utc(2024, 3, 31, 12))).duration, 23 * 3600)
        try expectEqual(RangeExpression.today.interval(in: context("Europe/Paris", now: Kit.utc(2024, 10, 27, 12))).duration, 25 * 3600)
        // New York: 2024-03-10 is 23 h, 2024-11-03 is 25 h.
        let spring = try RangeExpression.today.interval(in: context("America/New_York", now: Kit.utc(2024, 3, 10, 17)))
        expectEqual(spring.start, Kit.utc(2024, 3, 10, 5))   // 00:00 EST = 05:00Z
        expectEqual(spring.end, Kit.utc(2024, 3, 11, 4))     // 00:00 EDT = 04:00Z
        let autumn = try RangeExpression.today.interval(in: context("America/New_York", now: Kit.utc(2024, 11, 3, 17)))
        expectEqual(autumn.start, Kit.utc(2024, 11, 3, 4))
        expectEqual(autumn.end, Kit.utc(2024, 11, 4, 5))
        // Yesterday seen from the day after spring forward in Paris is the short day.
        let yesterday = try RangeExpression.yesterday.interval(in: context("Europe/Paris", now: Kit.utc(2024, 4, 1, 12)))
        expectEqual(yesterday.start, Kit.utc(2024, 3, 30, 23))
        expectEqual(yesterday.end, Kit.utc(2024, 3, 31, 22))
    }

    func betweenWithADateOnlyEndRunsThroughThatDay() throws {
        let ctx = context()
        let range = RangeExpression.between(from: try expression("2024-05-01", ctx), to: try expression("2024-05-31", ctx))
        let interval = try range.interval(in: ctx)
        expectEqual(interval.start, Kit.utc(2024, 5, 1))
        expectEqual(interval.end, Kit.utc(2024, 6, 1))
        // The same day on both sides is that whole day.
        let oneDay = try RangeExpression.between(from: try expression("2024-05-10", ctx), to: try expression("2024-05-10", ctx))
            .interval(in: ctx)
        expectEqual(oneDay.duration, 86_400)
    }

    func betweenWithTimesIsExact() throws {
        let ctx = context()
        let interval = try RangeExpression.between(from: try expression("2024-05-01T08:00", ctx), to: try expression("2024-05-01T09:30", ctx))
            .interval(in: ctx)
        expectEqual(interval.start, Kit.utc(2024, 5, 1, 8))
        expectEqual(interval.end, Kit.utc(2024, 5, 1, 9, 30))
    }

    func openBoundsReachTheStoresLimits() throws {
        let ctx = context()
        let fromOnly = try RangeExpression.between(from: try expression("2024-05-01", ctx), to: nil).interval(in: ctx)
        expectEqual(fromOnly.start, Kit.utc(2024, 5, 1))
        expectEqual(fromOnly.end, DateRange.distantEnd)
        let toOnly = try RangeExpression.between(from: nil, to: try expression("2024-05-01", ctx)).interval(in: ctx)
        expectEqual(toOnly.start, DateRange.distantStart)
        expectEqual(toOnly.end, Kit.utc(2024, 5, 2))
        let all = try RangeExpression.allTime.interval(in: ctx)
        expectEqual(all.start, Kit.utc(1900, 1, 1))
        expectEqual(all.end, Kit.utc(3000, 1, 1))
    }

    func emptyOrBackwardRangesThrow() throws {
        let ctx = context()
        // The error shows the bounds as they were typed.
        #expect(throws: TypedTimeError.emptyRange(from: "'2024-05-02T00:00'", to: "'2024-05-01T00:00'")) {
            try RangeExpression.between(from: try expression("2024-05-02T00:00", ctx), to: try expression("2024-05-01T00:00", ctx))
                .interval(in: ctx)
        }
        // Equal bounds with times are empty too: the end must be after the start.
        #expect(throws: TypedTimeError.self) {
            try RangeExpression.between(from: try expression("10:00", ctx), to: try expression("10:00", ctx)).interval(in: ctx)
        }
        // A date-only `to` the day before `from` ends exactly at `from`: still empty.
        #expect(throws: TypedTimeError.self) {
            try RangeExpression.between(from: try expression("2024-05-02", ctx), to: try expression("2024-05-01", ctx)).interval(in: ctx)
        }
    }

    func contextAddsCalendarDays() {
        let paris = context("Europe/Paris")
        // Midnight 2024-03-31 (+01:00) plus one calendar day is midnight 04-01 (+02:00): 23 h later.
        let start = Kit.date(2024, 3, 31, zone: "Europe/Paris")
        let next = paris.adding(days: 1, to: start)
        expectEqual(next, Kit.date(2024, 4, 1, zone: "Europe/Paris"))
        expectEqual(next.timeIntervalSince(start), 23 * 3600)
        expectEqual(paris.startOfDay(Kit.utc(2024, 3, 31, 12)), Kit.utc(2024, 3, 30, 23))
        // Weeks start on Monday.
        expectEqual(paris.calendar.firstWeekday, 2)
        expectEqual(paris.timeZone.identifier, "Europe/Paris")
    }
}

/// The checks ``RangeExpressionTests/checks(_:)`` runs.
private let rangeExpressionTestsChecks: [Check<RangeExpressionTests>] = [
    Check("todayIsMidnightToMidnight", RangeExpressionTests.todayIsMidnightToMidnight),
    Check("aDayWhoseMidnightIsSkippedEndsWhereTheNextStarts", RangeExpressionTests.aDayWhoseMidnightIsSkippedEndsWhereTheNextStarts),
    Check("yesterdayIsTheDayBefore", RangeExpressionTests.yesterdayIsTheDayBefore),
    Check("lastSevenDaysEndWithToday", RangeExpressionTests.lastSevenDaysEndWithToday),
    Check("todayFollowsTheContextZone", RangeExpressionTests.todayFollowsTheContextZone),
    Check("dstWeekInParisHasSevenDaysWithOne23HourDay",
          RangeExpressionTests.dstWeekInParisHasSevenDaysWithOne23HourDay),
    Check("dstDaysAsToday", RangeExpressionTests.dstDaysAsToday),
    Check("betweenWithADateOnlyEndRunsThroughThatDay", RangeExpressionTests.betweenWithADateOnlyEndRunsThroughThatDay),
    Check("betweenWithTimesIsExact", RangeExpressionTests.betweenWithTimesIsExact),
    Check("openBoundsReachTheStoresLimits", RangeExpressionTests.openBoundsReachTheStoresLimits),
    Check("emptyOrBackwardRangesThrow", RangeExpressionTests.emptyOrBackwardRangesThrow),
    Check("contextAddsCalendarDays", RangeExpressionTests.contextAddsCalendarDays),
]
