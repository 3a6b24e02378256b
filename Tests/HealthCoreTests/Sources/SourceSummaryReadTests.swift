import Foundation
import Testing
import TestKit
@testable import HealthCore

/// `hkctl sources` of a quantity type counts its samples through the statistics' reader (``QuantityReading``s, and
/// stored readings where a statistic kept them) instead of decoding every sample: 5.8 s → 1.2 s for ten years' store.
/// What it lists must stay what a read of every sample in full gives: the same sources, counts, first starts and last
/// ends, the generic records the reader leaves out counted too, and only what the asking source may see.
struct SourceSummaryReadTests {
    @Test(arguments: sourceSummaryReadTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit
    private static let heartRate = try! SampleTypeCatalogue.standard.type(named: "heart-rate")
    private static let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)

    /// Heart rates and steps of four sources (one naming no device) over three months, fractional times, instants and
    /// readings with a duration, one in another unit, a few deleted; each month's heart rates past the size from
    /// which readings are kept.
    private static func generatedStore(_ folder: String, seed: UInt64) throws -> JSONFileStore {
        let store = JSONFileStore(path: folder + "/store", timeZone: .gmt, lockTimeout: 2)
        var generator = Kit.SeededGenerator(seed: seed)
        let origin = Kit.utc(2024, 2, 10).timeIntervalSince1970
        let sources: [(String, String?)] = [("Watch", "name:Apple Watch, model:Watch"), ("Phone", "name:iPhone"),
                                            ("Ring", nil), ("Scale app", "name:Scale")]
        var samples: [Sample] = []
        for index in 0..<700 {
            var start = origin + Double(Int.random(in: 0..<(80 * 24 * 60), using: &generator)) * 60
            if index % 3 == 0 { start += Double(Int.random(in: 1..<60_000, using: &generator)) / 1_000 }
            let length: Double = index % 4 == 0 ? Double(Int.random(in: 1...900, using: &generator)) : 0
            let (source, device) = sources[Int.random(in: 0..<sources.count, using: &generator)]
            let isSteps = index % 5 == 0
            let quantity = isSteps ? Quantity(Double(Int.random(in: 1...900, using: &generator)), .count())
                : index % 97 == 0 ? Quantity(1.25, try HealthUnit(parsing: "count/s"))
                : Quantity(Double(Int.random(in: 450...1_800, using: &generator)) / 10, try HealthUnit(parsing: "count/min"))
            samples.append(Sample(typeIdentifier: isSteps ? SampleType.steps.identifier : heartRate.identifier,
                                  start: Date(timeIntervalSince1970: start), end: Date(timeIntervalSince1970: start + length),
                                  value: .quantity(quantity), source: source, created: Date(timeIntervalSince1970: start + length),
                                  device: device))
        }
        let shuffled = samples.shuffled(using: &generator)
        try store.save(Array(shuffled.prefix(350)))
        try store.save(Array(shuffled.dropFirst(350)))
        _ = try store.delete(uuids: [samples[7].uuid, samples[70].uuid, samples[501].uuid, samples[5].uuid],
                             now: Kit.utc(2024, 6, 1))
        return store
    }

    /// What a read of every sample in full lists: the visible samples in a store that has only them.
    private static func reference(_ type: SampleType, _ store: JSONFileStore, _ interval: DateInterval) throws
        -> [SourceSummary] {
        let visible = try store.samples(ofType: type.identifier, overlapping: everything)
        return try SourceSummary.summaries(of: type, in: InMemorySampleStore(visible), priority: .automatic,
                                           interval: interval)
    }

    /// Takes every reading with stored readings, so the store keeps them (as a discrete statistic does).
    private struct KeepReadings: QuantityReadingConsumer {
        var count = 0
        var readPlan: ReadPlan {
            var plan = ReadPlan()
            plan.takesReadings = true
            return plan
        }

        mutating func consume(_ reading: QuantityReading, names: ReadingNames) throws { count += 1 }
    }

