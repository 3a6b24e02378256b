import Foundation
import Testing
import TestKit
@testable import HealthCore

/// What a store line can hold (``StorableValues``): a date or number no line can hold is refused before anything is
/// written, by every way in (the library's saves, an export's records), and the first and last instants kept read
/// back in every zone.
struct StorableValuesTests {
    @Test(arguments: storableValuesTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static let noon = TestSupport.date("2024-06-03T12:00:00Z")

    private static func steps(start: Date = noon, end: Date? = nil, created: Date = noon,
                              metadata: [String: MetadataValue] = [:]) -> Sample {
        Sample(typeIdentifier: "HKQuantityTypeIdentifierStepCount", start: start, end: end ?? start,
               value: .quantity(Quantity(100, .count())), source: "hkctl", created: created, metadata: metadata)
    }

    func aDateOrNumberNoLineCanHoldIsRefusedAndNothingIsWritten() async throws {
        let bad: [(String, QuantitySample)] = [
            ("NaN metadata", QuantitySample(type: QuantityType(.stepCount), quantity: Quantity(7, .count()), start: Self.noon, end: Self.noon,
                                            metadata: ["x": .number(.nan)])),
            ("infinite metadata under an @ key", QuantitySample(type: QuantityType(.stepCount), quantity: Quantity(7, .count()),
                                                                start: Self.noon, end: Self.noon, metadata: ["@x": .number(-.infinity)])),
            ("NaN start", QuantitySample(type: QuantityType(.stepCount), quantity: Quantity(7, .count()),
                                         start: Date(timeIntervalSinceReferenceDate: .nan), end: Self.noon)),
            ("NaN dates", QuantitySample(type: QuantityType(.stepCount), quantity: Quantity(7, .count()),
                                         start: Date(timeIntervalSinceReferenceDate: .nan), end: Date(timeIntervalSinceReferenceDate: .nan))),
            ("infinite dates", QuantitySample(type: QuantityType(.stepCount), quantity: Quantity(7, .count()),
                                              start: Date(timeIntervalSinceReferenceDate: .infinity), end: Date(timeIntervalSinceReferenceDate: .infinity))),
            ("1899 in UTC", QuantitySample(type: QuantityType(.stepCount), quantity: Quantity(7, .count()),
                                           start: Date(timeIntervalSince1970: -2_208_992_400), end: Date(timeIntervalSince1970: -2_208_990_600))),
            ("year 3000", QuantitySample(type: QuantityType(.stepCount), quantity: Quantity(7, .count()),
                                         start: Date(timeIntervalSince1970: 32_503_680_000), end: Date(timeIntervalSince1970: 32_503_680_000))),
            ("distant past", QuantitySample(type: QuantityType(.stepCount), quantity: Quantity(7, .count()), start: .distantPast, end: Self.noon)),
            ("distant future", QuantitySample(type: QuantityType(.stepCount), quantity: Quantity(7, .count()), start: Self.noon, end: .distantFuture)),
            ("year 33658", QuantitySample(type: QuantityType(.stepCount), quantity: Quantity(7, .count()),
                                          start: Date(timeIntervalSince1970: 1e12), end: Date(timeIntervalSince1970: 1e12))),
        ]
        try await TestSupport.withTemporaryDirectory { folder in
            let path = folder + "/store"
            let store = try HealthStore(directory: path, timeZone: try #require(ZoneDatabase.system(environment: [:]).zone(named: "America/New_York")),
                                        clock: { Self.noon })
            try await store.save(QuantitySample(type: QuantityType(.stepCount), quantity: Quantity(1, .count()), start: Self.noon, end: Self.noon))
            let before = try ImportTestSupport.sampleFiles(path)
            for (name, sample) in bad {
                do {
                    try await store.save(sample)
                    Issue.record("\(name): saved")
                } catch let error as HealthError {
                    expectEqual(error.code, .errorInvalidArgument, "\(name)")
                    #expect(error.localizedDescription.contains("Nothing was saved"), "\(name): \(error.localizedDescription)")
                }
                // In a batch, after a good sample: nothing of the batch.
                await #expect(throws: HealthError.self, "\(name) in a batch") {
                    try await store.save([QuantitySample(type: QuantityType(.stepCount), quantity: Quantity(2, .count()),
                                                         start: Self.noon, end: Self.noon), sample])
                }
                expectEqual(try ImportTestSupport.sampleFiles(path), before, "\(name)")
            }
            // The store still reads whole.
            let all = try store.storage.samples(ofType: "HKQuantityTypeIdentifierStepCount",
                                                overlapping: DateInterval(start: TestSupport.date("1900-01-01T00:00:00Z"), end: Self.noon.addingTimeInterval(1)))
            expectEqual(all.count, 1)
        }
        // The same rules on the store itself, for a workout's numbers too.
        var workout = Self.steps()
        workout.typeIdentifier = "HKWorkoutTypeIdentifier"
        workout.value = .quantity(Quantity(0, .count()))
        workout.detail = .workout(WorkoutDetail(duration: .nan))
        #expect(StorableValues.problem(in: workout)?.contains("duration") == true)
        #expect(StorableValues.problem(in: Self.steps(created: Date(timeIntervalSince1970: .nan)))?.contains("creation date") == true)
        #expect(StorableValues.problem(in: Self.steps()) == nil)
        #expect(StorableValues.problem(in: Self.steps(metadata: ["n": .number(1e308)])) == nil)
    }

