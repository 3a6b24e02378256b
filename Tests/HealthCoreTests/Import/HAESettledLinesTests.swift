import Foundation
import Testing
import TestKit
@testable import HealthCore

extension ImportTests {
    /// A file store plans a batch of Health Auto Export points against the day before it too (for nights re-sent with
    /// other times), but of a quantity type it decodes only the samples of that day that reach the batch, that name a
    /// longer period (a remainder, a piece of one), or that lie inside a point reaching into the batch from before
    /// (``JSONFileStore/readPartitionWithSequence(_:around:settledBefore:_:)``): a day's push then costs the lines of
    /// its own day, not yesterday's too. The in-memory store plans against everything: both must leave the same store.
    struct HAESettledLinesTests {
        @Test(arguments: hAESettledLinesTestsChecks)
        func checks(_ check: Check<Self>) async throws {
            try await check.run(on: Self())
        }

        typealias Batch = HAEBatchSizeTests

        /// Steps and heart rate around one midnight (Berlin, +0200): minutes either side of it, hours, days or the
        /// weeks (three Mondays) one of which holds it, from a watch, a watch and phone, or the phone.
        static func payload(_ random: inout IndependentTestKit.SeededGenerator) -> String {
            let source = Batch.pick(["Watch", "Watch|iPhone", "iPhone"], &random)
            let times: [String]
            switch random.next() % 5 {
            case 0, 1:
                let minutes = ["2024-05-10 23:57:00", "2024-05-10 23:58:00", "2024-05-10 23:59:00", "2024-05-11 00:00:00",
                               "2024-05-11 00:01:00", "2024-05-11 00:30:00"]
                let first = Int(random.next() % 4)
                times = Array(minutes[first..<min(minutes.count, first + 2 + Int(random.next() % 3))])
            case 2:
                let hours = ["2024-05-10 22:00:00", "2024-05-10 23:00:00", "2024-05-11 00:00:00", "2024-05-11 01:00:00"]
                let first = Int(random.next() % 3)
                times = Array(hours[first..<min(hours.count, first + 2 + Int(random.next() % 2))])
            case 3:
                let first = 9 + Int(random.next() % 3)
                times = (first..<(first + 1 + Int(random.next() % 2))).map { String(format: "2024-05-%02d 00:00:00", $0) }
            default:
                times = ["2024-04-29 00:00:00", "2024-05-06 00:00:00", "2024-05-13 00:00:00"]
            }
            let steps = times.map { Batch.point(time: $0 + " +0200", figures: "\"qty\":\(20 + random.next() % 200)", source: source) }
            let heart = times.map { time -> String in
                let avg = 60 + random.next() % 30
                return Batch.point(time: time + " +0200", figures: "\"Min\":\(avg - 5),\"Avg\":\(avg),\"Max\":\(avg + 9)", source: source)
            }
            return Batch.payload(heartRate: random.next() % 2 == 0 ? heart : [], steps: steps)
        }

        /// Samples an Apple Health export brought before: the watch's steps before midnight, a walk across it, and a
        /// heart-rate reading of the phone a few seconds before it.
        static func exported() throws -> [Sample] {
            let at = { (text: String) in ExportDateParser.parse(text + " +0200")! }
            let count = try HealthUnit(parsing: "count"), perMinute = try HealthUnit(parsing: "count/min")
            let created = at("2024-05-12 08:00:00")
            return [
                Sample(typeIdentifier: HealthAutoExportTests.steps, start: at("2024-05-10 23:00:00"), end: at("2024-05-10 23:30:00"),
                       value: .quantity(Quantity(300, count)), source: "Watch", created: created),
                Sample(typeIdentifier: HealthAutoExportTests.steps, start: at("2024-05-10 23:58:30"), end: at("2024-05-11 00:00:30"),
                       value: .quantity(Quantity(90, count)), source: "Watch", created: created),
                Sample(typeIdentifier: HealthAutoExportTests.heartRate, start: at("2024-05-10 23:59:50"), end: at("2024-05-10 23:59:50"),
                       value: .quantity(Quantity(71, perMinute)), source: "iPhone", created: created),
            ]
        }

