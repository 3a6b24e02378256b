import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

extension ImportTests {
    /// Session 19's review of dry runs of Health Auto Export payloads: a dry run's receipt must be the receipt of the
    /// real import that follows it into the same store (docs/RELIABILITY.md: "`import --dry-run` of HAE payloads gives
    /// the real import's receipt and writes nothing").
    struct S19ReviewHAEDryRunTests {
        /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
        /// build a tenth of a `@Test` apiece (README.md, "Development").
        @Test(arguments: s19ReviewHAEDryRunTestsChecks)
        func checks(_ check: Check<Self>) async throws {
            try await check.run(on: Self())
        }

        typealias Direct = S19ReviewHAEDirectTests

        /// Dry-runs then imports each payload in turn into one store, in batches of `batchSize`; returns each step's
        /// (dry run, real) receipt counts and whether the dry run left the store's files as they were.
        static func dryThenReal(_ payloads: [String], batchSize: Int) throws
            -> [(dry: [String: ImportReceipt.Counts], real: [String: ImportReceipt.Counts], untouched: Bool)] {
            try ImportTestSupport.withTemporaryDirectory { folder in
                let store = HAEFastPathTests.store(folder + "/s")
                var steps: [(dry: [String: ImportReceipt.Counts], real: [String: ImportReceipt.Counts], untouched: Bool)] = []
                for (number, text) in payloads.enumerated() {
                    let before = (try? HAEFastPathTests.canonicalFiles(store.path)) ?? [:]
                    let dry = try HealthImporter(store: store, dryRun: true, batchSize: batchSize, timeZone: HAEFastPathTests.berlin)
                        .importHealthAutoExport(HealthAutoExportPayload(bytes: Array(text.utf8), name: "p\(number).json"), receivedThrough: nil)
                    let after = (try? HAEFastPathTests.canonicalFiles(store.path)) ?? [:]
                    let real = try HealthImporter(store: store, batchSize: batchSize, timeZone: HAEFastPathTests.berlin)
                        .importHealthAutoExport(HealthAutoExportPayload(bytes: Array(text.utf8), name: "p\(number).json"), receivedThrough: nil)
                    steps.append((dry.counts, real.counts, before == after))
                }
                return steps
            }
        }

        /// Payloads that hold no point twice: the dry run says exactly what the import does, at every step (fresh,
        /// the same again, grown, in small and whole batches).
        func aDryRunOfPayloadsWithoutRepeatsGivesTheRealReceipt() throws {
            let base = (0..<30).map { "{\"date\":\"\(Direct.at($0 * 2))\",\"qty\":\(20 + $0),\"source\":\"Watch\"}" }
            let grown = (0..<45).map { "{\"date\":\"\(Direct.at($0 * 2))\",\"qty\":\($0 % 4 == 0 ? 77 : 20 + $0),\"source\":\"Watch\"}" }
            let heart = (0..<30).map { "{\"Min\":\(50 + $0),\"Avg\":\(60 + $0),\"Max\":\(70 + $0),\"date\":\"\(Direct.at($0 * 2))\"}" }
            let one = Direct.payload([("step_count", "count", base), ("heart_rate", "count/min", heart)])
            let two = Direct.payload([("step_count", "count", grown), ("heart_rate", "count/min", heart)])
            for batchSize in [7, 20_000] {
                for (number, step) in try Self.dryThenReal([one, one, two, Direct.oddPayload(), two], batchSize: batchSize).enumerated() {
                    expectEqual(step.dry, step.real, "batch size \(batchSize), step \(number)")
                    #expect(step.untouched, "batch size \(batchSize), step \(number)")
                }
            }
        }

        /// A payload that holds the same points twice (a metric sent twice, as a re-send appended to a file does), in
        /// batches that put the copies apart: the import stores the first copy and finds the second unchanged (or
        /// replaces it), but the dry run plans every batch against the store as it was and counts every copy as added.
        func aDryRunOfAPayloadWithRepeatsAcrossBatchesGivesTheRealReceipt() throws {
            let points = (0..<10).map { "{\"date\":\"\(Direct.at($0))\",\"qty\":\(20 + $0),\"source\":\"Watch\"}" }
            let twice = Direct.payload([("step_count", "count", points), ("step_count", "count", points)])
            let steps = try Self.dryThenReal([twice], batchSize: 5)
            // The real import: 10 added, 10 unchanged. The dry run: 20 added.
            expectEqual(steps[0].real[HealthAutoExportTests.steps]?.added, 10)
            expectEqual(steps[0].real[HealthAutoExportTests.steps]?.alreadyPresent, 10)
            expectEqual(steps[0].dry, steps[0].real)
        }

