import Foundation
import Testing
import TestKit
@testable import HealthCore
@testable import HKCtlSupport

/// ``PeriodExpression``: periods as people say them, resolved in a zone and with a week start.
struct PeriodExpressionTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: periodExpressionTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit

    /// Wednesday 2024-03-20 21:00 in Paris (UTC+1; clocks go forward on 2024-03-31).
    private func paris(firstWeekday: Int = 2) -> TimeContext {
        var context = TimeContext(now: Kit.date(2024, 3, 20, 21, 0, 0, zone: "Europe/Paris"), timeZone: Kit.zone("Europe/Paris"))
        context.calendar.firstWeekday = firstWeekday
        return context
    }

    private func local(_ year: Int, _ month: Int, _ day: Int) -> Date { Kit.date(year, month, day, 0, 0, 0, zone: "Europe/Paris") }

    private func interval(_ text: String, _ context: TimeContext? = nil) throws -> DateInterval {
        try PeriodExpression.interval(of: text, in: context ?? paris())
    }

    /// Each text with the first day of its period and the day after its last (typed: an untyped literal of this size
    /// took the type checker seconds).
    static let singlePeriods: [(text: String, start: (Int, Int, Int), end: (Int, Int, Int))] = [
        ("2024", (2024, 1, 1), (2025, 1, 1)),
        ("2024-03", (2024, 3, 1), (2024, 4, 1)),
        ("2024/03", (2024, 3, 1), (2024, 4, 1)),
        ("2024-q1", (2024, 1, 1), (2024, 4, 1)),
        ("2024-Q4", (2024, 10, 1), (2025, 1, 1)),
        ("2024-W12", (2024, 3, 18), (2024, 3, 25)),
        ("2024-W01", (2024, 1, 1), (2024, 1, 8)),
        ("2020-W53", (2020, 12, 28), (2021, 1, 4)),
        ("2021-W01", (2021, 1, 4), (2021, 1, 11)),
        ("2024-03-18", (2024, 3, 18), (2024, 3, 19)),
        ("2024-02-29", (2024, 2, 29), (2024, 3, 1)),
        ("today", (2024, 3, 20), (2024, 3, 21)),
        ("Yesterday", (2024, 3, 19), (2024, 3, 20)),
        ("this week", (2024, 3, 18), (2024, 3, 25)),
        ("last week", (2024, 3, 11), (2024, 3, 18)),
        ("next week", (2024, 3, 25), (2024, 4, 1)),
        ("this month", (2024, 3, 1), (2024, 4, 1)),
        ("last month", (2024, 2, 1), (2024, 3, 1)),
        ("this quarter", (2024, 1, 1), (2024, 4, 1)),
        ("last quarter", (2023, 10, 1), (2024, 1, 1)),
        ("this year", (2024, 1, 1), (2025, 1, 1)),
        ("last year", (2023, 1, 1), (2024, 1, 1)),
        ("last 7 days", (2024, 3, 14), (2024, 3, 21)),
        ("last 1 day", (2024, 3, 20), (2024, 3, 21)),
        ("last 2 weeks", (2024, 3, 7), (2024, 3, 21)),
        ("last 3 months", (2023, 12, 21), (2024, 3, 21)),
        ("march", (2024, 3, 1), (2024, 4, 1)),
        ("may", (2023, 5, 1), (2023, 6, 1)),
        ("march 2023", (2023, 3, 1), (2023, 4, 1)),
        ("monday", (2024, 3, 18), (2024, 3, 19)),
        ("wednesday", (2024, 3, 20), (2024, 3, 21)),
        ("last wednesday", (2024, 3, 13), (2024, 3, 14)),
        ("-3d", (2024, 3, 17), (2024, 3, 18)),
        ("-2w", (2024, 3, 6), (2024, 3, 7)),
        ("from 2024-03-01 to 2024-03-15", (2024, 3, 1), (2024, 3, 16)),
        ("2024-03-01 to 2024-03-15", (2024, 3, 1), (2024, 3, 16)),
        ("from 2024-01 until 2024-02", (2024, 1, 1), (2024, 3, 1)),
        ("2024-03..2024-05", (2024, 3, 1), (2024, 6, 1)),
        ("from last monday to today", (2024, 3, 18), (2024, 3, 21)),
        ("from mar to may", (2024, 3, 1), (2024, 6, 1)),
        ("monday to friday", (2024, 3, 18), (2024, 3, 23)),
        ("jan..dec", (2024, 1, 1), (2025, 1, 1)),
        ("from november to february", (2023, 11, 1), (2024, 3, 1)),
    ]

    @Test(arguments: singlePeriods)
    func singlePeriodsAndRanges(text: String, start: (Int, Int, Int), end: (Int, Int, Int)) throws {
        let found = try interval(text)
        expectEqual(found.start, local(start.0, start.1, start.2), "\(text) start")
        expectEqual(found.end, local(end.0, end.1, end.2), "\(text) end")
    }

    func openRangesReachTheStoresBounds() throws {
        try expectEqual(interval("since 2024-03"), DateInterval(start: local(2024, 3, 1), end: DateRange.distantEnd))
        try expectEqual(interval("from last month"), DateInterval(start: local(2024, 2, 1), end: DateRange.distantEnd))
        try expectEqual(interval("until last month"), DateInterval(start: DateRange.distantStart, end: local(2024, 3, 1)))
        try expectEqual(interval("2024-03.."), DateInterval(start: local(2024, 3, 1), end: DateRange.distantEnd))
    }

    func weeksFollowTheWeekStartButISOWeeksDoNot() throws {
        let sunday = paris(firstWeekday: 1)
        try expectEqual(interval("this week", sunday), DateInterval(start: local(2024, 3, 17), end: local(2024, 3, 24)))
        try expectEqual(interval("2024-W12", sunday), DateInterval(start: local(2024, 3, 18), end: local(2024, 3, 25)))
    }

    func periodsAcrossADSTChangeAreCalendarPeriods() throws {
        // The week of 2024-03-31 in Paris is 167 hours long; the day itself 23.
        try expectEqual(interval("2024-W13").duration, 167 * 3600)
        try expectEqual(interval("2024-03-31").duration, 23 * 3600)
        try expectEqual(interval("2024-10-27").duration, 25 * 3600)
    }

    @Test(arguments: ["blah", "", "last", "this fortnight", "2024-13", "2024-00", "2024-02-30", "2024-Q5", "2021-W53",
                      "2024-W00", "from 2024-03-15 to 2024-03-01", "1899", "last 0 days", "from", "2024-03...2024-04",
                      "-999999w", "+999999w"])
    func nonsenseIsRefusedWithATimeInputError(text: String) {
        // A time that cannot be read or does not exist is HealthCore's TimeInputError; a period or range that is no
        // such thing is the command line's TypedTimeError. Both exit 65 (ExitStatus).
        let error = #expect(throws: (any Error).self) { try interval(text) }
        #expect(error is TimeInputError || error is TypedTimeError, "\(text): \(String(describing: error))")
    }

    func anUnknownPeriodNamesThePeriodSyntax() {
        #expect(throws: TypedTimeError.unknownPeriod("fortnight")) { try interval("fortnight") }
        #expect(throws: TimeInputError.impossible("2024-13", reason: "a year has months 1 to 12")) { try interval("2024-13") }
    }

    func aSideOfARangeIsAPeriodOrNil() throws {
        try expectEqual(PeriodExpression.span(of: "2024-03", in: paris()), DateInterval(start: local(2024, 3, 1), end: local(2024, 4, 1)))
        try expectNil(PeriodExpression.span(of: "08:30", in: paris()))
        try expectNil(PeriodExpression.span(of: "from 2024 to 2025", in: paris()))
    }

    func wholeRelativeDaysAreCalendarDaysInTheZone() throws {
        // 2024-04-03 21:00 Paris (UTC+2); two weeks back is 2024-03-20 21:00 Paris (UTC+1): 337 hours, not 336.
        let context = TimeContext(now: Kit.date(2024, 4, 3, 21, 0, 0, zone: "Europe/Paris"), timeZone: Kit.zone("Europe/Paris"))
        try expectEqual(TimeExpression.parse("-2w", in: context).date, Kit.date(2024, 3, 20, 21, 0, 0, zone: "Europe/Paris"))
        try expectEqual(TimeExpression.parse("-3d", in: context).date, Kit.date(2024, 3, 31, 21, 0, 0, zone: "Europe/Paris"))
        // Hours stay elapsed time.
        try expectEqual(TimeExpression.parse("-48h", in: context).date, context.now.addingTimeInterval(-48 * 3600))
    }
}

/// The checks ``PeriodExpressionTests/checks(_:)`` runs.
private let periodExpressionTestsChecks: [Check<PeriodExpressionTests>] = [
    Check("openRangesReachTheStoresBounds", PeriodExpressionTests.openRangesReachTheStoresBounds),
    Check("weeksFollowTheWeekStartButISOWeeksDoNot", PeriodExpressionTests.weeksFollowTheWeekStartButISOWeeksDoNot),
    Check("periodsAcrossADSTChangeAreCalendarPeriods", PeriodExpressionTests.periodsAcrossADSTChangeAreCalendarPeriods),
    Check("anUnknownPeriodNamesThePeriodSyntax", PeriodExpressionTests.anUnknownPeriodNamesThePeriodSyntax),
    Check("aSideOfARangeIsAPeriodOrNil", PeriodExpressionTests.aSideOfARangeIsAPeriodOrNil),
    Check("wholeRelativeDaysAreCalendarDaysInTheZone", PeriodExpressionTests.wholeRelativeDaysAreCalendarDaysInTheZone),
]
