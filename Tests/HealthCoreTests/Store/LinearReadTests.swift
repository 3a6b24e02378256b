import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Issue 29, items 8 and 9: reads stay linear in the store and a page of changes holds no more than the page, checked
/// by what the store decoded and held (``ReadCounts``), never by timing.
struct LinearReadTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: linearReadTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    let now = TestSupport.referenceNow

    /// `months` months of water, `perMonth` samples each from 2021-01, every `deleteEvery`-th deleted: returns the
    /// store and how many tombstones it holds.
    private func storeWithTombstones(_ folder: String, months: Int = 36, perMonth: Int = 12, deleteEvery: Int = 2)
        throws -> (store: JSONFileStore, tombstones: Int) {
        let store = JSONFileStore(path: folder + "/store")
        var samples: [Sample] = []
        for month in 0..<months {
            for index in 0..<perMonth {
                let start = String(format: "%04d-%02d-%02dT08:00:00Z", 2021 + month / 12, month % 12 + 1, index + 1)
                samples.append(TestSupport.quantitySample(.water, Double(100 + index), "mL", start: start))
            }
        }
        try store.save(samples)
        let doomed = samples.enumerated().filter { $0.offset % deleteEvery == 0 }.map(\.element.uuid)
        try store.delete(uuids: doomed, now: now)
        return (store, doomed.count)
    }

    /// Item 9: an export reads month by month, yet decodes each tombstone once, not once a month.
    func anExportDecodesEachTombstoneOnce() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let (store, tombstones) = try storeWithTombstones(folder)
            let reader = JSONFileStore(path: store.path)
            let output = FileDestination(path: folder + "/export.jsonl")
            let summary = try SampleExporter(store: reader).export(
                types: nil, interval: DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd),
                format: .jsonl, exportDate: now, to: output)
            expectEqual(summary.total, 36 * 12 - tombstones)
            #expect(reader.readCounts.current.tombstoneLinesDecoded <= tombstones,
                    "decoded \(reader.readCounts.current.tombstoneLinesDecoded) tombstone lines for \(tombstones) tombstones")
        }
    }

    /// Item 9, for every reader that goes month by month (a re-import's identity index, the look-alike finder): each
    /// tombstone is decoded once, and what each month shows is what a fresh instance shows.
    func readingMonthByMonthDecodesEachTombstoneOnce() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let (store, tombstones) = try storeWithTombstones(folder)
            let reader = JSONFileStore(path: store.path)
            for month in 0..<36 {
                let start = IdentityIndex.startOfMonth(2021 * 12 + month)
                let interval = DateInterval(start: start, end: IdentityIndex.startOfMonth(2021 * 12 + month + 1))
                let seen = try reader.samples(ofType: SampleType.water.identifier, overlapping: interval).map(\.uuid)
                let fresh = try JSONFileStore(path: store.path).samples(ofType: SampleType.water.identifier, overlapping: interval)
                expectEqual(seen, fresh.map(\.uuid))
                expectEqual(seen.count, 6)
            }
            #expect(reader.readCounts.current.tombstoneLinesDecoded <= tombstones)
        }
    }

    /// Item 9, the re-import: an export whose records alternate between types day by day (as the Health app's and the
    /// benchmark's do) goes through the identity index month by month and type by type, yet each tombstone is decoded
    /// once.
    func aReimportDecodesEachTombstoneOnce() throws {
        try TestSupport.withTemporaryDirectory { folder in
            typealias Support = ImportTestSupport
            let types = ["HKQuantityTypeIdentifierStepCount", "HKQuantityTypeIdentifierDietaryWater",
                         "HKQuantityTypeIdentifierActiveEnergyBurned", "HKQuantityTypeIdentifierHeartRate",
                         "HKQuantityTypeIdentifierDistanceWalkingRunning", "HKQuantityTypeIdentifierBodyMass"]
            let units = ["count", "mL", "kcal", "count/min", "km", "kg"]
            var records: [String] = []
            for day in 0..<240 {
                let (year, month, dayOfMonth) = ISODate.civil(fromDays: 19_358 + day)  // from 2023-01-01
                let stamp = String(format: "%04d-%02d-%02d 12:00:00 +0000", year, month, dayOfMonth)
                for (type, unit) in zip(types, units) {
                    records.append(Support.record(type, value: "\(50 + day % 40)", unit: unit, start: stamp, end: stamp))
                }
            }
            let export = Support.export(records.joined(separator: "\n"))
            let store = JSONFileStore(path: folder + "/store")
            _ = try Support.importXML(export, into: store)
            var tombstones = 0
            let firstHalf = DateInterval(start: TestSupport.date("2023-01-01T00:00:00Z"), end: TestSupport.date("2023-05-01T00:00:00Z"))
            for type in types { tombstones += try store.delete(ofType: type, overlapping: firstHalf, now: now).count }
            expectEqual(tombstones, 6 * 120)
            let reader = JSONFileStore(path: store.path)
            _ = try Support.importXML(export, into: reader)
            #expect(reader.readCounts.current.tombstoneLinesDecoded <= tombstones,
                    "decoded \(reader.readCounts.current.tombstoneLinesDecoded) tombstone lines for \(tombstones) tombstones")
        }
    }

    /// What an instance remembers of the tombstones follows every change another process makes: a deletion appended,
    /// a compaction that drops tombstones, a deleted sample restored by an import.
    func rememberedDeletionsFollowOtherWriters() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let (store, _) = try storeWithTombstones(folder, months: 3, perMonth: 4)
            let water = SampleType.water.identifier
            let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
            let reader = JSONFileStore(path: store.path)
            func visible() throws -> [UUID] { try reader.samples(ofType: water, overlapping: everything).map(\.uuid) }
            func truth() throws -> [UUID] { try JSONFileStore(path: store.path).samples(ofType: water, overlapping: everything).map(\.uuid) }
            try expectEqual(visible().count, 6)
            // Another instance deletes one more: the reader reads only the new tombstone.
            let before = reader.readCounts.current.tombstoneLinesDecoded
            let victim = try #require(try truth().first)
            let other = JSONFileStore(path: store.path)
            try other.delete(uuids: [victim], now: now)
            try expectEqual(visible(), truth())
            try expectEqual(visible().count, 5)
            #expect(reader.readCounts.current.tombstoneLinesDecoded - before <= 2)
            // A compaction that drops every tombstone (a new file).
            _ = try other.compact(now: now.addingTimeInterval(86_400), retention: 0)
            try expectEqual(visible(), truth())
            // A deleted sample brought back by an import (its own rules), then deleted again.
            let restored = TestSupport.quantitySample(.water, 999, "mL", start: "2021-02-20T08:00:00Z")
            try other.saveChecked([restored])
            try expectEqual(visible(), truth())
            try other.delete(uuids: [restored.uuid], now: now)
            try expectEqual(visible(), truth())
            #expect(try !visible().contains(restored.uuid))
            // The file rewritten in place, as a replaced file that got a freed inode number back would look, no
            // shorter: its first deletion gone, two others added. What was remembered no longer applies.
            let file = store.path + "/" + JSONFileStore.tombstonePath(water)
            var lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
            let standing = try truth()
            for (offset, uuid) in standing.prefix(2).enumerated() {
                lines.append(JSONFileStore.encode(Tombstone(uuid: uuid, typeIdentifier: water, deletedAt: now,
                                                            sequence: 10_000 + UInt64(offset), source: "hkctl"),
                                                  timeZone: .gmt))
            }
            let handle = try #require(FileHandle(forWritingAtPath: file))
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: Data((lines.dropFirst().joined(separator: "\n") + "\n").utf8))
            try handle.close()
            try expectEqual(visible(), truth())
            try expectEqual(visible().count, standing.count - 1)
        }
    }

    /// Item 8: a page of `limit` changes holds at most `limit` changes at once, whatever the store holds, and pages
    /// through exactly what one unlimited call returns, also after a compaction dropped every tombstone (item 12).
    @Test(arguments: [1, 7, 50], [false, true])
    func aPageOfChangesHoldsNoMoreThanThePage(limit: Int, compacted: Bool) throws {
        try TestSupport.withTemporaryDirectory { folder in
            // A year of samples (each page reads the whole store, so a page of one costs the square of its size).
            let (store, _) = try storeWithTombstones(folder, months: 12, perMonth: 20, deleteEvery: 3)
            try store.save([TestSupport.quantitySample(.steps, 1000, "count", start: "2021-03-01T10:00:00Z")])
            if compacted { _ = try store.compact(now: now.addingTimeInterval(86_400), retention: 0) }
            let all = try JSONFileStore(path: store.path).changes(since: .beginning)
            #expect(all.added.count + all.deleted.count > (compacted ? 150 : 200))
            let reader = JSONFileStore(path: store.path)
            // Lines of one file come in change order, so a page decodes at most `limit` lines of each file (session 46:
            // every line after the anchor before, the whole store for the first page).
            let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
            let files = try reader.typeIdentifiersOnDisk().map { try reader.partitions(ofType: $0, overlapping: everything).count }
                .reduce(0, +)
            #expect(files == 13)
            var anchor = ChangeAnchor.beginning
            var added: [UUID] = [], deleted: [UUID] = []
            for _ in 0..<2_000 {
                let page = try reader.changes(since: anchor, limit: limit)
                #expect(reader.readCounts.current.changesHeldAtOnce <= limit,
                        "held \(reader.readCounts.current.changesHeldAtOnce) changes for a page of \(limit)")
                #expect(reader.readCounts.current.linesDecodedForChanges <= limit * files,
                        "decoded \(reader.readCounts.current.linesDecodedForChanges) lines for a page of \(limit)")
                #expect(page.added.count + page.deleted.count <= limit)
                added += page.added.map(\.uuid)
                deleted += page.deleted.map(\.uuid)
                if page.added.isEmpty && page.deleted.isEmpty { break }
                anchor = page.anchor
            }
            expectEqual(added, all.added.map(\.uuid))
            expectEqual(deleted, all.deleted.map(\.uuid))
        }
    }
}

/// The checks ``LinearReadTests/checks(_:)`` runs.
private let linearReadTestsChecks: [Check<LinearReadTests>] = [
    Check("anExportDecodesEachTombstoneOnce", LinearReadTests.anExportDecodesEachTombstoneOnce),
    Check("readingMonthByMonthDecodesEachTombstoneOnce", LinearReadTests.readingMonthByMonthDecodesEachTombstoneOnce),
    Check("aReimportDecodesEachTombstoneOnce", LinearReadTests.aReimportDecodesEachTombstoneOnce),
    Check("rememberedDeletionsFollowOtherWriters", LinearReadTests.rememberedDeletionsFollowOtherWriters),
]