        /// The copy sent later has grown: the import replaces what grew and finds the rest unchanged; the dry run says
        /// the same, in batches that part the copies and in one batch.
        func aDryRunOfAPayloadWhoseLaterCopyGrewGivesTheRealReceipt() throws {
            let first = (0..<10).map { "{\"date\":\"\(Direct.at($0))\",\"qty\":\(20 + $0),\"source\":\"Watch\"}" }
            let grown = (0..<12).map { "{\"date\":\"\(Direct.at($0))\",\"qty\":\($0 < 4 ? 90 : 20 + $0),\"source\":\"Watch\"}" }
            let payload = Direct.payload([("step_count", "count", first), ("step_count", "count", grown)])
            for batchSize in [3, 5, 20_000] {
                let steps = try Self.dryThenReal([payload], batchSize: batchSize)
                expectEqual(steps[0].dry, steps[0].real, "batch size \(batchSize)")
                #expect(steps[0].untouched, "batch size \(batchSize)")
            }
            // The first copy's 10 points are sent again by the second: they count as unchanged, the second's 12 added.
            let parted = try Self.dryThenReal([payload], batchSize: 5)[0].real[HealthAutoExportTests.steps]
            #expect(parted?.added == 12 && parted?.replaced == 0 && parted?.alreadyPresent == 10, "\(String(describing: parted))")
        }

        /// A folder's files in one run (`importFile` of a folder stores them as one run): a day, then the same day
        /// re-sent grown in the next file. The dry run meets the first file's points as the import does.
        func aDryRunOfSeveralFilesInOneRunGivesTheRealReceipt() throws {
            let day = (0..<20).map { "{\"date\":\"\(Direct.at($0))\",\"qty\":\(20 + $0),\"source\":\"Watch\"}" }
            let resent = (0..<24).map { "{\"date\":\"\(Direct.at($0))\",\"qty\":\($0 % 5 == 0 ? 70 : 20 + $0),\"source\":\"Watch\"}" }
            let files = [Direct.payload([("step_count", "count", day)]), Direct.payload([("step_count", "count", resent)]),
                         Direct.payload([("step_count", "count", resent)])]
            try ImportTestSupport.withTemporaryDirectory { folder in
                try FileManager.default.createDirectory(atPath: folder + "/in", withIntermediateDirectories: true)
                for (number, text) in files.enumerated() {
                    try text.write(toFile: folder + "/in/\(number).json", atomically: true, encoding: .utf8)
                }
                let store = HAEFastPathTests.store(folder + "/s")
                let dry = try HealthImporter(store: store, dryRun: true, timeZone: HAEFastPathTests.berlin).importFile(atPath: folder + "/in")
                #expect(!FileManager.default.fileExists(atPath: folder + "/s/samples"))
                let real = try HealthImporter(store: store, timeZone: HAEFastPathTests.berlin).importFile(atPath: folder + "/in")
                let steps = real.counts[HealthAutoExportTests.steps]
                // The first file's 20 and the second's 24 are sent again by the third: 44 unchanged, the third's 24 added.
                #expect(steps?.added == 24 && steps?.replaced == 0 && steps?.alreadyPresent == 44, "\(String(describing: steps))")
                expectEqual(dry.counts, real.counts)
            }
        }

        /// The same for the in-memory store a library user may import into.
        func aDryRunIntoTheInMemoryStoreMeetsItsOwnEarlierBatches() throws {
            let points = (0..<10).map { "{\"date\":\"\(Direct.at($0))\",\"qty\":\(20 + $0),\"source\":\"Watch\"}" }
            let twice = Array(Direct.payload([("step_count", "count", points), ("step_count", "count", points)]).utf8)
            let store = InMemorySampleStore()
            let dry = try HealthImporter(store: store, dryRun: true, batchSize: 5, timeZone: HAEFastPathTests.berlin)
                .importHealthAutoExport(HealthAutoExportPayload(bytes: twice, name: "twice.json"), receivedThrough: nil)
            #expect(try store.samples(ofType: HealthAutoExportTests.steps, overlapping: DateInterval(start: .distantPast, end: .distantFuture)).isEmpty)
            let real = try HealthImporter(store: store, batchSize: 5, timeZone: HAEFastPathTests.berlin)
                .importHealthAutoExport(HealthAutoExportPayload(bytes: twice, name: "twice.json"), receivedThrough: nil)
            expectEqual(real.counts[HealthAutoExportTests.steps]?.added, 10)
            expectEqual(dry.counts, real.counts)
        }
    }
}

/// The checks ``ImportTests.S19ReviewHAEDryRunTests/checks(_:)`` runs.
private let s19ReviewHAEDryRunTestsChecks: [Check<ImportTests.S19ReviewHAEDryRunTests>] = [
    Check("aDryRunOfPayloadsWithoutRepeatsGivesTheRealReceipt",
          ImportTests.S19ReviewHAEDryRunTests.aDryRunOfPayloadsWithoutRepeatsGivesTheRealReceipt),
    Check("aDryRunOfAPayloadWithRepeatsAcrossBatchesGivesTheRealReceipt",
          ImportTests.S19ReviewHAEDryRunTests.aDryRunOfAPayloadWithRepeatsAcrossBatchesGivesTheRealReceipt),
    Check("aDryRunOfAPayloadWhoseLaterCopyGrewGivesTheRealReceipt",
          ImportTests.S19ReviewHAEDryRunTests.aDryRunOfAPayloadWhoseLaterCopyGrewGivesTheRealReceipt),
    Check("aDryRunOfSeveralFilesInOneRunGivesTheRealReceipt",
          ImportTests.S19ReviewHAEDryRunTests.aDryRunOfSeveralFilesInOneRunGivesTheRealReceipt),
    Check("aDryRunIntoTheInMemoryStoreMeetsItsOwnEarlierBatches",
          ImportTests.S19ReviewHAEDryRunTests.aDryRunIntoTheInMemoryStoreMeetsItsOwnEarlierBatches),
]
