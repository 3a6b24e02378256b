import Foundation
import Testing
import TestKit
@testable import HealthCore

extension ImportTests {
    /// A Health Auto Export payload gives the same store whatever the import's batch size: the same point sent again
    /// in one file (in the same shape or another, from the same source or a related one, `Watch` and `Watch|iPhone`)
    /// settles inside a batch as it settles across batches. The reference is a batch per point (every sending meets
    /// the earlier ones stored); random payloads of a few sendings of the same times, seeded, so a failure repeats.
    struct HAEBatchSizeTests {
        @Test(arguments: hAEBatchSizeTestsChecks)
        func checks(_ check: Check<Self>) async throws {
            try await check.run(on: Self())
        }

        static let berlin = TimeZone(identifier: "Europe/Berlin")!
        static let batchSizes = [2, 3, 4, 5, 7, 20_000]
        /// Sources that are the same, related (sharing a `|`-separated name) or unrelated; nil: none sent.
        static let sources: [String?] = ["Watch", "Watch|iPhone", "iPhone", "Strap", nil]
        static func pick<T>(_ list: [T], _ random: inout IndependentTestKit.SeededGenerator) -> T {
            list[Int(random.next() % UInt64(list.count))]
        }

        /// A payload's times: minutes, or hours, each with a reading at its own time (seconds) among them.
        static let timeSets = [
            ["2024-05-10 08:00:00 +0200", "2024-05-10 08:01:00 +0200", "2024-05-10 08:00:17 +0200"],
            ["2024-05-10 08:00:00 +0200", "2024-05-10 09:00:00 +0200", "2024-05-10 08:30:17 +0200"],
        ]

        /// A random payload of a few sendings of the same times (`times`, or one of ``timeSets``): heart rate in its
        /// three shapes, and steps, whose first point is at the second time (so that the payload's level is that of
        /// its times).
        /// `sources`: those the points pick from.
        static func randomPayload(_ random: inout IndependentTestKit.SeededGenerator, times: [String]? = nil,
                                  sources: [String?] = sources) -> String {
            let times = times ?? pick(timeSets, &random)
            let heart = (0..<(2 + Int(random.next() % 6))).map { _ in heartRatePoint(times, &random, sources: sources) }
            let steps = [times[1]] + (0..<Int(random.next() % 4)).map { _ in pick(Array(times.prefix(2)), &random) }
            return payload(heartRate: heart, steps: steps.map {
                point(time: $0, figures: "\"qty\":\(10 + random.next() % 3)", source: pick(sources, &random))
            })
        }

        /// A heart-rate point: its three figures, `Avg` alone, or three equal figures (one reading).
        static func heartRatePoint(_ times: [String], _ random: inout IndependentTestKit.SeededGenerator,
                                   sources: [String?] = sources) -> String {
            let low = 50 + Int(random.next() % 10), high = 90 + Int(random.next() % 10), avg = 70 + Int(random.next() % 3)
            let figures: String
            switch random.next() % 3 {
            case 0: figures = "\"Min\":\(low),\"Avg\":\(avg),\"Max\":\(high)"
            case 1: figures = "\"Avg\":\(avg)"
            default: figures = "\"Min\":\(avg),\"Avg\":\(avg),\"Max\":\(avg)"
            }
            return point(time: pick(times, &random), figures: figures, source: pick(sources, &random))
        }

        static func point(time: String, figures: String, source: String?) -> String {
            "{\"date\":\"\(time)\",\(figures)" + (source.map { ",\"source\":\"\($0)\"" } ?? "") + "}"
        }

        static func payload(heartRate: [String], steps: [String]) -> String {
            "{\"data\":{\"metrics\":[{\"name\":\"heart_rate\",\"units\":\"count/min\",\"data\":[" + heartRate.joined(separator: ",")
                + "]},{\"name\":\"step_count\",\"units\":\"count\",\"data\":[" + steps.joined(separator: ",") + "]}]}}"
        }

