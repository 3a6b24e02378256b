import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Statistics over an in-memory store: HealthKit's cumulative sums (pro-rated), discrete figures and sleep totals.
struct StatisticsRequestTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: statisticsRequestTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit

    private func calendar(_ zone: String = "UTC") -> GregorianCalendar {
        GregorianCalendar(timeZone: Kit.zone(zone))
    }

    private func run(_ type: SampleType, _ samples: [Sample], from start: Date, to end: Date, by bucket: BucketUnit? = nil,
                     unit: String? = nil, zone: String = "UTC") throws -> StatisticsResult {
        let query = StatisticsRequest(type: type, interval: DateInterval(start: start, end: end), bucketUnit: bucket,
                                    unit: try unit.map { try HealthUnit(parsing: $0) })
        return try query.run(on: InMemorySampleStore(samples), calendar: calendar(zone))
    }

    // MARK: Cumulative sums

    func sampleAcrossMidnightIsSplitByTime() throws {
        // 1200 steps from 23:00 to 01:00: one hour on each side of midnight, so 600 + 600.
        let samples = [Kit.steps(1200, Kit.utc(2024, 5, 31, 23), Kit.utc(2024, 6, 1, 1))]
        let result = try run(.steps, samples, from: Kit.utc(2024, 5, 31), to: Kit.utc(2024, 6, 2), by: .day)
        expectEqual(result.buckets.map(\.sum), [600, 600])
        expectEqual(result.buckets.map(\.sampleCount), [1, 1])
        expectEqual(result.total.sum, 1200)
        expectEqual(result.total.sampleCount, 1)
        expectEqual(result.unit, .count())
    }

    func unequalSplitFollowsTheOverlap() throws {
        // 900 steps from 23:30 to 01:00 (90 min): 30 min before midnight = 900 × 30/90 = 300, after = 600.
        let samples = [Kit.steps(900, Kit.utc(2024, 5, 31, 23, 30), Kit.utc(2024, 6, 1, 1))]
        let result = try run(.steps, samples, from: Kit.utc(2024, 5, 31), to: Kit.utc(2024, 6, 2), by: .day)
        expectEqual(result.buckets.map(\.sum), [300, 600])
    }

    func rangeEdgesProRateToo() throws {
        // Only the 06-01 half of the 23:00–01:00 sample lies in [06-01, 06-02): 600 of 1200.
        let samples = [Kit.steps(1200, Kit.utc(2024, 5, 31, 23), Kit.utc(2024, 6, 1, 1)),
                       Kit.steps(50, Kit.utc(2024, 6, 1, 12))]
        let result = try run(.steps, samples, from: Kit.utc(2024, 6, 1), to: Kit.utc(2024, 6, 2))
        expectEqual(result.total.sum, 650)  // 600 + 50
        expectEqual(result.total.sampleCount, 2)
        #expect(result.buckets.isEmpty)  // not bucketed
    }

    func instantaneousSampleOnABoundaryCountsInTheLaterBucket() throws {
        let samples = [Kit.steps(100, Kit.utc(2024, 6, 1)),                              // exactly midnight
                       Kit.steps(40, Kit.utc(2024, 5, 31, 23), Kit.utc(2024, 6, 1))]     // ends exactly at midnight
        let result = try run(.steps, samples, from: Kit.utc(2024, 5, 31), to: Kit.utc(2024, 6, 2), by: .day)
        expectEqual(result.buckets.map(\.sum), [40, 100])
        expectEqual(result.buckets.map(\.sampleCount), [1, 1])
        expectEqual(result.total.sum, 140)
    }

    func instantaneousSampleAtTheRangeEndIsOutside() throws {
        // [start, end) is half-open: a reading at `end` belongs to the next range.
        let samples = [Kit.steps(100, Kit.utc(2024, 6, 2)), Kit.steps(7, Kit.utc(2024, 6, 1))]
        let result = try run(.steps, samples, from: Kit.utc(2024, 6, 1), to: Kit.utc(2024, 6, 2))
        expectEqual(result.total.sum, 7)
    }

    func emptyCumulativeBucketsSumToZero() throws {
        // Statistics documents a cumulative sum over no samples as 0 (HealthKit itself returns nil there).
        let samples = [Kit.steps(10, Kit.utc(2024, 6, 1, 12))]
        let result = try run(.steps, samples, from: Kit.utc(2024, 5, 30), to: Kit.utc(2024, 6, 2), by: .day)
        expectEqual(result.buckets.count, 3)
        expectEqual(result.buckets.map(\.sum), [0, 0, 10])
        expectEqual(result.buckets.map(\.sampleCount), [0, 0, 1])
        #expect(result.buckets.allSatisfy { $0.average == nil && $0.asleep == nil })
    }

    func bucketSumsAddUpToTheTotalForRandomSamples() throws {
        // Property check over 400 pseudo-random samples (fixed seed) in Paris, across the 2024-03-31 DST change:
        // every bucket equals an independent pro-rating oracle, and the buckets add up to the total.
        var generator = Kit.SeededGenerator(seed: 0x5EED_2024)
        let start = Kit.date(2024, 3, 28, zone: "Europe/Paris")
        let end = Kit.date(2024, 4, 3, zone: "Europe/Paris")
        let span = Int(end.timeIntervalSince(start))
        var samples: [Sample] = []
        for _ in 0..<400 {
            // Starts from 6 h before the range to its end, so some straddle each edge; a quarter instantaneous.
            let offset = Int.random(in: -6 * 3600...span, using: &generator)
            let duration = Int.random(in: 0..<4, using: &generator) == 0 ? 0 : Int.random(in: 1...(8 * 3600), using: &generator)
            let value = Double(Int.random(in: 0...2000, using: &generator))
            let sampleStart = start.addingTimeInterval(Double(offset))
            samples.append(Kit.steps(value, sampleStart, sampleStart.addingTimeInterval(Double(duration))))
        }
        func oracle(_ from: Date, _ to: Date) -> Double {
            samples.reduce(0) { sum, sample in
                let value = sample.value.quantity!.value
                if sample.start == sample.end { return sum + (sample.start >= from && sample.start < to ? value : 0) }
                let overlap = min(sample.end, to).timeIntervalSince(max(sample.start, from))
                return sum + (overlap > 0 ? value * overlap / sample.duration : 0)
            }
        }
        for bucket in [BucketUnit.hour, .day, .week] {
            let result = try run(.steps, samples, from: start, to: end, by: bucket, zone: "Europe/Paris")
            let total = try #require(result.total.sum)
            #expect(Kit.isClose(total, oracle(start, end), relative: 1e-9), "\(bucket) total")
            var bucketSum = 0.0
            for statistics in result.buckets {
                let sum = try #require(statistics.sum)
                #expect(Kit.isClose(sum, oracle(statistics.start, statistics.end), relative: 1e-9, absolute: 1e-7),
                        "\(bucket) bucket at \(statistics.start)")
                bucketSum += sum
            }
            #expect(Kit.isClose(bucketSum, total, relative: 1e-9), "\(bucket): buckets \(bucketSum) vs total \(total)")
        }
        // 6 local days with one of 23 h: 143 hour buckets.
        try expectEqual(run(.steps, samples, from: start, to: end, by: .hour, zone: "Europe/Paris").buckets.count, 143)
    }

    func cumulativeSumAcrossSpringForwardHours() throws {
        // 2300 steps spread evenly over the 23-hour 2024-03-31 in Paris: 2300 × 3600 / 82 800 = 100 per hour.
        let dayStart = Kit.utc(2024, 3, 30, 23), dayEnd = Kit.utc(2024, 3, 31, 22)
        let result = try run(.steps, [Kit.steps(2300, dayStart, dayEnd)], from: dayStart, to: dayEnd, by: .hour, zone: "Europe/Paris")
        expectEqual(result.buckets.count, 23)
        #expect(result.buckets.allSatisfy { Kit.isClose($0.sum ?? -1, 100) })
    }

    func cumulativeSumAcrossFallBackHours() throws {
        // 2500 steps over the 25-hour 2024-10-27 in Paris: 100 per hour, 25 buckets.
        let dayStart = Kit.utc(2024, 10, 26, 22), dayEnd = Kit.utc(2024, 10, 27, 23)
        let result = try run(.steps, [Kit.steps(2500, dayStart, dayEnd)], from: dayStart, to: dayEnd, by: .hour, zone: "Europe/Paris")
        expectEqual(result.buckets.count, 25)
        #expect(result.buckets.allSatisfy { Kit.isClose($0.sum ?? -1, 100) })
    }

    func dayBucketsAcrossDSTInParisAndNewYork() throws {
        // One sample of 60 steps per UTC hour, so each local day's sum is 60 × its length in hours.
        func hourly(from start: Date, hours: Int) -> [Sample] {
            (0..<hours).map { Kit.steps(60, start.addingTimeInterval(Double($0) * 3600), start.addingTimeInterval(Double($0 + 1) * 3600)) }
        }
        let parisSpring = try run(.steps, hourly(from: Kit.utc(2024, 3, 29, 23), hours: 71), from: Kit.utc(2024, 3, 29, 23),
                                  to: Kit.utc(2024, 4, 1, 22), by: .day, zone: "Europe/Paris")
        expectEqual(parisSpring.buckets.map { $0.end.timeIntervalSince($0.start) / 3600 }, [24, 23, 24])
        expectEqual(parisSpring.buckets.map(\.sum), [1440, 1380, 1440])  // 60 × 24, 60 × 23, 60 × 24
        let parisAutumn = try run(.steps, hourly(from: Kit.utc(2024, 10, 25, 22), hours: 73), from: Kit.utc(2024, 10, 25, 22),
                                  to: Kit.utc(2024, 10, 28, 23), by: .day, zone: "Europe/Paris")
        expectEqual(parisAutumn.buckets.map { $0.end.timeIntervalSince($0.start) / 3600 }, [24, 25, 24])
        expectEqual(parisAutumn.buckets.map(\.sum), [1440, 1500, 1440])
        // New York 2024-03-10 (23 h) and 2024-11-03 (25 h).
        let nySpring = try run(.steps, [], from: Kit.utc(2024, 3, 10, 5), to: Kit.utc(2024, 3, 11, 4), by: .hour, zone: "America/New_York")
        expectEqual(nySpring.buckets.count, 23)
        let nyAutumn = try run(.steps, [], from: Kit.utc(2024, 11, 3, 4), to: Kit.utc(2024, 11, 4, 5), by: .hour, zone: "America/New_York")
        expectEqual(nyAutumn.buckets.count, 25)
        let nyDays = try run(.steps, [], from: Kit.utc(2024, 3, 9, 5), to: Kit.utc(2024, 3, 12, 4), by: .day, zone: "America/New_York")
        expectEqual(nyDays.buckets.map { $0.end.timeIntervalSince($0.start) / 3600 }, [24, 23, 24])
    }

    func monthBucketsOfWaterInLitres() throws {
        let samples = [
            Kit.quantity(.water, 500, "mL", Kit.utc(2024, 1, 15, 9)),
            Kit.quantity(.water, 250, "mL", Kit.utc(2024, 2, 29, 9)),
            // 1 L from 03-31T23:30Z to 04-01T00:30Z: half in March, half outside the range.
            Kit.quantity(.water, 1, "L", Kit.utc(2024, 3, 31, 23, 30), Kit.utc(2024, 4, 1, 0, 30)),
        ]
        let result = try run(.water, samples, from: Kit.utc(2024, 1, 1), to: Kit.utc(2024, 4, 1), by: .month, unit: "L")
        expectEqual(result.unit?.unitString, "L")
        expectEqual(result.buckets.count, 3)
        let sums = result.buckets.map { $0.sum ?? -1 }
        #expect(Kit.isClose(sums[0], 0.5) && Kit.isClose(sums[1], 0.25) && Kit.isClose(sums[2], 0.5), "\(sums)")
        #expect(Kit.isClose(result.total.sum ?? -1, 1.25))  // 0.5 + 0.25 + 0.5
    }

    func weekBucketsSumEachMondayToSunday() throws {
        // Weeks of 05-20, 05-27 and 06-03 (Mondays).
        let samples = [Kit.steps(1000, Kit.utc(2024, 5, 26, 12)),   // Sunday: first week
                       Kit.steps(2000, Kit.utc(2024, 5, 27, 0)),    // Monday midnight: second week
                       Kit.steps(3000, Kit.utc(2024, 6, 2, 23, 59)),
                       Kit.steps(4000, Kit.utc(2024, 6, 3, 8))]
        let result = try run(.steps, samples, from: Kit.utc(2024, 5, 20), to: Kit.utc(2024, 6, 10), by: .week)
        expectEqual(result.buckets.map(\.start), [Kit.utc(2024, 5, 20), Kit.utc(2024, 5, 27), Kit.utc(2024, 6, 3)])
        expectEqual(result.buckets.map(\.sum), [1000, 5000, 4000])
        expectEqual(result.total.sum, 10_000)
    }

    func waterInOtherUnits() throws {
        // 500 mL + 250 mL + 16.9 US fl oz (16.9 × 29.5735295625 = 499.79264960625 mL) = 1249.79264960625 mL.
        let noon = Kit.utc(2024, 6, 1, 12)
        let samples = [Kit.quantity(.water, 500, "mL", noon), Kit.quantity(.water, 250, "mL", noon),
                       Kit.quantity(.water, 16.9, "fl_oz_us", noon)]
        let day = (Kit.utc(2024, 6, 1), Kit.utc(2024, 6, 2))
        let litres = try run(.water, samples, from: day.0, to: day.1, unit: "L")
        #expect(Kit.isClose(litres.total.sum ?? -1, 1.24979264960625, relative: 1e-10))
        let defaultUnit = try run(.water, samples, from: day.0, to: day.1)
        expectEqual(defaultUnit.unit?.unitString, "mL")
        #expect(Kit.isClose(defaultUnit.total.sum ?? -1, 1249.79264960625, relative: 1e-10))
        // 1249.79264960625 mL / 29.5735295625 = 42.2605... US fl oz.
        let ounces = try run(.water, samples, from: day.0, to: day.1, unit: "fl_oz_us")
        #expect(Kit.isClose(ounces.total.sum ?? -1, 1249.79264960625 / 29.5735295625, relative: 1e-10))
    }

    func incompatibleOutputUnitIsRefused() {
        #expect(throws: UnitError.wrongUnitForType(unit: "kg", type: "water", expected: ["500mL", "0.5L", "16.9fl_oz_us"])) {
            try run(.water, [], from: Kit.utc(2024, 6, 1), to: Kit.utc(2024, 6, 2), unit: "kg")
        }
    }

    // MARK: Discrete figures

    private var weights: [Sample] {
        [Kit.quantity(.weight, 70, "kg", Kit.utc(2024, 5, 30, 8)),
         Kit.quantity(.weight, 72, "kg", Kit.utc(2024, 5, 30, 20)),
         Kit.quantity(.weight, 71.5, "kg", Kit.utc(2024, 6, 1, 7))]
    }

    func discreteAverageMinMaxAndMostRecentPerDay() throws {
        let result = try run(.weight, weights, from: Kit.utc(2024, 5, 30), to: Kit.utc(2024, 6, 2), by: .day)
        expectEqual(result.unit?.unitString, "kg")
        expectEqual(result.buckets.count, 3)
        let first = result.buckets[0], empty = result.buckets[1], last = result.buckets[2]
        // 05-30: (70 + 72) / 2 = 71; the 20:00 reading is the latest.
        #expect(first.average == 71 && first.minimum == 70 && first.maximum == 72 && first.mostRecent == 72)
        expectEqual(first.sampleCount, 2)
        expectEqual(first.mostRecentDate, Kit.utc(2024, 5, 30, 20))
        // 05-31 has no reading: every figure is nil, not 0.
        #expect(empty.average == nil && empty.minimum == nil && empty.maximum == nil && empty.mostRecent == nil)
        expectEqual(empty.sampleCount, 0)
        expectNil(empty.sum)
        #expect(last.average == 71.5 && last.minimum == 71.5 && last.maximum == 71.5 && last.mostRecent == 71.5)
        // Whole range: (70 + 72 + 71.5) / 3 = 71.1666…; the latest reading is 71.5 on 06-01.
        #expect(Kit.isClose(result.total.average ?? -1, 213.5 / 3))
        #expect(result.total.minimum == 70 && result.total.maximum == 72 && result.total.mostRecent == 71.5)
        expectEqual(result.total.sampleCount, 3)
        expectNil(result.total.sum)
    }

    func mostRecentIsTheLatestReadingWhateverTheSaveOrder() throws {
        let shuffled = [weights[2], weights[0], weights[1]]
        let result = try run(.weight, shuffled, from: Kit.utc(2024, 5, 30), to: Kit.utc(2024, 6, 2))
        expectEqual(result.total.mostRecent, 71.5)
    }

    func discreteReadingOnABoundaryCountsInTheLaterBucket() throws {
        let samples = [Kit.quantity(.weight, 80, "kg", Kit.utc(2024, 6, 1))]
        let result = try run(.weight, samples, from: Kit.utc(2024, 5, 31), to: Kit.utc(2024, 6, 2), by: .day)
        expectNil(result.buckets[0].average)
        expectEqual(result.buckets[1].average, 80)
    }

    func emptyDiscreteRangeIsAllNil() throws {
        let result = try run(.weight, [], from: Kit.utc(2024, 6, 1), to: Kit.utc(2024, 6, 2), by: .hour)
        expectEqual(result.buckets.count, 24)
        #expect(result.total.average == nil && result.total.mostRecent == nil && result.total.sampleCount == 0)
        #expect(result.buckets.allSatisfy { $0.average == nil && $0.minimum == nil && $0.maximum == nil })
    }

    func weightInPounds() throws {
        // 70 kg = 70 / 0.45359237 = 154.3235835294 lb; 72.5747792 kg = 160 lb exactly.
        let samples = [Kit.quantity(.weight, 70, "kg", Kit.utc(2024, 6, 1, 7)),
                       Kit.quantity(.weight, 72.5747792, "kg", Kit.utc(2024, 6, 1, 8))]
        let result = try run(.weight, samples, from: Kit.utc(2024, 6, 1), to: Kit.utc(2024, 6, 2), unit: "lb")
        expectEqual(result.unit?.unitString, "lb")
        #expect(Kit.isClose(result.total.minimum ?? -1, 154.3235835294143, relative: 1e-11))
        #expect(Kit.isClose(result.total.maximum ?? -1, 160, relative: 1e-11))
        #expect(Kit.isClose(result.total.mostRecent ?? -1, 160, relative: 1e-11))
        // (154.3235835294143 + 160) / 2 = 157.16179176470715.
        #expect(Kit.isClose(result.total.average ?? -1, 157.16179176470715, relative: 1e-11))
    }

    func readingsInMixedUnitsAreComparedInTheOutputUnit() throws {
        // Readings are compared after conversion to kg: 160 lb = 72.5747792 kg is the heaviest,
        // 11 st = 69.85322498 kg the lightest and the latest.
        let samples = [Kit.quantity(.weight, 72, "kg", Kit.utc(2024, 6, 1, 7)),
                       Kit.quantity(.weight, 160, "lb", Kit.utc(2024, 6, 1, 8)),
                       Kit.quantity(.weight, 11, "st", Kit.utc(2024, 6, 1, 9))]  // 69.85322498 kg
        let result = try run(.weight, samples, from: Kit.utc(2024, 6, 1), to: Kit.utc(2024, 6, 2))
        #expect(Kit.isClose(result.total.maximum ?? -1, 72.5747792))
        #expect(Kit.isClose(result.total.minimum ?? -1, 69.85322498))
        #expect(Kit.isClose(result.total.mostRecent ?? -1, 69.85322498))
    }

    // MARK: Open ranges

    func openRangeIncludesTheLatestInstantaneousReading() throws {
        // `--from 2024-05-01` with no end: the range runs to the data's end. The last weigh-in (06-01T07:00) must
        // count: total = 3 readings, most recent 71.5 kg.
        let result = try run(.weight, weights, from: Kit.utc(2024, 5, 1), to: DateRange.distantEnd)
        expectEqual(result.total.sampleCount, 3)
        expectEqual(result.total.mostRecent, 71.5)
        #expect(Kit.isClose(result.total.average ?? -1, 213.5 / 3))
    }

    func allTimeStepsIncludeTheLastInstantaneousSample() throws {
        // Two instantaneous step counts, 100 + 50: the all-time sum is 150.
        let samples = [Kit.steps(100, Kit.utc(2024, 5, 30, 8)), Kit.steps(50, Kit.utc(2024, 6, 1, 7))]
        let result = try run(.steps, samples, from: DateRange.distantStart, to: DateRange.distantEnd)
        expectEqual(result.total.sum, 150)
    }

    func openRangeStartsAtTheFirstSample() throws {
        let samples = [Kit.steps(60, Kit.utc(2024, 5, 30, 10), Kit.utc(2024, 5, 30, 11)),
                       Kit.steps(30, Kit.utc(2024, 6, 1, 9), Kit.utc(2024, 6, 1, 10))]
        let result = try run(.steps, samples, from: DateRange.distantStart, to: DateRange.distantEnd, by: .day)
        expectEqual(result.total.start, Kit.utc(2024, 5, 30, 10))
        expectEqual(result.total.end, Kit.utc(2024, 6, 1, 10))
        expectEqual(result.buckets.map(\.start), [Kit.utc(2024, 5, 30, 10), Kit.utc(2024, 5, 31), Kit.utc(2024, 6, 1)])
        expectEqual(result.buckets.map(\.sum), [60, 0, 30])
        expectEqual(result.total.sum, 90)
    }

    // MARK: Sleep

    /// One night, 2024-05-31T22:00Z → 06-01T07:00Z.
    private var night: [Sample] {
        [Kit.sleep(0, Kit.utc(2024, 5, 31, 22), Kit.utc(2024, 6, 1, 7)),             // inBed 9 h
         Kit.sleep(3, Kit.utc(2024, 5, 31, 22, 30), Kit.utc(2024, 6, 1, 2)),          // core 3.5 h
         Kit.sleep(4, Kit.utc(2024, 6, 1, 1), Kit.utc(2024, 6, 1, 3)),                // deep 2 h, 1 h overlapping core
         Kit.sleep(2, Kit.utc(2024, 6, 1, 3), Kit.utc(2024, 6, 1, 3, 30)),            // awake 30 min
         Kit.sleep(5, Kit.utc(2024, 6, 1, 3, 30), Kit.utc(2024, 6, 1, 6, 30)),        // REM 3 h
         Kit.sleep(1, Kit.utc(2024, 6, 1, 4), Kit.utc(2024, 6, 1, 5), source: "phone")]  // inside REM, other source
    }

    func sleepMergesOverlapsAndSeparatesInBed() throws {
        let result = try run(.sleep, night, from: Kit.utc(2024, 5, 31), to: Kit.utc(2024, 6, 2))
        // Asleep = union(22:30–02:00, 01:00–03:00) + union(03:30–06:30, 04:00–05:00) = 4.5 h + 3 h = 7.5 h.
        expectEqual(result.total.asleep, 7.5 * 3600)
        // In bed = 9 h, counted apart from asleep; awake counts as neither.
        expectEqual(result.total.inBed, 9.0 * 3600)
        expectEqual(result.total.sampleCount, 6)
        expectNil(result.unit)
        #expect(result.total.sum == nil && result.total.average == nil)
    }

    func sleepSplitsAtMidnightIntoDayBuckets() throws {
        let result = try run(.sleep, night, from: Kit.utc(2024, 5, 31), to: Kit.utc(2024, 6, 2), by: .day)
        // 05-31: asleep 22:30–24:00 = 1.5 h, in bed 22:00–24:00 = 2 h. 06-01: asleep 7.5 − 1.5 = 6 h, in bed 7 h.
        let asleep: [TimeInterval?] = [5400, 21_600]  // 1.5 × 3600, 6 × 3600
        let inBed: [TimeInterval?] = [7200, 25_200]   // 2 × 3600, 7 × 3600
        expectEqual(result.buckets.map(\.asleep), asleep)
        expectEqual(result.buckets.map(\.inBed), inBed)
        expectEqual(result.buckets.map(\.sampleCount), [2, 6])
    }

    func awakeAloneIsNeitherAsleepNorInBed() throws {
        let samples = [Kit.sleep(2, Kit.utc(2024, 6, 1, 3), Kit.utc(2024, 6, 1, 4))]
        let result = try run(.sleep, samples, from: Kit.utc(2024, 6, 1), to: Kit.utc(2024, 6, 2))
        expectEqual(result.total.asleep, 0)
        expectNil(result.total.inBed, "no inBed sample: unknown")
        expectEqual(result.total.sampleCount, 1)
    }

    func identicalSleepSamplesFromTwoSourcesCountOnce() throws {
        let samples = [Kit.sleep(1, Kit.utc(2024, 5, 31, 23), Kit.utc(2024, 6, 1, 7), source: "watch"),
                       Kit.sleep(1, Kit.utc(2024, 5, 31, 23), Kit.utc(2024, 6, 1, 7), source: "phone"),
                       Kit.sleep(3, Kit.utc(2024, 6, 1, 7), Kit.utc(2024, 6, 1, 8))]  // touching, not overlapping
        let result = try run(.sleep, samples, from: Kit.utc(2024, 5, 31), to: Kit.utc(2024, 6, 2))
        expectEqual(result.total.asleep, 9.0 * 3600)  // 23:00–07:00 once, plus 07:00–08:00
        expectNil(result.total.inBed)
    }

    func sleepAcrossSpringForwardIsMeasuredInRealHours() throws {
        // 23:00 CET (22:00Z) to 07:00 CEST (05:00Z) is 7 real hours; the day bucket of 03-31 is 23 h long.
        let samples = [Kit.sleep(1, Kit.utc(2024, 3, 30, 22), Kit.utc(2024, 3, 31, 5))]
        let result = try run(.sleep, samples, from: Kit.utc(2024, 3, 29, 23), to: Kit.utc(2024, 4, 1, 22), by: .day, zone: "Europe/Paris")
        let asleep: [TimeInterval?] = [3600, 21_600, 0]  // 22:00Z–23:00Z on 03-30, the other 6 h on 03-31
        expectEqual(result.buckets.map(\.asleep), asleep)
        expectEqual(result.total.asleep, 7.0 * 3600)
    }
}

