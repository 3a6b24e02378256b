import Foundation
import Testing
@testable import HealthCore
import TestKit

/// Statistics collections: buckets of any length aligned to an anchor, DST days, boundary splitting, empty buckets.
struct CollectionTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: collectionTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit

    private func calendar(_ zone: String, firstWeekday: Int = 2) -> GregorianCalendar {
        var calendar = GregorianCalendar(timeZone: Kit.zone(zone))
        calendar.firstWeekday = firstWeekday
        return calendar
    }

    private func hours(_ boundaries: [Date]) -> [Double] {
        zip(boundaries, boundaries.dropFirst()).map { $1.timeIntervalSince($0) / 3600 }
    }

    private func grid(_ length: String, anchor: Date? = nil, _ from: Date, _ to: Date, zone: String = "UTC",
                      firstWeekday: Int = 2) throws -> [Date] {
        try BucketGrid(interval: try BucketInterval(parsing: length), anchor: anchor)
            .boundaries(covering: DateInterval(start: from, end: to), calendar: calendar(zone, firstWeekday: firstWeekday))
    }

    // MARK: Bucket lengths

    @Test(arguments: [
        ("15m", 15, BucketInterval.Unit.minute), ("6h", 6, .hour), ("1d", 1, .day), ("2w", 2, .week), ("3mo", 3, .month),
        ("1y", 1, .year), ("90min", 90, .minute), ("2 weeks", 2, .week), ("day", 1, .day),
    ])
    func parsesBucketLengths(text: String, count: Int, unit: BucketInterval.Unit) throws {
        let interval = try BucketInterval(parsing: text)
        #expect(interval.count == count && interval.unit == unit)
    }

    @Test(arguments: ["", "0h", "h", "15", "5x", "-2d", "1.5h", "99999999d"])
    func refusesBadBucketLengths(text: String) {
        #expect(throws: StatisticsError.invalidBucketInterval(text)) { try BucketInterval(parsing: text) }
    }

    func fifteenMinuteBucketsFromMidnight() throws {
        // 10:05–11:00 UTC: the grid is anchored at midnight, so the first bucket is cut to 10:05–10:15.
        let boundaries = try grid("15m", Kit.utc(2024, 6, 1, 10, 5), Kit.utc(2024, 6, 1, 11))
        expectEqual(boundaries, [Kit.utc(2024, 6, 1, 10, 5), Kit.utc(2024, 6, 1, 10, 15), Kit.utc(2024, 6, 1, 10, 30),
                                 Kit.utc(2024, 6, 1, 10, 45), Kit.utc(2024, 6, 1, 11)])
    }

    func anchorFixesThePhaseBothWays() throws {
        // Apple's example: anchor 03:34 with one-hour buckets gives boundaries at :34 past every hour, before and
        // after the anchor.
        let anchor = Kit.utc(2024, 6, 1, 3, 34)
        let boundaries = try grid("1h", anchor: anchor, Kit.utc(2024, 6, 1, 1), Kit.utc(2024, 6, 1, 5))
        expectEqual(boundaries, [Kit.utc(2024, 6, 1, 1), Kit.utc(2024, 6, 1, 1, 34), Kit.utc(2024, 6, 1, 2, 34),
                                 Kit.utc(2024, 6, 1, 3, 34), Kit.utc(2024, 6, 1, 4, 34), Kit.utc(2024, 6, 1, 5)])
    }

    func dayBucketsAnchoredAtSixInTheMorning() throws {
        let anchor = Kit.date(2024, 3, 1, 6, zone: "Europe/Paris")
        let boundaries = try grid("1d", anchor: anchor, Kit.date(2024, 3, 30, 6, zone: "Europe/Paris"),
                                  Kit.date(2024, 4, 1, 6, zone: "Europe/Paris"), zone: "Europe/Paris")
        // 06:00 local every day; the bucket holding the spring-forward night is 23 hours long.
        expectEqual(hours(boundaries), [23, 24])
    }

    func twoWeekBucketsFollowTheAnchorWeek() throws {
        // Anchor Monday 2024-05-06; fortnights start 05-20 and 06-03. The range 05-25 … 06-10 is cut at both ends.
        let boundaries = try grid("2w", anchor: Kit.utc(2024, 5, 6), Kit.utc(2024, 5, 25), Kit.utc(2024, 6, 10))
        expectEqual(boundaries, [Kit.utc(2024, 5, 25), Kit.utc(2024, 6, 3), Kit.utc(2024, 6, 10)])
    }

    func weeksStartOnSundayWhenTheCalendarSaysSo() throws {
        // 2024-06-01 is a Saturday: with Sunday weeks the next week starts 06-02, with Monday weeks 06-03.
        let sunday = try grid("1w", Kit.utc(2024, 5, 29), Kit.utc(2024, 6, 5), firstWeekday: 1)
        expectEqual(sunday, [Kit.utc(2024, 5, 29), Kit.utc(2024, 6, 2), Kit.utc(2024, 6, 5)])
        let monday = try grid("1w", Kit.utc(2024, 5, 29), Kit.utc(2024, 6, 5), firstWeekday: 2)
        expectEqual(monday, [Kit.utc(2024, 5, 29), Kit.utc(2024, 6, 3), Kit.utc(2024, 6, 5)])
    }

    func quarterBucketsFromJanuary() throws {
        let boundaries = try grid("3mo", Kit.utc(2024, 2, 10), Kit.utc(2024, 12, 1))
        expectEqual(boundaries, [Kit.utc(2024, 2, 10), Kit.utc(2024, 4, 1), Kit.utc(2024, 7, 1), Kit.utc(2024, 10, 1),
                                 Kit.utc(2024, 12, 1)])
    }

    func monthBucketsAnchoredOnThe31stDoNotDrift() throws {
        // Anchor 01-31: +1 month is 02-29 (clamped), +2 months 03-31, +3 months 04-30 — each from the anchor.
        let boundaries = try grid("1mo", anchor: Kit.utc(2024, 1, 31), Kit.utc(2024, 2, 1), Kit.utc(2024, 5, 1))
        expectEqual(boundaries, [Kit.utc(2024, 2, 1), Kit.utc(2024, 2, 29), Kit.utc(2024, 3, 31), Kit.utc(2024, 4, 30),
                                 Kit.utc(2024, 5, 1)])
    }

    /// The first grid step is estimated from the average unit length and then corrected, so an anchor centuries
    /// away (before or after the range), in a zone with DST, must still give exactly the anchor's grid points.
    @Test(arguments: ["1d", "3d", "1w", "5w", "1mo", "3mo", "7mo", "1y", "4y"])
    func farAnchorsGiveExactlyTheGridPoints(length: String) throws {
        let interval = try BucketInterval(parsing: length)
        let cal = calendar("America/Los_Angeles")
        let from = Kit.utc(2031, 3, 5, 17), to = Kit.utc(2034, 11, 20, 9)
        for anchor in [Kit.utc(1901, 1, 31, 8), Kit.utc(1970, 6, 15, 7), Kit.utc(2031, 3, 5, 17), Kit.utc(2299, 12, 31, 8)] {
            let boundaries = try BucketGrid(interval: interval, anchor: anchor)
                .boundaries(covering: DateInterval(start: from, end: to), calendar: cal)
            // Walk the grid from the anchor one step at a time: the points strictly inside the range.
            // Foundation's calendar walks the grid, independently of hkctl's.
            var foundation = Calendar(identifier: .gregorian)
            foundation.timeZone = TimeZone(identifier: "America/Los_Angeles")!
            let component: Calendar.Component = interval.unit == .week ? .day : interval.unit == .month ? .month
                : interval.unit == .year ? .year : .day
            let perStep = interval.unit == .week ? 7 * interval.count : interval.count
            func point(_ k: Int) -> Date { foundation.date(byAdding: component, value: k * perStep, to: anchor)! }
            var k = 0
            if anchor > from { while point(k) > from { k -= 1 } } else { while point(k + 1) <= from { k += 1 } }
            var expected = [from]
            k += 1
            while point(k) < to { expected.append(point(k)); k += 1 }
            expected.append(to)
            expectEqual(boundaries, expected, "\(length) from \(anchor)")
        }
    }

    func tooManyBucketsIsAnError() {
        #expect(throws: StatisticsError.self) {
            try grid("1m", Kit.utc(2000, 1, 1), Kit.utc(2024, 1, 1))
        }
    }

    // MARK: DST: both transitions in two zones

    /// (zone, local date of the change, bucket lengths of that day's 6 h grid).
    @Test(arguments: [
        ("Europe/Paris", [2024, 3, 31], 23.0),
        ("Europe/Paris", [2024, 10, 27], 25.0),
        ("America/New_York", [2024, 3, 10], 23.0),
        ("America/New_York", [2024, 11, 3], 25.0),
        ("Australia/Sydney", [2024, 4, 7], 25.0),
        ("Australia/Sydney", [2024, 10, 6], 23.0),
    ])
    func dstDayIsOneBucketOf23Or25Hours(zone: String, day: [Int], length: Double) throws {
        let start = Kit.date(day[0], day[1], day[2] - 1, zone: zone)
        let end = Kit.date(day[0], day[1], day[2] + 2, zone: zone)
        let days = try grid("1d", start, end, zone: zone)
        expectEqual(hours(days), [24, length, 24])
        // Steps at one per second of the DST day: the day's bucket holds exactly its real length in seconds.
        let samples = [Kit.steps(length * 3600, days[1], days[2])]
        let query = StatisticsRequest(type: .steps, interval: DateInterval(start: start, end: end), bucketInterval: BucketInterval(1, .day))
        let result = try query.run(on: InMemorySampleStore(samples), calendar: calendar(zone))
        expectEqual(result.buckets.map(\.sum), [0, length * 3600, 0])
        // Hours are elapsed time: every hour bucket lasts 3600 s and the day has 23 or 25 of them.
        let hourly = try grid("1h", days[1], days[2], zone: zone)
        expectEqual(hourly.count - 1, Int(length))
        #expect(hours(hourly).allSatisfy { $0 == 1 })
    }

    func sixHourGridAcrossFallBackInNewYork() throws {
        // 2024-11-03 in New York lasts 25 h. Six-hour buckets from local midnight are elapsed time, as in
        // HealthKit: 00:00 EDT, 05:00 EST (6 h later), 11:00, 17:00, 23:00 — the last one cut at midnight (1 h).
        let start = Kit.date(2024, 11, 3, zone: "America/New_York")
        let end = Kit.date(2024, 11, 4, zone: "America/New_York")
        let boundaries = try grid("6h", start, end, zone: "America/New_York")
        expectEqual(hours(boundaries), [6, 6, 6, 6, 1])
        expectEqual(boundaries[1], Kit.date(2024, 11, 3, 5, zone: "America/New_York"))
    }

    // MARK: Straddling samples

    func cumulativeSampleAcrossA15MinuteBoundaryIsSplitByTime() throws {
        // 300 steps 10:10–10:25: 5 min before 10:15 → 100, 10 min after → 200.
        let samples = [Kit.steps(300, Kit.utc(2024, 6, 1, 10, 10), Kit.utc(2024, 6, 1, 10, 25))]
        let query = StatisticsRequest(type: .steps, interval: DateInterval(start: Kit.utc(2024, 6, 1, 10), end: Kit.utc(2024, 6, 1, 10, 30)),
                                    bucketInterval: try BucketInterval(parsing: "15m"))
        let result = try query.run(on: InMemorySampleStore(samples), calendar: calendar("UTC"))
        expectEqual(result.buckets.map(\.sum), [100, 200])
    }

    func discreteSampleBelongsToTheBucketOfItsStart() throws {
        // A 70 kg reading spanning 23:50–00:10 belongs wholly to the first day; the second day is empty (nil).
        let samples = [Kit.quantity(.weight, 70, "kg", Kit.utc(2024, 5, 31, 23, 50), Kit.utc(2024, 6, 1, 0, 10))]
        let query = StatisticsRequest(type: .weight, interval: DateInterval(start: Kit.utc(2024, 5, 31), end: Kit.utc(2024, 6, 2)),
                                    bucketUnit: .day)
        let result = try query.run(on: InMemorySampleStore(samples), calendar: calendar("UTC"))
        expectEqual(result.buckets.map(\.average), [70, nil])
        expectEqual(result.buckets.map(\.sampleCount), [1, 0])
    }

    func emptyBucketsAreListed() throws {
        let query = StatisticsRequest(type: .steps, interval: DateInterval(start: Kit.utc(2024, 6, 1), end: Kit.utc(2024, 6, 2)),
                                    bucketInterval: try BucketInterval(parsing: "6h"))
        let result = try query.run(on: InMemorySampleStore([]), calendar: calendar("UTC"))
        expectEqual(result.buckets.count, 4)
        #expect(result.buckets.allSatisfy { $0.sum == 0 && $0.sampleCount == 0 })
    }

    // MARK: Properties

    /// Random samples from three sources (fixed seed), some instantaneous, some straddling the range's edges.
    static func randomSamples(seed: UInt64, count: Int, start: Date, span: Int) -> [Sample] {
        var generator = Kit.SeededGenerator(seed: seed)
        let sources = ["Apple Watch", "iPhone", "hkctl"]
        return (0..<count).map { _ in
            let offset = Int.random(in: -4 * 3600...span, using: &generator)
            let length = Int.random(in: 0..<5, using: &generator) == 0 ? 0 : Int.random(in: 1...(5 * 3600), using: &generator)
            let from = start.addingTimeInterval(Double(offset))
            return Kit.steps(Double(Int.random(in: 0...3000, using: &generator)), from, from.addingTimeInterval(Double(length)),
                             source: sources[Int.random(in: 0..<3, using: &generator)])
        }
    }

    @Test(arguments: [(UInt64(1), "15m"), (2, "1h"), (3, "6h"), (4, "1d"), (5, "1w"), (6, "90m")])
    func bucketSumsAddUpToTheTotalAndNeverExceedThePlainSum(seed: UInt64, length: String) throws {
        // Paris, a week across the 2024-03-31 change.
        let start = Kit.date(2024, 3, 27, zone: "Europe/Paris"), end = Kit.date(2024, 4, 3, zone: "Europe/Paris")
        let samples = Self.randomSamples(seed: seed, count: 500, start: start, span: Int(end.timeIntervalSince(start)))
        let query = StatisticsRequest(type: .steps, interval: DateInterval(start: start, end: end),
                                    bucketInterval: try BucketInterval(parsing: length))
        let result = try query.run(on: InMemorySampleStore(samples), calendar: calendar("Europe/Paris"))
        let total = try #require(result.total.sum)
        let unmerged = try #require(result.total.unmergedSum)
        let bucketTotal = result.buckets.compactMap(\.sum).reduce(0, +)
        #expect(Kit.isClose(bucketTotal, total, relative: 1e-9), "buckets \(bucketTotal) vs total \(total)")
        #expect(total <= unmerged * (1 + 1e-12))
        for bucket in result.buckets {
            #expect(bucket.sum! <= bucket.unmergedSum! * (1 + 1e-12) + 1e-9)
        }
        // The plain sum over the buckets adds up too.
        #expect(Kit.isClose(result.buckets.compactMap(\.unmergedSum).sum, unmerged, relative: 1e-9))
        let plain = StatisticsRequest(type: .steps, interval: DateInterval(start: start, end: end), mergesSources: false)
        #expect(Kit.isClose(try plain.run(on: InMemorySampleStore(samples), calendar: calendar("Europe/Paris")).total.sum!,
                            unmerged, relative: 1e-12))
    }
}