        /// Samples an Apple Health export brought before: steps of the watch inside the first minute, a heart-rate
        /// reading of the phone.
        static func exported() throws -> [Sample] {
            let at = { (text: String) in ExportDateParser.parse(text)! }
            return [
                Sample(typeIdentifier: HealthAutoExportTests.steps, start: at("2024-05-10 08:00:00 +0200"), end: at("2024-05-10 08:00:30 +0200"),
                       value: .quantity(Quantity(4, try HealthUnit(parsing: "count"))), source: "Watch", created: at("2024-05-11 08:00:00 +0200")),
                Sample(typeIdentifier: HealthAutoExportTests.heartRate, start: at("2024-05-10 08:00:17 +0200"), end: at("2024-05-10 08:00:17 +0200"),
                       value: .quantity(Quantity(66, try HealthUnit(parsing: "count/min"))), source: "iPhone", created: at("2024-05-11 08:00:00 +0200")),
            ]
        }

        /// What a store holds, as comparable lines (type, times, value, source, sync version), sorted.
        static func contents(_ samples: [Sample]) -> [String] {
            samples.map {
                "\($0.typeIdentifier) \($0.start.timeIntervalSince1970) \($0.end.timeIntervalSince1970) \($0.value) \($0.source) "
                    + "v\(SyncReplacement.storedMark(of: $0)?.version ?? 0)"
            }.sorted()
        }

        /// The receipt's counts, type by type, as one comparable text.
        static func counts(_ receipt: ImportReceipt) -> String {
            receipt.counts.keys.sorted().map { type in
                let counts = receipt.counts[type]!
                return "\(type): +\(counts.added) =\(counts.alreadyPresent) ~\(counts.replaced) c\(counts.covered) g\(counts.keptGenerically)"
            }.joined(separator: "; ")
        }

        /// The payloads imported one after the other into an in-memory store holding `before`.
        static func imported(_ texts: [String], before: [Sample] = [], batchSize: Int) throws -> (store: [String], receipts: [String]) {
            let store = InMemorySampleStore(before)
            let receipts = try importing(texts, into: store, batchSize: batchSize)
            return (contents(store.allSamples), receipts)
        }

        /// The payloads imported one after the other into `store` by one importer: each one's receipt (``counts(_:)``).
        static func importing(_ texts: [String], into store: any SampleStore, batchSize: Int) throws -> [String] {
            let importer = HealthImporter(store: store, batchSize: batchSize, timeZone: berlin)
            return try texts.map { text in
                counts(try importer.importHealthAutoExport(try HealthAutoExportPayload(bytes: Array(text.utf8), name: "t.json"),
                                                           receivedThrough: nil))
            }
        }

        /// Imports `texts` into a new file store at `path` (holding `before`) in batches of `batchSize` and compares its samples of `types`
        /// inside `window`, and its receipts, with `reference` (an import into memory); records the first few differences.
        static func compareFileStore(_ texts: [String], at path: String, batchSize: Int, types: [String], window: DateInterval,
                                     before: [Sample] = [], with reference: (store: [String], receipts: [String]), trial: Int,
                                     failures: inout Int) throws {
            let store = HAEFastPathTests.store(path)
            if !before.isEmpty { try store.saveImported(before) }
            let receipts = try importing(texts, into: store, batchSize: batchSize)
            var samples: [Sample] = []
            for type in types {
                try store.forEachSample(ofType: type, overlapping: window) { samples.append($0) }
            }
            let contents = self.contents(samples)
            guard contents != reference.store || receipts != reference.receipts else { return }
            failures += 1
            if failures <= 3 {
                Issue.record(Comment(rawValue: "trial \(trial), file store, batch size \(batchSize):\n\(texts.joined(separator: "\n"))\n"
                                     + "\(receipts)\n\(contents.joined(separator: "\n"))\n--\n\(reference.receipts)\n"
                                     + reference.store.joined(separator: "\n")))
            }
        }

