import Foundation
import HealthCore
import HKCtlSupport
@testable import HKCtlCommands

/// A week of data (2024-05-26 … 2024-06-01, UTC) in an in-memory store, and the charts of it.
enum ChartFixtures {
    static let context = TestSupport.context("UTC", now: TestSupport.date("2024-06-01T21:00:00Z"))
    static var calendar: GregorianCalendar { context.calendar }
    static let week = try! RangeExpression.lastDays(7).interval(in: context)

    static var store: InMemorySampleStore { InMemorySampleStore(samples) }

    static let samples: [Sample] = {
        var samples: [Sample] = []
        let steps = [5801, 8433, 9551, 10710, 0, 7546, 11594]
        let weights = [71.5, 71.4, 71.2, nil, 70.9, 70.7, 70.5]
        for day in 0..<7 {
            let date = String(format: "2024-%@", day == 6 ? "06-01" : String(format: "05-%02d", 26 + day))
            if steps[day] > 0 {
                samples.append(TestSupport.quantitySample(.steps, Double(steps[day]), "count", start: "\(date)T09:00:00Z",
                                                          end: "\(date)T18:00:00Z"))
            }
            samples.append(TestSupport.quantitySample(.water, 1500 + Double(day * 100), "mL", start: "\(date)T12:00:00Z"))
            if let weight = weights[day] {
                samples.append(TestSupport.quantitySample(.weight, weight, "kg", start: "\(date)T07:00:00Z"))
            }
            // A night ending on `date`: in bed 22:45–06:55, deep, core and REM, ten minutes awake.
            let previous = day == 0 ? "2024-05-25" : String(format: "2024-05-%02d", 25 + day)
            samples.append(TestSupport.sleepSample(0, start: "\(previous)T22:45:00Z", end: "\(date)T06:55:00Z"))
            samples.append(TestSupport.sleepSample(4, start: "\(previous)T23:00:00Z", end: "\(date)T00:10:00Z"))
            samples.append(TestSupport.sleepSample(3, start: "\(date)T00:10:00Z", end: "\(date)T04:00:00Z"))
            samples.append(TestSupport.sleepSample(2, start: "\(date)T04:00:00Z", end: "\(date)T04:10:00Z"))
            samples.append(TestSupport.sleepSample(5, start: "\(date)T04:10:00Z", end: "\(date)T06:\(30 + day % 3 * 10):00Z"))
        }
        return samples
    }()

    static func series(_ type: SampleType, bucket: BucketUnit = .day, goal: Quantity? = nil) throws -> ChartSeries {
        let result = try StatisticsRequest(type: type, interval: week, bucketUnit: bucket).run(on: store, calendar: calendar)
        return ChartSeries(result: result, bucket: bucket, goal: goal)
    }

    static func nights() throws -> [SleepNight] {
        try SleepNightsQuery(interval: week).run(on: store, calendar: calendar)
    }

    /// Every chart of the fixture drawn in `style`, by name.
    static func all(_ style: TerminalStyle) throws -> [(String, [String])] {
        let steps = try series(.steps, goal: Quantity(10_000, .count()))
        let weight = try series(.weight)
        return [
            ("steps", BarChart(series: steps, calendar: calendar).render(style: style)),
            ("weight", LineChart(series: weight, calendar: calendar).render(style: style)),
            ("sleep", SleepChart(nights: try nights(), goal: 8 * 3600, calendar: calendar).render(style: style)),
            ("today", DashboardRenderer(calendar: calendar).render(try summary(), style: style)),
        ]
    }

    static func summary() throws -> DailySummary {
        try DailySummary.load(from: store, goals: Goals(), context: context)
    }
}

extension String {
    /// The text without ANSI colour escapes.
    var withoutEscapes: String {
        replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
    }
}