        /// 80 random sequences of two to four such files, half of them over an export's samples: the file store, in
        /// batches of 1 and 20,000, leaves the samples and gives the receipts the in-memory store gives.
        func aFileStoreLeavesWhatTheMemoryStoreLeaves() throws {
            var random = IndependentTestKit.SeededGenerator(seed: 41)
            var failures = 0
            let exported = try Self.exported()
            let window = DateInterval(start: ExportDateParser.parse("2024-04-01 00:00:00 +0000")!, duration: 60 * 86_400)
            let types = [HealthAutoExportTests.heartRate, HealthAutoExportTests.steps]
            try ImportTestSupport.withTemporaryDirectory { folder in
                for trial in 0..<80 {
                    let texts = (0..<(2 + Int(random.next() % 3))).map { _ in Self.payload(&random) }
                    let before = trial % 2 == 1 ? exported : []
                    for size in [1, 20_000] {
                        try Batch.compareFileStore(texts, at: folder + "/\(trial)-\(size)", batchSize: size, types: types, window: window,
                                                   before: before, with: try Batch.imported(texts, before: before, batchSize: size),
                                                   trial: trial, failures: &failures)
                    }
                }
            }
            expectEqual(failures, 0)
        }

        /// Weeks of 7,000 steps stored as the app's week points, then days inside the one from 2024-05-06 (the week keeps
        /// its rest over the others), then minutes of Saturday morning. The week reaches into the minutes from before,
        /// so what it holds is read too, although its rest ends before them: the Friday and the week's rest before
        /// Saturday (a rest whose period names its end), or before Friday with Saturday and Sunday sent as days. The week
        /// still counts 7,000 steps with the minutes, and the store is the in-memory store's.
        func aPointReachingIntoTheBatchFromBeforeBringsWhatItHolds() throws {
            let steps = { (points: [(String, Int)]) in
                Batch.payload(heartRate: [], steps: points.map { Batch.point(time: $0.0 + " +0200", figures: "\"qty\":\($0.1)", source: "Watch") })
            }
            let weeks = steps([("2024-04-29 00:00:00", 7_000), ("2024-05-06 00:00:00", 7_000), ("2024-05-13 00:00:00", 7_000)])
            let minutes = steps([("2024-05-11 09:00:00", 40), ("2024-05-11 09:01:00", 60)])
            let sequences = [
                [weeks, steps([("2024-05-10 00:00:00", 1_500)]), minutes],
                [weeks, steps([("2024-05-11 00:00:00", 1_200), ("2024-05-12 00:00:00", 900)]), minutes],
            ]
            let week = DateInterval(start: ExportDateParser.parse("2024-05-06 00:00:00 +0200")!, duration: 7 * 86_400)
            try ImportTestSupport.withTemporaryDirectory { folder in
                for (number, texts) in sequences.enumerated() {
                    let reference = try Batch.imported(texts, batchSize: 1)
                    let store = HAEFastPathTests.store(folder + "/\(number)")
                    _ = try Batch.importing(texts, into: store, batchSize: 1)
                    var samples: [Sample] = []
                    try store.forEachSample(ofType: HealthAutoExportTests.steps, overlapping: DateInterval(start: week.start.addingTimeInterval(-14 * 86_400),
                                                                                                          duration: 35 * 86_400)) { samples.append($0) }
                    expectEqual(Batch.contents(samples), reference.store, "sequence \(number)")
                    let total = samples.filter { $0.start >= week.start && $0.end <= week.end }.reduce(0.0) { sum, sample in
                        if case let .quantity(quantity) = sample.value { return sum + quantity.value }
                        return sum
                    }
                    expectEqual(total.rounded(), 7_000, "sequence \(number): \(Batch.contents(samples))")
                }
            }
        }