        /// Compares each batch size's store and receipts with a batch per point's; records the first few differences.
        static func compare(_ texts: [String], before: [Sample] = [], trial: Int, failures: inout Int,
                            importing: ([String], Int) throws -> (store: [String], receipts: [String])) throws {
            let reference = try importing(texts, 1)
            for size in batchSizes {
                let other = try importing(texts, size)
                guard other.store != reference.store || other.receipts != reference.receipts else { continue }
                failures += 1
                if failures <= 3 {
                    Issue.record(Comment(rawValue: "trial \(trial), batch size \(size): \(other.store.count) samples where a batch per "
                                         + "point gives \(reference.store.count)\n\(texts.joined(separator: "\n"))\n"
                                         + "\(other.receipts)\n\(other.store.joined(separator: "\n"))\n--\n\(reference.receipts)\n"
                                         + reference.store.joined(separator: "\n")))
                }
            }
        }

        /// 400 random payloads of two to seven sendings of the same few times, into an empty store or one holding an
        /// export's samples, in memory: the same store and the same receipt for every batch size.
        func randomPayloadsGiveOneStoreForEveryBatchSize() throws {
            var random = IndependentTestKit.SeededGenerator(seed: 30)
            var failures = 0
            let exported = try Self.exported()
            for trial in 0..<400 {
                let text = Self.randomPayload(&random)
                let before = trial % 3 == 2 ? exported : []
                try Self.compare([text], trial: trial, failures: &failures) { try Self.imported($0, before: before, batchSize: $1) }
            }
            expectEqual(failures, 0)
        }

        /// A random payload, then another of the same times (a re-send whose figures and sources changed), then the
        /// first again: each batch size leaves the same store and receipts after each. (Payloads of one aggregation:
        /// docs/IMPORT.md says where a point sent twice in one file beside a stored point of another aggregation can
        /// depend on the batches.)
        func randomResendsGiveOneStoreForEveryBatchSize() throws {
            var random = IndependentTestKit.SeededGenerator(seed: 32)
            var failures = 0
            for trial in 0..<200 {
                let times = Self.pick(Self.timeSets, &random)
                let first = Self.randomPayload(&random, times: times), second = Self.randomPayload(&random, times: times)
                try Self.compare([first, second, first], trial: trial, failures: &failures) { try Self.imported($0, batchSize: $1) }
            }
            expectEqual(failures, 0)
        }

        /// The same through a file store, whose import writes batches it need not read back straight from the run's
        /// notes (``HAEImportRun``): the same store and receipts as a batch per point in memory.
        func aFileStoreGivesTheSameStoreForEveryBatchSize() throws {
            var random = IndependentTestKit.SeededGenerator(seed: 34)
            var failures = 0
            try ImportTestSupport.withTemporaryDirectory { folder in
                for trial in 0..<40 {
                    let times = Self.pick(Self.timeSets, &random)
                    let texts = [Self.randomPayload(&random, times: times), Self.randomPayload(&random, times: times)]
                    let reference = try Self.imported(texts, batchSize: 1)
                    for size in [1, 3, 20_000] {
                        try Self.compareFileStore(texts, at: folder + "/\(trial)-\(size)", batchSize: size,
                                                  types: [HealthAutoExportTests.heartRate, HealthAutoExportTests.steps],
                                                  window: DateInterval(start: ExportDateParser.parse("2024-05-09 00:00:00 +0000")!, duration: 3 * 86_400),
                                                  with: reference, trial: trial, failures: &failures)
                    }
                }
            }
            expectEqual(failures, 0)
        }

        // MARK: - Sleep sent twice, or in both forms, in one file (found by the session-29 review)

