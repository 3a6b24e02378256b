import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

/// How an import's batches reach the store: through a journal that holds only each partition's length before the
/// batch (an interrupted batch is cut off again, and the import is run again), with the partitions synced in
/// groups of at most ``JSONFileStore/partitionsPerSync`` open files.
struct ImportJournalTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: importJournalTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// An export with one steps record a day (or every `stride` days), starting 2020-01-01 UTC.
    static func steps(days: Range<Int>, stride: Int = 1) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        let first = Date(timeIntervalSince1970: 1_577_865_600 + 8 * 3600)  // 2020-01-01 08:00 UTC
        let records = days.map { day -> String in
            let start = first.addingTimeInterval(Double(day * stride) * 86_400)
            return ImportTestSupport.record(value: String(100 + day), start: formatter.string(from: start),
                                            end: formatter.string(from: start.addingTimeInterval(600)))
        }
        return ImportTestSupport.export(records.joined(separator: "\n"))
    }

    /// Every steps sample's value in the store, sorted.
    static func values(_ store: JSONFileStore) throws -> [Double] {
        var values: [Double] = []
        let everything = DateInterval(start: Date(timeIntervalSince1970: 0), duration: 100 * 365 * 86_400)
        try store.forEachSample(ofType: SampleType.steps.identifier, overlapping: everything) { values.append($0.value.quantity?.value ?? -1) }
        return values.sorted()
    }

    /// Each partition file's size, by path relative to the store.
    static func sizes(_ store: JSONFileStore) throws -> [String: Int] {
        let folder = store.path + "/" + JSONFileStore.typeFolder(SampleType.steps.identifier)
        var sizes: [String: Int] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            sizes[JSONFileStore.typeFolder(SampleType.steps.identifier) + "/" + name] =
                (try FileManager.default.attributesOfItem(atPath: folder + "/" + name)[.size] as? Int) ?? -1
        }
        return sizes
    }

    func anImportBatchJournalsOnlyTheLengthsBeforeIt() throws {
        try ImportTestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store")
            _ = try ImportTestSupport.importXML(Self.steps(days: 0..<40), into: store)
            let before = try Self.sizes(store)
            expectEqual(before.count, 2, "January and February 2020: \(before)")
            var journal: String?
            store.afterPartitionWrite = { _ in
                if journal == nil { journal = try String(contentsOfFile: store.journalPath, encoding: .utf8) }
            }
            // Days 20 to 39 are there already; 40 to 99 reach into February, March and April.
            let receipt = try ImportTestSupport.importXML(Self.steps(days: 20..<100), into: store)
            #expect(!receipt.counts.isEmpty)
            let text = try #require(journal)
            expectEqual(text.split(separator: "\n").count, 1, "the journal holds no lines: \(text)")
            let header = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            expectEqual(header["journal"] as? Int, 2)
            expectEqual(header["undo"] as? Bool, true)
            let partitions = try #require(header["partitions"] as? [[String: Any]])
            let recorded = Dictionary(uniqueKeysWithValues: partitions.map { ($0["path"] as? String ?? "", $0["length"] as? Int ?? -1) })
            expectEqual(recorded.count, 3, "\(recorded)")
            for (path, length) in recorded { #expect(length == before[path] ?? 0, "\(path): \(length), was \(before[path] ?? 0)") }
            #expect(!FileManager.default.fileExists(atPath: store.journalPath))
            try expectEqual(Self.values(store), (0..<100).map { Double(100 + $0) })
        }
    }

    func aBatchThatFailsPartWayIsCutBackThenImportedByTheNextRun() throws {
        try ImportTestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store")
            _ = try ImportTestSupport.importXML(Self.steps(days: 0..<40), into: store)
            let before = try Self.sizes(store)
            struct Stop: Error {}
            store.afterPartitionWrite = { written in if written == 2 { throw Stop() } }
            #expect(throws: (any Error).self) { try ImportTestSupport.importXML(Self.steps(days: 20..<100), into: store) }
            // February got lines and March was created before the failure: both are back as they were.
            let after = try Self.sizes(store)
            for (path, size) in after { #expect(size == before[path] ?? 0, "\(path) is \(size) bytes, was \(before[path] ?? 0)") }
            #expect(!FileManager.default.fileExists(atPath: store.journalPath))
            try expectEqual(Self.values(store), (0..<40).map { Double(100 + $0) })

            store.afterPartitionWrite = nil
            _ = try ImportTestSupport.importXML(Self.steps(days: 20..<100), into: store)
            try expectEqual(Self.values(store), (0..<100).map { Double(100 + $0) }, "every record once after the run again")
        }
    }

    func aBatchOverManyMonthsHoldsFewFilesOpen() throws {
        try ImportTestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store")
            var mostOpen = 0
            store.afterPartitionWrite = { written in mostOpen = max(mostOpen, written) }
            // One record every 31 days: 150 months in one batch.
            _ = try ImportTestSupport.importXML(Self.steps(days: 0..<150, stride: 31), into: store)
            expectEqual(mostOpen, JSONFileStore.partitionsPerSync, "at most \(JSONFileStore.partitionsPerSync) open, saw \(mostOpen)")
            try expectEqual(Self.sizes(store).count, 150)
            try expectEqual(Self.values(store).count, 150)
        }
    }
}

/// The checks ``ImportJournalTests/checks(_:)`` runs.
private let importJournalTestsChecks: [Check<ImportJournalTests>] = [
    Check("anImportBatchJournalsOnlyTheLengthsBeforeIt",
          ImportJournalTests.anImportBatchJournalsOnlyTheLengthsBeforeIt),
    Check("aBatchThatFailsPartWayIsCutBackThenImportedByTheNextRun",
          ImportJournalTests.aBatchThatFailsPartWayIsCutBackThenImportedByTheNextRun),
    Check("aBatchOverManyMonthsHoldsFewFilesOpen", ImportJournalTests.aBatchOverManyMonthsHoldsFewFilesOpen),
]
