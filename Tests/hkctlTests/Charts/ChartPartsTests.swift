import Foundation
import Testing
import TestKit
import HealthCore
@testable import HKCtlCommands

struct ChartPartsTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: chartPartsTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    func axisTicksAreRoundAndCoverTheData() {
        let scale = AxisScale(covering: 0, 11_594, targetTicks: 4)
        #expect(scale.lower == 0 && scale.upper >= 11_594)
        #expect(scale.ticks == [0, 2500, 5000, 7500, 10_000, 12_500] || scale.ticks == [0, 5000, 10_000, 15_000], "\(scale.ticks)")
        let weight = AxisScale(covering: 70.5, 71.5, targetTicks: 4)
        #expect(weight.lower <= 70.5 && weight.upper >= 71.5 && weight.step == 0.25)
        let flat = AxisScale(covering: 72, 72)
        #expect(flat.lower < 72 && flat.upper > 72)
        expectEqual(AxisScale(covering: 0, 0).ticks.first, 0)
        expectEqual(AxisScale(covering: .nan, 3).upper, 1)
    }

    /// Issue 20, item 12: output arithmetic on values near the largest Double never traps.
    @Test(arguments: [(0.0, 1e308), (0, .greatestFiniteMagnitude), (-1.7e308, 1.7e308), (1e308, 1e308), (0, .infinity), (.nan, 5)])
    func anAxisOverHugeValuesIsFiniteWithFewTicks(low: Double, high: Double) {
        let scale = AxisScale(covering: low, high)
        #expect(scale.lower.isFinite && scale.upper.isFinite && scale.step.isFinite && scale.step > 0)
        #expect(scale.lower < scale.upper)
        #expect((2...1001).contains(scale.ticks.count))
    }

    func sparklineUsesTheFullRangeAndKeepsGaps() {
        expectEqual(Sparkline.render([1, 2, 3, 4, 5, 6, 7, 8]), "▁▂▃▄▅▆▇█")
        expectEqual(Sparkline.render([3, nil, 1]), "█ ▁")
        expectEqual(Sparkline.render([5, 5]), "▄▄")
        expectEqual(Sparkline.render([1, 8], unicode: false), "_#")
        expectEqual(Sparkline.render([nil, nil]), "  ")
    }

    func numbersDurationsAndDates() {
        expectEqual(ChartFormat.amount(11_594, unit: .count(), type: .steps), "11,594 steps")
        expectEqual(ChartFormat.amount(72.44, unit: try! HealthUnit(parsing: "kg"), type: .weight), "72.4 kg")
        expectEqual(ChartFormat.amount(0.215, unit: .percent(), type: .weight), "21.5 %")
        expectEqual(ChartFormat.duration(7 * 3600 + 12 * 60 + 20), "7 h 12 min")
        #expect(ChartFormat.duration(8 * 3600) == "8 h 00 min" && ChartFormat.duration(59) == "1 min")
        let calendar = ChartFixtures.calendar
        expectEqual(ChartFormat.day(TestSupport.date("2024-05-27T10:00:00Z"), calendar: calendar), "Mon 27 May")
        expectEqual(ChartFormat.range(from: TestSupport.date("2024-05-26T00:00:00Z"), to: TestSupport.date("2024-06-02T00:00:00Z"),
                                      calendar: calendar), "26 May – 1 Jun 2024")
        expectEqual(ChartFormat.period(TestSupport.date("2024-05-01T00:00:00Z"), bucket: .month, calendar: calendar), "May 2024")
    }

    func seriesFromStatistics() throws {
        let steps = try ChartFixtures.series(.steps, goal: Quantity(10_000, .count()))
        #expect(steps.style == .bars && steps.points.count == 7 && steps.goal == 10_000)
        expectNil(steps.points[4].value)  // Thursday: no samples, not zero
        expectEqual(steps.points[6].value, 11_594)
        let weekly = try ChartFixtures.series(.steps, bucket: .week, goal: Quantity(10_000, .count()))
        expectNil(weekly.goal)  // a daily goal is not drawn on weekly bars
        let weight = try ChartFixtures.series(.weight)
        #expect(weight.style == .line && weight.points[3].value == nil && weight.points[0].value == 71.5)
        let water = try ChartFixtures.series(.water, goal: Quantity(2, try HealthUnit(parsing: "L")))
        expectEqual(water.goal, 2000)  // in the series' unit, mL
    }

    func sleepChartShowsStagesAndGoal() throws {
        let lines = SleepChart(nights: try ChartFixtures.nights(), goal: 8 * 3600, calendar: ChartFixtures.calendar)
            .render(style: TerminalStyle(width: 80, unicode: false))
        let night = lines.first { $0.hasPrefix("Sat 1 Jun") } ?? ""
        for glyph in ["#", "=", "~", "."] { #expect(night.contains(glyph), "no \(glyph) in \(night)") }
        #expect(night.hasSuffix("7 h 20 min"), "\(night)")
        #expect(lines.contains { $0.contains("# deep") && $0.contains("~ REM") })
    }
}

/// The checks ``ChartPartsTests/checks(_:)`` runs.
private let chartPartsTestsChecks: [Check<ChartPartsTests>] = [
    Check("axisTicksAreRoundAndCoverTheData", ChartPartsTests.axisTicksAreRoundAndCoverTheData),
    Check("sparklineUsesTheFullRangeAndKeepsGaps", ChartPartsTests.sparklineUsesTheFullRangeAndKeepsGaps),
    Check("numbersDurationsAndDates", ChartPartsTests.numbersDurationsAndDates),
    Check("seriesFromStatistics", ChartPartsTests.seriesFromStatistics),
    Check("sleepChartShowsStagesAndGoal", ChartPartsTests.sleepChartShowsStagesAndGoal),
]
