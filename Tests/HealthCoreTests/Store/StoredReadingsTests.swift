#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Stored readings (docs/STORE.md, "Derived files"): a month's readings kept for discrete statistics, built from a
/// read of every line, used only while the partition and the type's tombstones are as they were, ignored and built
/// again when missing, stale, damaged or foreign, and handing over exactly the readings a read of the lines hands
/// over (times, values, units, sources, devices and uuids, in the same order), so every figure stays the lines'.
struct StoredReadingsTests {
    private typealias Kit = IndependentTestKit
    private static let heartRate = try! SampleTypeCatalogue.standard.type(named: "heart-rate")
    private static let type = heartRate.identifier

    // MARK: Fixtures

    /// A store with heart rates of three sources (one without a device) from mid-February to mid-April 2024 around
    /// Los Angeles' change to summer time (10 March): fractional values and times with milliseconds, instants and
    /// readings with a duration, several at the same instant, a reading in another unit, readings on the edge of March
    /// and April, and a few deletions.
    private func generatedStore(_ folder: String, seed: UInt64) throws -> JSONFileStore {
        let store = JSONFileStore(path: folder + "/store", timeZone: .gmt, lockTimeout: 2,
                                  recording: OperationRecording(kind: .add, source: "hkctl", date: Kit.utc(2024, 6, 1)))
        var generator = Kit.SeededGenerator(seed: seed)
        let origin = Kit.utc(2024, 2, 15).timeIntervalSince1970
        let sources: [(String, String?)] = [("Watch", "name:Apple Watch, model:Watch"), ("Phone", "name:iPhone"), ("Ring", nil)]
        var samples: [Sample] = []
        for index in 0..<600 {
            var start = origin + Double(Int.random(in: 0..<(60 * 24 * 60), using: &generator)) * 60
            if index % 3 == 0 { start += Double(Int.random(in: 1..<60_000, using: &generator)) / 1_000 }
            if index % 13 == 0, let earlier = samples.last { start = earlier.start.timeIntervalSince1970 }
            let length: Double = index % 4 == 0 ? Double(Int.random(in: 1...600, using: &generator)) : 0
            let (source, device) = sources[Int.random(in: 0..<3, using: &generator)]
            let value = Double(Int.random(in: 450...1_800, using: &generator)) / 10
            let quantity = index % 211 == 0 ? Quantity(value / 60, try HealthUnit(parsing: "count/s"))
                : Quantity(value, try HealthUnit(parsing: "count/min"))
            samples.append(Sample(typeIdentifier: Self.type, start: Date(timeIntervalSince1970: start),
                                  end: Date(timeIntervalSince1970: start + length), value: .quantity(quantity),
                                  source: source, created: Date(timeIntervalSince1970: start + length), device: device))
        }
        // On the edge of March and April (UTC): an instant at midnight, and a reading across it from March.
        let midnight = Kit.utc(2024, 4, 1)
        samples.append(Kit.quantity(Self.heartRate, 88.5, "count/min", midnight))
        samples.append(Kit.quantity(Self.heartRate, 91, "count/min", midnight.addingTimeInterval(-0.25),
                                    midnight.addingTimeInterval(30)))
        let shuffled = samples.shuffled(using: &generator)
        try store.save(Array(shuffled.prefix(400)))
        try store.save(Array(shuffled.dropFirst(400)))
        _ = try store.delete(uuids: [samples[7].uuid, samples[70].uuid, samples[500].uuid], now: Kit.utc(2024, 6, 1))
        return store
    }

    /// Takes every reading as text that holds all it carries (bits of times and value, unit, source and its device,
    /// uuid), with or without stored readings.
    private struct Collect: QuantityReadingConsumer {
        let takesReadings: Bool
        var seen: [String] = []
        var readPlan: ReadPlan {
            var plan = ReadPlan()
            plan.takesReadings = takesReadings
            return plan
        }

        mutating func consume(_ reading: QuantityReading, names: ReadingNames) throws {
            let uuid = reading.uuidKey()
            seen.append("\(reading.start.timeIntervalSinceReferenceDate.bitPattern) \(reading.end.timeIntervalSinceReferenceDate.bitPattern) "
                + "\(reading.value.bitPattern) \(names.units[reading.unit]) \(names.sources[reading.source]) "
                + "\(names.devices[reading.source] ?? "-") \(uuid.hi) \(uuid.lo)")
        }
    }