        /// The lines whose samples stand for their own time: a sample from elsewhere, a whole minute, hour or reading;
        /// not a day or a week (named by its local date), nor a line that names its period's start or end.
        func aLineNamingItsPeriodOrDateIsNotSettled() {
            let settled = { (text: String) in Array(text.utf8).withUnsafeBufferPointer { JSONFileStore.isSettled($0) } }
            #expect(settled(#"{"uuid":"x","metadata":{"HAEAggregation":"minute","HKMetadataKeySyncVersion":1}}"#))
            #expect(settled(#"{"uuid":"x","metadata":{"HAEAggregation":"hour"}}"#))
            #expect(settled(#"{"uuid":"x","metadata":{"HAEAggregation":"none"}}"#))
            #expect(settled(#"{"uuid":"x","source":"Watch"}"#))
            #expect(!settled(#"{"uuid":"x","metadata":{"HAEAggregation":"day","HKMetadataKeySyncVersion":1}}"#))
            #expect(!settled(#"{"uuid":"x","metadata":{"HAEAggregation":"week"}}"#))
            #expect(!settled(#"{"uuid":"x","metadata":{"HAEAggregation":"minutes"}}"#))
            #expect(!settled(#"{"uuid":"x","metadata":{"HAEAggregation":"week","HAEPeriodEnd":1715551200}}"#))
            #expect(!settled(#"{"uuid":"x","metadata":{"HAEAggregation":"hour","HAEPeriodStart":1715551200}}"#))
            #expect(settled(""))
        }

        /// A day sent again from a zone more than a day behind (+1400, then -1100; and Apia's 23-hour first day of
        /// summer time, then Pago Pago, a day behind): its sync identifier is its local date, so the later sending
        /// replaces the stored one although it starts after that one ends (steps, and heart rate with its `|min` and
        /// `|max`). The store is the in-memory store's, and holds the day once.
        func aDayResentFromAZoneADayBehindReplacesIt() throws {
            let day = { (date: String, steps: Int, heart: String) in
                Batch.payload(heartRate: [Batch.point(time: date, figures: heart, source: "Watch")],
                              steps: [Batch.point(time: date, figures: "\"qty\":\(steps)", source: "Watch")])
            }
            let sequences = [
                [day("2024-05-10 00:00:00 +1400", 1_000, "\"Min\":50,\"Avg\":60,\"Max\":70"),
                 day("2024-05-10 00:00:00 -1100", 1_200, "\"Avg\":64")],
                [Batch.payload(heartRate: [], steps: [Batch.point(time: "2020-09-26 00:00:00 +1300", figures: "\"qty\":900", source: "Watch"),
                                                      Batch.point(time: "2020-09-27 00:00:00 +1300", figures: "\"qty\":1000", source: "Watch")]),
                 day("2020-09-27 00:00:00 -1100", 6_500, "\"Avg\":64")],
            ]
            var failures = 0
            try ImportTestSupport.withTemporaryDirectory { folder in
                for (number, texts) in sequences.enumerated() {
                    let reference = try Batch.imported(texts, batchSize: 1)
                    #expect(reference.receipts[1].contains("HKQuantityTypeIdentifierStepCount: +0 =0 ~1"), "\(reference.receipts)")
                    let days = reference.store.filter { $0.hasPrefix(HealthAutoExportTests.steps) }
                    expectEqual(days.count, number == 0 ? 1 : 2, "\(days)")
                    try Batch.compareFileStore(texts, at: folder + "/\(number)", batchSize: 1,
                                               types: [HealthAutoExportTests.heartRate, HealthAutoExportTests.steps],
                                               window: DateInterval(start: ExportDateParser.parse("2020-01-01 00:00:00 +0000")!, duration: 5 * 365 * 86_400),
                                               with: reference, trial: number, failures: &failures)
                }
            }
            expectEqual(failures, 0)
        }
    }
}

/// The checks ``ImportTests.HAESettledLinesTests/checks(_:)`` runs.
private let hAESettledLinesTestsChecks: [Check<ImportTests.HAESettledLinesTests>] = [
    Check("aFileStoreLeavesWhatTheMemoryStoreLeaves", ImportTests.HAESettledLinesTests.aFileStoreLeavesWhatTheMemoryStoreLeaves),
    Check("aPointReachingIntoTheBatchFromBeforeBringsWhatItHolds", ImportTests.HAESettledLinesTests.aPointReachingIntoTheBatchFromBeforeBringsWhatItHolds),
    Check("aLineNamingItsPeriodOrDateIsNotSettled", ImportTests.HAESettledLinesTests.aLineNamingItsPeriodOrDateIsNotSettled),
    Check("aDayResentFromAZoneADayBehindReplacesIt", ImportTests.HAESettledLinesTests.aDayResentFromAZoneADayBehindReplacesIt),
]
