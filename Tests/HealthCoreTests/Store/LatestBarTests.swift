import Foundation
import Testing
import TestKit
@testable import HealthCore

/// `latestSamples` reads a month's last lines first for a bar (``LatestBar``) and passes over the lines that start
/// before it: whatever the order of the lines, ties, deletions, windows, limits, zones and lines only the full
/// decoder reads, the answer must be the in-memory listing's.
struct LatestBarTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: latestBarTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit
    private static let steps = SampleType.steps.identifier
    private static let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)

    /// A month of samples a minute or so apart, saved mostly in time order: a few backfilled older ones among the
    /// last lines, a few newer ones early in the file, ties in start (different ends) and in start and end
    /// (different uuids); plus a few samples of the month before and after.
    private static func samples(count: Int, seed: UInt64) -> [Sample] {
        var generator = Kit.SeededGenerator(seed: seed)
        let origin = Kit.utc(2024, 5, 1, 3)
        var all: [Sample] = []
        for index in 0..<count {
            let start = origin.addingTimeInterval(Double(index * 53 + Int.random(in: 0..<40, using: &generator)))
            let end = start.addingTimeInterval(Double([0, 0, 30, 61][index % 4]))
            all.append(Kit.steps(Double.random(in: 1...500, using: &generator).rounded(), start, end))
            if index % 97 == 5 { all.append(Kit.steps(7, start, end.addingTimeInterval(5))) }  // same start, later end
            if index % 89 == 3 { all.append(Kit.steps(9, start, end)) }  // same start and end, another uuid
        }
        // Backfilled: old samples appended at the end.
        for _ in 0..<6 {
            let back = origin.addingTimeInterval(Double.random(in: 0...Double(count * 20), using: &generator))
            all.append(Kit.steps(3, back, back.addingTimeInterval(60)))
        }
        // Newer than every other sample of the month, but early in its file.
        let newest = origin.addingTimeInterval(Double(count * 53 + 500))
        all.insert(Kit.steps(11, newest, newest.addingTimeInterval(10)), at: min(3, all.count))
        all.insert(Kit.steps(12, newest, newest.addingTimeInterval(10)), at: min(7, all.count))
        // The months around it.
        all.append(Kit.steps(1, Kit.utc(2024, 4, 28, 9)))
        all.append(Kit.steps(2, Kit.utc(2024, 6, 2, 9)))
        return all
    }

    /// `store`'s newest `limit` steps against the in-memory listing of `expected`, for several windows and limits.
    private static func expectMatches(_ store: JSONFileStore, _ expected: [Sample], _ note: String) throws {
        let reference = InMemorySampleStore(expected)
        let starts = expected.map(\.start).sorted()
        let late = starts[starts.count * 9 / 10]
        let windows = [everything,
                       DateInterval(start: Kit.utc(2024, 5, 1), end: Kit.utc(2024, 6, 1)),
                       DateInterval(start: starts[starts.count / 3], end: late)]
        for (number, window) in windows.enumerated() {
            for limit in [1, 5, 37, 250, 5000] {
                let wanted = try reference.latestSamples(ofType: steps, overlapping: window, limit: limit)
                let listed = try store.latestSamples(ofType: steps, overlapping: window, limit: limit)
                expectEqual(listed.map(\.uuid), wanted.map(\.uuid), "\(note), window \(number), limit \(limit)")
                expectEqual(listed, wanted, "\(note), window \(number), limit \(limit)")
            }
        }
    }

    /// 40 to 1,400 lines (under the first window's 16 KiB, between it and the reader's 128 KiB buffer, and over it),
    /// in stores of three zones, some with deletions among the newest, some with a newest line in another key order.
    func randomMonthsMatchTheReference() throws {
        for (round, count) in [40, 150, 1400].enumerated() {
            for zone in [ZoneRules.gmt, ZoneRules(secondsFromGMT: 14 * 3600), ZoneRules(secondsFromGMT: -11 * 3600)] {
                try TestSupport.withTemporaryDirectory { folder in
                    let path = folder + "/store"
                    let store = JSONFileStore(path: path, timeZone: zone, lockTimeout: 2)
                    var all = Self.samples(count: count, seed: UInt64(round * 10 + 1))
                    try store.save(all)
                    let note = "\(count) lines, zone \(zone.identifier)"
                    try Self.expectMatches(store, all, note)

                    // Delete some of the newest (and one older): they must neither be listed nor hold the bar up.
                    let ordered = all.sorted(by: Sample.chronological)
                    let gone = [ordered[ordered.count - 1], ordered[ordered.count - 3], ordered[ordered.count - 4],
                                ordered[ordered.count / 2]]
                    _ = try store.delete(uuids: gone.map(\.uuid), now: Kit.utc(2024, 7, 1))
                    all.removeAll { sample in gone.contains { $0.uuid == sample.uuid } }
                    try Self.expectMatches(store, all, note + ", after deletions")

                    // The newest remaining line of May, in another key order: only the full decoder reads it.
                    let newest = try #require(all.filter { $0.start < Kit.utc(2024, 5, 28) }.max(by: Sample.chronological))
                    let file = try #require(try store.partitions(ofType: Self.steps, overlapping: Self.everything)
                        .first { $0.hasSuffix("2024-05.jsonl") })
                    var lines = try String(contentsOfFile: path + "/" + file, encoding: .utf8)
                        .split(separator: "\n").map(String.init)
                    let edited = try #require(lines.firstIndex { $0.contains(newest.uuid.uuidString.lowercased()) })
                    lines[edited] = lines[edited].replacingOccurrences(of: #"{"uuid":"#, with: #"{"source":"hkctl","uuid":"#)
                        .replacingOccurrences(of: #","source":"hkctl","#, with: ",")
                    try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path + "/" + file))
                    try Self.expectMatches(store, all, note + ", a newest line in another key order")
                }
            }
        }
    }

    /// A month in time order, so that its last lines are its newest: deletions among them must not count toward
    /// the bar, nor lines after the window's end.
    func lastLinesDeletedOrAfterTheWindowHoldNoBarUp() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt, lockTimeout: 2)
            let origin = Kit.utc(2024, 5, 1)
            var all = (0..<300).map { Kit.steps(Double($0 + 1), origin.addingTimeInterval(Double($0 * 900))) }
            try store.save(all)
            let gone = [all[299], all[298], all[255]]
            _ = try store.delete(uuids: gone.map(\.uuid), now: Kit.utc(2024, 7, 1))
            all.removeAll { sample in gone.contains { $0.uuid == sample.uuid } }
            let reference = InMemorySampleStore(all)
            let windows = [Self.everything, DateInterval(start: origin, end: all[240].start),
                           DateInterval(start: all[100].start, end: all[280].end)]
            for (number, window) in windows.enumerated() {
                for limit in [1, 3, 10, 37] {
                    let wanted = try reference.latestSamples(ofType: Self.steps, overlapping: window, limit: limit)
                    expectEqual(try store.latestSamples(ofType: Self.steps, overlapping: window, limit: limit), wanted,
                                "window \(number), limit \(limit)")
                }
            }
        }
    }

    /// Runs `body` with a store holding `count` steps ten minutes apart from 2024-05-01, saved in time order, and
    /// the path of their month's file.
    private static func withMonthInTimeOrder(_ count: Int, _ body: (JSONFileStore, [Sample], String) throws -> Void) throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt, lockTimeout: 2)
            let all = (0..<count).map { Kit.steps(Double($0 + 1), Kit.utc(2024, 5, 1).addingTimeInterval(Double($0 * 600))) }
            try store.save(all)
            try body(store, all, folder + "/store/samples/HKQuantityTypeIdentifierStepCount/2024-05.jsonl")
        }
    }

    /// Lines of an interrupted batch, past the length the journal gives the month, are invisible until recovery:
    /// they are not the month's last lines for the bar either.
    func anInterruptedBatchHoldsNoBarUp() throws {
        try Self.withMonthInTimeOrder(200) { store, all, file in
            let length = try Data(contentsOf: URL(fileURLWithPath: file)).count
            let first = try store.currentSequence()
            let codec = SampleLineCodec(catalogue: .standard, timeZone: .gmt)
            let batch = (0..<3).map { codec.encode(Kit.steps(9, Kit.utc(2024, 5, 30, $0)), sequence: first + 1 + UInt64($0)) + "\n" }
            try store.writeSequence(first + 3)
            let handle = try #require(FileHandle(forWritingAtPath: file))
            handle.seekToEndOfFile()
            handle.write(Data(batch.joined().utf8))
            handle.closeFile()
            let month = "samples/HKQuantityTypeIdentifierStepCount/2024-05.jsonl"
            let journal = "{\"journal\":1,\"partitions\":[{\"path\":\"\(month)\",\"length\":\(length),\"lines\":3}]}\n" + batch.joined()
            try Data(journal.utf8).write(to: URL(fileURLWithPath: store.path + "/journal.jsonl"))
            for limit in [1, 2, 5] {
                expectEqual(try store.latestSamples(ofType: Self.steps, overlapping: Self.everything, limit: limit),
                            Array(all.reversed().prefix(limit)), "limit \(limit)")
            }
        }
    }

    /// A line that starts before the bar is read only to its dates: damage after them does not stop a listing of
    /// the newest few (as a windowed read passes over a line outside its window), while the same damage in a line
    /// the answer may hold still does, and so does a listing that needs every line.
    func damageBeforeTheBarIsPassedOverDamageAfterItIsNot() throws {
        try Self.withMonthInTimeOrder(200) { store, all, file in
            let original = try String(contentsOfFile: file, encoding: .utf8)
            func damaging(line index: Int) throws {
                var lines = original.split(separator: "\n").map(String.init)
                lines[index] = lines[index].replacingOccurrences(of: #""value":"#, with: #""valu":"#)
                try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
            }
            try damaging(line: 10)
            let newest = try store.latestSamples(ofType: Self.steps, overlapping: Self.everything, limit: 5)
            expectEqual(newest, Array(all.reversed().prefix(5)))
            #expect(throws: StoreError.self) {
                try store.latestSamples(ofType: Self.steps, overlapping: Self.everything, limit: 500)
            }
            // A line naming its start twice is damage (the decoder refuses it), judged before the bar by its first
            // start like any line; a full read reports it.
            try Data((original.split(separator: "\n").enumerated().map { index, line in
                index == 10 ? line.dropLast() + #","start":"2024-05-31T10:00:00+00:00","end":"2024-05-31T10:00:00+00:00"}"#
                    : line
            }.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
            expectEqual(try store.latestSamples(ofType: Self.steps, overlapping: Self.everything, limit: 5),
                        Array(all.reversed().prefix(5)))
            #expect(throws: StoreError.self) {
                try store.latestSamples(ofType: Self.steps, overlapping: Self.everything, limit: 500)
            }
            try damaging(line: 197)
            #expect(throws: StoreError.self) {
                try store.latestSamples(ofType: Self.steps, overlapping: Self.everything, limit: 5)
            }
        }
    }

    /// A final line without its newline (a torn write) is no sample: not in the answer, and not one of the bar's.
    func aTornFinalLineHoldsNoBarUp() throws {
        try Self.withMonthInTimeOrder(60) { store, all, file in
            let codec = SampleLineCodec(catalogue: .standard, timeZone: .gmt)
            let handle = try #require(FileHandle(forWritingAtPath: file))
            handle.seekToEndOfFile()
            // A whole newer sample but no newline after it: a write a crash cut short of its end.
            handle.write(Data(codec.encode(Kit.steps(99, Kit.utc(2024, 5, 30, 10))).utf8))
            handle.closeFile()
            for limit in [1, 2, 3, 10] {
                expectEqual(try store.latestSamples(ofType: Self.steps, overlapping: Self.everything, limit: limit),
                            Array(all.reversed().prefix(limit)), "limit \(limit)")
            }
        }
    }

    /// Lines are handed over last first; the bytes after the last newline are never a line, nor those before the
    /// first unless the buffer starts the file.
    func linesBackward() {
        func lines(_ text: String, whole: Bool, stopAfter: Int = .max) -> [String] {
            var found: [String] = []
            Array(text.utf8).withUnsafeBufferPointer { buffer in
                LatestBar.forEachLineBackward(in: buffer, whole: whole) { line in
                    found.append(String(decoding: line, as: UTF8.self))
                    return found.count < stopAfter
                }
            }
            return found
        }
        expectEqual(lines("a\nbb\nccc", whole: true), ["bb", "a"])
        expectEqual(lines("a\nbb\nccc", whole: false), ["bb"])
        expectEqual(lines("a\nbb\n", whole: true), ["bb", "a"])
        expectEqual(lines("a\nbb\n", whole: true, stopAfter: 1), ["bb"])
        expectEqual(lines("\n\n", whole: true), ["", ""])
        expectEqual(lines("no newline", whole: true), [])
        expectEqual(lines("", whole: true), [])
        expectEqual(lines("x\n", whole: false), [])
    }

    /// The date test of a line: by its start's day when that is enough, else by its start and then its end; never
    /// for a line that does not begin as the writer writes it.
    func startsBeforeJudgesByStartThenEnd() {
        let codec = SampleLineCodec(catalogue: .standard, timeZone: ZoneRules(secondsFromGMT: 14 * 3600))
        let start = Kit.utc(2024, 5, 10, 12)
        let bar = (start: start, end: start.addingTimeInterval(60))
        func before(_ sample: Sample) -> Bool {
            var parser = QuantityLineParser()
            return Array(codec.encode(sample).utf8).withUnsafeBufferPointer { parser.startsBefore(bar, line: $0) }
        }
        #expect(before(Kit.steps(1, Kit.utc(2024, 5, 1))))
        #expect(before(Kit.steps(1, start.addingTimeInterval(-1), start.addingTimeInterval(600))))
        #expect(before(Kit.steps(1, start, start.addingTimeInterval(59))))
        #expect(!before(Kit.steps(1, start, start.addingTimeInterval(60))))
        #expect(!before(Kit.steps(1, start, start.addingTimeInterval(61))))
        #expect(!before(Kit.steps(1, start.addingTimeInterval(1))))
        // Fourteen hours east: the day of its text is the next day, yet it starts a second before the bar.
        #expect(before(Kit.steps(1, Kit.utc(2024, 5, 10, 11, 59, 59))))
        var parser = QuantityLineParser()
        let other = #"{"type":"HKQuantityTypeIdentifierStepCount","uuid":"00000000-0000-0000-0000-000000000000"}"#
        #expect(!Array(other.utf8).withUnsafeBufferPointer { parser.startsBefore(bar, line: $0) })
    }
}

/// The checks ``LatestBarTests/checks(_:)`` runs.
private let latestBarTestsChecks: [Check<LatestBarTests>] = [
    Check("randomMonthsMatchTheReference", LatestBarTests.randomMonthsMatchTheReference),
    Check("lastLinesDeletedOrAfterTheWindowHoldNoBarUp", LatestBarTests.lastLinesDeletedOrAfterTheWindowHoldNoBarUp),
    Check("anInterruptedBatchHoldsNoBarUp", LatestBarTests.anInterruptedBatchHoldsNoBarUp),
    Check("damageBeforeTheBarIsPassedOverDamageAfterItIsNot", LatestBarTests.damageBeforeTheBarIsPassedOverDamageAfterItIsNot),
    Check("aTornFinalLineHoldsNoBarUp", LatestBarTests.aTornFinalLineHoldsNoBarUp),
    Check("linesBackward", LatestBarTests.linesBackward),
    Check("startsBeforeJudgesByStartThenEnd", LatestBarTests.startsBeforeJudgesByStartThenEnd),
]