    /// 1900-01-01 00:00 UTC is 1899 in New York and 2999-12-31 23:59 UTC is 3000 in Kiritimati: both are written and
    /// read back in those zones.
    func theFirstAndLastInstantsKeptReadBackInEveryZone() throws {
        let first = TestSupport.date("1900-01-01T00:00:00Z"), last = TestSupport.date("2999-12-31T23:59:59Z")
        let zones = ZoneDatabase.system(environment: [:])
        for name in ["America/New_York", "Pacific/Kiritimati", "Pacific/Pago_Pago", "UTC"] {
            let zone = try #require(zones.zone(named: name))
            try TestSupport.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store", timeZone: zone)
                try store.save([Self.steps(start: first, created: first), Self.steps(start: last, created: last)])
                let read = try store.samples(ofType: "HKQuantityTypeIdentifierStepCount",
                                             overlapping: DateInterval(start: first, end: last.addingTimeInterval(1)))
                expectEqual(read.map(\.start).sorted(), [first, last], "\(name)")
            }
        }
    }

    /// An export's record at an instant the store does not keep is rejected with that reason (the rest imported),
    /// on the direct path and the general one, and the store reads whole afterwards.
    func anExportsRecordOutsideTheDatesKeptIsRejected() throws {
        let body = [ImportTestSupport.record(value: "10", start: "1900-01-01 00:30:00 +0100", end: "1900-01-01 00:35:00 +0100"),
                    ImportTestSupport.record(value: "11", start: "3500-01-01 00:30:00 +0100", end: "3500-01-01 00:35:00 +0100"),
                    ImportTestSupport.record(value: "12", start: "1900-01-01 00:30:00 -0100", end: "1900-01-01 00:35:00 -0100"),
                    ImportTestSupport.record(value: "13")].joined(separator: "\n")
        for zone in ["UTC", "America/Los_Angeles"] {
            try ImportTestSupport.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store", timeZone: try #require(ZoneDatabase.system(environment: [:]).zone(named: zone)))
                let receipt = try ImportTestSupport.importXML(ImportTestSupport.export(body), into: store)
                expectEqual(receipt.counts["HKQuantityTypeIdentifierStepCount"]?.added, 2, "\(zone)")
                expectEqual(receipt.problems.count, 2, "\(zone)")
                #expect(receipt.problems.allSatisfy { $0.reason.contains("outside the dates the store keeps") }, "\(receipt.problems)")
                let read = try store.samples(ofType: "HKQuantityTypeIdentifierStepCount",
                                             overlapping: DateInterval(start: TestSupport.date("1900-01-01T00:00:00Z"),
                                                                       end: TestSupport.date("2999-01-01T00:00:00Z")))
                expectEqual(read.compactMap { $0.quantity?.value }.sorted(), [12, 13], "\(zone)")
            }
        }
        // A Health Auto Export number no double holds (1e999): its point is refused when it is the amount, and kept as
        // text when it is another field, and the store reads whole (a line with `inf` in it was unreadable).
        try ImportTestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/hae")
            let payload = "{\"data\":{\"metrics\":[{\"name\":\"step_count\",\"units\":\"count\",\"data\":["
                + "{\"date\":\"2024-05-01 10:00:00 +0000\",\"qty\":1e999,\"source\":\"W\"},"
                + "{\"date\":\"2024-05-01 11:00:00 +0000\",\"qty\":5,\"source\":\"W\",\"extra\":-1e999}]}]}}"
            let receipt = try HealthImporter(store: store).importHealthAutoExport(try HealthAutoExportPayload(bytes: Array(payload.utf8), name: "p.json"),
                                                                                 receivedThrough: nil)
            expectEqual(receipt.totals.added, 1)
            expectEqual(receipt.totals.rejected, 1)
            let read = try store.samples(ofType: "HKQuantityTypeIdentifierStepCount",
                                         overlapping: DateInterval(start: TestSupport.date("2024-05-01T00:00:00Z"), end: TestSupport.date("2024-05-02T00:00:00Z")))
            expectEqual(read.count, 1)
            if case .number? = read.first?.metadata["HAE:extra"] { Issue.record("an infinite metadata number was stored") }
        }
        // A date that is no date at all keeps its reason.
        #expect(ExportDateParser.whyNotADate("2024-02-30 10:00:00 +0100").hasPrefix("not a date like"))
        #expect(ExportDateParser.whyNotADate("1900-01-01 00:30:00 +0100").hasPrefix("outside"))
    }
}

/// The checks ``StorableValuesTests/checks(_:)`` runs.
private let storableValuesTestsChecks: [Check<StorableValuesTests>] = [
    Check("aDateOrNumberNoLineCanHoldIsRefusedAndNothingIsWritten", StorableValuesTests.aDateOrNumberNoLineCanHoldIsRefusedAndNothingIsWritten),
    Check("theFirstAndLastInstantsKeptReadBackInEveryZone", StorableValuesTests.theFirstAndLastInstantsKeptReadBackInEveryZone),
    Check("anExportsRecordOutsideTheDatesKeptIsRejected", StorableValuesTests.anExportsRecordOutsideTheDatesKeptIsRejected),
]