/// The checks ``StatisticsRequestTests/checks(_:)`` runs.
private let statisticsRequestTestsChecks: [Check<StatisticsRequestTests>] = [
    Check("sampleAcrossMidnightIsSplitByTime", StatisticsRequestTests.sampleAcrossMidnightIsSplitByTime),
    Check("unequalSplitFollowsTheOverlap", StatisticsRequestTests.unequalSplitFollowsTheOverlap),
    Check("rangeEdgesProRateToo", StatisticsRequestTests.rangeEdgesProRateToo),
    Check("instantaneousSampleOnABoundaryCountsInTheLaterBucket",
          StatisticsRequestTests.instantaneousSampleOnABoundaryCountsInTheLaterBucket),
    Check("instantaneousSampleAtTheRangeEndIsOutside",
          StatisticsRequestTests.instantaneousSampleAtTheRangeEndIsOutside),
    Check("emptyCumulativeBucketsSumToZero", StatisticsRequestTests.emptyCumulativeBucketsSumToZero),
    Check("bucketSumsAddUpToTheTotalForRandomSamples",
          StatisticsRequestTests.bucketSumsAddUpToTheTotalForRandomSamples),
    Check("cumulativeSumAcrossSpringForwardHours", StatisticsRequestTests.cumulativeSumAcrossSpringForwardHours),
    Check("cumulativeSumAcrossFallBackHours", StatisticsRequestTests.cumulativeSumAcrossFallBackHours),
    Check("dayBucketsAcrossDSTInParisAndNewYork", StatisticsRequestTests.dayBucketsAcrossDSTInParisAndNewYork),
    Check("monthBucketsOfWaterInLitres", StatisticsRequestTests.monthBucketsOfWaterInLitres),
    Check("weekBucketsSumEachMondayToSunday", StatisticsRequestTests.weekBucketsSumEachMondayToSunday),
    Check("waterInOtherUnits", StatisticsRequestTests.waterInOtherUnits),
    Check("incompatibleOutputUnitIsRefused", StatisticsRequestTests.incompatibleOutputUnitIsRefused),
    Check("discreteAverageMinMaxAndMostRecentPerDay", StatisticsRequestTests.discreteAverageMinMaxAndMostRecentPerDay),
    Check("mostRecentIsTheLatestReadingWhateverTheSaveOrder",
          StatisticsRequestTests.mostRecentIsTheLatestReadingWhateverTheSaveOrder),
    Check("discreteReadingOnABoundaryCountsInTheLaterBucket",
          StatisticsRequestTests.discreteReadingOnABoundaryCountsInTheLaterBucket),
    Check("emptyDiscreteRangeIsAllNil", StatisticsRequestTests.emptyDiscreteRangeIsAllNil),
    Check("weightInPounds", StatisticsRequestTests.weightInPounds),
    Check("readingsInMixedUnitsAreComparedInTheOutputUnit",
          StatisticsRequestTests.readingsInMixedUnitsAreComparedInTheOutputUnit),
    Check("openRangeIncludesTheLatestInstantaneousReading",
          StatisticsRequestTests.openRangeIncludesTheLatestInstantaneousReading),
    Check("allTimeStepsIncludeTheLastInstantaneousSample",
          StatisticsRequestTests.allTimeStepsIncludeTheLastInstantaneousSample),
    Check("openRangeStartsAtTheFirstSample", StatisticsRequestTests.openRangeStartsAtTheFirstSample),
    Check("sleepMergesOverlapsAndSeparatesInBed", StatisticsRequestTests.sleepMergesOverlapsAndSeparatesInBed),
    Check("sleepSplitsAtMidnightIntoDayBuckets", StatisticsRequestTests.sleepSplitsAtMidnightIntoDayBuckets),
    Check("awakeAloneIsNeitherAsleepNorInBed", StatisticsRequestTests.awakeAloneIsNeitherAsleepNorInBed),
    Check("identicalSleepSamplesFromTwoSourcesCountOnce",
          StatisticsRequestTests.identicalSleepSamplesFromTwoSourcesCountOnce),
    Check("sleepAcrossSpringForwardIsMeasuredInRealHours",
          StatisticsRequestTests.sleepAcrossSpringForwardIsMeasuredInRealHours),
]