/// The checks ``CollectionTests/checks(_:)`` runs.
private let collectionTestsChecks: [Check<CollectionTests>] = [
    Check("fifteenMinuteBucketsFromMidnight", CollectionTests.fifteenMinuteBucketsFromMidnight),
    Check("anchorFixesThePhaseBothWays", CollectionTests.anchorFixesThePhaseBothWays),
    Check("dayBucketsAnchoredAtSixInTheMorning", CollectionTests.dayBucketsAnchoredAtSixInTheMorning),
    Check("twoWeekBucketsFollowTheAnchorWeek", CollectionTests.twoWeekBucketsFollowTheAnchorWeek),
    Check("weeksStartOnSundayWhenTheCalendarSaysSo", CollectionTests.weeksStartOnSundayWhenTheCalendarSaysSo),
    Check("quarterBucketsFromJanuary", CollectionTests.quarterBucketsFromJanuary),
    Check("monthBucketsAnchoredOnThe31stDoNotDrift", CollectionTests.monthBucketsAnchoredOnThe31stDoNotDrift),
    Check("tooManyBucketsIsAnError", CollectionTests.tooManyBucketsIsAnError),
    Check("sixHourGridAcrossFallBackInNewYork", CollectionTests.sixHourGridAcrossFallBackInNewYork),
    Check("cumulativeSampleAcrossA15MinuteBoundaryIsSplitByTime",
          CollectionTests.cumulativeSampleAcrossA15MinuteBoundaryIsSplitByTime),
    Check("discreteSampleBelongsToTheBucketOfItsStart", CollectionTests.discreteSampleBelongsToTheBucketOfItsStart),
    Check("emptyBucketsAreListed", CollectionTests.emptyBucketsAreListed),
]
