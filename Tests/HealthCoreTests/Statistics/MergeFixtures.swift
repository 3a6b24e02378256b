import Foundation
@testable import HealthCore

/// Hand-built multi-source fixtures for the merge tests. All times are UTC on Saturday 2024-06-01 unless noted.
enum MergeFixtures {
    static let watch = "Jane’s Apple Watch"
    static let phone = "Jane’s iPhone"
    static let manual = "hkctl"

    /// 2024-06-01 at `hour:minute` UTC.
    static func at(_ hour: Int, _ minute: Int = 0, day: Int = 1) -> Date {
        IndependentTestKit.utc(2024, 6, day, hour, minute)
    }

    static func steps(_ value: Double, _ from: Date, _ to: Date? = nil, _ source: String) -> Sample {
        IndependentTestKit.steps(value, from, to ?? from, source: source)
    }

    /// The WWDC 2020 "Getting started with HealthKit" day: the watch counts 6,902 steps; the phone counts 900 of
    /// the same steps while the watch is worn and 1,100 more while it is not. Merged: 6,902 + 1,100 = 8,002;
    /// the naive sum is 8,902.
    static var wwdcDay: [Sample] {
        [
            steps(3_000, at(7), at(8), watch),       // morning walk, watch worn
            steps(3_902, at(12), at(13), watch),     // lunch walk, watch worn
            steps(900, at(7, 10), at(7, 40), phone), // the phone in a pocket during the morning walk: duplicates
            steps(1_100, at(18), at(19), phone),     // evening, watch charging: only the phone counts
        ]
    }

    static let day = DateInterval(start: at(0), end: at(0, day: 2))

    static func run(_ samples: [Sample], _ interval: DateInterval = day, by bucket: BucketInterval? = nil,
                    type: SampleType = .steps, options: StatisticsOptions? = nil,
                    predicate: SamplePredicate = SamplePredicate(), priority: SourcePriority = .automatic,
                    merging: Bool = true, explains: Bool = false, zone: String = "UTC") throws -> StatisticsResult {
        let query = StatisticsRequest(type: type, interval: interval, options: options, predicate: predicate,
                                    bucketInterval: bucket, priority: priority, mergesSources: merging, explains: explains)
        let calendar = GregorianCalendar(timeZone: IndependentTestKit.zone(zone))
        return try query.run(on: InMemorySampleStore(samples), calendar: calendar)
    }
}
