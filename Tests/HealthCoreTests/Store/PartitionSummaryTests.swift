#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Per-partition summaries (docs/STORE.md, "Derived files"): built from the lines, used only while the partition and
/// the type's tombstones are as they were, ignored and built again when missing, stale, damaged or foreign, and never
/// changing a figure: a statistic read through them equals, to the last bit, the one read from the lines.
struct PartitionSummaryTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: partitionSummaryTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit

    // MARK: Fixtures

    /// A store with steps of three sources from mid-January to mid-May 2024 (integer counts; samples inside an hour,
    /// across hours, ending on the hour, instants, a few over two days), a month where one source writes fractions
    /// (no summary can be exact there), and a few deletions.
    private func generatedStore(_ folder: String, seed: UInt64) throws -> JSONFileStore {
        let store = JSONFileStore(path: folder + "/store")
        var generator = Kit.SeededGenerator(seed: seed)
        let origin = Kit.utc(2024, 1, 15).timeIntervalSince1970
        let sources: [(String, String?)] = [("Watch", "name:Apple Watch, model:Watch"), ("Phone", "name:iPhone"), ("Ring", nil)]
        var samples: [Sample] = []
        for index in 0..<1_200 {
            let minute = Double(Int.random(in: 0..<(120 * 24 * 60), using: &generator))
            var start = origin + minute * 60 + (index % 5 == 0 ? Double(Int.random(in: 1..<60, using: &generator)) : 0)
            let lengths: [Double] = [0, 60, 600, 1_800, 3_600, 5_400, 3 * 86_400]
            var length = lengths[index % 97 == 0 ? 6 : Int.random(in: 0..<6, using: &generator)]
            if index % 11 == 0 {
                // Ends exactly on an hour.
                start = (start / 3600).rounded(.down) * 3600 + 3000
                length = 600
            }
            let (source, device) = sources[Int.random(in: 0..<3, using: &generator)]
            var value = Double(Int.random(in: 1...900, using: &generator))
            if source == "Ring" && start >= Kit.utc(2024, 4, 1).timeIntervalSince1970
                && start < Kit.utc(2024, 5, 1).timeIntervalSince1970 { value += 0.25 }
            samples.append(Sample(typeIdentifier: SampleType.steps.identifier, start: Date(timeIntervalSince1970: start),
                                  end: Date(timeIntervalSince1970: start + length),
                                  value: .quantity(Quantity(value, .count())), source: source,
                                  created: Date(timeIntervalSince1970: start + length), device: device))
        }
        let shuffled = samples.shuffled(using: &generator)
        try store.save(Array(shuffled.prefix(700)))
        try store.save(Array(shuffled.dropFirst(700)))
        _ = try store.delete(uuids: [samples[5].uuid, samples[50].uuid, samples[500].uuid], now: Kit.utc(2024, 6, 1))
        return store
    }

    private func request(_ interval: DateInterval, bucket: BucketUnit?, merging: Bool = false,
                         options: StatisticsOptions? = nil) -> StatisticsRequest {
        StatisticsRequest(type: .steps, interval: interval, bucketUnit: bucket, options: options, mergesSources: merging)
    }

    /// How many times reads of `store` took a summary (of `month` only, when given).
    private func taken(_ store: JSONFileStore, month: String? = nil) -> Int {
        let file = month.map { partitionPath(store, month: $0) }
        return SummaryAccess.taken.withLock { taken in
            taken.filter { file.map($0.key.elementsEqual) ?? $0.key.hasPrefix(store.path + "/") }.values.reduce(0, +)
        }
    }

    private func summaryPath(_ store: JSONFileStore, month: String) -> String {
        store.path + "/derived/summaries/" + SampleType.steps.identifier + "/" + month + ".summary"
    }

    private func partitionPath(_ store: JSONFileStore, month: String) -> String {
        store.path + "/samples/" + SampleType.steps.identifier + "/" + month + ".jsonl"
    }

    private func removeDerived(_ store: JSONFileStore) {
        try? FileManager.default.removeItem(atPath: store.path + "/derived")
    }

    private let everything = DateInterval(start: Kit.utc(2023, 12, 1), end: Kit.utc(2024, 6, 1))

    // MARK: Exactness

    /// Read through summaries or from the lines, every figure is the same to the last bit: across zones whose month,
    /// week and day edges fall on whole UTC hours or not (Kolkata +05:30, Chatham +12:45), across DST changes (Los
    /// Angeles, 10 March), with ranges that start mid-month and mid-hour, merged or not, with several sources,
    /// deletions, samples split at edges and a month that cannot be summarised.
    func summariesGiveExactlyTheLinesFigures() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = try generatedStore(folder, seed: 1)
            let derived = store.path + "/derived", away = store.path + "/derived-away"
            let ranges = [
                ("all", everything),
                ("mid-month", DateInterval(start: Kit.date(2024, 2, 10, zone: "America/Los_Angeles"),
                                           end: Kit.date(2024, 4, 20, zone: "America/Los_Angeles"))),
                ("mid-hour", DateInterval(start: Kit.utc(2024, 2, 3, 10, 30), end: Kit.utc(2024, 3, 17, 5, 15))),
            ]
            var cases: [(zone: String, range: String, bucket: BucketUnit?, merging: Bool)] = []
            for range in ranges.map(\.0) {
                for bucket in [nil, BucketUnit.hour, .day, .week, .month] { cases.append(("America/Los_Angeles", range, bucket, false)) }
            }
            cases += [("Asia/Kolkata", "all", .month, false), ("Asia/Kolkata", "mid-month", .day, false),
                      ("Pacific/Chatham", "all", .month, false), ("UTC", "all", nil, true), ("UTC", "all", .month, true),
                      ("UTC", "mid-month", .day, true)]
            // Summaries for every month, as the lines give them.
            _ = try request(everything, bucket: .month).run(on: store, calendar: GregorianCalendar())
            var summarised = 0
            for item in cases {
                let calendar = GregorianCalendar(timeZone: Kit.zone(item.zone))
                let query = request(ranges.first { $0.0 == item.range }!.1, bucket: item.bucket, merging: item.merging)
                let before = taken(store)
                let through = try query.run(on: store, calendar: calendar)
                if taken(store) > before { summarised += 1 }
                // The same query without summaries (it may keep new ones, which are then dropped).
                try FileManager.default.moveItem(atPath: derived, toPath: away)
                let lines = try query.run(on: store, calendar: calendar)
                try? FileManager.default.removeItem(atPath: derived)
                try FileManager.default.moveItem(atPath: away, toPath: derived)
                expectEqual(through, lines, "\(item)")
            }
            // Most cases read summaries (Kolkata's and Chatham's buckets cut hours: those read lines).
            #expect(summarised >= 15, "only \(summarised) cases read a summary")
        }
    }

    /// A month whose source writes fractions, and one where a source names two devices, get no summary; the months
    /// around them do.
    func monthsThatCannotBeExactGetNone() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = try generatedStore(folder, seed: 3)
            try store.save([Sample(typeIdentifier: SampleType.steps.identifier, start: Kit.utc(2024, 2, 5, 9),
                                   end: Kit.utc(2024, 2, 5, 9, 10), value: .quantity(Quantity(40, .count())), source: "Watch",
                                   created: Kit.utc(2024, 2, 5, 9, 10), device: "name:Other Watch")])
            _ = try request(everything, bucket: .month).run(on: store, calendar: GregorianCalendar())
            #expect(!FileManager.default.fileExists(atPath: summaryPath(store, month: "2024-04")))
            #expect(!FileManager.default.fileExists(atPath: summaryPath(store, month: "2024-02")))
            #expect(FileManager.default.fileExists(atPath: summaryPath(store, month: "2024-03")))
        }
    }

    // MARK: Building and checking

    /// A summary is what the month's lines hold: hours with their sums, counts and sources, the samples crossing an
    /// hour one by one; it is private, and it reads back as it was written. A month of a few lines gets none.
    func builtFromTheLines() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store")
            func steps(_ value: Double, _ start: Date, _ end: Date, _ source: String) -> Sample {
                Sample(typeIdentifier: SampleType.steps.identifier, start: start, end: end,
                       value: .quantity(Quantity(value, .count())), source: source, created: end)
            }
            try store.save([
                steps(100, Kit.utc(2024, 3, 4, 9, 5), Kit.utc(2024, 3, 4, 9, 20), "Watch"),
                steps(50, Kit.utc(2024, 3, 4, 9, 50), Kit.utc(2024, 3, 4, 10), "Phone"),  // ends on the hour
                steps(7, Kit.utc(2024, 3, 4, 9, 30), Kit.utc(2024, 3, 4, 9, 30), "Phone"),  // an instant
                steps(300, Kit.utc(2024, 3, 4, 10, 40), Kit.utc(2024, 3, 4, 11, 20), "Watch"),  // crosses an hour
            ])
            let month = DateInterval(start: Kit.utc(2024, 3, 1), end: Kit.utc(2024, 4, 1))
            let path = summaryPath(store, month: "2024-03")
            // A partition of a few lines gets none.
            _ = try request(month, bucket: .day).run(on: store, calendar: GregorianCalendar())
            #expect(!FileManager.default.fileExists(atPath: path))
            // A hundred more lines in one hour of 20 March: now it is worth one.
            try store.save((0..<100).map { index in
                steps(10, Kit.utc(2024, 3, 20, 8, index / 2, index % 2 * 30), Kit.utc(2024, 3, 20, 8, index / 2, index % 2 * 30 + 20), "Watch")
            })
            let first = try request(month, bucket: .day).run(on: store, calendar: GregorianCalendar())
            let bytes = try #require(FileManager.default.contents(atPath: path))
            var info = stat()
            #expect(lstat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
            let summary = try #require(PartitionSummary(decoding: Array(bytes)))
            expectEqual(summary.partition, "samples/" + SampleType.steps.identifier + "/2024-03.jsonl")
            expectEqual(summary.identity, FileIdentity.of(partitionPath(store, month: "2024-03")))
            #expect(summary.tombstones == .absent && summary.unit == "count")
            expectEqual(summary.sources.map(\.name), ["Watch", "Phone"])
            let hour = Int32(Kit.utc(2024, 3, 4, 9).timeIntervalSinceReferenceDate / 3600)
            let later = Int32(Kit.utc(2024, 3, 20, 8).timeIntervalSinceReferenceDate / 3600)
            expectEqual(summary.slots, [PartitionSummary.Slot(hour: hour, count: 3, sum: 157, sources: 0b11, endingSources: 0b10),
                                        PartitionSummary.Slot(hour: later, count: 100, sum: 1_000, sources: 0b01, endingSources: 0)])
            expectEqual(summary.spans, [PartitionSummary.Span(start: Kit.utc(2024, 3, 4, 10, 40).timeIntervalSinceReferenceDate,
                                                              end: Kit.utc(2024, 3, 4, 11, 20).timeIntervalSinceReferenceDate,
                                                              value: 300, source: 0)])
            expectEqual(summary.encoded(), Array(bytes))
            let before = taken(store, month: "2024-03")
            try expectEqual(request(month, bucket: .day).run(on: store, calendar: GregorianCalendar()), first)
            #expect(taken(store, month: "2024-03") > before)
            #expect(first.total.sum == 1_457 && first.total.sampleCount == 104)
        }
    }

    /// A summary is used only while the partition and the tombstones are exactly as it names them: an add (a longer
    /// file) or a deletion (a longer tombstone file) makes it stale, and the next read answers from the lines and
    /// keeps a new one.
    func staleSummariesAreIgnoredAndRebuilt() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = try generatedStore(folder, seed: 4)
            let calendar = GregorianCalendar()
            let march = DateInterval(start: Kit.utc(2024, 3, 1), end: Kit.utc(2024, 4, 1))
            let query = request(march, bucket: .day)
            let original = try query.run(on: store, calendar: calendar)
            let added = Sample(typeIdentifier: SampleType.steps.identifier, start: Kit.utc(2024, 3, 9, 8),
                               end: Kit.utc(2024, 3, 9, 8, 5), value: .quantity(Quantity(1_000, .count())), source: "Watch",
                               created: Kit.utc(2024, 3, 9, 8, 5), device: "name:Apple Watch, model:Watch")
            try store.save([added])
            let before = taken(store, month: "2024-03")
            let withAdded = try query.run(on: store, calendar: calendar)
            expectEqual(withAdded.total.sum, original.total.sum.map { $0 + 1_000 })
            expectEqual(taken(store, month: "2024-03"), before, "a stale summary was used")
            let rebuiltBytes = try #require(FileManager.default.contents(atPath: summaryPath(store, month: "2024-03")))
            let rebuilt = try #require(PartitionSummary(decoding: Array(rebuiltBytes)))
            expectEqual(rebuilt.identity, FileIdentity.of(partitionPath(store, month: "2024-03")))

            _ = try store.delete(uuids: [added.uuid], now: Kit.utc(2024, 6, 2))
            try expectEqual(query.run(on: store, calendar: calendar), original)
            expectEqual(taken(store, month: "2024-03"), before, "a summary from before the deletion was used")
            try expectEqual(query.run(on: store, calendar: calendar), original)
            #expect(taken(store, month: "2024-03") > before)
        }
    }

    /// A missing, damaged, cut short or foreign (another month's) summary file, and one a folder or a link stands
    /// in for, is ignored: the answer is the lines', and a good summary takes its place.
    func badSummaryFilesAreIgnoredAndRebuilt() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = try generatedStore(folder, seed: 5)
            let calendar = GregorianCalendar()
            let march = DateInterval(start: Kit.utc(2024, 3, 1), end: Kit.utc(2024, 4, 1))
            let query = request(march, bucket: .day)
            let expected = try query.run(on: store, calendar: calendar)
            _ = try request(everything, bucket: .month).run(on: store, calendar: calendar)
            let path = summaryPath(store, month: "2024-03")
            let good = try #require(FileManager.default.contents(atPath: path))
            let other = try #require(FileManager.default.contents(atPath: summaryPath(store, month: "2024-02")))
            var damaged = Array(good)
            damaged[damaged.count / 2] ^= 0x40
            let harms: [(String, () throws -> Void)] = [
                ("missing", { try FileManager.default.removeItem(atPath: path) }),
                ("damaged", { try Data(damaged).write(to: URL(fileURLWithPath: path)) }),
                ("cut short", { try good.prefix(good.count - 9).write(to: URL(fileURLWithPath: path)) }),
                ("empty", { try Data().write(to: URL(fileURLWithPath: path)) }),
                ("another month's", { try other.write(to: URL(fileURLWithPath: path)) }),
                ("a folder", {
                    try FileManager.default.removeItem(atPath: path)
                    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
                }),
            ]
            for (label, harm) in harms {
                try harm()
                let before = taken(store, month: "2024-03")
                try expectEqual(query.run(on: store, calendar: calendar), expected, "\(label)")
                expectEqual(taken(store, month: "2024-03"), before, "\(label): the bad summary was used")
                if label == "a folder" { try FileManager.default.removeItem(atPath: path) }
                _ = try query.run(on: store, calendar: calendar)
                expectEqual(FileManager.default.contents(atPath: path), good, "\(label): not rebuilt")
            }
            // A missing or damaged sequence (needed where a sample split at an edge makes a bucket be summed in line
            // order) is read from the lines, and both files are kept anew (by the next read of every line).
            let sequencePath = String(path.dropLast(".summary".count)) + ".sequence"
            let goodSequence = try #require(FileManager.default.contents(atPath: sequencePath))
            var damagedSequence = Array(goodSequence)
            damagedSequence[damagedSequence.count - 30] ^= 0x01
            // By the hour: samples that cross an hour make their hours be summed in line order.
            let hourly = request(march, bucket: .hour)
            let expectedHours = try hourly.run(on: store, calendar: calendar)
            for (label, bytes) in [("damaged sequence", Data(damagedSequence)), ("empty sequence", Data())] {
                try bytes.write(to: URL(fileURLWithPath: sequencePath))
                try expectEqual(hourly.run(on: store, calendar: calendar), expectedHours, "\(label)")
                _ = try hourly.run(on: store, calendar: calendar)
                expectEqual(FileManager.default.contents(atPath: sequencePath), goodSequence, "\(label): not rebuilt")
            }
            // A summary with the partition's name and identity but other tombstones is stale too.
            var foreign = try #require(PartitionSummary(decoding: Array(good)))
            foreign.tombstones = .absent
            foreign.slots[0].sum += 1
            try Data(foreign.encoded()).write(to: URL(fileURLWithPath: path))
            try expectEqual(query.run(on: store, calendar: calendar), expected, "other tombstones")
        }
    }

    /// A read that fails (here on a damaged line in April) keeps no summary of the months it read before, so the
    /// store is as it was.
    func aFailedReadKeepsNoSummary() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = try generatedStore(folder, seed: 8)
            let april = partitionPath(store, month: "2024-04")
            let text = try String(contentsOfFile: april, encoding: .utf8)
            try ("{\"uuid\": damaged\n" + text).write(toFile: april, atomically: false, encoding: .utf8)
            #expect(throws: StoreError.self) {
                try request(DateInterval(start: Kit.utc(2024, 3, 1), end: Kit.utc(2024, 5, 1)), bucket: .month)
                    .run(on: store, calendar: GregorianCalendar())
            }
            #expect(!FileManager.default.fileExists(atPath: store.path + "/derived"))
        }
    }

    /// A store where no summary can be written (here `derived` is a file) still answers, from the lines.
    func aStoreThatCannotKeepSummariesStillAnswers() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = try generatedStore(folder, seed: 6)
            let query = request(everything, bucket: .month)
            let expected = try query.run(on: store, calendar: GregorianCalendar())
            removeDerived(store)
            try Data("not a folder".utf8).write(to: URL(fileURLWithPath: store.path + "/derived"))
            try expectEqual(query.run(on: store, calendar: GregorianCalendar()), expected)
            try expectEqual(String(contentsOfFile: store.path + "/derived", encoding: .utf8), "not a folder")
        }
    }

    /// A read notes the partition's identity when it opens it and when it has read it to the end: a writer that
    /// changes the file in between (here a line appended right after the open) leaves no summary that claims the
    /// file as it is now, and the next query answers with the new line.
    func aFileChangedDuringTheReadKeepsNoSummaryOfTheNewFile() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = try generatedStore(folder, seed: 7)
            let file = partitionPath(store, month: "2024-03")
            let query = request(DateInterval(start: Kit.utc(2024, 3, 1), end: Kit.utc(2024, 4, 1)), bucket: .day)
            let before = try query.run(on: store, calendar: GregorianCalendar())
            removeDerived(store)
            // Another sample: the first line with another uuid.
            let text = try String(contentsOfFile: file, encoding: .utf8)
            var line = String(text.prefix { $0 != "\n" })
            let uuidStart = line.index(line.startIndex, offsetBy: 9)
            line.replaceSubrange(uuidStart...uuidStart, with: line[uuidStart] == "0" ? "1" : "0")
            let appended = Data((line + "\n").utf8)
            var reader = PartitionLineReader()
            reader.afterOpening = {
                let handle = FileHandle(forWritingAtPath: file)!
                handle.seekToEndOfFile()
                handle.write(appended)
                handle.closeFile()
            }
            let tombstones = try store.tombstoneIdentity(ofType: SampleType.steps.identifier)
            let access = SummaryAccess(store: store.path, tombstones: try #require(tombstones), accepts: { _ in true })
            let deleted = try store.deletedUUIDs(ofType: SampleType.steps.identifier)
            let changed = try PartitionReadings.read(file: file, limit: nil, window: everything, deleted: deleted,
                                                     codec: store.codec, keepsUUIDs: false, summaries: access, reader: &reader)
            let identities = try #require(reader.identities)
            #expect(identities.opened != identities.finished)
            expectNil(changed.built, "a summary of a file that changed while it was read was built")
            // Read again, unchanged: now it builds one, of the file as it is.
            var quiet = PartitionLineReader()
            let unchanged = try PartitionReadings.read(file: file, limit: nil, window: everything, deleted: deleted,
                                                       codec: store.codec, keepsUUIDs: false, summaries: access, reader: &quiet)
            expectEqual(unchanged.built?.summary.identity, FileIdentity.of(file))
            let after = try query.run(on: store, calendar: GregorianCalendar())
            expectEqual(after.total.sampleCount, before.total.sampleCount + 1)
        }
    }
}

