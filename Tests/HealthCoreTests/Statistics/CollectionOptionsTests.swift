import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Statistics options by aggregation style, averages weighted by time, strict date predicates, source and metadata
/// filters, applied to collections.
struct CollectionOptionsTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: collectionOptionsTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit

    private static let heartRate = try! SampleTypeCatalogue.standard.type(named: "heart-rate")
    private static let noise = try! SampleTypeCatalogue.standard.type(named: "noise")
    private static let mindful = try! SampleTypeCatalogue.standard.type(named: "mindful")

    private func run(_ type: SampleType, _ samples: [Sample], from: Date, to: Date, bucket: BucketInterval? = nil,
                     options: StatisticsOptions? = nil, predicate: SamplePredicate = SamplePredicate(),
                     unit: String? = nil) throws -> StatisticsResult {
        let query = StatisticsRequest(type: type, interval: DateInterval(start: from, end: to),
                                    unit: try unit.map { try HealthUnit(parsing: $0) }, options: options,
                                    predicate: predicate, bucketInterval: bucket)
        return try query.run(on: InMemorySampleStore(samples), calendar: GregorianCalendar(timeZone: .gmt))
    }

    private func bpm(_ value: Double, _ start: Date, _ end: Date? = nil) -> Sample {
        Kit.quantity(Self.heartRate, value, "count/min", start, end)
    }

    // MARK: Which options apply

    func sumOfHeartRateIsAnError() {
        #expect(throws: StatisticsError.optionNotApplicable("sum", type: "heart-rate",
                                                            allowed: ["average", "minimum", "maximum", "mostRecent", "duration"])) {
            try run(Self.heartRate, [], from: Kit.utc(2024, 6, 1), to: Kit.utc(2024, 6, 2), options: .sum)
        }
    }

    func averageOfStepsIsAnError() {
        #expect(throws: StatisticsError.optionNotApplicable("average", type: "steps", allowed: ["sum", "mostRecent", "duration"])) {
            try run(.steps, [], from: Kit.utc(2024, 6, 1), to: Kit.utc(2024, 6, 2), options: [.sum, .average])
        }
    }

    func sleepTakesNoFigureOptions() {
        #expect(throws: StatisticsError.optionNotApplicable("duration", type: "sleep", allowed: [])) {
            try run(.sleep, [], from: Kit.utc(2024, 6, 1), to: Kit.utc(2024, 6, 2), options: .duration)
        }
    }

    func defaultsFollowTheAggregationStyle() {
        expectEqual(StatisticsOptions.defaults(for: .steps), .sum)
        expectEqual(StatisticsOptions.defaults(for: .weight), [.average, .minimum, .maximum, .mostRecent])
        expectEqual(StatisticsOptions.defaults(for: Self.mindful), .duration)
        expectEqual(StatisticsOptions.defaults(for: .sleep), [])
    }

    func onlyTheFiguresAskedForAreSet() throws {
        let samples = [Kit.quantity(.weight, 70, "kg", Kit.utc(2024, 6, 1, 7)), Kit.quantity(.weight, 72, "kg", Kit.utc(2024, 6, 1, 8))]
        let result = try run(.weight, samples, from: Kit.utc(2024, 6, 1), to: Kit.utc(2024, 6, 2), options: .maximum)
        expectEqual(result.total.maximum, 72)
        #expect(result.total.average == nil && result.total.minimum == nil && result.total.mostRecent == nil)
        expectEqual(result.total.sampleCount, 2)
        expectEqual(result.options, .maximum)
    }

    func separateBySourceAloneKeepsTheDefaultFigures() throws {
        let result = try run(.steps, [Kit.steps(10, Kit.utc(2024, 6, 1, 9))], from: Kit.utc(2024, 6, 1), to: Kit.utc(2024, 6, 2),
                             options: .separateBySource)
        expectEqual(result.options, [.sum, .separateBySource])
        expectEqual(result.total.sum, 10)
        expectEqual(result.total.sourceStatistics.map(\.source), ["hkctl"])
    }

    func mostRecentAndDurationOfACumulativeType() throws {
        // 09:00–09:30 (300) and 09:15–10:00 (450): covered 09:00–10:00 = 3,600 s; the latest ends at 10:00.
        let samples = [Kit.steps(300, Kit.utc(2024, 6, 1, 9), Kit.utc(2024, 6, 1, 9, 30)),
                       Kit.steps(450, Kit.utc(2024, 6, 1, 9, 15), Kit.utc(2024, 6, 1, 10))]
        let result = try run(.steps, samples, from: Kit.utc(2024, 6, 1), to: Kit.utc(2024, 6, 2), options: [.sum, .mostRecent, .duration])
        expectEqual(result.total.sum, 750)
        expectEqual(result.total.mostRecent, 450)
        expectEqual(result.total.mostRecentDate, Kit.utc(2024, 6, 1, 10))
        expectEqual(result.total.durationSeconds, 3_600)
    }

    // MARK: Averages

    func heartRateIsAveragedByTimeNotByCount() throws {
        // Instantaneous readings at 08:00 (60 bpm), 08:02 (120 bpm) and 08:10 (80 bpm), hour bucket 08:00–09:00.
        // Each holds until the next reading, the last 10 minutes at most (not the 50 left in the hour):
        // (60 × 2 + 120 × 8 + 80 × 10) / 20 = 94 bpm. The arithmetic mean would be 86.7.
        let samples = [bpm(60, Kit.utc(2024, 6, 1, 8)), bpm(120, Kit.utc(2024, 6, 1, 8, 2)), bpm(80, Kit.utc(2024, 6, 1, 8, 10))]
        let result = try run(Self.heartRate, samples, from: Kit.utc(2024, 6, 1, 8), to: Kit.utc(2024, 6, 1, 9),
                             bucket: BucketInterval(1, .hour))
        #expect(Kit.isClose(result.buckets[0].average!, 94))
        #expect(Kit.isClose(result.total.average!, 94))
        #expect(result.total.minimum == 60 && result.total.maximum == 120)
    }

    /// Empty time added to a range does not change its average: two readings a minute apart average 80 over the two
    /// minutes, the hour, the day or the year (a review: 80, 99.3, 99.95; `stats heart-rate --today` at noon was
    /// nearly the last reading). A reading before a gap of an hour holds 10 minutes.
    func aReadingHoldsItsLevelTenMinutesAtMost() throws {
        let samples = [bpm(60, Kit.utc(2024, 6, 1, 10)), bpm(100, Kit.utc(2024, 6, 1, 10, 1))]
        var averages: [Double] = []
        for end in [Kit.utc(2024, 6, 1, 10, 11), Kit.utc(2024, 6, 1, 11), Kit.utc(2024, 6, 2), Kit.utc(2025, 1, 1)] {
            averages.append(try run(Self.heartRate, samples, from: Kit.utc(2024, 6, 1), to: end).total.average!)
        }
        #expect(averages.allSatisfy { Kit.isClose($0, (60.0 * 1 + 100 * 10) / 11) }, "\(averages)")
        let gap = [bpm(60, Kit.utc(2024, 6, 1, 10)), bpm(100, Kit.utc(2024, 6, 1, 11)), bpm(100, Kit.utc(2024, 6, 1, 11, 10))]
        let result = try run(Self.heartRate, gap, from: Kit.utc(2024, 6, 1), to: Kit.utc(2024, 6, 2))
        let expected: Double = (60 * 10 + 100 * 10 + 100 * 10) / 30
        let average = try #require(result.total.average)
        #expect(Kit.isClose(average, expected), "\(average)")
    }

    func heartRateWithDurationsWeighsByDuration() throws {
        // 70 bpm for 50 min and 100 bpm for 10 min: (70 × 50 + 100 × 10) / 60 = 75.
        let samples = [bpm(70, Kit.utc(2024, 6, 1, 8), Kit.utc(2024, 6, 1, 8, 50)),
                       bpm(100, Kit.utc(2024, 6, 1, 8, 50), Kit.utc(2024, 6, 1, 9))]
        let result = try run(Self.heartRate, samples, from: Kit.utc(2024, 6, 1), to: Kit.utc(2024, 6, 2))
        #expect(Kit.isClose(result.total.average!, 75))
    }

    func readingsAtTheSameInstantShareTheirTime() throws {
        // Two readings at 08:00 (60 and 80) share 08:00–08:30; 100 at 08:30 holds to 09:00.
        // (60 × 900 + 80 × 900 + 100 × 1,800) / 3,600 = 85.
        let samples = [bpm(60, Kit.utc(2024, 6, 1, 8)), bpm(80, Kit.utc(2024, 6, 1, 8)), bpm(100, Kit.utc(2024, 6, 1, 8, 30))]
        let result = try run(Self.heartRate, samples, from: Kit.utc(2024, 6, 1, 8), to: Kit.utc(2024, 6, 1, 9))
        #expect(Kit.isClose(result.total.average!, 85))
    }

    func weightStaysAnArithmeticMean() throws {
        let samples = [Kit.quantity(.weight, 70, "kg", Kit.utc(2024, 6, 1, 7)), Kit.quantity(.weight, 73, "kg", Kit.utc(2024, 6, 1, 23))]
        try expectEqual(run(.weight, samples, from: Kit.utc(2024, 6, 1), to: Kit.utc(2024, 6, 2)).total.average, 71.5)
    }

    func soundLevelsAverageByEnergy() throws {
        // 60 dB and 70 dB for 10 min each: 10 × log10((10^6 + 10^7) / 2) = 67.4036… dB, not 65.
        let samples = [Kit.quantity(Self.noise, 60, "dBASPL", Kit.utc(2024, 6, 1, 9), Kit.utc(2024, 6, 1, 9, 10)),
                       Kit.quantity(Self.noise, 70, "dBASPL", Kit.utc(2024, 6, 1, 9, 10), Kit.utc(2024, 6, 1, 9, 20))]
        let result = try run(Self.noise, samples, from: Kit.utc(2024, 6, 1), to: Kit.utc(2024, 6, 2))
        #expect(Kit.isClose(result.total.average!, 10 * log10(5.5e6), relative: 1e-12))
    }

    // MARK: Predicates

    func strictStartCountsASampleWhollyWhereItStarts() throws {
        // 1,200 steps 23:00–01:00: by default 600 + 600; with strictStartDate all 1,200 on the first day.
        let samples = [Kit.steps(1_200, Kit.utc(2024, 5, 31, 23), Kit.utc(2024, 6, 1, 1))]
        let strict = try run(.steps, samples, from: Kit.utc(2024, 5, 31), to: Kit.utc(2024, 6, 2), bucket: BucketInterval(1, .day),
                             predicate: SamplePredicate(dateOptions: .strictStartDate))
        expectEqual(strict.buckets.map(\.sum), [1_200, 0])
        expectEqual(strict.total.sum, 1_200)
        // A range that starts at midnight leaves the sample out entirely (it starts before the range).
        let dayTwo = try run(.steps, samples, from: Kit.utc(2024, 6, 1), to: Kit.utc(2024, 6, 2),
                             predicate: SamplePredicate(dateOptions: .strictStartDate))
        #expect(dayTwo.total.sum == 0 && dayTwo.total.sampleCount == 0)
    }

    func strictEndCountsASampleWhollyWhereItEnds() throws {
        let samples = [Kit.steps(1_200, Kit.utc(2024, 5, 31, 23), Kit.utc(2024, 6, 1, 1))]
        let strict = try run(.steps, samples, from: Kit.utc(2024, 5, 31), to: Kit.utc(2024, 6, 2), bucket: BucketInterval(1, .day),
                             predicate: SamplePredicate(dateOptions: .strictEndDate))
        expectEqual(strict.buckets.map(\.sum), [0, 1_200])
        // HealthKit's strictEndDate is half-open too: a sample ending exactly at the range end is outside.
        let endsAtEnd = [Kit.steps(50, Kit.utc(2024, 6, 1, 23), Kit.utc(2024, 6, 2))]
        let result = try run(.steps, endsAtEnd, from: Kit.utc(2024, 6, 1), to: Kit.utc(2024, 6, 2),
                             predicate: SamplePredicate(dateOptions: .strictEndDate))
        expectEqual(result.total.sum, 0)
    }

    func sourceFilterKeepsOnlyTheNamedSources() throws {
        let samples = [Kit.steps(100, Kit.utc(2024, 6, 1, 9), source: "Watch"), Kit.steps(40, Kit.utc(2024, 6, 1, 10), source: "Phone"),
                       Kit.steps(7, Kit.utc(2024, 6, 1, 11), source: "hkctl")]
        let result = try run(.steps, samples, from: Kit.utc(2024, 6, 1), to: Kit.utc(2024, 6, 2),
                             predicate: SamplePredicate(sources: ["Phone", "hkctl"]))
        expectEqual(result.total.sum, 47)
        expectEqual(result.sourceOrder, ["Phone", "hkctl"])
    }

    func metadataFilterMatchesStringsAndNumbers() throws {
        let noon = Kit.utc(2024, 6, 1, 12)
        let samples = [
            Kit.quantity(.water, 500, "mL", noon, metadata: ["HKWasUserEntered": .number(1)]),
            Kit.quantity(.water, 250, "mL", noon, metadata: ["HKWasUserEntered": .string("1"), "drink": .string("tea")]),
            Kit.quantity(.water, 100, "mL", noon, metadata: ["drink": .string("coffee")]),
            Kit.quantity(.water, 30, "mL", noon),
        ]
        func sum(_ conditions: [String]) throws -> Double? {
            let predicate = SamplePredicate(metadata: try conditions.map { try MetadataCondition(parsing: $0) })
            return try run(.water, samples, from: Kit.utc(2024, 6, 1), to: Kit.utc(2024, 6, 2), predicate: predicate).total.sum
        }
        try expectEqual(sum(["HKWasUserEntered=1"]), 750)
        try expectEqual(sum(["HKWasUserEntered=1.0"]), 750)
        try expectEqual(sum(["drink=tea"]), 250)
        try expectEqual(sum(["drink"]), 350)
        try expectEqual(sum(["drink", "HKWasUserEntered=1"]), 250)
        try expectEqual(sum(["drink=juice"]), 0)
        #expect(throws: StatisticsError.invalidMetadataFilter("=x")) { try MetadataCondition(parsing: "=x") }
    }

    func categoryDurationCountsOverlapsOnce() throws {
        // Mindful 08:00–08:10 and 08:05–08:20: 20 minutes covered.
        let samples = [Sample(typeIdentifier: Self.mindful.identifier, start: Kit.utc(2024, 6, 1, 8), end: Kit.utc(2024, 6, 1, 8, 10),
                              value: .category(0), source: "hkctl", created: Kit.utc(2024, 6, 1, 8)),
                       Sample(typeIdentifier: Self.mindful.identifier, start: Kit.utc(2024, 6, 1, 8, 5), end: Kit.utc(2024, 6, 1, 8, 20),
                              value: .category(0), source: "app", created: Kit.utc(2024, 6, 1, 8))]
        let result = try run(Self.mindful, samples, from: Kit.utc(2024, 6, 1), to: Kit.utc(2024, 6, 2))
        expectEqual(result.total.durationSeconds, 1_200)
        expectEqual(result.total.sampleCount, 2)
    }
}