    func theListingIsWhatAReadOfEverySampleGives() throws {
        for seed: UInt64 in [1, 2, 3] {
            try TestSupport.withTemporaryDirectory { folder in
                let store = try Self.generatedStore(folder, seed: seed)
                let march = DateInterval(start: Kit.utc(2024, 3, 3, 7, 30), end: Kit.utc(2024, 3, 19, 12))
                for type in [Self.heartRate, SampleType.steps] {
                    for interval in [Self.everything, march] {
                        let listed = try SourceSummary.summaries(of: type, in: store, priority: .automatic, interval: interval)
                        expectEqual(listed, try Self.reference(type, store, interval), "seed \(seed), \(type.name), \(interval)")
                        #expect(listed.count >= 3, "seed \(seed): the sources are found")
                    }
                }
                // Once a statistic kept the months' readings, the listing takes them and lists the same.
                var keep = KeepReadings()
                _ = try store.forEachQuantityReading(ofType: Self.heartRate.identifier, overlapping: Self.everything,
                                                     into: &keep)
                let readings = Kit.contents(of: store.path + "/derived/readings/" + Self.heartRate.identifier)
                #expect(readings.count >= 2, "seed \(seed): readings kept \(readings)")
                let files = try store.partitions(ofType: Self.heartRate.identifier, overlapping: Self.everything)
                    .map { store.path + "/" + $0 }
                let takenBefore = SummaryAccess.taken.withLock { taken in files.map { taken[$0] ?? 0 }.reduce(0, +) }
                for interval in [Self.everything, march] {
                    let listed = try SourceSummary.summaries(of: Self.heartRate, in: store, priority: .automatic,
                                                             interval: interval)
                    expectEqual(listed, try Self.reference(Self.heartRate, store, interval), "seed \(seed), stored readings")
                }
                let takenAfter = SummaryAccess.taken.withLock { taken in files.map { taken[$0] ?? 0 }.reduce(0, +) }
                // Every month for the whole history, March for March.
                expectEqual(takenAfter - takenBefore, readings.count + 1, "seed \(seed): the stored readings were taken")
            }
        }
    }

    /// A listing reads months without readings from their lines and leaves the store's files as they were: a month
    /// of steps would grow the store by 44 bytes a sample for the listing alone.
    func aListingKeepsNoReadingsOfItsOwn() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = try Self.generatedStore(folder, seed: 4)
            let before = OperationTestKit.tree(store.path)
            for type in [Self.heartRate, SampleType.steps] {
                #expect(try !SourceSummary.summaries(of: type, in: store, priority: .automatic).isEmpty)
            }
            #expect(OperationTestKit.tree(store.path) == before, "the listing wrote to the store")
        }
    }

    /// A record the reader cannot hand over as a quantity (a generic record in a quantity type's month, as an older
    /// import or another program may have written) is still one of its source's samples.
    func aGenericRecordInAQuantityMonthIsCounted() throws {
        try OperationTestKit.withStore { store, path in
            let steps = (0..<60).map { Kit.steps(Double(100 + $0), Kit.utc(2024, 6, 1, $0 % 24, $0)) }
            try store.save(steps)
            let file = path + "/" + (try #require(try store.partitions(ofType: SampleType.steps.identifier,
                                                                        overlapping: Self.everything).first))
            let codec = SampleLineCodec(catalogue: .standard, timeZone: .gmt)
            var record = Sample(typeIdentifier: SampleType.steps.identifier, start: Kit.utc(2024, 5, 31, 23),
                                end: Kit.utc(2024, 6, 1, 0), value: .generic(value: "lots", unit: nil), source: "Old importer",
                                created: Kit.utc(2024, 6, 1), device: "name:Pedometer")
            try Kit.append(codec.encode(record) + "\n", to: file)
            record.uuid = UUID()
            record.source = "hkctl"
            record.end = Kit.utc(2024, 6, 30, 12)
            try Kit.append(codec.encode(record) + "\n", to: file)
            let reopened = JSONFileStore(path: path, timeZone: .gmt)
            let listed = try SourceSummary.summaries(of: .steps, in: reopened, priority: .automatic)
            expectEqual(listed, try Self.reference(.steps, reopened, Self.everything))
            let bySource = Dictionary(uniqueKeysWithValues: listed.map { ($0.source, $0) })
            expectEqual(bySource["Old importer"]?.sampleCount, 1)
            expectEqual(bySource["Old importer"]?.first, Kit.utc(2024, 5, 31, 23))
            expectEqual(bySource["hkctl"]?.sampleCount, 61)
            expectEqual(bySource["hkctl"]?.last, Kit.utc(2024, 6, 30, 12))
        }
    }

    /// A source that may not read the type lists only its own samples, generic records included.
    func aSourceWithoutReadPermissionListsOnlyItsOwn() throws {
        try TestSupport.withTemporaryDirectory { folder in
            var store = try Self.generatedStore(folder, seed: 5)
            // A generic record of another source and one of its own.
            let file = store.path + "/" + (try #require(try store.partitions(ofType: Self.heartRate.identifier,
                                                                              overlapping: Self.everything).first))
            let codec = SampleLineCodec(catalogue: .standard, timeZone: .gmt)
            for source in ["Watch", "Ring"] {
                let record = Sample(typeIdentifier: Self.heartRate.identifier, start: Kit.utc(2024, 2, 12),
                                    end: Kit.utc(2024, 2, 12), value: .generic(value: "high", unit: nil), source: source,
                                    created: Kit.utc(2024, 2, 12))
                try Kit.append(codec.encode(record) + "\n", to: file)
            }
            store = JSONFileStore(path: store.path, timeZone: .gmt)
            let app = try HealthStore(storage: store, source: "Ring")
            #expect(try !app.readsEverything(ofType: Self.heartRate.identifier))
            let listed = try SourceSummary.summaries(of: Self.heartRate, in: app, priority: .automatic)
            expectEqual(listed.map(\.source), ["Ring"])
            expectEqual(listed, try Self.reference(Self.heartRate, store, Self.everything).filter { $0.source == "Ring" }
                .map { var row = $0; row.rank = 1; return row })
            let owner = try HealthStore(storage: store, source: AuthorizationState.ownerSource)
            expectEqual(try SourceSummary.summaries(of: Self.heartRate, in: owner, priority: .automatic),
                        try Self.reference(Self.heartRate, store, Self.everything))
        }
    }
}

