import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Merged statistics read from the lines (``MergingReadings``, no ``Sample`` built) must be exactly what the general
/// path computes from the decoded samples: the same samples, in the same order, with the same values, sources, period
/// marks and source ranks, so every figure is the same to the last bit. Where they could differ (a source whose
/// rank its device decides, first in time at another place than first in the store) the general path answers.
struct MergingReadingsTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test.
    @Test(arguments: mergingReadingsTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static let zone = IndependentTestKit.zone("Europe/Berlin")
    private static let origin = TestSupport.date("2024-03-27T00:00:00+01:00")

    /// Writers of the random stores: sources known by name, one whose rank its device decides (`Strava`, a watch or
    /// a phone), one without a device, the owner, and Health Auto Export period totals.
    private static let writers: [(source: String, devices: [String?])] = [
        ("Jane’s Apple Watch", ["name:Apple Watch, model:Watch"]), ("Jane’s iPhone", ["name:iPhone, model:iPhone"]),
        ("Strava", ["name:Apple Watch, model:Watch", "name:iPhone, model:iPhone", nil]), ("Fit", [nil]),
        ("hkctl", [nil]), ("Watch|iPhone", [nil]),
    ]

    private func randomSamples(_ type: SampleType, count: Int, generator: inout IndependentTestKit.SeededGenerator) -> [Sample] {
        let units = type == .water ? ["mL", "L"] : ["count"]
        var samples: [Sample] = []
        for index in 0..<count {
            let writer = Self.writers[Int.random(in: 0..<Self.writers.count, using: &generator)]
            var metadata: [String: MetadataValue] = [:]
            var start = Self.origin.timeIntervalSinceReferenceDate + Double(Int.random(in: 0..<(9 * 24 * 60), using: &generator)) * 60
            var length: Double = [0, 60, 300, 3600, 5400][Int.random(in: 0..<5, using: &generator)]
            if writer.source == "Watch|iPhone" {
                // A period total starts on its period: a minute, an hour or a (UTC) day; some name another period,
                // or carry the key as a number, which marks nothing.
                let form = ["minute", "hour", "day", "week", "month", "number"][Int.random(in: 0..<6, using: &generator)]
                length = ["minute": 60, "hour": 3600, "day": 86_400, "week": 86_400 * 7][form] ?? 3600
                start -= start.truncatingRemainder(dividingBy: min(length, 86_400))
                metadata[HAESampleBuilder.aggregationKey] = form == "number" ? .number(1) : .string(form)
            }
            // Some lines the positional reader leaves to the full decoder (an escaped quote in the metadata).
            if index % 9 == 4 { metadata["note"] = .string("a \"quoted\" word") }
            let unit = units[index % units.count]
            let amount = Double(Int.random(in: 150...1950, using: &generator)) / 100
            samples.append(Sample(
                typeIdentifier: type.identifier, start: Date(timeIntervalSinceReferenceDate: start),
                end: Date(timeIntervalSinceReferenceDate: start + length),
                value: .quantity(Quantity(unit == "L" ? amount / 10 : amount * 10, try! HealthUnit(parsing: unit))),
                source: writer.source, created: Date(timeIntervalSinceReferenceDate: start + length), metadata: metadata,
                device: writer.devices[Int.random(in: 0..<writer.devices.count, using: &generator)]))
        }
        return samples
    }

    /// The general path's answer: every visible sample decoded, then computed.
    private func general(_ query: StatisticsRequest, store: JSONFileStore) throws -> StatisticsResult {
        var samples: [Sample] = []
        try store.forEachSample(ofType: query.type.identifier, overlapping: query.interval) { samples.append($0) }
        return try query.compute(samples, figures: try query.resolvedOptions(), unit: try query.resolvedUnit(),
                                 calendar: GregorianCalendar(timeZone: Self.zone))
    }

    /// The streaming path's answer, nil when it gave way to the general path.
    private func streamed(_ query: StatisticsRequest, store: JSONFileStore) throws -> StatisticsResult? {
        let streaming = try #require(StreamingStatistics(query, figures: try query.resolvedOptions(), unit: try query.resolvedUnit()))
        do {
            return try streaming.run(on: store, calendar: GregorianCalendar(timeZone: Self.zone))
        } catch is StreamingStatistics.GiveUp {
            return nil
        }
    }

    private func queries(_ type: SampleType) -> [StatisticsRequest] {
        let whole = DateInterval(start: Self.origin, end: Self.origin.addingTimeInterval(12 * 86_400))
        // A range whose ends cut samples.
        let cut = DateInterval(start: Self.origin.addingTimeInterval(86_400 + 1_234), end: Self.origin.addingTimeInterval(6 * 86_400 + 77))
        var queries: [StatisticsRequest] = []
        for interval in [whole, cut] {
            for bucket in [nil, BucketUnit.hour, .day, .week, .month] {
                queries.append(StatisticsRequest(type: type, interval: interval, bucketUnit: bucket))
            }
            queries.append(StatisticsRequest(type: type, interval: interval, bucketUnit: .day, options: [.sum, .mostRecent]))
            queries.append(StatisticsRequest(type: type, interval: interval, bucketUnit: .day,
                                             priority: SourcePriority(uncheckedOrder: ["Fit", "hkctl", "Strava"])))
            // Figures per source, merged and not: read as merging reads.
            queries.append(StatisticsRequest(type: type, interval: interval, bucketUnit: .day, options: [.sum, .separateBySource]))
            queries.append(StatisticsRequest(type: type, interval: interval, bucketUnit: .week, options: [.sum, .separateBySource],
                                             mergesSources: false))
            queries.append(StatisticsRequest(type: type, interval: interval, options: [.sum, .mostRecent, .separateBySource],
                                             mergesSources: false))
        }
        return queries
    }

    /// Stores written in time order (a period total of a week still lies in a later month's file, so the read sorts):
    /// the lines' merge answers every query, exactly as the general path.
    func storesInTimeOrderMergeFromTheLinesToTheBit() throws {
        for seed in UInt64(1)...4 {
            var generator = IndependentTestKit.SeededGenerator(seed: seed)
            try TestSupport.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store", timeZone: Self.zone)
                for type in [SampleType.steps, .water] {
                    let samples = randomSamples(type, count: 300, generator: &generator).sortedChronologically()
                    try store.save(Array(samples.prefix(150)))
                    try store.save(Array(samples.dropFirst(150)))
                    // Deletions, the first samples among them: a source's first line hidden.
                    let doomed = samples.indices.filter { $0 < 8 || $0 % 23 == 0 }.map { samples[$0].uuid }
                    _ = try store.delete(uuids: doomed, now: TestSupport.date("2024-06-01T00:00:00Z"))
                    for query in queries(type) {
                        let expected = try general(query, store: store)
                        let label = "seed \(seed) \(type.name) \(query.interval) by \(String(describing: query.bucketUnit)) \(query.priority.order)"
                        guard let actual = try streamed(query, store: store) else {
                            Issue.record("\(label): the streaming path gave way")
                            continue
                        }
                        expectEqual(actual, expected, "\(label)")
                        try expectEqual(query.run(on: store, calendar: GregorianCalendar(timeZone: Self.zone)), expected, "\(label)")
                    }
                    #expect(Set(try general(queries(type)[0], store: store).sourceOrder).count >= 5, "the store holds most writers")
                }
            }
        }
    }

    /// Stores written out of time order: whichever path answers, the answer is the general path's.
    func storesOutOfTimeOrderAnswerAsTheGeneralPath() throws {
        var answeredFromTheLines = 0, gaveWay = 0
        for seed in UInt64(11)...16 {
            var generator = IndependentTestKit.SeededGenerator(seed: seed)
            try TestSupport.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store", timeZone: Self.zone)
                let samples = randomSamples(.steps, count: 240, generator: &generator).shuffled(using: &generator)
                for batch in stride(from: 0, to: samples.count, by: 80) { try store.save(Array(samples[batch..<(batch + 80)])) }
                _ = try store.delete(uuids: samples.indices.filter { $0 % 17 == 0 }.map { samples[$0].uuid },
                                     now: TestSupport.date("2024-06-01T00:00:00Z"))
                for query in queries(.steps) {
                    let expected = try general(query, store: store)
                    if let actual = try streamed(query, store: store) {
                        answeredFromTheLines += 1
                        expectEqual(actual, expected, "seed \(seed) \(query.interval) streamed")
                    } else {
                        gaveWay += 1
                    }
                    try expectEqual(query.run(on: store, calendar: GregorianCalendar(timeZone: Self.zone)), expected,
                                    "seed \(seed) \(query.interval)")
                }
            }
        }
        #expect(answeredFromTheLines > 0 && gaveWay > 0, "both paths taken: \(answeredFromTheLines) streamed, \(gaveWay) gave way")
    }

    private func steps(_ value: Double, _ start: String, _ end: String, source: String, device: String?,
                       metadata: [String: MetadataValue] = [:]) -> Sample {
        Sample(typeIdentifier: SampleType.steps.identifier, start: TestSupport.date(start), end: TestSupport.date(end),
               value: .quantity(Quantity(value, .count())), source: source, created: TestSupport.date(end),
               metadata: metadata, device: device)
    }

    private let day = DateInterval(start: TestSupport.date("2024-05-01T00:00:00Z"), end: TestSupport.date("2024-05-02T00:00:00Z"))

    /// A source ranked by its device: the general path takes the device of its first sample in time. Written first
    /// later in time with another device, the lines' merge cannot tell and gives way; named by its kind, it need not.
    func aSourceRankedByItsDeviceGivesWayWhenItsFirstLineIsNotItsFirstSample() throws {
        for (name, givesWay) in [("Strava", true), ("Jane’s Apple Watch", false)] {
            try TestSupport.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store")
                try store.save([
                    steps(300, "2024-05-01T12:00:00Z", "2024-05-01T12:30:00Z", source: name, device: "name:Scale"),
                    steps(200, "2024-05-01T12:00:00Z", "2024-05-01T12:30:00Z", source: "Jane’s iPhone", device: "name:iPhone"),
                ])
                try store.save([steps(100, "2024-05-01T08:00:00Z", "2024-05-01T08:30:00Z", source: name, device: "name:Apple Watch")])
                let query = StatisticsRequest(type: .steps, interval: day)
                let expected = try general(query, store: store)
                // Ranked by its first sample in time (a watch), the source's 300 steps count, not the phone's 200.
                expectEqual(expected.sourceOrder, [name, "Jane’s iPhone"])
                expectEqual(expected.total.sum, 400)
                let actual = try streamed(query, store: store)
                expectEqual(actual == nil, givesWay, "\(name)")
                if let actual { expectEqual(actual, expected, "\(name)") }
                try expectEqual(query.run(on: store, calendar: GregorianCalendar()), expected, "\(name)")
            }
        }
    }

    /// A source's device comes from its first sample the read keeps: a deleted first line does not name it.
    func aDeletedFirstLineDoesNotNameTheSourcesDevice() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store")
            let hidden = steps(50, "2024-05-01T07:00:00Z", "2024-05-01T07:10:00Z", source: "Strava", device: "name:Scale")
            try store.save([
                hidden,
                steps(300, "2024-05-01T12:00:00Z", "2024-05-01T12:30:00Z", source: "Strava", device: "name:Apple Watch"),
                steps(200, "2024-05-01T12:00:00Z", "2024-05-01T12:30:00Z", source: "Jane’s iPhone", device: "name:iPhone"),
            ])
            _ = try store.delete(uuids: [hidden.uuid], now: TestSupport.date("2024-06-01T00:00:00Z"))
            for merging in [true, false] {
                let query = StatisticsRequest(type: .steps, interval: day, mergesSources: merging)
                let expected = try general(query, store: store)
                expectEqual(expected.sourceOrder, ["Strava", "Jane’s iPhone"], "the watch's source first")
                let actual = try #require(try streamed(query, store: store))
                expectEqual(actual.sourceOrder, expected.sourceOrder)
                expectEqual(actual.total.sum, merging ? 300 : 500)
                expectEqual(actual, expected)
            }
        }
    }

    /// Two sources whose names are one to Swift (`Café` precomposed and decomposed: other bytes in the store) are one
    /// source to the general path, which ranks and merges decoded samples by their `String`s: the lines' merge, which
    /// tells sources apart by their bytes, gives the query to it, merged or not.
    func namesEqualAsStringsButNotAsBytesGiveWay() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store")
            let composed = "Caf\u{E9}", decomposed = "Cafe\u{301}"
            #expect(composed == decomposed && Array(composed.utf8) != Array(decomposed.utf8))
            try store.save([
                steps(1000, "2024-05-01T08:00:00Z", "2024-05-01T09:00:00Z", source: "hkctl", device: nil),
                steps(700, "2024-05-01T08:00:00Z", "2024-05-01T09:00:00Z", source: composed, device: nil),
                steps(600, "2024-05-01T08:30:00Z", "2024-05-01T09:30:00Z", source: "Cafe?", device: nil),
            ])
            // The store writes names as given; an older writer or a hand may have written the other form.
            let file = folder + "/store/" + (try #require(try store.partitions(ofType: SampleType.steps.identifier, overlapping: day).first))
            let text = try String(contentsOfFile: file, encoding: .utf8)
            try Data(text.replacingOccurrences(of: "Cafe?", with: decomposed).utf8).write(to: URL(fileURLWithPath: file))
            #expect(try Data(contentsOf: URL(fileURLWithPath: file)).range(of: Data(decomposed.utf8)) != nil)
            for merging in [true, false] {
                for options in [StatisticsOptions.sum, [.sum, .separateBySource]] {
                    let query = StatisticsRequest(type: .steps, interval: day, bucketUnit: .hour, options: options, mergesSources: merging)
                    let expected = try general(query, store: store)
                    expectEqual(expected.sourceOrder.count, 2, "one Café to the general path")
                    expectNil(try streamed(query, store: store), "merging \(merging) \(options)")
                    try expectEqual(query.run(on: store, calendar: GregorianCalendar(timeZone: Self.zone)), expected)
                }
            }
        }
    }

    /// The owner's entries count beside a Health Auto Export day total read from the lines (its period mark read
    /// there), where another source's samples inside the day do not.
    func periodTotalsLeaveTheOwnersEntriesStanding() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store")
            let water = { (value: Double, start: String, end: String, source: String, metadata: [String: MetadataValue]) in
                Sample(typeIdentifier: SampleType.water.identifier, start: TestSupport.date(start), end: TestSupport.date(end),
                       value: .quantity(Quantity(value, try! HealthUnit(parsing: "mL"))), source: source,
                       created: TestSupport.date(end), metadata: metadata)
            }
            try store.save([
                water(2000, "2024-05-01T00:00:00Z", "2024-05-02T00:00:00Z", "Watch|iPhone", [HAESampleBuilder.aggregationKey: .string("day")]),
                water(250, "2024-05-01T10:00:00Z", "2024-05-01T10:00:00Z", "hkctl", [:]),
                water(400, "2024-05-01T11:00:00Z", "2024-05-01T12:00:00Z", "Bottle", [:]),
            ])
            let query = StatisticsRequest(type: .water, interval: day, bucketUnit: .hour)
            let expected = try general(query, store: store)
            let actual = try #require(try streamed(query, store: store))
            expectEqual(actual, expected)
            // The day total comes first (its source names a watch); the owner's glass still counts beside it.
            expectEqual(actual.buckets[10].sum, 2000.0 / 24 + 250)
        }
    }
}

/// The checks ``MergingReadingsTests/checks(_:)`` runs.
private let mergingReadingsTestsChecks: [Check<MergingReadingsTests>] = [
    Check("storesInTimeOrderMergeFromTheLinesToTheBit", MergingReadingsTests.storesInTimeOrderMergeFromTheLinesToTheBit),
    Check("storesOutOfTimeOrderAnswerAsTheGeneralPath", MergingReadingsTests.storesOutOfTimeOrderAnswerAsTheGeneralPath),
    Check("aSourceRankedByItsDeviceGivesWayWhenItsFirstLineIsNotItsFirstSample",
          MergingReadingsTests.aSourceRankedByItsDeviceGivesWayWhenItsFirstLineIsNotItsFirstSample),
    Check("aDeletedFirstLineDoesNotNameTheSourcesDevice", MergingReadingsTests.aDeletedFirstLineDoesNotNameTheSourcesDevice),
    Check("periodTotalsLeaveTheOwnersEntriesStanding", MergingReadingsTests.periodTotalsLeaveTheOwnersEntriesStanding),
    Check("namesEqualAsStringsButNotAsBytesGiveWay", MergingReadingsTests.namesEqualAsStringsButNotAsBytesGiveWay),
]