/// The checks ``PartitionSummaryTests/checks(_:)`` runs.
private let partitionSummaryTestsChecks: [Check<PartitionSummaryTests>] = [
    Check("summariesGiveExactlyTheLinesFigures", PartitionSummaryTests.summariesGiveExactlyTheLinesFigures),
    Check("monthsThatCannotBeExactGetNone", PartitionSummaryTests.monthsThatCannotBeExactGetNone),
    Check("builtFromTheLines", PartitionSummaryTests.builtFromTheLines),
    Check("staleSummariesAreIgnoredAndRebuilt", PartitionSummaryTests.staleSummariesAreIgnoredAndRebuilt),
    Check("badSummaryFilesAreIgnoredAndRebuilt", PartitionSummaryTests.badSummaryFilesAreIgnoredAndRebuilt),
    Check("aFailedReadKeepsNoSummary", PartitionSummaryTests.aFailedReadKeepsNoSummary),
    Check("aStoreThatCannotKeepSummariesStillAnswers", PartitionSummaryTests.aStoreThatCannotKeepSummariesStillAnswers),
    Check("aFileChangedDuringTheReadKeepsNoSummaryOfTheNewFile",
          PartitionSummaryTests.aFileChangedDuringTheReadKeepsNoSummaryOfTheNewFile),
]