    private func readings(_ store: JSONFileStore, _ interval: DateInterval, stored: Bool) throws -> [String] {
        var collect = Collect(takesReadings: stored)
        _ = try store.forEachQuantityReading(ofType: Self.type, overlapping: interval, into: &collect)
        return collect.seen
    }

    private func taken(_ store: JSONFileStore, month: String) -> Int {
        SummaryAccess.taken.withLock { $0[partitionPath(store, month: month)] ?? 0 }
    }

    private func readingsPath(_ store: JSONFileStore, month: String) -> String {
        store.path + "/derived/readings/" + Self.type + "/" + month + ".readings"
    }

    /// The readings file of `month`, decoded (nil when there is none or it does not decode).
    private func kept(_ store: JSONFileStore, month: String) throws -> StoredReadings? {
        FileManager.default.contents(atPath: readingsPath(store, month: month)).flatMap { StoredReadings(decoding: Array($0)) }
    }

    private func partitionPath(_ store: JSONFileStore, month: String) -> String {
        store.path + "/samples/" + Self.type + "/" + month + ".jsonl"
    }

    private func byDay(_ interval: DateInterval) -> StatisticsRequest {
        StatisticsRequest(type: Self.heartRate, interval: interval, bucketUnit: .day, mergesSources: false)
    }

    private let losAngeles = GregorianCalendar(timeZone: Kit.zone("America/Los_Angeles"))
    private let everything = DateInterval(start: Kit.utc(2024, 1, 1), end: Kit.utc(2024, 6, 1))

    // MARK: Exactness

