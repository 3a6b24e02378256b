import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

/// Partitions read side by side must reach the consumer exactly as a one-thread read hands them over: the same
/// readings, values, units, sources and uuids, in the same order, and the same errors.
struct ParallelReadTests {
    private typealias Kit = IndependentTestKit

    /// Writes down everything it is handed.
    private struct Recorder: QuantityReadingConsumer {
        var keepsUUIDs = true
        var seen: [String] = []
        var needsUUIDs: Bool { keepsUUIDs }

        mutating func consume(_ reading: QuantityReading, names: ReadingNames) throws {
            let uuid = needsUUIDs ? reading.uuidKey() : nil
            seen.append("\(reading.start.timeIntervalSince1970) \(reading.end.timeIntervalSince1970) \(reading.value) "
                        + "\(names.units[reading.unit]) \(names.sources[reading.source]) "
                        + "\(names.devices[reading.source] ?? "-") \(uuid.map { "\($0.hi)-\($0.lo)" } ?? "-")")
        }
    }

    private func record(_ store: JSONFileStore, threads: Int, keepsUUIDs: Bool = true,
                        _ interval: DateInterval) throws -> [String] {
        var recorder = Recorder(keepsUUIDs: keepsUUIDs)
        _ = try store.forEachQuantityReading(ofType: SampleType.water.identifier, overlapping: interval, threads: threads,
                                             into: &recorder)
        return recorder.seen
    }

    /// Fourteen months of water from three sources in two units, some deleted, one line hand-edited into another
    /// key order.
    private func makeStore(_ folder: String) throws -> JSONFileStore {
        let store = JSONFileStore(path: folder + "/store")
        var generator = Kit.SeededGenerator(seed: 5)
        var samples: [Sample] = []
        for index in 0..<1500 {
            let start = Kit.utc(2023, 11, 1).addingTimeInterval(Double(Int.random(in: 0..<(420 * 24), using: &generator)) * 3600)
            let source = ["Jane’s Apple Watch", "Bottle", "hkctl"][index % 3]
            samples.append(Sample(typeIdentifier: SampleType.water.identifier, start: start,
                                  end: start.addingTimeInterval([0, 60, 600][index % 3]),
                                  value: .quantity(Quantity(Double(index % 40) * 12.5 + 50,
                                                            try HealthUnit(parsing: index % 5 == 0 ? "fl_oz_us" : "mL"))),
                                  source: source, created: start, device: index % 3 == 0 ? "name:Apple Watch" : nil))
        }
        try store.save(samples)
        _ = try store.delete(uuids: [samples[10].uuid, samples[700].uuid], now: Kit.utc(2025, 2, 1))
        let partition = try store.partitions(ofType: SampleType.water.identifier,
                                             overlapping: DateInterval(start: .distantPast, end: .distantFuture))[3]
        let file = folder + "/store/" + partition
        var lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
        lines[2] = lines[2].replacingOccurrences(of: #"{"uuid":"#, with: #"{"type":"HKQuantityTypeIdentifierDietaryWater","uuid":"#)
            .replacingOccurrences(of: #","type":"HKQuantityTypeIdentifierDietaryWater","start""#, with: #","start""#)
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: false, encoding: .utf8)
        return store
    }

    @Test(arguments: [2, 3, 4])
    func partitionsReadSideBySideAreHandedOverInStoreOrder(threads: Int) throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = try makeStore(folder)
            for interval in [DateInterval(start: Kit.utc(2023, 10, 1), end: Kit.utc(2025, 3, 1)),
                             DateInterval(start: Kit.utc(2024, 2, 10), end: Kit.utc(2024, 9, 20, 13))] {
                let one = try record(store, threads: 1, interval)
                #expect(one.count > 500)
                try expectEqual(record(store, threads: threads, interval), one)
                try expectEqual(record(store, threads: threads, keepsUUIDs: false, interval), (try record(store, threads: 1, keepsUUIDs: false, interval)))
            }
        }
    }

    @Test func damageIsReportedAsByOneThread() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = try makeStore(folder)
            let partitions = try store.partitions(ofType: SampleType.water.identifier,
                                                  overlapping: DateInterval(start: .distantPast, end: .distantFuture))
            let file = folder + "/store/" + partitions[6]
            var lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
            lines[4] = String(lines[4].prefix(40))
            try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: false, encoding: .utf8)
            let everything = DateInterval(start: Kit.utc(2023, 1, 1), end: Kit.utc(2026, 1, 1))
            for threads in [1, 2, 4] {
                do {
                    _ = try record(store, threads: threads, everything)
                    Issue.record("\(threads) threads: the damage was not reported")
                } catch StoreError.corrupt(let path, let line, _) {
                    #expect(path == file && line == 5, "\(threads) threads")
                }
            }
        }
    }
}
