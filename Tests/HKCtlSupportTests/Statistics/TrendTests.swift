import Foundation
import Testing
@testable import HealthCore
@testable import HKCtlSupport
import TestKit

/// Trends: moving averages, change over the period, weekday figures.
struct TrendTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: trendTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit

    /// Monday 2024-05-06 … Sunday 2024-05-19 (two weeks), UTC, weeks from Monday.
    private let start = Kit.utc(2024, 5, 6), end = Kit.utc(2024, 5, 20)
    private var calendar: GregorianCalendar { TimeContext(now: TestSupport.referenceNow, timeZone: .gmt).calendar }

    private func day(_ offset: Int, _ hour: Int = 7) -> Date { start.addingTimeInterval(Double(offset * 86_400 + hour * 3600)) }

    func weightMovingAverageAndChange() throws {
        // 80.0 kg on day 0, falling 0.1 kg a day, but +0.5 kg every Monday (days 0 and 7 are Mondays).
        // Day 3 (Thursday) has two readings, 79.7 and 79.9: the day's value is their mean, 79.8.
        var samples: [Sample] = []
        var values: [Double] = []
        for offset in 0..<14 {
            let value = 80.0 - 0.1 * Double(offset) + (offset == 7 ? 0.5 : 0)
            values.append(value)
            samples.append(Kit.quantity(.weight, value, "kg", day(offset)))
        }
        samples.append(Kit.quantity(.weight, values[3] + 0.2, "kg", day(3, 20)))
        values[3] += 0.1
        let trend = try TrendQuery(type: .weight, interval: DateInterval(start: start, end: end), window: 3)
            .run(on: InMemorySampleStore(samples), calendar: calendar)
        expectEqual(trend.measure, "average")
        expectEqual(trend.days.count, 14)
        for (index, entry) in trend.days.enumerated() {
            #expect(Kit.isClose(entry.value!, values[index], relative: 1e-12))
            let window = values[max(0, index - 2)...index]
            #expect(Kit.isClose(entry.movingAverage!, window.sum / Double(window.count), relative: 1e-12))
        }
        let change = try #require(trend.change)
        // First 80.0 (day 0), last 80.0 − 1.3 = 78.7 (day 13): −1.3 kg, −1.625 %.
        #expect(Kit.isClose(change.absolute, -1.3, relative: 1e-9))
        #expect(Kit.isClose(change.relative!, -1.3 / 80, relative: 1e-9))
        #expect(change.firstDate == start && change.lastDate == start.addingTimeInterval(13 * 86_400))
        // Weekdays from Monday. Monday's day-to-day change: only day 7 has a recorded day before (day 6):
        // (80 − 0.7 + 0.5) − (80 − 0.6) = +0.4. Friday: day 4 vs 3 → 79.6 − 79.8 = −0.2, day 11 vs 10 → −0.1: −0.15.
        expectEqual(trend.weekdays.map(\.name), ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"])
        let monday = trend.weekdays[0]
        #expect(monday.changes == 1 && Kit.isClose(monday.averageChange!, 0.4, relative: 1e-9))
        #expect(monday.days == 2 && Kit.isClose(monday.average!, (80 + 79.8) / 2, relative: 1e-12))
        let friday = trend.weekdays[4]
        #expect(friday.changes == 2 && Kit.isClose(friday.averageChange!, -0.15, relative: 1e-9))
    }

    func stepsAveragePerWeekdayUsesRecordedDaysOnly() throws {
        // Mondays 10,000 and 6,000 (average 8,000); Tuesdays 4,000 once (the other Tuesday has no data);
        // every other day 5,000. Phone and watch both record Mondays: merged, not doubled.
        var samples: [Sample] = []
        for offset in 0..<14 where offset != 8 {
            let weekday = offset % 7
            let value: Double = weekday == 0 ? (offset == 0 ? 10_000 : 6_000) : weekday == 1 ? 4_000 : 5_000
            samples.append(Kit.steps(value, day(offset, 9), day(offset, 10), source: "Apple Watch"))
            if weekday == 0 { samples.append(Kit.steps(value, day(offset, 9), day(offset, 10), source: "iPhone")) }
        }
        let trend = try TrendQuery(type: .steps, interval: DateInterval(start: start, end: end))
            .run(on: InMemorySampleStore(samples), calendar: calendar)
        expectEqual(trend.measure, "sum")
        #expect(trend.weekdays[0].average == 8_000 && trend.weekdays[0].days == 2)
        #expect(trend.weekdays[1].average == 4_000 && trend.weekdays[1].days == 1)
        expectEqual(trend.weekdays[2].average, 5_000)
        #expect(trend.days[8].value == nil && trend.days[8].movingAverage != nil)
        // 13 recorded days: 10,000 + 6,000 + 4,000 + 10 × 5,000 = 70,000 → 5,384.6…
        #expect(Kit.isClose(trend.average!, 70_000 / 13))
    }

    func weekdaysFollowTheCalendarsFirstWeekday() throws {
        var sunday = calendar
        sunday.firstWeekday = 1
        let trend = try TrendQuery(type: .steps, interval: DateInterval(start: start, end: end))
            .run(on: InMemorySampleStore([]), calendar: sunday)
        expectEqual(trend.weekdays.first?.name, "sunday")
        #expect(trend.change == nil && trend.average == nil)
        #expect(trend.days.allSatisfy { $0.value == nil && $0.movingAverage == nil })
    }

    func sleepTrendUsesNights() throws {
        // Night ending Tuesday 05-07: 23:00–06:00 = 7 h; night ending Wednesday: 22:30–06:30 = 8 h.
        let samples = [Kit.sleep(1, day(0, 23), day(1, 6)), Kit.sleep(1, day(1, 22).addingTimeInterval(1800), day(2, 6).addingTimeInterval(1800))]
        let trend = try TrendQuery(type: .sleep, interval: DateInterval(start: start, end: start.addingTimeInterval(3 * 86_400)))
            .run(on: InMemorySampleStore(samples), calendar: calendar)
        let expected: [TimeInterval?] = [nil, 7 * 3600, 8 * 3600]
        expectEqual(trend.days.map(\.value), expected)
        expectEqual(trend.change?.absolute, 3600)
        #expect(trend.unit == nil && trend.measure == "asleep")
    }

    func windowOutOfRangeIsRefused() {
        #expect(throws: TrendError.invalidWindow(0)) {
            try TrendQuery(type: .steps, interval: DateInterval(start: start, end: end), window: 0)
                .run(on: InMemorySampleStore([]), calendar: calendar)
        }
    }
}

/// The checks ``TrendTests/checks(_:)`` runs.
private let trendTestsChecks: [Check<TrendTests>] = [
    Check("weightMovingAverageAndChange", TrendTests.weightMovingAverageAndChange),
    Check("stepsAveragePerWeekdayUsesRecordedDaysOnly", TrendTests.stepsAveragePerWeekdayUsesRecordedDaysOnly),
    Check("weekdaysFollowTheCalendarsFirstWeekday", TrendTests.weekdaysFollowTheCalendarsFirstWeekday),
    Check("sleepTrendUsesNights", TrendTests.sleepTrendUsesNights),
    Check("windowOutOfRangeIsRefused", TrendTests.windowOutOfRangeIsRefused),
]