        static let stages = [("2024-05-09 23:00:00", "2024-05-10 01:00:00", "Core"), ("2024-05-10 01:00:00", "2024-05-10 02:00:00", "Deep"),
                             ("2024-05-10 02:00:00", "2024-05-10 03:30:00", "REM")]
            .map { "{\"startDate\":\"\($0.0) +0200\",\"endDate\":\"\($0.1) +0200\",\"value\":\"\($0.2)\",\"source\":\"Watch\"}" }

        /// A night's summary of the newest form (hours; `rem` left out when nil).
        static func night(core: Double, deep: Double, rem: Double?) -> String {
            "{\"date\":\"2024-05-10 00:00:00 +0200\",\"core\":\(core),\"deep\":\(deep)," + (rem.map { "\"rem\":\($0)," } ?? "")
                + "\"totalSleep\":4.5,\"asleep\":0,\"sleepStart\":\"2024-05-09 23:00:00 +0200\",\"sleepEnd\":\"2024-05-10 03:30:00 +0200\",\"source\":\"Watch\"}"
        }

        static func sleepPayload(_ points: [String]) -> String {
            "{\"data\":{\"metrics\":[{\"name\":\"sleep_analysis\",\"units\":\"hr\",\"data\":[" + points.joined(separator: ",") + "]}]}}"
        }

        /// The stored sleep after importing `texts` in batches of `size`: each sample's value and hours.
        static func sleep(_ texts: [String], batchSize size: Int) throws -> (samples: [String], receipts: [String]) {
            let store = InMemorySampleStore()
            let receipts = try importing(texts, into: store, batchSize: size)
            let samples = store.allSamples.filter { $0.typeIdentifier == HealthAutoExportTests.sleep }
                .map { "\($0.value.categoryRawValue ?? -1) \($0.duration / 3600)h" }.sorted()
            return (samples, receipts)
        }

        static let sleepBatchSizes = [1, 2, 3, 7, 20_000]

        /// Stages stored, then a file holding the night's summary twice, whose figures the stages give: the stages
        /// stay and the summary is unchanged, in any batches (a batch holding both sendings counted the summary twice
        /// and replaced the stages with it).
        func aNightSentTwiceBesideItsStoredStagesLeavesThem() throws {
            for size in Self.sleepBatchSizes {
                let result = try Self.sleep([Self.sleepPayload(Self.stages),
                                             Self.sleepPayload([Self.night(core: 2, deep: 1, rem: 1.5), Self.night(core: 2, deep: 1, rem: 1.5)])],
                                            batchSize: size)
                expectEqual(result.samples.count, 3, "batch size \(size): \(result.samples)")
                #expect(result.receipts[1].contains("+0 =6 ~0"), "batch size \(size): \(result.receipts[1])")
            }
        }

        /// A night sent twice in one file, the second time without REM: the REM of the first sending is not kept,
        /// into an empty store and over the night stored before, in any batches (one batch kept it: 6 hours of sleep
        /// in a night of 4.5).
        func aNightSentAgainWithoutAStageLosesIt() throws {
            let twice = Self.sleepPayload([Self.night(core: 2, deep: 1, rem: 1.5), Self.night(core: 3, deep: 1.5, rem: nil)])
            for before in [[], [Self.sleepPayload([Self.night(core: 2, deep: 1, rem: 1.5)])]] {
                let reference = try Self.sleep(before + [twice], batchSize: 1)
                #expect(!reference.samples.contains { $0.hasPrefix("\(CategoryValueSleepAnalysis.asleepREM.rawValue) ") }, "\(reference.samples)")
                for size in Self.sleepBatchSizes.dropFirst() {
                    let result = try Self.sleep(before + [twice], batchSize: size)
                    expectEqual(result.samples, reference.samples, "batch size \(size), \(before.count) file before")
                    expectEqual(result.receipts, reference.receipts, "batch size \(size), \(before.count) file before")
                }
            }
        }

