import Foundation
import Testing
@testable import HealthCore
import TestKit

/// ``SamplesByStart``, the index sleep by night finds each night's samples with, against reading every sample for
/// every window (what the nights did before it).
struct SamplesByStartTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: samplesByStartTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit
    private static let origin = Kit.utc(2024, 5, 1)

    /// Random sleep samples over `days` days, on the quarter hour (so starts, ends and window edges coincide often):
    /// short ones, samples of no length, now and then one that lasts days (it ends after many later ones), and a few
    /// that end before they start (the line decoder reads such a hand-edited line as it is).
    private static func samples(_ random: inout Kit.SeededGenerator, count: Int, days: Int) -> [Sample] {
        (0..<count).map { _ in
            let start = origin.addingTimeInterval(Double(Int.random(in: 0..<(days * 96), using: &random)) * 900)
            let quarters: Int
            switch Int.random(in: 0..<20, using: &random) {
            case 0: quarters = 0
            case 1: quarters = Int.random(in: 96...(4 * 96), using: &random)
            case 2: quarters = -Int.random(in: 1...8, using: &random)  // a line edited by hand to end before it starts
            default: quarters = Int.random(in: 1...40, using: &random)
            }
            return Kit.sleep([0, 1, 2, 3, 4, 5].randomElement(using: &random)!, start, start.addingTimeInterval(Double(quarters) * 900),
                             source: ["Watch", "iPhone"].randomElement(using: &random)!)
        }
    }

    /// Touching `[from, to)`, read from every sample.
    private static func touches(_ sample: Sample, from: Date, to: Date) -> Bool {
        (sample.end > from || sample.start == from) && sample.start < to
    }

    func theIndexFindsWhatReadingEverySampleFinds() {
        var random = Kit.SeededGenerator(seed: 48)
        for round in 0..<60 {
            let sorted = Self.samples(&random, count: Int.random(in: 0...120, using: &random), days: 12)
                .sorted(by: Sample.chronological)
            let index = SamplesByStart(sorted: sorted)
            for _ in 0..<40 {
                let from = Self.origin.addingTimeInterval(Double(Int.random(in: -96...(14 * 96), using: &random)) * 900)
                let to = from.addingTimeInterval(Double(Int.random(in: 1...200, using: &random)) * 900)
                var found: [Int] = []
                index.forEachTouching(from: from, to: to) { found.append($0) }
                let expected = sorted.indices.filter { Self.touches(sorted[$0], from: from, to: to) }
                expectEqual(found, expected, "round \(round), [\(from), \(to))")
                expectEqual(index.anyTouches(from: from, to: to), !expected.isEmpty, "round \(round)")
            }
        }
    }

    /// Each night's count, first start, last end and whether it has time in bed, from the whole query, against the
    /// same figures read from every sample; with windows that start exactly where samples of no length lie.
    func nightsCountTheSamplesEachWindowTouches() throws {
        var random = Kit.SeededGenerator(seed: 4_800)
        let calendar = GregorianCalendar(timeZone: .gmt)
        for round in 0..<25 {
            var samples = Self.samples(&random, count: Int.random(in: 1...150, using: &random), days: 10)
            samples.append(Kit.sleep(1, Self.origin.addingTimeInterval(4 * 86_400 + 43_200),
                                     Self.origin.addingTimeInterval(4 * 86_400 + 43_200)))  // at a noon cut-off
            for merging in [true, false] {
                let nights = try SleepNightsQuery(interval: DateInterval(start: Self.origin, end: Self.origin.addingTimeInterval(12 * 86_400)),
                                                  mergesSources: merging)
                    .run(on: InMemorySampleStore(samples), calendar: calendar)
                expectEqual(nights.count, 12, "round \(round)")
                for night in nights {
                    let touching = samples.filter { Self.touches($0, from: night.start, to: night.end) }
                    expectEqual(night.sampleCount, touching.count, "round \(round), night \(night.date)")
                    expectEqual(night.sleepStart, touching.map(\.start).min().map { max(night.start, $0) }, "round \(round)")
                    expectEqual(night.sleepEnd, touching.map(\.end).max().map { min(night.end, $0) }, "round \(round)")
                    let inBed = touching.contains { $0.value.categoryRawValue == 0 }
                    expectEqual(night.inBed != nil, inBed, "round \(round), night \(night.date)")
                }
            }
        }
    }

    /// A ``ReadSnapshot`` (indexed by ``SamplesByStart/candidates(from:to:)``) hands over, for any interval inside
    /// its span, exactly the samples a read of the store gives, in the store's order; outside its span it asks the
    /// store. The store holds the samples out of time order, as partitions written by imports can.
    func aSnapshotServesWhatTheStoreServes() throws {
        var random = Kit.SeededGenerator(seed: 50)
        let type = "HKCategoryTypeIdentifierSleepAnalysis"
        func read(_ store: SampleStore, _ interval: DateInterval) throws -> [UUID] {
            var uuids: [UUID] = []
            try store.forEachSample(ofType: type, overlapping: interval) { uuids.append($0.uuid) }
            return uuids
        }
        for round in 0..<40 {
            var samples = Self.samples(&random, count: Int.random(in: 0...150, using: &random), days: 12)
            samples.shuffle(using: &random)
            let store = InMemorySampleStore(samples)
            let span = DateInterval(start: Self.origin.addingTimeInterval(86_400), end: Self.origin.addingTimeInterval(11 * 86_400))
            let snapshot = try ReadSnapshot(of: store, type: type, overlapping: span)
            for _ in 0..<40 {
                let from = Self.origin.addingTimeInterval(Double(Int.random(in: 0...(12 * 96), using: &random)) * 900)
                let to = from.addingTimeInterval(Double(Int.random(in: 1...300, using: &random)) * 900)
                let interval = DateInterval(start: from, end: to)
                expectEqual(try read(snapshot, interval), try read(store, interval), "round \(round), [\(from), \(to))")
                expectEqual(try snapshot.samplesInStoreOrder(ofType: type, overlapping: interval).map(\.uuid),
                            try read(store, interval), "round \(round), as an array")
            }
            expectEqual(try read(snapshot, span), try read(store, span), "round \(round): the whole span")
            // The whole span (and beyond it, another type) as arrays, in store order and oldest first.
            for interval in [span, DateInterval(start: Self.origin, end: Self.origin.addingTimeInterval(14 * 86_400))] {
                expectEqual(try snapshot.samplesInStoreOrder(ofType: type, overlapping: interval),
                            try store.samplesInStoreOrder(ofType: type, overlapping: interval), "round \(round): \(interval)")
                expectEqual(try snapshot.samples(ofType: type, overlapping: interval),
                            try store.samples(ofType: type, overlapping: interval), "round \(round): \(interval), oldest first")
            }
            expectEqual(try snapshot.samplesInStoreOrder(ofType: "HKQuantityTypeIdentifierStepCount", overlapping: span), [],
                        "round \(round): another type")
        }
    }

    /// Sleep by the night with day, week and month buckets: each bucket is what a query over that bucket's nights
    /// alone gives (how the buckets were computed before one read served them all), merged and not.
    func eachBucketByTheNightIsItsOwnNightsQuery() throws {
        var random = Kit.SeededGenerator(seed: 5_000)
        let calendar = GregorianCalendar(timeZone: .gmt)
        for round in 0..<12 {
            let store = InMemorySampleStore(Self.samples(&random, count: Int.random(in: 1...200, using: &random), days: 40))
            let range = DateInterval(start: Self.origin.addingTimeInterval(86_400), end: Self.origin.addingTimeInterval(38 * 86_400))
            for (unit, merging) in [(BucketUnit.day, true), (.week, false), (.week, true), (.month, true)] {
                let query = StatisticsRequest(type: try SampleTypeCatalogue.standard.type(named: "sleep"), interval: range, bucketUnit: unit, mergesSources: merging)
                let result = try query.runByNight(on: store, calendar: calendar)
                let grid = try BucketGrid(interval: BucketInterval(unit), anchor: nil).boundaries(covering: range, calendar: calendar)
                expectEqual(result.buckets.count, grid.count - 1, "round \(round), \(unit)")
                for (bucket, (start, end)) in zip(result.buckets, zip(grid, grid.dropFirst())) {
                    var alone = query
                    alone.bucketUnit = nil
                    alone.interval = StatisticsRequest.nights(of: DateInterval(start: start, end: end), cutoff: .noon, calendar: calendar)
                    expectEqual(bucket, try alone.run(on: store, calendar: calendar).total, "round \(round), \(unit), \(start)")
                }
            }
        }
    }

    /// A sleep line moved by hand into another month's file (`hkctl doctor` warns of it) counts in its bucket when
    /// the range's one read opens that file, so the buckets add up to the total; a read per bucket left it out.
    func aLineInAnotherMonthsFileCountsInItsBucket() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            try store.save([Kit.sleep(3, Kit.utc(2024, 4, 13, 23), Kit.utc(2024, 4, 14, 7))])
            let april = folder + "/store/" + (try #require(try store.partitions(
                ofType: "HKCategoryTypeIdentifierSleepAnalysis",
                overlapping: DateInterval(start: Kit.utc(2024, 4, 13), end: Kit.utc(2024, 4, 15))).first))
            let march = Kit.sleep(3, Kit.utc(2024, 3, 9, 23), Kit.utc(2024, 3, 10, 6))
            try Kit.append(SampleLineCodec(catalogue: .standard, timeZone: .gmt).encode(march) + "\n", to: april)
            let calendar = GregorianCalendar(timeZone: .gmt)
            let query = StatisticsRequest(type: try SampleTypeCatalogue.standard.type(named: "sleep"),
                                          interval: DateInterval(start: Kit.utc(2024, 3, 1), end: Kit.utc(2024, 4, 21)),
                                          bucketUnit: .month)
            let result = try query.runByNight(on: JSONFileStore(path: folder + "/store", timeZone: .gmt), calendar: calendar)
            expectEqual(result.total.asleep, 15 * 3600)
            expectEqual(result.buckets.map(\.asleep), [7 * 3600, 8 * 3600])
            expectEqual(result.buckets.map(\.sampleCount), [1, 1])
        }
    }
}

/// The checks ``SamplesByStartTests/checks(_:)`` runs.
private let samplesByStartTestsChecks: [Check<SamplesByStartTests>] = [
    Check("theIndexFindsWhatReadingEverySampleFinds", SamplesByStartTests.theIndexFindsWhatReadingEverySampleFinds),
    Check("nightsCountTheSamplesEachWindowTouches", SamplesByStartTests.nightsCountTheSamplesEachWindowTouches),
    Check("aSnapshotServesWhatTheStoreServes", SamplesByStartTests.aSnapshotServesWhatTheStoreServes),
    Check("eachBucketByTheNightIsItsOwnNightsQuery", SamplesByStartTests.eachBucketByTheNightIsItsOwnNightsQuery),
    Check("aLineInAnotherMonthsFileCountsInItsBucket", SamplesByStartTests.aLineInAnotherMonthsFileCountsInItsBucket),
]
