import Foundation
import Testing
import TestKit
@testable import HealthCore
@testable import HKCtlSupport

/// Times typed on the command line, relative to a pinned now (2024-06-01T12:00Z, a Saturday).
struct TimeExpressionTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: timeExpressionTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit

    private func parse(_ text: String, zone: String = "UTC", now: Date = TestSupport.referenceNow) throws -> TimeExpression {
        try TimeExpression.parse(text, in: TimeContext(now: now, timeZone: Kit.zone(zone)))
    }

    /// (text, expected UTC instant as y, m, d, h, min, s, whether date-only).
    @Test(arguments: [
        ("08:30", [2024, 6, 1, 8, 30, 0], false),
        ("8:5", [2024, 6, 1, 8, 5, 0], false),
        ("08:30:15", [2024, 6, 1, 8, 30, 15], false),
        ("23:59", [2024, 6, 1, 23, 59, 0], false),           // later today is allowed as an expression
        ("today", [2024, 6, 1, 0, 0, 0], true),
        ("TODAY", [2024, 6, 1, 0, 0, 0], true),
        ("today 07:15", [2024, 6, 1, 7, 15, 0], false),
        ("yesterday", [2024, 5, 31, 0, 0, 0], true),
        ("yesterday 22:30", [2024, 5, 31, 22, 30, 0], false),
        ("Yesterday 22:30", [2024, 5, 31, 22, 30, 0], false),
        ("  yesterday   22:30  ", [2024, 5, 31, 22, 30, 0], false),
        ("now", [2024, 6, 1, 12, 0, 0], false),
        ("NOW", [2024, 6, 1, 12, 0, 0], false),
        ("-2h", [2024, 6, 1, 10, 0, 0], false),              // 12:00 − 2 h
        ("-30m", [2024, 6, 1, 11, 30, 0], false),            // m is minutes
        ("-45s", [2024, 6, 1, 11, 59, 15], false),
        ("-1.5h", [2024, 6, 1, 10, 30, 0], false),           // 1.5 × 3600 s = 90 min
        ("-3d", [2024, 5, 29, 12, 0, 0], false),             // 3 × 86 400 s
        ("-1w", [2024, 5, 25, 12, 0, 0], false),             // 604 800 s
        ("+1h", [2024, 6, 1, 13, 0, 0], false),
        ("-2H", [2024, 6, 1, 10, 0, 0], false),
        ("2024-06-01", [2024, 6, 1, 0, 0, 0], true),
        ("2024-05-15T08:30", [2024, 5, 15, 8, 30, 0], false),
        ("2024-05-15T08:30:00+02:00", [2024, 5, 15, 6, 30, 0], false),
        ("2024-05-15 08:30:00 -0800", [2024, 5, 15, 16, 30, 0], false),
    ])
    func parsesInUTC(text: String, parts: [Int], dateOnly: Bool) throws {
        let expression = try parse(text)
        expectEqual(expression.date, Kit.utc(parts[0], parts[1], parts[2], parts[3], parts[4], parts[5]), "\(text)")
        expectEqual(expression.isDateOnly, dateOnly, "\(text)")
    }

    /// The same words in Europe/Paris (UTC+2 on 2024-06-01, so now is 14:00 local).
    @Test(arguments: [
        ("08:30", [2024, 6, 1, 6, 30], false),               // 08:30+02:00
        ("yesterday 22:30", [2024, 5, 31, 20, 30], false),
        ("today", [2024, 5, 31, 22, 0], true),               // local midnight = 22:00Z the day before
        ("yesterday", [2024, 5, 30, 22, 0], true),
        ("2024-06-01", [2024, 5, 31, 22, 0], true),
        ("2024-01-15", [2024, 1, 14, 23, 0], true),          // winter: UTC+1
        ("2024-06-01T08:30", [2024, 6, 1, 6, 30], false),
        ("2024-06-01T08:30:00Z", [2024, 6, 1, 8, 30], false),  // an explicit offset wins over the zone
        ("-2h", [2024, 6, 1, 10, 0], false),                 // relative times do not depend on the zone
    ])
    func parsesInParis(text: String, parts: [Int], dateOnly: Bool) throws {
        let expression = try parse(text, zone: "Europe/Paris")
        expectEqual(expression.date, Kit.utc(parts[0], parts[1], parts[2], parts[3], parts[4]), "\(text)")
        expectEqual(expression.isDateOnly, dateOnly, "\(text)")
    }

    func timeOfDayInNewYork() throws {
        // New York is UTC−4 on 2024-06-01: now is 08:00 local, "08:30" is 12:30Z.
        try expectEqual(parse("08:30", zone: "America/New_York").date, Kit.utc(2024, 6, 1, 12, 30))
        try expectEqual(parse("today", zone: "America/New_York").date, Kit.utc(2024, 6, 1, 4))
    }

    func yesterdayAcrossTheSpringForwardDayIs23HoursBack() throws {
        // now = 2024-04-01T10:00Z (12:00 CEST). Today starts 2024-04-01T00:00+02:00 = 03-31T22:00Z;
        // yesterday (the 23-hour day of 03-31) starts 2024-03-31T00:00+01:00 = 03-30T23:00Z.
        let now = Kit.utc(2024, 4, 1, 10)
        let today = try parse("today", zone: "Europe/Paris", now: now).date
        let yesterday = try parse("yesterday", zone: "Europe/Paris", now: now).date
        expectEqual(today, Kit.utc(2024, 3, 31, 22))
        expectEqual(yesterday, Kit.utc(2024, 3, 30, 23))
        expectEqual(today.timeIntervalSince(yesterday), 23 * 3600)
        // "yesterday 12:00" is noon CEST on 03-31 = 10:00Z.
        try expectEqual(parse("yesterday 12:00", zone: "Europe/Paris", now: now).date, Kit.utc(2024, 3, 31, 10))
    }

    func relativeDaysAreCalendarDaysAcrossDST() throws {
        // "-1d" is one calendar day at the same clock time (issue 31): 2024-03-31T14:00 CEST (12:00Z) gives
        // 03-30T14:00 CET (13:00Z), 23 hours back; in UTC it is 24 hours. Hours stay elapsed time.
        let now = Kit.utc(2024, 3, 31, 12)
        try expectEqual(parse("-1d", zone: "Europe/Paris", now: now).date, Kit.utc(2024, 3, 30, 13))
        try expectEqual(parse("-1d", zone: "UTC", now: now).date, Kit.utc(2024, 3, 30, 12))
        try expectEqual(parse("-24h", zone: "Europe/Paris", now: now).date, Kit.utc(2024, 3, 30, 12))
        try expectEqual(parse("-1.5d", zone: "Europe/Paris", now: now).date, Kit.utc(2024, 3, 30, 0))
    }

    @Test(arguments: ["", "tomorrow", "-2x", "-2y", "later", "8h30", "2024-06-01T", "yesterday at 10", "12:", ":30", "1:2:3:4"])
    func malformedTimesThrow(text: String) {
        let error = #expect(throws: TimeInputError.self) { try parse(text) }
        guard case .malformed? = error else {
            Issue.record("'\(text)' gave \(String(describing: error)), expected .malformed")
            return
        }
    }

    @Test(arguments: ["25:00", "24:00", "08:60", "08:30:60", "today 25:00", "yesterday 23:61", "2024-02-30", "2023-02-29T10:00"])
    func impossibleTimesThrow(text: String) {
        let error = #expect(throws: TimeInputError.self) { try parse(text) }
        guard case .impossible? = error else {
            Issue.record("'\(text)' gave \(String(describing: error)), expected .impossible")
            return
        }
    }

    func leapDayIsADate() throws {
        let expression = try parse("2024-02-29")
        expectEqual(expression.date, Kit.utc(2024, 2, 29))
        #expect(expression.isDateOnly)
    }

    /// Issue 20, item 15: a wall-clock time skipped by a clock change is refused, naming the valid times around it;
    /// a date alone on such a day, a repeated time and a time with an offset are read.
    func aTimeSkippedWhenClocksGoForwardIsRefused() throws {
        for (text, zone, before, after) in [("2024-03-10T02:30", "America/New_York", "2024-03-10T01:59", "2024-03-10T03:00"),
                                            ("2024-03-31T02:00", "Europe/Paris", "2024-03-31T01:59", "2024-03-31T03:00"),
                                            ("2024-10-06T02:15", "Australia/Sydney", "2024-10-06T01:59", "2024-10-06T03:00"),
                                            ("2024-03-31 01:00:30", "Europe/London", "2024-03-31T00:59", "2024-03-31T02:00")] {
            do {
                _ = try parse(text, zone: zone)
                Issue.record("\(text) in \(zone) was accepted")
            } catch let TimeInputError.impossible(found, reason) {
                expectEqual(found, text)
                #expect(reason.contains(before) && reason.contains(after), "\(reason)")
            }
        }
        try expectEqual(parse("2024-03-10T01:59:59", zone: "America/New_York").date, Kit.utc(2024, 3, 10, 6, 59, 59))
        try expectEqual(parse("2024-03-10T03:00", zone: "America/New_York").date, Kit.utc(2024, 3, 10, 7))
        try expectEqual(parse("2024-03-10T02:30-05:00", zone: "America/New_York").date, Kit.utc(2024, 3, 10, 7, 30))
        try expectEqual(parse("2024-03-10", zone: "America/New_York").date, Kit.utc(2024, 3, 10, 5))
        try expectEqual(parse("2023-11-05T01:30", zone: "America/New_York").date, Kit.utc(2023, 11, 5, 5, 30))
        try expectEqual(parse("2023-11-05T01:30-05:00", zone: "America/New_York").date, Kit.utc(2023, 11, 5, 6, 30))
        // Santiago skips midnight (2024-09-08 00:00 -> 01:00): the date alone is still that day's first instant.
        try expectEqual(parse("2024-09-08", zone: "America/Santiago").date, Kit.utc(2024, 9, 8, 4))
    }

}

/// The checks ``TimeExpressionTests/checks(_:)`` runs.
private let timeExpressionTestsChecks: [Check<TimeExpressionTests>] = [
    Check("timeOfDayInNewYork", TimeExpressionTests.timeOfDayInNewYork),
    Check("yesterdayAcrossTheSpringForwardDayIs23HoursBack",
          TimeExpressionTests.yesterdayAcrossTheSpringForwardDayIs23HoursBack),
    Check("relativeDaysAreCalendarDaysAcrossDST", TimeExpressionTests.relativeDaysAreCalendarDaysAcrossDST),
    Check("leapDayIsADate", TimeExpressionTests.leapDayIsADate),
    Check("aTimeSkippedWhenClocksGoForwardIsRefused", TimeExpressionTests.aTimeSkippedWhenClocksGoForwardIsRefused),
]
