import Foundation
import Testing
import TestKit
import HealthCore
import HKCtlSupport
@testable import HKCtlCommands

struct DailySummaryTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: dailySummaryTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    func todaysFiguresComeFromTheStatisticsQueries() throws {
        let summary = try ChartFixtures.summary()
        #expect(summary.steps.total == 11_594 && summary.steps.goal == 10_000)
        #expect(summary.water.total == 2100 && summary.water.goal == 2000 && summary.water.unit?.unitString == "mL")
        expectEqual(summary.weight.latest, 70.5)
        #expect(summary.weight.days.count == 7 && summary.weight.days[3] == nil)
        #expect(abs((summary.weight.change ?? 0) - (-1.0)) < 1e-9)
        #expect(summary.sleep.asleepDeep == 70 * 60 && summary.sleep.awake == 10 * 60)
        #expect(abs((summary.sleepGoal ?? 0) - 8 * 3600) < 1e-6)
    }

    func anEmptyStoreGivesZerosAndNoWeight() throws {
        let summary = try DailySummary.load(from: InMemorySampleStore(), goals: Goals(), context: ChartFixtures.context)
        #expect(summary.water.total == 0 && summary.steps.sampleCount == 0)
        #expect(summary.weight.latest == nil && summary.weight.change == nil)
        let lines = DashboardRenderer(calendar: ChartFixtures.calendar).render(summary, style: TerminalStyle(width: 80))
        #expect(lines.contains { $0.contains("no weight recorded yet") })
        #expect(lines.contains { $0.contains("no sleep recorded last night") })
    }

    func goalsSetReplaceDefaultsAndConvert() throws {
        var goals = Goals()
        try goals.set("water", to: "64floz", catalogue: .standard)
        try goals.set("sleep", to: "7.5h", catalogue: .standard)
        let summary = try DailySummary.load(from: ChartFixtures.store, goals: goals, context: ChartFixtures.context)
        #expect(abs((summary.water.goal ?? 0) - 64 * 29.5735295625) < 1e-6)
        #expect(abs((summary.sleepGoal ?? 0) - 7.5 * 3600) < 1e-6)
    }
}

/// The checks ``DailySummaryTests/checks(_:)`` runs.
private let dailySummaryTestsChecks: [Check<DailySummaryTests>] = [
    Check("todaysFiguresComeFromTheStatisticsQueries", DailySummaryTests.todaysFiguresComeFromTheStatisticsQueries),
    Check("anEmptyStoreGivesZerosAndNoWeight", DailySummaryTests.anEmptyStoreGivesZerosAndNoWeight),
    Check("goalsSetReplaceDefaultsAndConvert", DailySummaryTests.goalsSetReplaceDefaultsAndConvert),
]