        /// A night's stages and its summary in one file (figures that differ), in either order or with the summary
        /// between two stages: the night is the file's in one form, the same in any batches. Stages that span the
        /// summary's night stand for it (the finer form) and the summary is not written; stages that leave part of it
        /// out give way to the summary. (One batch kept both: 9 hours of sleep in a night of 4.5; a batch per point
        /// kept whichever came last, and stage, summary, stage kept 1 hour of 3.)
        func aNightInBothFormsInOneFileIsStoredInOne() throws {
            let summary = Self.night(core: 2, deep: 1.5, rem: 1)
            let stageValues = Set([CategoryValueSleepAnalysis.asleepCore, .asleepDeep, .asleepREM].map(\.rawValue))
            for points in [Self.stages + [summary], [summary] + Self.stages, [Self.stages[0], summary, Self.stages[1], Self.stages[2]]] {
                let reference = try Self.sleep([Self.sleepPayload(points)], batchSize: 1)
                // The stages: Core 2 h, Deep 1 h, REM 1.5 h.
                expectEqual(reference.samples, ["\(CategoryValueSleepAnalysis.asleepCore.rawValue) 2.0h",
                                                "\(CategoryValueSleepAnalysis.asleepDeep.rawValue) 1.0h",
                                                "\(CategoryValueSleepAnalysis.asleepREM.rawValue) 1.5h"])
                #expect(reference.samples.allSatisfy { stageValues.contains(Int($0.split(separator: " ")[0]) ?? -1) })
                for size in Self.sleepBatchSizes.dropFirst() {
                    let other = try Self.sleep([Self.sleepPayload(points)], batchSize: size)
                    expectEqual(other.samples, reference.samples, "batch size \(size)")
                    expectEqual(other.receipts, reference.receipts, "batch size \(size)")
                }
            }
            // Two stages that leave the night's last 1.5 hours out: the summary stands, in either order.
            for points in [Array(Self.stages.prefix(2)) + [summary], [summary] + Array(Self.stages.prefix(2))] {
                for size in Self.sleepBatchSizes {
                    let result = try Self.sleep([Self.sleepPayload(points)], batchSize: size)
                    expectEqual(result.samples, ["\(CategoryValueSleepAnalysis.asleepCore.rawValue) 2.0h",
                                                 "\(CategoryValueSleepAnalysis.asleepDeep.rawValue) 1.5h",
                                                 "\(CategoryValueSleepAnalysis.asleepREM.rawValue) 1.0h"], "batch size \(size)")
                }
            }
        }

        /// A night of the oldest form, whose asleep and in-bed parts come from two related sources (`sleepSource`,
        /// `inBedSource`): one point, so its in-bed part never drops its asleep part, imported again and beside other
        /// sleep in the file, in any batches (the asleep 6 hours were lost on the second import, and on the first in a
        /// batch holding a stage of another night).
        func aNightWhosePartsHaveTheirOwnSourcesKeepsThem() throws {
            let night = "{\"date\":\"2024-05-10 00:00:00 +0200\",\"asleep\":6,\"inBed\":7,\"sleepStart\":\"2024-05-09 23:00:00 +0200\","
                + "\"sleepEnd\":\"2024-05-10 05:00:00 +0200\",\"inBedStart\":\"2024-05-09 22:30:00 +0200\",\"inBedEnd\":\"2024-05-10 05:30:00 +0200\","
                + "\"sleepSource\":\"Watch\",\"inBedSource\":\"Watch|iPhone\"}"
            let stage = "{\"startDate\":\"2024-05-07 22:00:00 +0200\",\"endDate\":\"2024-05-07 23:00:00 +0200\",\"value\":\"Core\",\"source\":\"Watch\"}"
            let asleep = "\(CategoryValueSleepAnalysis.asleepUnspecified.rawValue) 6.0h", inBed = "\(CategoryValueSleepAnalysis.inBed.rawValue) 7.0h"
            let core = "\(CategoryValueSleepAnalysis.asleepCore.rawValue) 1.0h"
            for size in Self.sleepBatchSizes {
                let again = try Self.sleep([Self.sleepPayload([night]), Self.sleepPayload([night])], batchSize: size)
                expectEqual(again.samples, [asleep, inBed].sorted(), "batch size \(size)")
                #expect(again.receipts[1].contains("+0 =2 ~0"), "batch size \(size): \(again.receipts)")
                let beside = try Self.sleep([Self.sleepPayload([night, stage])], batchSize: size)
                expectEqual(beside.samples, [asleep, inBed, core].sorted(), "batch size \(size)")
                let twice = try Self.sleep([Self.sleepPayload([night, night])], batchSize: size)
                expectEqual(twice.samples, [asleep, inBed].sorted(), "batch size \(size)")
            }
        }

