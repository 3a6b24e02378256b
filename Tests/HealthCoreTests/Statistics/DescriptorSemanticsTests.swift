import Foundation
import Testing
import TestKit
@testable import HealthCore

/// What the HealthKit-style descriptors give where a review found them apart from HealthKit: a sample matching several
/// predicates is returned once, a limit of 0 is no limit, statistics merge by the store's priority list as `hkctl stats`
/// does, and a collection's buckets are the grid's whole intervals, every one of which can be asked for.
struct DescriptorSemanticsTests {
    @Test(arguments: descriptorSemanticsTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static let now = TestSupport.date("2024-06-10T12:00:00Z")
    private static let steps = QuantityType(.stepCount)

    private static func steps(_ count: Double, _ start: String, _ end: String) -> QuantitySample {
        QuantitySample(type: steps, quantity: Quantity(count, .count()), start: TestSupport.date(start), end: TestSupport.date(end))
    }

    private static func withStore(_ body: (HealthStore, String) async throws -> Void) async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            try await body(try HealthStore(directory: folder + "/store", clock: { now }), folder + "/store")
        }
    }

    func aSampleMatchingSeveralPredicatesIsReturnedOnceAndALimitOfZeroIsNone() async throws {
        try await Self.withStore { store, _ in
            try await store.save([Self.steps(1, "2024-06-01T10:00:00Z", "2024-06-01T10:10:00Z"),
                                  Self.steps(2, "2024-06-02T10:00:00Z", "2024-06-02T10:10:00Z"),
                                  Self.steps(4, "2024-06-03T10:00:00Z", "2024-06-03T10:10:00Z")])
            let secondOfJune = Query.predicateForSamples(withStart: TestSupport.date("2024-06-02T00:00:00Z"), end: TestSupport.date("2024-06-03T00:00:00Z"))
            let both = SampleQueryDescriptor(predicates: [.quantitySample(type: Self.steps), .quantitySample(type: Self.steps, predicate: secondOfJune)])
            expectEqual(try await both.result(for: store).map { $0.quantity.doubleValue(for: .count()) }, [1, 2, 4])
            let unlimited = SampleQueryDescriptor(predicates: [.quantitySample(type: Self.steps)], limit: 0)
            expectEqual(try await unlimited.result(for: store).count, 3)
            let two = SampleQueryDescriptor(predicates: [.quantitySample(type: Self.steps)], limit: 2)
            expectEqual(try await two.result(for: store).count, 2)
        }
    }

    /// A watch and a phone cover 10:30–11:00 both: the store's priority list decides which one counts there, for the
    /// statistics descriptors as for `hkctl stats`.
    func statisticsMergeByTheStoresPriorityList() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let path = folder + "/store"
            let owner = try HealthStore(directory: path, clock: { Self.now })
            for (source, count, start, end) in [("Watch", 600.0, "10:00", "11:00"), ("Phone", 300.0, "10:30", "11:30")] {
                try owner.decideAuthorization(for: source, allow: true, share: [Self.steps], read: [])
                let app = try HealthStore(directory: path, source: source, clock: { Self.now })
                try await app.save(Self.steps(count, "2024-06-03T\(start):00Z", "2024-06-03T\(end):00Z"))
            }
            let day = Query.predicateForSamples(withStart: TestSupport.date("2024-06-03T00:00:00Z"), end: TestSupport.date("2024-06-04T00:00:00Z"))
            let sum = StatisticsQueryDescriptor(predicate: .quantitySample(type: Self.steps, predicate: day), options: .cumulativeSum)
            let collection = StatisticsCollectionQueryDescriptor(predicate: .quantitySample(type: Self.steps, predicate: day), options: .cumulativeSum,
                                                                 anchorDate: TestSupport.date("2024-06-03T00:00:00Z"),
                                                                 intervalComponents: DateComponents(day: 1))
            func total() async throws -> [Double?] {
                let single = try await sum.result(for: owner)?.sumQuantity()?.doubleValue(for: .count())
                let bucket = try await collection.result(for: owner).statistics().first?.sumQuantity()?.doubleValue(for: .count())
                return [single, bucket]
            }
            // The default order: the watch first (600 + the phone's 11:00–11:30 half, 150).
            expectEqual(try await total(), [750, 750])
            try owner.storage.setSourcePriority(try SourcePriority(["Phone", "Watch"]), for: Self.steps.identifier)
            // The phone first: 300 + the watch's 10:00–10:30 half, 300.
            expectEqual(try await total(), [600, 600])
        }
    }

    /// One sample on 3 June and no date in the predicate: the day bucket spans the day, and every day of the grid can
    /// be asked for, empty ones with nil quantities (a review: the bucket ran 10:00–10:00 and 5 June gave nil).
    func aCollectionsBucketsAreTheGridsWholeIntervals() async throws {
        try await Self.withStore { store, _ in
            try await store.save(Self.steps(100, "2024-06-03T10:00:00Z", "2024-06-03T10:00:00Z"))
            let days = StatisticsCollectionQueryDescriptor(predicate: .quantitySample(type: Self.steps), options: .cumulativeSum,
                                                           anchorDate: TestSupport.date("2024-06-01T00:00:00Z"), intervalComponents: DateComponents(day: 1))
            let collection = try await days.result(for: store)
            let only = try #require(collection.statistics().first)
            expectEqual(only.startDate, TestSupport.date("2024-06-03T00:00:00Z"))
            expectEqual(only.endDate, TestSupport.date("2024-06-04T00:00:00Z"))
            let fifth = try #require(collection.statistics(for: TestSupport.date("2024-06-05T08:00:00Z")))
            expectEqual(fifth.startDate, TestSupport.date("2024-06-05T00:00:00Z"))
            #expect(fifth.sumQuantity() == nil)
            var visited: [(Date, Double?)] = []
            collection.enumerateStatistics(from: TestSupport.date("2024-06-01T00:00:00Z"), to: TestSupport.date("2024-06-07T00:00:00Z")) { bucket, _ in
                visited.append((bucket.startDate, bucket.sumQuantity()?.doubleValue(for: .count())))
            }
            expectEqual(visited.map(\.0), (1...7).map { TestSupport.date("2024-06-0\($0)T00:00:00Z") })
            expectEqual(visited.map(\.1), [nil, nil, 100, nil, nil, nil, nil])
            // Hours anchored at :34, over 00:00–03:00: the first and last buckets are whole hours too.
            let hours = StatisticsCollectionQueryDescriptor(
                predicate: .quantitySample(type: Self.steps, predicate: Query.predicateForSamples(withStart: TestSupport.date("2024-06-03T00:00:00Z"),
                                                                                                 end: TestSupport.date("2024-06-03T03:00:00Z"))),
                options: .cumulativeSum, anchorDate: TestSupport.date("2024-06-03T03:34:00Z"), intervalComponents: DateComponents(hour: 1))
            var starts: [Date] = [], ends: [Date] = []
            try await hours.result(for: store).enumerateStatistics(from: TestSupport.date("2024-06-03T00:00:00Z"),
                                                                   to: TestSupport.date("2024-06-03T02:59:00Z")) { bucket, _ in
                starts.append(bucket.startDate)
                ends.append(bucket.endDate)
            }
            expectEqual(starts.first, TestSupport.date("2024-06-02T23:34:00Z"))
            expectEqual(ends.last, TestSupport.date("2024-06-03T03:34:00Z"))
            #expect(zip(starts, ends).allSatisfy { $1.timeIntervalSince($0) == 3600 }, "\(starts) \(ends)")
        }
    }
}

/// The checks ``DescriptorSemanticsTests/checks(_:)`` runs.
private let descriptorSemanticsTestsChecks: [Check<DescriptorSemanticsTests>] = [
    Check("aSampleMatchingSeveralPredicatesIsReturnedOnceAndALimitOfZeroIsNone",
          DescriptorSemanticsTests.aSampleMatchingSeveralPredicatesIsReturnedOnceAndALimitOfZeroIsNone),
    Check("statisticsMergeByTheStoresPriorityList", DescriptorSemanticsTests.statisticsMergeByTheStoresPriorityList),
    Check("aCollectionsBucketsAreTheGridsWholeIntervals", DescriptorSemanticsTests.aCollectionsBucketsAreTheGridsWholeIntervals),
]