/// The checks ``CollectionOptionsTests/checks(_:)`` runs.
private let collectionOptionsTestsChecks: [Check<CollectionOptionsTests>] = [
    Check("sumOfHeartRateIsAnError", CollectionOptionsTests.sumOfHeartRateIsAnError),
    Check("averageOfStepsIsAnError", CollectionOptionsTests.averageOfStepsIsAnError),
    Check("sleepTakesNoFigureOptions", CollectionOptionsTests.sleepTakesNoFigureOptions),
    Check("defaultsFollowTheAggregationStyle", CollectionOptionsTests.defaultsFollowTheAggregationStyle),
    Check("onlyTheFiguresAskedForAreSet", CollectionOptionsTests.onlyTheFiguresAskedForAreSet),
    Check("separateBySourceAloneKeepsTheDefaultFigures",
          CollectionOptionsTests.separateBySourceAloneKeepsTheDefaultFigures),
    Check("mostRecentAndDurationOfACumulativeType", CollectionOptionsTests.mostRecentAndDurationOfACumulativeType),
    Check("heartRateIsAveragedByTimeNotByCount", CollectionOptionsTests.heartRateIsAveragedByTimeNotByCount),
    Check("aReadingHoldsItsLevelTenMinutesAtMost", CollectionOptionsTests.aReadingHoldsItsLevelTenMinutesAtMost),
    Check("heartRateWithDurationsWeighsByDuration", CollectionOptionsTests.heartRateWithDurationsWeighsByDuration),
    Check("readingsAtTheSameInstantShareTheirTime", CollectionOptionsTests.readingsAtTheSameInstantShareTheirTime),
    Check("weightStaysAnArithmeticMean", CollectionOptionsTests.weightStaysAnArithmeticMean),
    Check("soundLevelsAverageByEnergy", CollectionOptionsTests.soundLevelsAverageByEnergy),
    Check("strictStartCountsASampleWhollyWhereItStarts",
          CollectionOptionsTests.strictStartCountsASampleWhollyWhereItStarts),
    Check("strictEndCountsASampleWhollyWhereItEnds", CollectionOptionsTests.strictEndCountsASampleWhollyWhereItEnds),
    Check("sourceFilterKeepsOnlyTheNamedSources", CollectionOptionsTests.sourceFilterKeepsOnlyTheNamedSources),
    Check("metadataFilterMatchesStringsAndNumbers", CollectionOptionsTests.metadataFilterMatchesStringsAndNumbers),
    Check("categoryDurationCountsOverlapsOnce", CollectionOptionsTests.categoryDurationCountsOverlapsOnce),
]