        /// The same point sent 3,000 times in one file with a growing figure: the last one stands, once, with version 1
        /// (the earlier sendings are superseded in the file, ``HAELaterSendings``, and count as unchanged). The plan
        /// given all 3,000 in one batch leaves the last too, each sending meeting only the one before it (the list of a
        /// point's sendings is kept short).
        func aPointSentManyTimesInOneBatchLeavesTheLast() throws {
            let points = (0..<3_000).map { Self.point(time: "2024-05-10 08:01:00 +0200", figures: "\"qty\":\($0 + 1)", source: "Watch") }
            let text = "{\"data\":{\"metrics\":[{\"name\":\"step_count\",\"units\":\"count\",\"data\":[" + points.joined(separator: ",") + "]}]}}"
            let result = try Self.imported([text], batchSize: 20_000)
            expectEqual(result.store.count, 1)
            #expect(result.store.first?.contains("quantity(3000 count) Watch v1") == true, "\(result.store)")
            #expect(result.receipts[0].contains("+1 =2999 ~0"), "\(result.receipts)")
            let plan = HAEWritePlan.plan(try HAEFastPathTests.candidates(text), stored: [])
            expectEqual(plan.writes.count, 1)
            expectEqual(plan.writes.first?.value, .quantity(Quantity(3000, try HealthUnit(parsing: "count"))))
            expectEqual(plan.outcomes.filter { $0 == .replaced }.count, 2999)
        }