    /// Through stored readings, being built or kept, a read hands over exactly the lines' readings: for the whole
    /// range, ranges that start and end mid-month, on month edges, over the DST change, mid-second, and on an instant
    /// reading's own time (an instant at a range's end is outside it), and from the instant a reading from the
    /// month before crosses. Statistics by day agree to the last bit.
    @Test func storedReadingsGiveExactlyTheLinesReadings() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = try generatedStore(folder, seed: 1)
            let instant = try #require(try readings(store, everything, stored: false).dropFirst(200).first { $0.split(separator: " ")[0] == $0.split(separator: " ")[1] })
            let instantStart = Date(timeIntervalSinceReferenceDate: Double(bitPattern: UInt64(instant.split(separator: " ")[0])!))
            let ranges = [
                everything,
                DateInterval(start: Kit.date(2024, 2, 20, zone: "America/Los_Angeles"),
                             end: Kit.date(2024, 3, 20, zone: "America/Los_Angeles")),
                DateInterval(start: Kit.utc(2024, 3, 1), end: Kit.utc(2024, 4, 1)),
                DateInterval(start: Kit.date(2024, 3, 10, zone: "America/Los_Angeles"),
                             end: Kit.date(2024, 3, 11, zone: "America/Los_Angeles")),
                DateInterval(start: Kit.utc(2024, 4, 1), end: Kit.utc(2024, 4, 2)),
                DateInterval(start: Kit.utc(2024, 3, 31, 23, 59, 59).addingTimeInterval(0.5),
                             end: Kit.utc(2024, 4, 1).addingTimeInterval(0.25)),
                DateInterval(start: instantStart.addingTimeInterval(-86_400), end: instantStart),
                DateInterval(start: instantStart, end: instantStart.addingTimeInterval(86_400)),
            ]
            var kept = 0
            for range in ranges {
                let lines = try readings(store, range, stored: false)
                try? FileManager.default.removeItem(atPath: store.path + "/derived")
                try expectEqual(readings(store, range, stored: true), lines, "built, \(range)")
                let before = taken(store, month: "2024-03")
                try expectEqual(readings(store, range, stored: true), lines, "kept, \(range)")
                if taken(store, month: "2024-03") > before { kept += 1 }
                #expect(!lines.isEmpty, "\(range)")
            }
            expectEqual(kept, ranges.count, "the kept readings were not read")
            // Statistics by local day over the DST change, with and without the kept readings.
            let march = DateInterval(start: Kit.date(2024, 3, 1, zone: "America/Los_Angeles"),
                                     end: Kit.date(2024, 4, 1, zone: "America/Los_Angeles"))
            let through = try byDay(march).run(on: store, calendar: losAngeles)
            try FileManager.default.removeItem(atPath: store.path + "/derived")
            try Data("not a folder".utf8).write(to: URL(fileURLWithPath: store.path + "/derived"))
            try expectEqual(byDay(march).run(on: store, calendar: losAngeles), through)
            #expect(through.buckets.count == 31 && through.buckets.allSatisfy { $0.sampleCount > 0 })
        }
    }

    /// A month holds exactly its readings in line order, with their names; the file is private and reads back as it
    /// was written. A month of a few lines gets none.
    @Test func builtFromTheLines() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = try generatedStore(folder, seed: 2)
            try store.save([Kit.quantity(Self.heartRate, 61, "count/min", Kit.utc(2024, 5, 2, 8))])
            _ = try readings(store, everything, stored: true)
            #expect(!FileManager.default.fileExists(atPath: readingsPath(store, month: "2024-05")))
            let path = readingsPath(store, month: "2024-03")
            let bytes = try #require(FileManager.default.contents(atPath: path))
            var info = stat()
            #expect(lstat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
            let kept = try #require(StoredReadings(decoding: Array(bytes)))
            expectEqual(kept.encoded(), Array(bytes))
            expectEqual(kept.partition, "samples/" + Self.type + "/2024-03.jsonl")
            expectEqual(kept.identity, FileIdentity.of(partitionPath(store, month: "2024-03")))
            expectEqual(Set(kept.sources.map(\.name)), ["Watch", "Phone", "Ring", "hkctl"])
            expectNil(kept.sources.first { $0.name == "Ring" }?.device)
            let march = DateInterval(start: Kit.utc(2024, 3, 1), end: Kit.utc(2024, 4, 1))
            let lines = try store.samples(ofType: Self.type, overlapping: march)
            let inMonth = lines.filter { $0.start >= march.start && $0.start < march.end }
            expectEqual(kept.records.count, inMonth.count)
            expectEqual(Set(kept.records.map(\.uuid)), Set(inMonth.map { UUIDKey($0.uuid) }))
        }
    }

    // MARK: Staleness

    /// Kept readings are used only while the partition and the tombstones are exactly as they name them: an add, a
    /// deletion, its undo and an import each make them stale; the next read hands over the lines' readings and keeps
    /// new ones.
    @Test func editsMakeStoredReadingsStale() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = try generatedStore(folder, seed: 3)
            let march = DateInterval(start: Kit.utc(2024, 3, 1), end: Kit.utc(2024, 4, 1))
            _ = try readings(store, march, stored: true)
            let added = Kit.quantity(Self.heartRate, 190.5, "count/min", Kit.utc(2024, 3, 9, 8).addingTimeInterval(0.125))
            let importPath = folder + "/export.xml"
            let exportText = ImportTestSupport.export(ImportTestSupport.record(
                Self.type, value: "44", unit: "count/min", start: "2024-03-12 08:00:00 -0700", end: "2024-03-12 08:00:00 -0700"))
            try exportText.write(toFile: importPath, atomically: true, encoding: .utf8)
            let edits: [(String, () throws -> Void)] = [
                ("add", { try store.save([added]) }),
                ("delete", { _ = try store.delete(uuids: [added.uuid], now: Kit.utc(2024, 6, 2)) }),
                ("undo", { _ = try store.undo(source: "hkctl", now: Kit.utc(2024, 6, 3)) }),
                ("import", { _ = try HealthImporter(store: store).importFile(atPath: importPath) }),
            ]
            var count = try readings(store, march, stored: false).count
            for (label, edit) in edits {
                let old = try #require(FileManager.default.contents(atPath: readingsPath(store, month: "2024-03")))
                try edit()
                let lines = try readings(store, march, stored: false)
                #expect(lines.count != count, "\(label) changed nothing in March")
                count = lines.count
                let before = taken(store, month: "2024-03")
                try expectEqual(readings(store, march, stored: true), lines, "\(label)")
                expectEqual(taken(store, month: "2024-03"), before, "\(label): stale readings were used")
                let new = try #require(FileManager.default.contents(atPath: readingsPath(store, month: "2024-03")))
                #expect(new != old, "\(label): not rebuilt")
                try expectEqual(readings(store, march, stored: true), lines, "\(label), kept")
                #expect(taken(store, month: "2024-03") > before, "\(label): the new readings were not used")
            }
        }
    }

    /// A missing, damaged, cut short, empty or foreign (another month's, or other tombstones') readings file, and a
    /// folder in its place, is ignored: the read hands over the lines' readings and a good file takes its place.
    @Test func badReadingsFilesAreIgnoredAndRebuilt() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = try generatedStore(folder, seed: 4)
            let march = DateInterval(start: Kit.utc(2024, 3, 1), end: Kit.utc(2024, 4, 1))
            let expected = try readings(store, march, stored: false)
            _ = try readings(store, everything, stored: true)
            let path = readingsPath(store, month: "2024-03")
            let good = try #require(FileManager.default.contents(atPath: path))
            let other = try #require(FileManager.default.contents(atPath: readingsPath(store, month: "2024-02")))
            var damaged = Array(good)
            damaged[damaged.count / 2] ^= 0x40
            var foreign = try #require(StoredReadings(decoding: Array(good)))
            foreign.tombstones = .absent
            foreign.records[0].value += 1
            let harms: [(String, () throws -> Void)] = [
                ("missing", { try FileManager.default.removeItem(atPath: path) }),
                ("damaged", { try Data(damaged).write(to: URL(fileURLWithPath: path)) }),
                ("cut short", { try good.prefix(good.count - 9).write(to: URL(fileURLWithPath: path)) }),
                ("empty", { try Data().write(to: URL(fileURLWithPath: path)) }),
                ("another month's", { try other.write(to: URL(fileURLWithPath: path)) }),
                ("other tombstones", { try Data(foreign.encoded()).write(to: URL(fileURLWithPath: path)) }),
                ("a folder", {
                    try FileManager.default.removeItem(atPath: path)
                    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
                }),
            ]
            for (label, harm) in harms {
                try harm()
                let before = taken(store, month: "2024-03")
                try expectEqual(readings(store, march, stored: true), expected, "\(label)")
                expectEqual(taken(store, month: "2024-03"), before, "\(label): the bad file was used")
                if label == "a folder" {
                    try FileManager.default.removeItem(atPath: path)
                    _ = try readings(store, march, stored: true)
                }
                expectEqual(FileManager.default.contents(atPath: path), good, "\(label): not rebuilt")
            }
        }
    }

    /// A month whose lines cannot all be kept is read from its lines, exactly as without stored readings, and its
    /// file says only that, so later reads take the lines at once: a damaged line outside the range stops the read no
    /// more than it does there, and a source that names two devices keeps each reading's device as the lines name it.
    /// A failed read keeps nothing of the months before.
    @Test func monthsThatCannotBeKeptAreReadFromTheirLines() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = try generatedStore(folder, seed: 5)
            // Phone names another device from 20 March on.
            var other = Kit.quantity(Self.heartRate, 70, "count/min", Kit.utc(2024, 3, 20, 9))
            other.source = "Phone"
            other.device = "name:Other Phone"
            try store.save([other])
            let late = DateInterval(start: Kit.utc(2024, 3, 21), end: Kit.utc(2024, 4, 1))
            let lines = try readings(store, late, stored: false)
            try expectEqual(readings(store, late, stored: true), lines)
            try expectEqual(kept(store, month: "2024-03")?.linesOnly, true)
            let before = taken(store, month: "2024-03")
            try expectEqual(readings(store, late, stored: true), lines)
            #expect(taken(store, month: "2024-03") > before, "the month was read whole again")
            // A range that holds only the new device's reading: its device is the one the read names for Phone.
            let alone = DateInterval(start: other.start, end: other.start.addingTimeInterval(1))
            let aloneLines = try readings(store, alone, stored: false)
            #expect(aloneLines.contains { $0.contains("name:Other Phone") })
            try expectEqual(readings(store, alone, stored: true), aloneLines)
            // A damaged line on 2 April, outside a range of mid-April.
            let april = partitionPath(store, month: "2024-04")
            var lineTexts = try String(contentsOfFile: april, encoding: .utf8).split(separator: "\n").map(String.init)
            let damaged = try #require(lineTexts.indices.first { lineTexts[$0].contains("\"start\":\"2024-04-02T") && $0 > 0 })
            lineTexts[damaged] = lineTexts[damaged].replacingOccurrences(of: "\"value\":", with: "\"value\":x")
            try (lineTexts.joined(separator: "\n") + "\n").write(toFile: april, atomically: false, encoding: .utf8)
            let mid = DateInterval(start: Kit.utc(2024, 4, 10), end: Kit.utc(2024, 4, 12))
            let expected = try readings(store, mid, stored: false)
            try expectEqual(readings(store, mid, stored: true), expected)
            try expectEqual(kept(store, month: "2024-04")?.linesOnly, true)
            try expectEqual(readings(store, mid, stored: true), expected)
            // A read that meets the damage fails, and keeps nothing of February.
            try? FileManager.default.removeItem(atPath: store.path + "/derived")
            #expect(throws: StoreError.self) { try readings(store, everything, stored: true) }
            #expect(!FileManager.default.fileExists(atPath: store.path + "/derived"))
        }
    }
}
