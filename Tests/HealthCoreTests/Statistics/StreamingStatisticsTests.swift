import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

/// The streaming path (``StreamingStatistics``, over the store's fast line reader) must give what the general
/// path gives from fully decoded samples, on random stores: several sources and units, instants, samples across
/// bucket edges, equal start and end times, deletions, lines out of time order and lines the fast reader
/// cannot read.
struct StreamingStatisticsTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: streamingStatisticsTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private let heartRate = try! SampleTypeCatalogue.standard.type(named: "heart-rate")

    private func randomSamples(_ type: SampleType, units: [String], sources: [String], count: Int,
                               generator: inout IndependentTestKit.SeededGenerator) -> [Sample] {
        let origin = TestSupport.date("2024-03-01T00:00:00Z").timeIntervalSince1970
        var samples: [Sample] = []
        for index in 0..<count {
            // Whole minutes make equal starts and ends common; some samples are instants, some span days.
            let start = origin + Double(Int.random(in: 0..<(40 * 24 * 60), using: &generator)) * 60
            let length: Double = [0, 60, 300, 3600, 2 * 86_400][Int.random(in: 0..<5, using: &generator)]
            // 1.51–19.5 of each unit (heart rates scaled into 22–293 count/min): plausible for every type and unit
            // here, as save refuses implausible amounts.
            let unit = units[index % units.count]
            let scale: Double = ["count/min": 15, "count/s": 0.25][unit] ?? 1
            let value = (1.5 + Double(Int.random(in: 1...1800, using: &generator)) / 100) * scale
            let sourceIndex = Int.random(in: 0..<sources.count, using: &generator)
            let sample = Sample(
                typeIdentifier: type.identifier, start: Date(timeIntervalSince1970: start),
                end: Date(timeIntervalSince1970: start + length),
                value: .quantity(Quantity(value, try! HealthUnit(parsing: unit))),
                source: sources[sourceIndex],
                created: Date(timeIntervalSince1970: start + length),
                metadata: index % 7 == 0 ? ["HKWasUserEntered": .number(1)] : [:],
                // A source keeps its device: which sample of a source is read first differs between the two paths.
                device: [nil, "name:Apple Watch, model:Watch", "name:iPhone", nil, "name:Ring", "name:Scale"][sourceIndex % 6])
            samples.append(sample)
        }
        return samples
    }

    /// The general path's answer: every visible sample decoded, then computed.
    private func general(_ query: StatisticsRequest, store: JSONFileStore, calendar: GregorianCalendar) throws -> StatisticsResult {
        var samples: [Sample] = []
        try store.forEachSample(ofType: query.type.identifier, overlapping: query.interval) { samples.append($0) }
        return try query.compute(samples, figures: try query.resolvedOptions(), unit: try query.resolvedUnit(),
                                 calendar: calendar)
    }

    private func expectSame(_ a: Statistics, _ b: Statistics, _ context: String) {
        func close(_ x: Double?, _ y: Double?) -> Bool {
            switch (x, y) {
            case (nil, nil): return true
            case let (x?, y?): return abs(x - y) <= 1e-9 * max(1, abs(x), abs(y))
            default: return false
            }
        }
        #expect(a.start == b.start && a.end == b.end, "\(context): interval")
        expectEqual(a.sampleCount, b.sampleCount, "\(context): count \(a.sampleCount) vs \(b.sampleCount)")
        #expect(close(a.sum, b.sum), "\(context): sum \(String(describing: a.sum)) vs \(String(describing: b.sum))")
        #expect(close(a.unmergedSum, b.unmergedSum), "\(context): unmerged sum")
        #expect(close(a.average, b.average), "\(context): average \(String(describing: a.average)) vs \(String(describing: b.average))")
        #expect(close(a.minimum, b.minimum) && close(a.maximum, b.maximum), "\(context): minimum/maximum")
        #expect(close(a.mostRecent, b.mostRecent) && a.mostRecentDate == b.mostRecentDate, "\(context): most recent")
    }

    private func compare(_ query: StatisticsRequest, store: JSONFileStore, calendar: GregorianCalendar, _ label: String) throws {
        let expected = try general(query, store: store, calendar: calendar)
        let streaming = try #require(StreamingStatistics(query, figures: try query.resolvedOptions(),
                                                         unit: try query.resolvedUnit()))
        guard let actual = try streaming.run(on: store, calendar: calendar) else {
            Issue.record("\(label): the streaming path gave up")
            return
        }
        expectEqual(actual.sourceOrder, expected.sourceOrder, "\(label): source order")
        #expect(actual.mergedSources == expected.mergedSources && actual.unit == expected.unit, "\(label): header")
        expectSame(actual.total, expected.total, "\(label) total")
        expectEqual(actual.buckets.count, expected.buckets.count, "\(label): bucket count")
        for (index, (a, b)) in zip(actual.buckets, expected.buckets).enumerated() { expectSame(a, b, "\(label) bucket \(index)") }
        // And through the public entry point, which must pick the same answer.
        try expectEqual(query.run(on: store, calendar: calendar), actual, "\(label): run(on:)")
    }

    @Test(arguments: [1, 2, 3, 4])
    func streamingMatchesTheGeneralPath(seed: UInt64) throws {
        var generator = IndependentTestKit.SeededGenerator(seed: seed)
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: IndependentTestKit.zone("Europe/Berlin"))
            // More sources than the reader keeps recent names for, some of them not ASCII.
            let steps = randomSamples(.steps, units: ["count"], sources: ["Phone", "Watch", "Jane’s iPhone", "Jane’s Apple Watch", "Ring", "Scale ⚖"],
                                      count: 400, generator: &generator)
            let water = randomSamples(.water, units: ["mL", "L", "fl_oz_us"], sources: ["hkctl"], count: 200, generator: &generator)
            let weight = randomSamples(.weight, units: ["kg", "lb"], sources: ["Scale", "hkctl"], count: 150, generator: &generator)
            let pulse = randomSamples(heartRate, units: ["count/min", "count/s"], sources: ["Watch"], count: 300, generator: &generator)
            // Saved in several batches in random order, so partitions are not in time order.
            for batch in [steps, water, weight, pulse] {
                let shuffled = batch.shuffled(using: &generator)
                try store.save(Array(shuffled.prefix(batch.count / 2)))
                try store.save(Array(shuffled.dropFirst(batch.count / 2)))
            }
            let doomed = [steps[3], steps[10], water[5], weight[2], pulse[7]].map(\.uuid)
            _ = try store.delete(uuids: doomed, now: TestSupport.date("2024-06-01T00:00:00Z"))

            let calendar = GregorianCalendar(timeZone: IndependentTestKit.zone("Europe/Berlin"))
            let march = DateInterval(start: TestSupport.date("2024-03-01T00:00:00+01:00"),
                                     end: TestSupport.date("2024-04-12T00:00:00+02:00"))
            for type in [SampleType.steps, .water, .weight, heartRate] {
                for bucket in [nil, BucketUnit.day, .week, .month] {
                    for merging in [false, true] where merging == false || type == .water || type == .weight || type == heartRate {
                        try compare(StatisticsRequest(type: type, interval: march, bucketUnit: bucket, mergesSources: merging),
                                    store: store, calendar: calendar, "\(type.name) by \(String(describing: bucket)) merging \(merging)")
                    }
                }
                let figures: StatisticsOptions = type.aggregation?.isCumulative ?? false
                    ? [.sum, .mostRecent] : [.average, .minimum, .maximum, .mostRecent]
                try compare(StatisticsRequest(type: type, interval: march, bucketUnit: .day, options: figures, mergesSources: false),
                            store: store, calendar: calendar, "\(type.name) all figures")
            }
        }
    }

    /// A merging query that meets a second source reads the lines again for merging (``MergingReadings``), with
    /// the general path's answer.
    func mergingWithTwoSourcesMergesTheLinesReadings() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store")
            try store.save([
                TestSupport.quantitySample(.steps, 100, "count", start: "2024-05-01T10:00:00Z", end: "2024-05-01T10:10:00Z", source: "Phone"),
                TestSupport.quantitySample(.steps, 80, "count", start: "2024-05-01T10:00:00Z", end: "2024-05-01T10:10:00Z", source: "Watch"),
            ])
            let query = StatisticsRequest(type: .steps, interval: DateInterval(start: TestSupport.date("2024-05-01T00:00:00Z"),
                                                                             end: TestSupport.date("2024-05-02T00:00:00Z")))
            let streaming = try #require(StreamingStatistics(query, figures: .sum, unit: try query.resolvedUnit()))
            let streamed = try #require(try streaming.run(on: store, calendar: GregorianCalendar()))
            // Merged: the watch's overlapping steps do not add to the phone's.
            expectEqual(streamed.total.sum, 80)
            expectEqual(streamed.total.unmergedSum, 180)
            expectEqual(streamed.sourceOrder, ["Watch", "Phone"])
            var samples: [Sample] = []
            try store.forEachSample(ofType: SampleType.steps.identifier, overlapping: query.interval) { samples.append($0) }
            try expectEqual(streamed, query.compute(samples, figures: .sum, unit: .count(), calendar: GregorianCalendar()))
        }
    }

    /// A record without a quantity in a quantity type's month (an older import's, or another program's) counts in no
    /// figure, but the general path ranks its source (`sourceOrder`); the streaming path ranks it too, whatever the
    /// type and the buckets. Merged sums of several sources, which merge what the lines hold, leave such a read to the
    /// general path (``MergingReadings`` gives it up).
    func aRecordWithoutAQuantityHasItsSourceRanked() throws {
        var generator = IndependentTestKit.SeededGenerator(seed: 50)
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            let types: [(SampleType, [String])] = [(.weight, ["kg", "lb"]), (heartRate, ["count/min"]), (.steps, ["count"])]
            for (type, units) in types {
                try store.save(randomSamples(type, units: units, sources: ["Scale", "Watch", "hkctl"], count: 120, generator: &generator))
                let file = folder + "/store/" + (try #require(try store.partitions(
                    ofType: type.identifier, overlapping: DateInterval(start: TestSupport.date("2024-03-10T00:00:00Z"),
                                                                      end: TestSupport.date("2024-03-11T00:00:00Z"))).first))
                let record = Sample(typeIdentifier: type.identifier, start: TestSupport.date("2024-03-10T08:00:00Z"),
                                    end: TestSupport.date("2024-03-10T08:30:00Z"), value: .generic(value: "some", unit: nil),
                                    source: "Old importer", created: TestSupport.date("2024-03-10T09:00:00Z"))
                try IndependentTestKit.append(SampleLineCodec(catalogue: .standard, timeZone: .gmt).encode(record) + "\n", to: file)
            }
            let reopened = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            let calendar = GregorianCalendar(timeZone: .gmt)
            let march = DateInterval(start: TestSupport.date("2024-03-01T00:00:00Z"), end: TestSupport.date("2024-04-01T00:00:00Z"))
            for (type, _) in types {
                for (bucket, merging) in [(nil, false), (BucketUnit.week, false), (nil, true), (.day, true)] {
                    let query = StatisticsRequest(type: type, interval: march, bucketUnit: bucket, mergesSources: merging)
                    let label = "\(type.name) by \(String(describing: bucket)), merging \(merging)"
                    if type == .steps && merging {
                        let streaming = try #require(StreamingStatistics(query, figures: try query.resolvedOptions(),
                                                                         unit: try query.resolvedUnit()))
                        #expect(throws: StreamingStatistics.GiveUp.self, Comment(rawValue: label)) {
                            try streaming.run(on: reopened, calendar: calendar)
                        }
                        try expectEqual(query.run(on: reopened, calendar: calendar), general(query, store: reopened, calendar: calendar),
                                        Comment(rawValue: label))
                    } else {
                        try compare(query, store: reopened, calendar: calendar, label)
                    }
                    #expect(try query.run(on: reopened, calendar: calendar).sourceOrder.contains("Old importer"), Comment(rawValue: label))
                }
            }
        }
    }

    func queriesTheStreamingPathCannotAnswerAreLeftToTheGeneralPath() throws {
        let week = DateInterval(start: TestSupport.date("2024-05-01T00:00:00Z"), end: TestSupport.date("2024-05-08T00:00:00Z"))
        let open = DateInterval(start: DateRange.distantStart, end: week.end)
        expectNil(StreamingStatistics(StatisticsRequest(type: .steps, interval: open), figures: .sum, unit: .count()))
        expectNil(StreamingStatistics(StatisticsRequest(type: .steps, interval: week, explains: true), figures: .sum, unit: .count()))
        expectNil(StreamingStatistics(StatisticsRequest(type: .steps, interval: week), figures: [.sum, .duration], unit: .count()))
        // Figures per source: read as merging reads, for cumulative types only.
        #expect(StreamingStatistics(StatisticsRequest(type: .steps, interval: week), figures: [.sum, .separateBySource], unit: .count()) != nil)
        expectNil(StreamingStatistics(StatisticsRequest(type: .weight, interval: week), figures: [.average, .separateBySource],
                                      unit: .gram()))
        expectNil(StreamingStatistics(StatisticsRequest(type: .sleep, interval: week), figures: [], unit: nil))
        #expect(StreamingStatistics(StatisticsRequest(type: .steps, interval: week), figures: .sum, unit: .count()) != nil)
    }

    func aSourceWithoutReadPermissionSeesOnlyItsOwnSamples() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let storage = JSONFileStore(path: folder + "/store")
            try storage.save([
                TestSupport.quantitySample(.water, 250, "mL", start: "2024-05-01T08:00:00Z", source: "bottle"),
                TestSupport.quantitySample(.water, 500, "mL", start: "2024-05-01T09:00:00Z", source: "other"),
                TestSupport.quantitySample(.water, 0.3, "L", start: "2024-05-02T09:00:00Z", source: "bottle"),
            ])
            let bottle = try HealthStore(storage: storage, source: "bottle")
            #expect(try !bottle.readsEverything(ofType: SampleType.water.identifier))
            let query = StatisticsRequest(type: .water, interval: DateInterval(
                start: TestSupport.date("2024-05-01T00:00:00Z"), end: TestSupport.date("2024-05-03T00:00:00Z")), bucketUnit: .day)
            let result = try query.run(on: bottle, calendar: GregorianCalendar())
            expectEqual(result.total.sum, 550)
            expectEqual(result.buckets.map(\.sum), [250, 300])
            expectEqual(result.sourceOrder, ["bottle"])
            let owner = try query.run(on: storage, calendar: GregorianCalendar())
            expectEqual(owner.total.sum, 1050)
            expectEqual(Set(owner.sourceOrder), ["bottle", "other"])
        }
    }

    /// The streaming path reads a line's dates first and skips a line outside the range there; damage after the
    /// dates of such a line does not stop the query, while the same damage inside the range does.
    func damageOutsideTheRangeIsSkippedAndInsideItIsReported() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store")
            try store.save([
                TestSupport.quantitySample(.steps, 100, "count", start: "2024-05-01T10:00:00Z", end: "2024-05-01T10:10:00Z", source: "Phone"),
                TestSupport.quantitySample(.steps, 70, "count", start: "2024-05-20T10:00:00Z", end: "2024-05-20T10:10:00Z", source: "Phone"),
                TestSupport.quantitySample(.steps, 30, "count", start: "2024-05-21T10:00:00Z", end: "2024-05-21T10:10:00Z", source: "Phone"),
            ])
            let file = folder + "/store/" + (try #require(try store.partitions(ofType: SampleType.steps.identifier,
                overlapping: DateInterval(start: .distantPast, end: .distantFuture)).first))
            var lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            lines[0] = lines[0].replacingOccurrences(of: #""value":100"#, with: #""value":1x0"#)[...]
            try lines.joined(separator: "\n").write(toFile: file, atomically: false, encoding: .utf8)
            let late = StatisticsRequest(type: .steps, interval: DateInterval(start: TestSupport.date("2024-05-15T00:00:00Z"),
                                                                            end: TestSupport.date("2024-05-22T00:00:00Z")))
            try expectEqual(late.run(on: store, calendar: GregorianCalendar()).total.sum, 100)
            let early = StatisticsRequest(type: .steps, interval: DateInterval(start: TestSupport.date("2024-05-01T00:00:00Z"),
                                                                             end: TestSupport.date("2024-05-08T00:00:00Z")))
            #expect(throws: StoreError.self) { _ = try early.run(on: store, calendar: GregorianCalendar()) }
        }
    }
}

/// The checks ``StreamingStatisticsTests/checks(_:)`` runs.
private let streamingStatisticsTestsChecks: [Check<StreamingStatisticsTests>] = [
    Check("mergingWithTwoSourcesMergesTheLinesReadings",
          StreamingStatisticsTests.mergingWithTwoSourcesMergesTheLinesReadings),
    Check("aRecordWithoutAQuantityHasItsSourceRanked", StreamingStatisticsTests.aRecordWithoutAQuantityHasItsSourceRanked),
    Check("queriesTheStreamingPathCannotAnswerAreLeftToTheGeneralPath",
          StreamingStatisticsTests.queriesTheStreamingPathCannotAnswerAreLeftToTheGeneralPath),
    Check("aSourceWithoutReadPermissionSeesOnlyItsOwnSamples",
          StreamingStatisticsTests.aSourceWithoutReadPermissionSeesOnlyItsOwnSamples),
    Check("damageOutsideTheRangeIsSkippedAndInsideItIsReported",
          StreamingStatisticsTests.damageOutsideTheRangeIsSkippedAndInsideItIsReported),
]