        /// Random nights: two nights' stages from one or two sources, and their summaries sent one to four times
        /// with parts that come and go (a stage at 0 hours is not sent), from the same, a related or another source,
        /// in order or shuffled; imported once, twice, or followed by another such file: the same sleep and the same
        /// receipts in any batches.
        func randomNightsGiveOneStoreForEveryBatchSize() throws {
            var random = IndependentTestKit.SeededGenerator(seed: 36)
            var failures = 0
            let sources = ["Watch", "Watch|iPhone", "Ring"]
            func stages(night: Int, source: String) -> [String] {
                var at = 23 * 60 + Int(random.next() % 30)
                return (0..<(2 + Int(random.next() % 4))).map { _ in
                    let length = 20 + Int(random.next() % 80)
                    defer { at += length }
                    let day = 9 + night + at / (24 * 60)
                    let from = at % (24 * 60), to = (at + length) % (24 * 60)
                    let toDay = 9 + night + (at + length) / (24 * 60)
                    return "{\"startDate\":\"2024-05-\(String(format: "%02d", day)) \(String(format: "%02d:%02d", from / 60, from % 60)):00 +0200\","
                        + "\"endDate\":\"2024-05-\(String(format: "%02d", toDay)) \(String(format: "%02d:%02d", to / 60, to % 60)):00 +0200\","
                        + "\"value\":\"\(Self.pick(["Core", "Deep", "REM", "Awake"], &random))\",\"source\":\"\(source)\"}"
                }
            }
            func summary(night: Int, source: String) -> String {
                let parts = ["core", "deep", "rem", "awake"].compactMap { name -> (String, Double)? in
                    let hours = Double(random.next() % 5) / 2
                    return hours == 0 ? nil : (name, hours)
                }
                let asleep = parts.filter { $0.0 != "awake" }.reduce(0) { $0 + $1.1 }
                let day = String(format: "%02d", 10 + night)
                return "{\"date\":\"2024-05-\(day) 00:00:00 +0200\"," + parts.map { "\"\($0.0)\":\($0.1)," }.joined()
                    + "\"totalSleep\":\(asleep),\"asleep\":0,\"sleepStart\":\"2024-05-\(String(format: "%02d", 9 + night)) 23:00:00 +0200\","
                    + "\"sleepEnd\":\"2024-05-\(day) 06:00:00 +0200\",\"source\":\"\(source)\"}"
            }
            func payload() -> String {
                var points: [String] = []
                for night in 0..<2 where random.next() % 3 != 0 {
                    points += stages(night: night, source: Self.pick(sources, &random))
                }
                for _ in 0..<(1 + Int(random.next() % 4)) {
                    points.append(summary(night: Int(random.next() % 2), source: Self.pick(sources, &random)))
                }
                // Half the files in another order (summaries before stages, or between them).
                if random.next() % 2 == 0 { points.shuffle(using: &random) }
                return Self.sleepPayload(points)
            }
            for trial in 0..<150 {
                let text = payload()
                let texts = [[text], [text, text], [text, payload()]][trial % 3]
                let reference = try Self.sleep(texts, batchSize: 1)
                for size in Self.sleepBatchSizes.dropFirst() {
                    let other = try Self.sleep(texts, batchSize: size)
                    guard other.samples != reference.samples || other.receipts != reference.receipts else { continue }
                    failures += 1
                    if failures <= 3 {
                        Issue.record(Comment(rawValue: "trial \(trial), batch size \(size):\n\(texts.joined(separator: "\n"))\n\(other.receipts)\n"
                                             + "\(other.samples)\n--\n\(reference.receipts)\n\(reference.samples)"))
                    }
                }
            }
            expectEqual(failures, 0)
        }
    }
}

/// The checks ``ImportTests.HAEBatchSizeTests/checks(_:)`` runs.
private let hAEBatchSizeTestsChecks: [Check<ImportTests.HAEBatchSizeTests>] = [
    Check("randomPayloadsGiveOneStoreForEveryBatchSize", ImportTests.HAEBatchSizeTests.randomPayloadsGiveOneStoreForEveryBatchSize),
    Check("randomResendsGiveOneStoreForEveryBatchSize", ImportTests.HAEBatchSizeTests.randomResendsGiveOneStoreForEveryBatchSize),
    Check("aFileStoreGivesTheSameStoreForEveryBatchSize", ImportTests.HAEBatchSizeTests.aFileStoreGivesTheSameStoreForEveryBatchSize),
    Check("aNightSentTwiceBesideItsStoredStagesLeavesThem", ImportTests.HAEBatchSizeTests.aNightSentTwiceBesideItsStoredStagesLeavesThem),
    Check("aNightSentAgainWithoutAStageLosesIt", ImportTests.HAEBatchSizeTests.aNightSentAgainWithoutAStageLosesIt),
    Check("aNightInBothFormsInOneFileIsStoredInOne", ImportTests.HAEBatchSizeTests.aNightInBothFormsInOneFileIsStoredInOne),
    Check("aNightWhosePartsHaveTheirOwnSourcesKeepsThem", ImportTests.HAEBatchSizeTests.aNightWhosePartsHaveTheirOwnSourcesKeepsThem),
    Check("aPointSentManyTimesInOneBatchLeavesTheLast", ImportTests.HAEBatchSizeTests.aPointSentManyTimesInOneBatchLeavesTheLast),
    Check("randomNightsGiveOneStoreForEveryBatchSize", ImportTests.HAEBatchSizeTests.randomNightsGiveOneStoreForEveryBatchSize),
]
