import Foundation
import Testing
import TestKit
@testable import HealthCore

/// `Statistics` as HealthKit's `HKStatistics`: `sources` is `[Source]?`, the per-source accessors take a `Source`,
/// `duration()` is a quantity, and `mostRecentQuantityDateInterval()` gives the latest sample's dates.
struct StatisticsSignatureTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: statisticsSignatureTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static let now = TestSupport.date("2024-06-10T12:00:00Z")

    /// Steps: 1,000 on June 3 09:00-09:30 (phone), 500 on June 3 18:00-18:10 (watch), 2,000 on June 5 10:00-11:00
    /// (phone). Heart rate: 60 (06:00-06:01) and 80 (07:00-07:02) from the watch, 70 (06:30-06:31) from the phone, June 4.
    private static func withStore(_ body: (HealthStore) async throws -> Void) async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store", clock: { now })
            let heartRate = QuantityType(.heartRate)
            try store.save([
                TestSupport.quantitySample(.steps, 1000, "count", start: "2024-06-03T09:00:00Z", end: "2024-06-03T09:30:00Z", source: "phone"),
                TestSupport.quantitySample(.steps, 500, "count", start: "2024-06-03T18:00:00Z", end: "2024-06-03T18:10:00Z", source: "watch"),
                TestSupport.quantitySample(.steps, 2000, "count", start: "2024-06-05T10:00:00Z", end: "2024-06-05T11:00:00Z", source: "phone"),
                TestSupport.quantitySample(heartRate, 60, "count/min", start: "2024-06-04T06:00:00Z", end: "2024-06-04T06:01:00Z", source: "watch"),
                TestSupport.quantitySample(heartRate, 80, "count/min", start: "2024-06-04T07:00:00Z", end: "2024-06-04T07:02:00Z", source: "watch"),
                TestSupport.quantitySample(heartRate, 70, "count/min", start: "2024-06-04T06:30:00Z", end: "2024-06-04T06:31:00Z", source: "phone"),
            ])
            try await body(store)
        }
    }

    func sourcesAreSourcesAndTheirFiguresAreReadWithThem() async throws {
        try await Self.withStore { store in
            let merged = try await StatisticsQueryDescriptor(predicate: .quantitySample(type: QuantityType(.stepCount)),
                                                             options: .cumulativeSum).result(for: store)
            // Not separated by source: no sources, as in HealthKit.
            expectNil(merged?.sources)
            let bySource = try await StatisticsQueryDescriptor(predicate: .quantitySample(type: QuantityType(.stepCount)),
                                                               options: [.cumulativeSum, .separateBySource, .duration]).result(for: store)
            let statistics = try #require(bySource)
            let sources: [Source] = try #require(statistics.sources)
            expectEqual(Set(sources.map(\.name)), ["phone", "watch"])
            var sums: [String: Double] = [:]
            for source in sources { sums[source.name] = statistics.sumQuantity(for: source)?.doubleValue(for: .count()) }
            expectEqual(sums, ["phone": 3000, "watch": 500])
            // The time covered: 30 + 10 + 60 minutes; the phone's alone: 90 minutes.
            expectEqual(statistics.duration()?.doubleValue(for: .minute()), 100)
            expectEqual(statistics.duration(for: Source(name: "phone"))?.doubleValue(for: .second()), 5400)
            expectEqual(statistics.durationSeconds, 6000)
            // The figures of every source are still there, for tables.
            expectEqual(statistics.sourceStatistics.map(\.source).sorted(), ["phone", "watch"])
        }
    }

    func discreteFiguresPerSourceAndTheLatestSamplesDates() async throws {
        try await Self.withStore { store in
            let result = try await StatisticsQueryDescriptor(
                predicate: .quantitySample(type: QuantityType(.heartRate)),
                options: [.discreteAverage, .discreteMin, .discreteMax, .mostRecent, .separateBySource]).result(for: store)
            let statistics = try #require(result)
            let perMinute = HealthUnit.count().unitDivided(by: .minute())
            let watch = try #require(statistics.sources?.first { $0.name == "watch" })
            // The watch alone: 60 and 80 (a minute and two minutes): time-weighted, (60·1 + 80·2) / 3 = 73.33.
            // (Stored in count/s, the canonical unit: per minute within a rounding error.)
            func close(_ quantity: Quantity?, _ expected: Double) -> Bool {
                abs((quantity?.doubleValue(for: perMinute) ?? .nan) - expected) < 1e-6
            }
            #expect(close(statistics.minimumQuantity(for: watch), 60))
            #expect(close(statistics.maximumQuantity(for: watch), 80))
            #expect(close(statistics.mostRecentQuantity(for: watch), 80))
            let average = try #require(statistics.averageQuantity(for: watch)?.doubleValue(for: perMinute))
            #expect(average >= 60 && average <= 80)
            #expect(close(statistics.mostRecentQuantity(for: Source(name: "phone")), 70))
            // The latest sample of all is the watch's 80, 07:00-07:02.
            expectEqual(statistics.mostRecentQuantityDateInterval(), DateInterval(start: TestSupport.date("2024-06-04T07:00:00Z"), end: TestSupport.date("2024-06-04T07:02:00Z")))
            expectEqual(statistics.mostRecentQuantityDateInterval(for: Source(name: "phone")), DateInterval(start: TestSupport.date("2024-06-04T06:30:00Z"), end: TestSupport.date("2024-06-04T06:31:00Z")))
            expectNil(statistics.mostRecentQuantityDateInterval(for: Source(name: "nobody")))
            // Without the `.mostRecent` option there is no most recent quantity, and no interval.
            let plain = try await StatisticsQueryDescriptor(predicate: .quantitySample(type: QuantityType(.heartRate)),
                                                            options: .discreteAverage).result(for: store)
            expectNil(plain?.mostRecentQuantityDateInterval())
            expectNil(plain?.duration())
        }
    }

    func aCollectionsSourcesAreASetOfSources() async throws {
        try await Self.withStore { store in
            let collection = try await StatisticsCollectionQueryDescriptor(
                predicate: .quantitySample(type: QuantityType(.stepCount)), options: [.cumulativeSum, .separateBySource],
                anchorDate: TestSupport.date("2024-06-03T00:00:00Z"), intervalComponents: DateComponents(day: 1)).result(for: store)
            let sources: Set<Source> = collection.sources()
            expectEqual(sources, [Source(name: "phone"), Source(name: "watch")])
        }
    }
}

/// The checks ``StatisticsSignatureTests/checks(_:)`` runs.
private let statisticsSignatureTestsChecks: [Check<StatisticsSignatureTests>] = [
    Check("sourcesAreSourcesAndTheirFiguresAreReadWithThem",
          StatisticsSignatureTests.sourcesAreSourcesAndTheirFiguresAreReadWithThem),
    Check("discreteFiguresPerSourceAndTheLatestSamplesDates",
          StatisticsSignatureTests.discreteFiguresPerSourceAndTheLatestSamplesDates),
    Check("aCollectionsSourcesAreASetOfSources", StatisticsSignatureTests.aCollectionsSourcesAreASetOfSources),
]