extension SourceSummaryReadTests {
    /// A quantity type's source is classified by the device its first sample names (none here), as a statistic over
    /// the same range ranks it; a sample read in full (sleep) by the first device any of its samples names.
    func aSourceIsClassifiedByTheDeviceTheReaderMeetsFirst() throws {
        try OperationTestKit.withStore { store, _ in
            let watch = "name:Apple Watch, manufacturer:Apple Inc., model:Watch"
            var first = Kit.steps(100, Kit.utc(2024, 6, 1, 8), source: "Acme")
            var later = Kit.steps(200, Kit.utc(2024, 6, 1, 9), source: "Acme")
            later.device = watch
            var night = Kit.sleep(3, Kit.utc(2024, 6, 1, 0), Kit.utc(2024, 6, 1, 1), source: "Acme")
            var nextNight = Kit.sleep(3, Kit.utc(2024, 6, 2, 0), Kit.utc(2024, 6, 2, 1), source: "Acme")
            nextNight.device = watch
            first.device = nil
            night.device = nil
            try store.save([first, later, night, nextNight])
            let steps = try #require(try SourceSummary.summaries(of: .steps, in: store, priority: .automatic).first)
            expectEqual(steps.kind, SourceKind.classify(name: "Acme", device: nil))
            expectEqual(steps.sampleCount, 2)
            let sleep = try #require(try SourceSummary.summaries(of: .sleep, in: store, priority: .automatic).first)
            expectEqual(sleep.kind, SourceKind.classify(name: "Acme", device: watch))
            #expect(steps.kind != sleep.kind, "the two rules differ here")
        }
    }
}

/// The checks ``SourceSummaryReadTests/checks(_:)`` runs.
private let sourceSummaryReadTestsChecks: [Check<SourceSummaryReadTests>] = [
    Check("theListingIsWhatAReadOfEverySampleGives", SourceSummaryReadTests.theListingIsWhatAReadOfEverySampleGives),
    Check("aListingKeepsNoReadingsOfItsOwn", SourceSummaryReadTests.aListingKeepsNoReadingsOfItsOwn),
    Check("aGenericRecordInAQuantityMonthIsCounted", SourceSummaryReadTests.aGenericRecordInAQuantityMonthIsCounted),
    Check("aSourceWithoutReadPermissionListsOnlyItsOwn", SourceSummaryReadTests.aSourceWithoutReadPermissionListsOnlyItsOwn),
    Check("aSourceIsClassifiedByTheDeviceTheReaderMeetsFirst",
          SourceSummaryReadTests.aSourceIsClassifiedByTheDeviceTheReaderMeetsFirst),
]
