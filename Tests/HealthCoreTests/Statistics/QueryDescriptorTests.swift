import Foundation
import Testing
import TestKit
@testable import HealthCore

/// HealthKit's statistics descriptors over a real store: figures worked by hand, nil where there is no data, every
/// period from `enumerateStatistics` and only periods with data from `statistics()`.
struct QueryDescriptorTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: queryDescriptorTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static let now = TestSupport.date("2024-06-10T12:00:00Z")

    /// Steps: 1,000 on June 3 09:00 (phone), 500 on June 3 18:00 (watch), 2,000 on June 5 10:00 (phone).
    /// Weight: 72.0 kg June 3, 71.0 kg June 5.
    private static func withStore(_ body: (HealthStore) async throws -> Void) async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store", clock: { now })
            try store.save([
                TestSupport.quantitySample(.steps, 1000, "count", start: "2024-06-03T09:00:00Z", end: "2024-06-03T09:30:00Z", source: "phone"),
                TestSupport.quantitySample(.steps, 500, "count", start: "2024-06-03T18:00:00Z", end: "2024-06-03T18:10:00Z", source: "watch"),
                TestSupport.quantitySample(.steps, 2000, "count", start: "2024-06-05T10:00:00Z", end: "2024-06-05T11:00:00Z", source: "phone"),
                TestSupport.quantitySample(.weight, 72, "kg", start: "2024-06-03T07:00:00Z", source: "scale"),
                TestSupport.quantitySample(.weight, 71, "kg", start: "2024-06-05T07:00:00Z", source: "scale"),
            ])
            try await body(store)
        }
    }

    private static func range(_ from: String, _ to: String) -> SamplePredicate {
        Query.predicateForSamples(withStart: TestSupport.date(from), end: TestSupport.date(to), options: .strictStartDate)
    }

    func statisticsGiveQuantitiesAndNilWithoutData() async throws {
        try await Self.withStore { store in
            let week = Self.range("2024-06-03T00:00:00Z", "2024-06-10T00:00:00Z")
            let steps = try await StatisticsQueryDescriptor(predicate: .quantitySample(type: QuantityType(.stepCount), predicate: week),
                                                            options: .cumulativeSum).result(for: store)
            // 1,000 + 500 + 2,000 (no overlaps between the sources).
            expectEqual(steps?.sumQuantity()?.doubleValue(for: .count()), 3500)
            expectNil(steps?.averageQuantity())
            let weight = try await StatisticsQueryDescriptor(predicate: .quantitySample(type: QuantityType(.bodyMass), predicate: week),
                                                             options: [.discreteAverage, .discreteMin, .discreteMax, .mostRecent]).result(for: store)
            // (72 + 71) / 2 = 71.5 kg; 71.5 kg = 157.63 lb (÷ 0.45359237).
            expectEqual(weight?.averageQuantity()?.doubleValue(for: .gramUnit(with: .kilo)), 71.5)
            #expect(abs((weight?.averageQuantity()?.doubleValue(for: .pound()) ?? 0) - 71.5 / 0.45359237) < 1e-9)
            expectEqual(weight?.minimumQuantity()?.doubleValue(for: .gramUnit(with: .kilo)), 71)
            expectEqual(weight?.maximumQuantity()?.doubleValue(for: .gramUnit(with: .kilo)), 72)
            expectEqual(weight?.mostRecentQuantity()?.doubleValue(for: .gramUnit(with: .kilo)), 71)
            // A range with no samples: nil, not zero.
            let empty = Self.range("2024-05-01T00:00:00Z", "2024-05-02T00:00:00Z")
            try await expectNil(StatisticsQueryDescriptor(predicate: .quantitySample(type: QuantityType(.stepCount), predicate: empty),
                                                          options: .cumulativeSum).result(for: store))
        }
    }

    func bySourceAndByPredicate() async throws {
        try await Self.withStore { store in
            let all = try await StatisticsQueryDescriptor(predicate: .quantitySample(type: QuantityType(.stepCount)),
                                                          options: [.cumulativeSum, .separateBySource]).result(for: store)
            // HealthKit's shape: `sources` are `Source`s, and each one's figures are read with it.
            let sources = all?.sources ?? []
            expectEqual(Set(sources.map(\.name)), ["phone", "watch"])
            let phone = try #require(sources.first { $0.name == "phone" })
            expectEqual(all?.sumQuantity(for: phone)?.doubleValue(for: .count()), 3000)
            expectEqual(all?.sumQuantity(for: Source(name: "watch"))?.doubleValue(for: .count()), 500)
            expectNil(all?.sumQuantity(for: Source(name: "nobody")))
            let watchOnly = SamplePredicate.and([Self.range("2024-06-01T00:00:00Z", "2024-06-30T00:00:00Z"),
                                                 Query.predicateForObjects(from: "watch")])
            let watch = try await StatisticsQueryDescriptor(predicate: .quantitySample(type: QuantityType(.stepCount), predicate: watchOnly),
                                                            options: .cumulativeSum).result(for: store)
            expectEqual(watch?.sumQuantity()?.doubleValue(for: .count()), 500)
        }
    }

    func collectionsListEveryDayOrOnlyDaysWithData() async throws {
        try await Self.withStore { store in
            let week = Self.range("2024-06-03T00:00:00Z", "2024-06-10T00:00:00Z")
            let collection = try await StatisticsCollectionQueryDescriptor(
                predicate: .quantitySample(type: QuantityType(.stepCount), predicate: week), options: .cumulativeSum,
                anchorDate: TestSupport.date("2024-06-03T00:00:00Z"), intervalComponents: DateComponents(day: 1)).result(for: store)
            // June 3: 1,500; June 5: 2,000.
            expectEqual(collection.statistics().map { $0.sumQuantity()?.doubleValue(for: .count()) }, [1500, 2000])
            var days: [Double?] = []
            collection.enumerateStatistics(from: TestSupport.date("2024-06-03T00:00:00Z"), to: TestSupport.date("2024-06-09T00:00:00Z")) { statistics, _ in
                days.append(statistics.sumQuantity()?.doubleValue(for: .count()))
            }
            expectEqual(days, [1500, nil, 2000, nil, nil, nil, nil])
            expectEqual(collection.statistics(for: TestSupport.date("2024-06-05T23:00:00Z"))?.sumQuantity()?.doubleValue(for: .count()), 2000)
            var stopped = 0
            collection.enumerateStatistics(from: TestSupport.date("2024-06-03T00:00:00Z"), to: TestSupport.date("2024-06-09T00:00:00Z")) { _, stop in
                stopped += 1
                stop = stopped == 2
            }
            expectEqual(stopped, 2)
        }
    }

    func intervalComponentsMustBeOneCalendarStep() throws {
        #expect(throws: StatisticsError.self) { try StatisticsCollectionQueryDescriptor.bucket(DateComponents(day: 1, hour: 2)) }
        #expect(throws: StatisticsError.self) { try StatisticsCollectionQueryDescriptor.bucket(DateComponents()) }
        #expect(throws: StatisticsError.self) { try StatisticsCollectionQueryDescriptor.bucket(DateComponents(day: -1)) }
        try expectEqual(StatisticsCollectionQueryDescriptor.bucket(DateComponents(weekOfYear: 1)), BucketInterval(1, .week))
        try expectEqual(StatisticsCollectionQueryDescriptor.bucket(DateComponents(hour: 6)), BucketInterval(6, .hour))
    }

    func predicatesMatchAsHealthKitsDo() {
        let sample = TestSupport.quantitySample(.water, 250, "mL", start: "2024-06-03T23:30:00Z", end: "2024-06-04T00:30:00Z", source: "bottle")
        let june4 = DateInterval(start: TestSupport.date("2024-06-04T00:00:00Z"), duration: 86_400)
        let overlap = Query.predicateForSamples(withStart: june4.start, end: june4.end)
        let strict = Query.predicateForSamples(withStart: june4.start, end: june4.end, options: .strictStartDate)
        #expect(overlap.matches(sample, in: overlap.interval!))
        #expect(!strict.matches(sample, in: strict.interval!))
        #expect(Query.predicateForObject(with: sample.uuid).matchesSourceAndMetadata(sample))
        #expect(!Query.predicateForObject(with: UUID()).matchesSourceAndMetadata(sample))
        #expect(!Query.predicateForObjects(withMetadataKey: "HKWasUserEntered").matchesSourceAndMetadata(sample))
        let both = SamplePredicate.and([overlap, Query.predicateForObjects(from: ["bottle", "cup"]), Query.predicateForObjects(from: "cup")])
        expectEqual(both.sources, ["cup"])
    }

    /// HealthKit's `NSCompoundPredicate(andPredicateWithSubpredicates:)` ports as `SamplePredicate(andPredicateWithSubpredicates:)`
    /// and means what ``SamplePredicate/and(_:)`` means: a sample matches each predicate's dates with that predicate's
    /// options, and the source sets intersect.
    func andPredicateWithSubpredicatesIsAnd() {
        let june = Query.predicateForSamples(withStart: TestSupport.date("2024-06-01T00:00:00Z"), end: TestSupport.date("2024-07-01T00:00:00Z"))
        let week = Query.predicateForSamples(withStart: TestSupport.date("2024-06-28T00:00:00Z"), end: TestSupport.date("2024-07-05T00:00:00Z"),
                                             options: .strictStartDate)
        let compound = SamplePredicate(andPredicateWithSubpredicates: [june, week, Query.predicateForObjects(from: ["bottle", "cup"]),
                                                                       Query.predicateForObjects(from: "cup")])
        // Only "cup" is in both source sets; samples are read in the narrower range, the week.
        expectEqual(compound.sources, ["cup"])
        expectEqual(compound.interval, DateInterval(start: TestSupport.date("2024-06-28T00:00:00Z"), end: TestSupport.date("2024-07-05T00:00:00Z")))
        expectEqual(compound, SamplePredicate.and([june, week, Query.predicateForObjects(from: ["bottle", "cup"]), Query.predicateForObjects(from: "cup")]))
        func cup(_ start: String, _ end: String) -> Sample {
            Sample(typeIdentifier: "HKQuantityTypeIdentifierDietaryWater", start: TestSupport.date(start), end: TestSupport.date(end),
                   value: .quantity(Quantity(250, try! HealthUnit(parsing: "mL"))), source: "cup", created: TestSupport.date(end))
        }
        let range = compound.interval!
        // In June and starting in the week; in both but starting before the week; starting in the week after June.
        #expect(compound.matches(cup("2024-06-29T10:00:00Z", "2024-06-29T11:00:00Z"), in: range))
        #expect(!compound.matches(cup("2024-06-27T23:00:00Z", "2024-06-28T01:00:00Z"), in: range))
        #expect(!compound.matches(cup("2024-07-02T10:00:00Z", "2024-07-02T11:00:00Z"), in: range))
        // Each predicate's options hold for its own dates (a review: the end range was applied to the overlap of both).
        let secondOfJune = Query.predicateForSamples(withStart: TestSupport.date("2024-06-02T00:00:00Z"), end: TestSupport.date("2024-06-03T00:00:00Z"))
        let endsEarlyInJune = Query.predicateForSamples(withStart: TestSupport.date("2024-06-01T00:00:00Z"),
                                                        end: TestSupport.date("2024-06-04T00:00:00Z"), options: .strictEndDate)
        let night = cup("2024-06-02T23:00:00Z", "2024-06-03T01:00:00Z")
        #expect(secondOfJune.matches(night, in: secondOfJune.interval!) && endsEarlyInJune.matches(night, in: endsEarlyInJune.interval!))
        let both = SamplePredicate.and([secondOfJune, endsEarlyInJune])
        #expect(both.matches(night, in: both.interval!))
        #expect(!both.matches(cup("2024-06-02T23:00:00Z", "2024-06-04T01:00:00Z"), in: both.interval!))
        expectEqual(SamplePredicate(andPredicateWithSubpredicates: []), SamplePredicate())
    }

    /// The example of README's "Use it as a library", with a folder of the test's own and a pinned clock.
    func theReadmeExampleWorks() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let now = Self.now
            let store = try HealthStore(directory: folder + "/hk-demo", clock: { now })
            let water = QuantityType(.dietaryWater)
            try await store.save(QuantitySample(type: water, quantity: Quantity(unit: .literUnit(with: .milli), doubleValue: 500),
                                                start: now, end: now))
            let lastWeek = Query.predicateForSamples(withStart: now.addingTimeInterval(-7 * 86_400), end: now.addingTimeInterval(1))
            let total = try await StatisticsQueryDescriptor(predicate: .quantitySample(type: water, predicate: lastWeek),
                                                            options: .cumulativeSum).result(for: store)
            expectEqual(total?.sumQuantity()?.doubleValue(for: .liter()), 0.5)
        }
    }

    func sampleQueriesSortAndLimit() async throws {
        try await Self.withStore { store in
            let newestFirst = try await SampleQueryDescriptor(
                predicates: [.quantitySample(type: QuantityType(.stepCount))],
                sortDescriptors: [SampleSortDescriptor(\.startDate, order: .reverse)], limit: 2).result(for: store)
            expectEqual(newestFirst.map { $0.quantity.doubleValue(for: .count()) }, [2000, 500])
            // Two types, oldest first by default; a predicate per type.
            let june3 = Query.predicateForSamples(withStart: TestSupport.date("2024-06-03T00:00:00Z"),
                                                  end: TestSupport.date("2024-06-04T00:00:00Z"))
            let both = try await SampleQueryDescriptor(predicates: [.quantitySample(type: QuantityType(.stepCount), predicate: june3),
                                                                    .quantitySample(type: QuantityType(.bodyMass), predicate: june3)])
                .result(for: store)
            expectEqual(both.map(\.sourceName), ["scale", "phone", "watch"])
        }
    }
}

/// The checks ``QueryDescriptorTests/checks(_:)`` runs.
private let queryDescriptorTestsChecks: [Check<QueryDescriptorTests>] = [
    Check("statisticsGiveQuantitiesAndNilWithoutData", QueryDescriptorTests.statisticsGiveQuantitiesAndNilWithoutData),
    Check("bySourceAndByPredicate", QueryDescriptorTests.bySourceAndByPredicate),
    Check("collectionsListEveryDayOrOnlyDaysWithData", QueryDescriptorTests.collectionsListEveryDayOrOnlyDaysWithData),
    Check("intervalComponentsMustBeOneCalendarStep", QueryDescriptorTests.intervalComponentsMustBeOneCalendarStep),
    Check("predicatesMatchAsHealthKitsDo", QueryDescriptorTests.predicatesMatchAsHealthKitsDo),
    Check("andPredicateWithSubpredicatesIsAnd", QueryDescriptorTests.andPredicateWithSubpredicatesIsAnd),
    Check("theReadmeExampleWorks", QueryDescriptorTests.theReadmeExampleWorks),
    Check("sampleQueriesSortAndLimit", QueryDescriptorTests.sampleQueriesSortAndLimit),
]
