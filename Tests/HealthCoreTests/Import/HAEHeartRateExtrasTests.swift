import Foundation
import Testing
import TestKit
@testable import HealthCore

/// A Health Auto Export heart-rate point is stored as three samples: its minimum and maximum, a millisecond each at the
/// point's start (`|min`, `|max`), and the rest of its period. When an Apple Health export's readings later cover the
/// point, the three go together: the extras are never weighed on their own (no reading lies in their two
/// milliseconds), so they no longer stay behind as a minimum and a maximum of a point that is gone.
struct HAEHeartRateExtrasTests {
    @Test(arguments: hAEHeartRateExtrasTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Support = ImportTestSupport
    private static let type = "HKQuantityTypeIdentifierHeartRate"

    /// Two hours of the watch's heart rate (Min/Avg/Max), then an export whose readings of the watch lie inside the
    /// first hour and after the second: the first point is covered, all three of its samples.
    private static let hours = #"{"data":{"metrics":[{"name":"heart_rate","units":"count/min","data":["#
        + #"{"date":"2024-05-10 10:00:00 +0000","Min":55,"Avg":70,"Max":95,"source":"Watch"},"#
        + #"{"date":"2024-05-10 11:00:00 +0000","Min":60,"Avg":72,"Max":90,"source":"Watch"}]}]}}"#
    private static let readings = Support.export([("10:05:00", 68), ("10:40:00", 75), ("12:10:00", 71)].map {
        Support.record(type, value: String($0.1), unit: "count/min", source: "Watch", start: "2024-05-10 \($0.0) +0000",
                       end: "2024-05-10 \($0.0) +0000")
    }.joined(separator: "\n"))

    /// The heart-rate samples stored: each as its sync identifier (or `export` for one without) and its value.
    private static func stored(_ store: JSONFileStore) throws -> [String] {
        var found: [String] = []
        try store.forEachSample(ofType: type, overlapping: DateInterval(start: Date(timeIntervalSince1970: 1_715_000_000), duration: 10 * 86_400)) {
            sample in
            guard case let .quantity(quantity) = sample.value else { return }
            if case let .string(identifier)? = sample.metadata[MetadataKeySyncIdentifier] {
                found.append("\(identifier) \(Int(quantity.value.rounded()))")
            } else {
                found.append("export \(Int(quantity.value.rounded()))")
            }
        }
        return found.sorted()
    }

    func aCoveredPointLeavesNoMinimumOrMaximumBehind() throws {
        try Support.withTemporaryDirectory { folder in
            let plain = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            // One recording store per operation (a store's recording gives all its writes one operation id).
            var store: JSONFileStore { JSONFileStore(path: folder + "/store", timeZone: .gmt,
                                                     recording: OperationRecording(kind: .import, source: "hkctl", date: Date())) }
            try Support.pushHAE(Self.hours, into: store)
            expectEqual(try Self.stored(plain).count, 6)
            let dry = try Support.importXML(Self.readings, into: store, dryRun: true)
            _ = try Support.importXML(Self.readings, into: store)
            let first = "HAE|heart_rate|2024-05-10T10:00:00+00:00/PT1H", second = "HAE|heart_rate|2024-05-10T11:00:00+00:00/PT1H"
            expectEqual(try Self.stored(plain), ["\(second) 72", "\(second)|max 90", "\(second)|min 60",
                                                 "export 68", "export 71", "export 75"])
            #expect(!(try Self.stored(plain)).contains { $0.hasPrefix(first) })
            // The dry run counted the one point the import covers.
            expectEqual(dry.supersededHealthAutoExport, 1)
            // Undone, the export gives the point back whole.
            _ = try plain.undo(source: "hkctl", now: Date())
            expectEqual(try Self.stored(plain), ["\(first) 70", "\(first)|max 95", "\(first)|min 55",
                                                 "\(second) 72", "\(second)|max 90", "\(second)|min 60"])
        }
    }

    /// Hours of the watch at +0200 (Min/Avg/Max), then hours of a half-hour zone (+0530, Avg only) that cover all
    /// of the first and the first half of the second: the first goes whole, with its extras; the second stays, and so
    /// do its minimum and maximum, which lie inside the new hour but are the second hour's (they were deleted as if
    /// the new hour stood for them, and the hour kept `HAEMin` and `HAEMax` without them).
    func anHourOfAHalfHourZoneLeavesTheExtrasOfTheHourItOverlaps() throws {
        let hours = { (points: [(String, String)]) in
            #"{"data":{"metrics":[{"name":"heart_rate","units":"count/min","data":["#
                + points.map { #"{"date":"2024-05-11 \#($0.0)","\#($0.1),"source":"Watch"}"# }.joined(separator: ",") + "]}]}}"
        }
        let whole = hours([("01:00:00 +0200", #"Min":50,"Avg":70,"Max":99"#), ("02:00:00 +0200", #"Min":52,"Avg":71,"Max":98"#)])
        let half = hours([("04:00:00 +0530", #"Avg":75"#), ("05:00:00 +0530", #"Avg":76"#)])
        try Support.withTemporaryDirectory { folder in
            do {
                let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
                try Support.pushHAE(whole, into: store)
                try Support.pushHAE(half, into: store)
                let first = "HAE|heart_rate|2024-05-10T23:00:00+00:00/PT1H", second = "HAE|heart_rate|2024-05-11T00:00:00+00:00/PT1H"
                expectEqual(try Self.stored(store), ["HAE|heart_rate|2024-05-10T22:30:00+00:00/PT1H 75",
                                                     "HAE|heart_rate|2024-05-10T23:30:00+00:00/PT1H 76",
                                                     "\(second) 71", "\(second)|max 98", "\(second)|min 52"])
                #expect(!(try Self.stored(store)).contains { $0.hasPrefix(first) })
            }
        }
    }

    /// The other order: the export's readings first, then the points. The first hour, which they cover (a reading
    /// inside it and one after it), is not stored, nor are its extras (they were, on their own, as a minimum and a
    /// maximum of nothing); the second, whose only reading lies at its very start, is stored whole with both extras
    /// (its minimum alone was taken as covered by that reading).
    func aPointCoveredOnArrivalBringsNoExtras() throws {
        let atStart = Support.export([("10:05:00", 68), ("10:40:00", 75), ("11:00:00", 64)].map {
            Support.record(Self.type, value: String($0.1), unit: "count/min", source: "Watch", start: "2024-05-10 \($0.0) +0000",
                           end: "2024-05-10 \($0.0) +0000")
        }.joined(separator: "\n"))
        try Support.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            _ = try Support.importXML(atStart, into: store)
            try Support.pushHAE(Self.hours, into: store)
            let second = "HAE|heart_rate|2024-05-10T11:00:00+00:00/PT1H"
            expectEqual(try Self.stored(store), ["\(second) 72", "\(second)|max 90", "\(second)|min 60",
                                                 "export 64", "export 68", "export 75"])
        }
    }

    /// A coarser point that covers the start of a stored finer one but ends inside it (a week of a zone 25 hours
    /// ahead over a day at -1100; a day of +0530 over an hour from 18:00 UTC): the finer point stays with its minimum
    /// and maximum (they lie inside the coarser point, and were deleted while their point stayed with `HAEMin` and
    /// `HAEMax`). The file store is the in-memory store's.
    func aCoarserPointEndingInsideAFinerOneLeavesItsExtras() throws {
        let heart = { (points: [(String, String)]) in
            #"{"data":{"metrics":[{"name":"heart_rate","units":"count/min","data":["#
                + points.map { #"{"date":"\#($0.0)","\#($0.1),"source":"Watch"}"# }.joined(separator: ",") + "]}]}}"
        }
        let sequences: [(texts: [String], kept: String)] = [
            ([heart([("2024-05-11 00:00:00 -1100", #"Min":65,"Avg":71,"Max":99"#)]),
              heart([("2024-04-29 00:00:00 +1400", #"Avg":86"#), ("2024-05-06 00:00:00 +1400", #"Avg":75"#)])],
             "HAE|heart_rate|2024-05-11"),
            ([heart([("2024-05-10 17:00:00 +0000", #"Min":60,"Avg":70,"Max":90"#), ("2024-05-10 18:00:00 +0000", #"Min":65,"Avg":71,"Max":99"#)]),
              heart([("2024-05-09 00:00:00 +0530", #"Avg":74"#), ("2024-05-10 00:00:00 +0530", #"Avg":75"#)])],
             "HAE|heart_rate|2024-05-10T18:00:00+00:00/PT1H"),
        ]
        var failures = 0
        try Support.withTemporaryDirectory { folder in
            for (number, sequence) in sequences.enumerated() {
                let reference = try ImportTests.HAEBatchSizeTests.imported(sequence.texts, batchSize: 20_000)
                let store = ImportTests.HAEFastPathTests.store(folder + "/\(number)")
                _ = try ImportTests.HAEBatchSizeTests.importing(sequence.texts, into: store, batchSize: 20_000)
                let all = try Self.stored(store)
                let kept = all.filter { $0.hasPrefix(sequence.kept) }.map { String($0.split(separator: " ")[0]) }
                expectEqual(kept, [sequence.kept, sequence.kept + "|max", sequence.kept + "|min"], "sequence \(number): \(all)")
                try ImportTests.HAEBatchSizeTests.compareFileStore(sequence.texts, at: folder + "/file-\(number)", batchSize: 20_000, types: [Self.type],
                                                       window: DateInterval(start: Date(timeIntervalSince1970: 1_714_000_000), duration: 30 * 86_400),
                                                       with: reference, trial: number, failures: &failures)
            }
        }
        expectEqual(failures, 0)
    }

    /// An extra whose point is not stored (left behind by an earlier version) is weighed on its own as before, and an
    /// extra of another source's point does not go with this one.
    func extrasGoOnlyWithTheirOwnPoint() throws {
        let at = Date(timeIntervalSince1970: 1_715_335_200)
        let unit = try HealthUnit(parsing: "count/min")
        func sample(_ identifier: String, source: String, value: Double, start: TimeInterval, end: TimeInterval) -> Sample {
            Sample(typeIdentifier: Self.type, start: at.addingTimeInterval(start), end: at.addingTimeInterval(end),
                   value: .quantity(Quantity(value, unit)), source: source, created: at,
                   metadata: [MetadataKeySyncIdentifier: .string(identifier), HAESampleBuilder.aggregationKey: .string("hour")])
        }
        let point = "HAE|heart_rate|2024-05-10T10:00:00+00:00/PT1H"
        let samples = [sample(point + "|min", source: "Watch", value: 55, start: 0, end: 0.001),
                       sample(point + "|max", source: "Watch", value: 95, start: 0.001, end: 0.002),
                       sample(point, source: "Watch", value: 70, start: 0.002, end: 3_600),
                       sample(point + "|min", source: "Strap", value: 50, start: 0, end: 0.001),
                       sample("HAE|heart_rate|2024-05-10T09:00:00+00:00/PT1H|max", source: "Watch", value: 99, start: -3_600, end: -3_599.999)]
        let (rest, extras) = HAESuperseding.separatingExtras(samples)
        expectEqual(rest.map(\.value), [samples[2], samples[3], samples[4]].map(\.value))
        expectEqual(extras.count, 1)
        expectEqual(extras[HAESuperseding.extraKey(of: samples[2])!]?.map(\.value), [samples[0], samples[1]].map(\.value))
    }
}

/// The checks ``HAEHeartRateExtrasTests/checks(_:)`` runs.
private let hAEHeartRateExtrasTestsChecks: [Check<HAEHeartRateExtrasTests>] = [
    Check("aCoveredPointLeavesNoMinimumOrMaximumBehind", HAEHeartRateExtrasTests.aCoveredPointLeavesNoMinimumOrMaximumBehind),
    Check("anHourOfAHalfHourZoneLeavesTheExtrasOfTheHourItOverlaps",
          HAEHeartRateExtrasTests.anHourOfAHalfHourZoneLeavesTheExtrasOfTheHourItOverlaps),
    Check("aPointCoveredOnArrivalBringsNoExtras", HAEHeartRateExtrasTests.aPointCoveredOnArrivalBringsNoExtras),
    Check("aCoarserPointEndingInsideAFinerOneLeavesItsExtras", HAEHeartRateExtrasTests.aCoarserPointEndingInsideAFinerOneLeavesItsExtras),
    Check("extrasGoOnlyWithTheirOwnPoint", HAEHeartRateExtrasTests.extrasGoOnlyWithTheirOwnPoint),
]
