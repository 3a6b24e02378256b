import Foundation
import Testing
import TestKit
@testable import HealthCore

/// HealthKit's statistics query: a sum, an average with its extremes, nil statistics with `noData` when nothing
/// matches, and an option that does not apply.
struct StatisticsQueryTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: statisticsQueryTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Answer = (statistics: Statistics?, error: Error?)

    private func answer(_ store: HealthStore, _ type: SampleType, _ predicate: SamplePredicate?,
                        _ options: StatisticsOptions) async throws -> Answer {
        let calls = QueryTestSupport.Recorder<Answer>()
        store.execute(StatisticsQuery(quantityType: type, quantitySamplePredicate: predicate, options: options) {
            _, statistics, error in calls.record((statistics, error))
        })
        let answer = try await calls.call(0)
        try await QueryTestSupport.pause()
        expectEqual(calls.count, 1)   // once, and done
        return answer
    }

    func sumsTheStepsOfADay() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store")
            try store.save([QueryTestSupport.steps(100, at: "2024-05-01T08:00:00Z"),
                            QueryTestSupport.steps(250, at: "2024-05-01T12:00:00Z"),
                            QueryTestSupport.steps(400, at: "2024-05-02T08:00:00Z")])
            // May 1 only: 100 + 250 = 350; the 400 of May 2 is outside.
            let may1 = QueryTestSupport.range("2024-05-01T00:00:00Z", "2024-05-02T00:00:00Z")
            let (statistics, error) = try await answer(store, QuantityType(.stepCount), may1, .cumulativeSum)
            expectNil(error)
            expectEqual(statistics?.sumQuantity()?.doubleValue(for: .count()), 350)
            // No predicate: every sample, 100 + 250 + 400 = 750.
            let all = try await answer(store, QuantityType(.stepCount), nil, .cumulativeSum)
            expectEqual(all.statistics?.sumQuantity()?.doubleValue(for: .count()), 750)
        }
    }

    func averagesWeightsWithTheirExtremes() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store")
            try store.save([QueryTestSupport.weight(70, at: "2024-05-01T07:00:00Z"),
                            QueryTestSupport.weight(72, at: "2024-05-02T07:00:00Z"),
                            QueryTestSupport.weight(77, at: "2024-05-03T07:00:00Z")])
            // (70 + 72 + 77) / 3 = 219 / 3 = 73; smallest 70, largest 77, latest 77 (May 3).
            let (statistics, error) = try await answer(store, QuantityType(.bodyMass), nil,
                                                       [.discreteAverage, .discreteMin, .discreteMax, .mostRecent])
            expectNil(error)
            let kilogram = HealthUnit.gramUnit(with: .kilo)
            expectEqual(statistics?.averageQuantity()?.doubleValue(for: kilogram), 73)
            expectEqual(statistics?.minimumQuantity()?.doubleValue(for: kilogram), 70)
            expectEqual(statistics?.maximumQuantity()?.doubleValue(for: kilogram), 77)
            expectEqual(statistics?.mostRecentQuantity()?.doubleValue(for: kilogram), 77)
        }
    }

    func noMatchingSampleGivesNilAndNoData() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store")
            try store.save([QueryTestSupport.steps(100, at: "2024-05-01T08:00:00Z")])
            // June has no steps: HealthKit answers nil statistics and errorNoData.
            let june = QueryTestSupport.range("2024-06-01T00:00:00Z", "2024-07-01T00:00:00Z")
            let (statistics, error) = try await answer(store, QuantityType(.stepCount), june, .cumulativeSum)
            expectNil(statistics)
            expectEqual((error as? HealthError)?.code, .errorNoData)
            expectEqual((error as? HealthError)?.underlyingError as? StatisticsError, .noData(QuantityType(.stepCount).name))
        }
    }

    func optionThatDoesNotApplyIsAnError() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store")
            try store.save([QueryTestSupport.weight(70, at: "2024-05-01T07:00:00Z")])
            // A sum of body mass means nothing.
            let (statistics, error) = try await answer(store, QuantityType(.bodyMass), nil, .cumulativeSum)
            expectNil(statistics)
            guard case .optionNotApplicable? = (error as? HealthError)?.underlyingError as? StatisticsError else {
                Issue.record("expected optionNotApplicable, got \(String(describing: error))")
                return
            }
        }
    }
}

/// The checks ``StatisticsQueryTests/checks(_:)`` runs.
private let statisticsQueryTestsChecks: [Check<StatisticsQueryTests>] = [
    Check("sumsTheStepsOfADay", StatisticsQueryTests.sumsTheStepsOfADay),
    Check("averagesWeightsWithTheirExtremes", StatisticsQueryTests.averagesWeightsWithTheirExtremes),
    Check("noMatchingSampleGivesNilAndNoData", StatisticsQueryTests.noMatchingSampleGivesNilAndNoData),
    Check("optionThatDoesNotApplyIsAnError", StatisticsQueryTests.optionThatDoesNotApplyIsAnError),
]
