import Foundation
import Testing
import TestKit
@testable import HealthCore

extension ImportTests {
    /// A file store plans each batch of Health Auto Export points against the samples it reads around the batch: eight
    /// days after it for samples from elsewhere, but HAE points only up to a day after it, or to the end of a coarser
    /// point reaching into it (``JSONFileStore/LaterPoints``). The in-memory store plans against
    /// everything: both must leave the same samples, for files of weeks, days and hours of steps (whose coarser points
    /// keep what the finer ones inside them leave) in any order.
    struct HAEStoreWindowTests {
        @Test(arguments: hAEStoreWindowTestsChecks)
        func checks(_ check: Check<Self>) async throws {
            try await check.run(on: Self())
        }

        typealias Batch = HAEBatchSizeTests

        /// Steps per week (three Mondays), per day (a run of days) or per hour (a few hours of a day), from `Watch` or
        /// `Watch|iPhone`.
        static func payload(_ random: inout IndependentTestKit.SeededGenerator) -> String {
            let source = Batch.pick(["Watch", "Watch|iPhone"], &random)
            var points: [(String, UInt64)] = []
            switch random.next() % 3 {
            case 0:
                points = ["2024-05-06", "2024-05-13", "2024-05-20"].map { ("\($0) 00:00:00 +0200", 5_000 + random.next() % 4_000) }
            case 1:
                let first = 6 + Int(random.next() % 14)
                points = (first..<min(first + 2 + Int(random.next() % 9), 27)).map {
                    (String(format: "2024-05-%02d 00:00:00 +0200", $0), 700 + random.next() % 600)
                }
            default:
                let day = 6 + Int(random.next() % 20)
                points = (8..<(9 + Int(random.next() % 5))).map {
                    (String(format: "2024-05-%02d %02d:00:00 +0200", day, $0), 50 + random.next() % 100)
                }
            }
            return "{\"data\":{\"metrics\":[{\"name\":\"step_count\",\"units\":\"count\",\"data\":["
                + points.map { Batch.point(time: $0.0, figures: "\"qty\":\($0.1)", source: source) }.joined(separator: ",") + "]}]}}"
        }

        /// 60 random sequences of three such files: the file store, in batches of 1 and 20,000, leaves the samples
        /// and gives the receipts the in-memory store gives in the same batches.
        func aFileStoreLeavesWhatTheMemoryStoreLeaves() throws {
            var random = IndependentTestKit.SeededGenerator(seed: 38)
            var failures = 0
            try ImportTestSupport.withTemporaryDirectory { folder in
                for trial in 0..<60 {
                    let texts = (0..<3).map { _ in Self.payload(&random) }
                    for size in [1, 20_000] {
                        try Batch.compareFileStore(texts, at: folder + "/\(trial)-\(size)", batchSize: size, types: [HealthAutoExportTests.steps],
                                                   window: DateInterval(start: ExportDateParser.parse("2024-04-20 00:00:00 +0000")!, duration: 60 * 86_400),
                                                   with: try Batch.imported(texts, batchSize: size), trial: trial, failures: &failures)
                    }
                }
            }
            expectEqual(failures, 0)
        }

        /// Weeks of 7,000 steps; then three days at the end of the second week (the week keeps 4,000 over the rest);
        /// then two hours at its start, more than a day before those days: the week's rest is weighed against the
        /// hours and the stored days, which the file store reads past the hours' day because the week reaches there.
        /// Every week still counts 7,000, in the file store as in memory.
        func aWeekReachingPastTheBatchIsWeighedAgainstItsLaterDays() throws {
            let step = { (points: [(String, Int)]) in
                "{\"data\":{\"metrics\":[{\"name\":\"step_count\",\"units\":\"count\",\"data\":["
                    + points.map { Batch.point(time: $0.0 + " +0200", figures: "\"qty\":\($0.1)", source: "Watch") }.joined(separator: ",") + "]}]}}"
            }
            let texts = [step([("2024-05-06 00:00:00", 7_000), ("2024-05-13 00:00:00", 7_000), ("2024-05-20 00:00:00", 7_000)]),
                         step([("2024-05-17 00:00:00", 1_000), ("2024-05-18 00:00:00", 1_000), ("2024-05-19 00:00:00", 1_000)]),
                         step([("2024-05-13 08:00:00", 100), ("2024-05-13 09:00:00", 100)])]
            try ImportTestSupport.withTemporaryDirectory { folder in
                for size in [1, 20_000] {
                    let reference = try Batch.imported(texts, batchSize: size)
                    let store = HAEFastPathTests.store(folder + "/\(size)")
                    _ = try Batch.importing(texts, into: store, batchSize: size)
                    var samples: [Sample] = []
                    let week = DateInterval(start: ExportDateParser.parse("2024-05-13 00:00:00 +0200")!, duration: 7 * 86_400)
                    try store.forEachSample(ofType: HealthAutoExportTests.steps, overlapping: week) { samples.append($0) }
                    let inWeek = samples.filter { $0.start >= week.start && $0.end <= week.end }
                    let total = inWeek.reduce(0.0) { sum, sample in
                        if case let .quantity(quantity) = sample.value { return sum + quantity.value }
                        return sum
                    }
                    expectEqual(total.rounded(), 7_000, "batch size \(size): \(Batch.contents(inWeek))")
                    var all: [Sample] = []
                    try store.forEachSample(ofType: HealthAutoExportTests.steps, overlapping: DateInterval(start: week.start.addingTimeInterval(-8 * 86_400),
                                                                                                          duration: 24 * 86_400)) { all.append($0) }
                    expectEqual(Batch.contents(all), reference.store, "batch size \(size)")
                }
            }
        }
    }
}

/// The checks ``ImportTests.HAEStoreWindowTests/checks(_:)`` runs.
private let hAEStoreWindowTestsChecks: [Check<ImportTests.HAEStoreWindowTests>] = [
    Check("aFileStoreLeavesWhatTheMemoryStoreLeaves", ImportTests.HAEStoreWindowTests.aFileStoreLeavesWhatTheMemoryStoreLeaves),
    Check("aWeekReachingPastTheBatchIsWeighedAgainstItsLaterDays",
          ImportTests.HAEStoreWindowTests.aWeekReachingPastTheBatchIsWeighedAgainstItsLaterDays),
]
