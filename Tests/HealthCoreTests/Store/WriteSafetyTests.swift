#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Change numbers that never overflow or repeat, failed writes taken back, the import's check under the lock, and
/// store paths opened only as regular files through real folders.
struct WriteSafetyTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: writeSafetyTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit
    private static let waterFolder = "samples/HKQuantityTypeIdentifierDietaryWater"
    private static let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
    private struct Stop: Error {}

    private func withStore(_ body: (JSONFileStore, String) throws -> Void) throws {
        try TestSupport.withTemporaryDirectory { folder in
            let path = folder + "/store"
            try body(JSONFileStore(path: path, timeZone: .gmt, lockTimeout: 2), path)
        }
    }

    private func water(_ millilitres: Double, _ start: Date, source: String = "hkctl") -> Sample {
        Sample(typeIdentifier: SampleType.water.identifier, start: start, end: start,
               value: .quantity(Quantity(millilitres, try! HealthUnit(parsing: "mL"))), source: source, created: start)
    }

    /// Every file and folder under `root` with its bytes (nil for a folder).
    private func tree(_ root: String) -> [String: [UInt8]?] {
        var result: [String: [UInt8]?] = [:]
        for entry in Kit.walk(root) { result[entry.path] = entry.isFolder ? nil : Kit.bytes(entry.path) }
        return result
    }

    // MARK: The range of change numbers

    func changeNumbersRunTo2To53Minus1() throws {
        expectEqual(ChangeNumbers.maximum, 9_007_199_254_740_991)
        expectEqual(ChangeNumbers.exact(9_007_199_254_740_991), 9_007_199_254_740_991)
        expectNil(ChangeNumbers.exact(9_007_199_254_740_992))
        expectNil(ChangeNumbers.exact(1.5))
        expectNil(ChangeNumbers.exact(-1))
        try expectEqual(ChangeNumbers.next(after: ChangeNumbers.maximum - 2, count: 2, counter: "c"), ChangeNumbers.maximum - 1...ChangeNumbers.maximum)
        #expect(throws: StoreError.changeNumbersExhausted("c", last: ChangeNumbers.maximum - 1)) {
            try ChangeNumbers.next(after: ChangeNumbers.maximum - 1, count: 2, counter: "c")
        }
        #expect(throws: StoreError.self) { try ChangeNumbers.next(after: UInt64.max - 1, count: 1, counter: "c") }
    }

    func readersRefuseNumbersBeyondTheRange() throws {
        let base = "{\"uuid\":\"c870d14d-90fb-4277-8398-61fd8dfe863f\",\"type\":\"HKQuantityTypeIdentifierDietaryWater\","
            + "\"start\":\"2024-06-01T08:00:00+00:00\",\"end\":\"2024-06-01T08:00:00+00:00\",\"value\":0.5,\"unit\":\"L\","
            + "\"source\":\"hkctl\",\"created\":\"2024-06-01T08:00:04+00:00\",\"seq\":"
        var codec = SampleLineCodec(catalogue: .standard, timeZone: .gmt)
        var parser = QuantityLineParser()
        let names = ReadingNames()
        for (number, accepted) in [("9007199254740991", true), ("9007199254740992", false), ("18446744073709551615", false)] {
            let line = Array((base + number + "}").utf8)
            let decoded = line.withUnsafeBufferPointer { (try? codec.decode($0)) != nil }
            expectEqual(decoded, accepted, "decoder, seq \(number)")
            let parsed = line.withUnsafeBufferPointer { parser.parse($0, names: names) }
            expectEqual((parsed != nil), accepted, "positional reader, seq \(number)")
            if accepted { expectEqual(parsed?.sequence, ChangeNumbers.maximum) }
        }
        let tombstone = "{\"uuid\":\"c870d14d-90fb-4277-8398-61fd8dfe863f\",\"type\":\"T\",\"deletedAt\":\"2024-06-01T08:00:00+00:00\",\"seq\":9007199254740992}"
        expectNil(Array(tombstone.utf8).withUnsafeBufferPointer { JSONFileStore.decodeTombstone($0) })
        #expect(throws: ChangeError.self) { try ChangeAnchor(parsing: "v1." + String(ChangeNumbers.maximum + 1, radix: 36)) }
        try expectEqual(ChangeAnchor(parsing: "v1." + String(ChangeNumbers.maximum, radix: 36)).sequence, ChangeNumbers.maximum)
    }

    func aWriteThatWouldPassTheLastNumberWritesNothing() throws {
        try withStore { store, path in
            try store.save([water(100, Kit.utc(2024, 6, 1, 8))])
            try store.writeSequence(ChangeNumbers.maximum - 1)
            let before = tree(path)
            #expect(throws: StoreError.changeNumbersExhausted(path + "/sequence", last: ChangeNumbers.maximum - 1)) {
                try store.save([water(100, Kit.utc(2024, 6, 1, 9)), water(100, Kit.utc(2024, 6, 1, 10))])
            }
            expectEqual(tree(path), before)
            try store.save([water(100, Kit.utc(2024, 6, 1, 9))])
            try expectEqual(store.currentSequence(), ChangeNumbers.maximum)
            try expectEqual(store.samples(ofType: SampleType.water.identifier, overlapping: WriteSafetyTests.everything).count, 2)
        }
    }

    // MARK: A counter behind the lines

    func aCounterBehindTheFileWrittenToIsRefused() throws {
        try withStore { store, path in
            try store.save([water(100, Kit.utc(2024, 6, 1, 8)), water(100, Kit.utc(2024, 6, 1, 9))])
            try store.writeSequence(1)
            // A fresh instance, as a new command would open it; the lock's record is gone too.
            try Kit.write("", to: path + "/.lock")
            let fresh = JSONFileStore(path: path, timeZone: .gmt, lockTimeout: 2)
            let before = tree(path)
            #expect(throws: StoreError.counterBehind(path + "/sequence", counter: 1, used: 2)) {
                try fresh.save([water(100, Kit.utc(2024, 6, 1, 10))])
            }
            expectEqual(tree(path), before)
        }
    }

    func aCounterBehindTheLockRecordIsRefusedInAnyFile() throws {
        try withStore { store, path in
            try store.save([water(100, Kit.utc(2024, 6, 1, 8)), water(100, Kit.utc(2024, 6, 1, 9))])
            // The record is the lock file's first line (the partitions' validation marks follow it, from byte 64).
            expectEqual(String(decoding: Kit.bytes(path + "/.lock").prefix(21), as: UTF8.self), "00000000000000000002\n")
            try store.writeSequence(0)
            let fresh = JSONFileStore(path: path, timeZone: .gmt, lockTimeout: 2)
            #expect(throws: StoreError.counterBehind(path + "/sequence", counter: 0, used: 2)) {
                try fresh.save([Kit.steps(10, Kit.utc(2023, 1, 1, 8))])
            }
            #expect(!Kit.exists(path + "/samples/HKQuantityTypeIdentifierStepCount"), "no folder is left behind")
        }
    }

    // MARK: Failed writes are taken back

    func aBatchThatFailsIsTakenBackCounterFilesAndFolders() throws {
        try withStore { store, path in
            try store.save([water(100, Kit.utc(2024, 6, 1, 8))])
            let before = tree(path)
            store.afterPartitionWrite = { written in if written == 2 { throw Stop() } }
            #expect(throws: Stop.self) {
                try store.save([water(100, Kit.utc(2024, 6, 1, 9)), Kit.steps(10, Kit.utc(2022, 3, 1, 8)),
                                Kit.steps(10, Kit.utc(2022, 4, 1, 8))])
            }
            store.afterPartitionWrite = nil
            expectEqual(tree(path), before, "counter, new partitions and the new type folder are gone")
            try store.save([water(100, Kit.utc(2024, 6, 1, 9))])
            try expectEqual(store.currentSequence(), 2)
        }
    }

    func aFailedImportBatchDoesNotAdvanceTheCounter() throws {
        try withStore { store, path in
            try store.save([water(100, Kit.utc(2024, 6, 1, 8))])
            let before = tree(path)
            var writer = SampleLineWriter(catalogue: .standard, timeZone: .gmt)
            var batch = EncodedSampleBatch()
            for day in 1...3 { batch.append(Kit.steps(Double(day), Kit.utc(2024, day, 1, 8)), writer: &writer) }
            store.afterPartitionWrite = { written in if written == 3 { throw Stop() } }
            #expect(throws: Stop.self) { try store.save(batch) }
            store.afterPartitionWrite = nil
            expectEqual(tree(path), before)
        }
    }

    // MARK: The import's check under the lock

    func aBatchDropsWhatAnotherWriterStoredMeanwhile() throws {
        try withStore { store, _ in
            try store.save([water(100, Kit.utc(2024, 6, 1, 7))])
            let guardian = try ConcurrentWriteGuard(store: store, catalogue: .standard)
            let shared = [water(200, Kit.utc(2024, 6, 1, 8), source: "Phone"), water(300, Kit.utc(2024, 6, 1, 9), source: "Phone")]
            // Another writer stores two of the batch's samples after the import began.
            try store.save(shared)
            var writer = SampleLineWriter(catalogue: .standard, timeZone: .gmt)
            var batch = EncodedSampleBatch()
            let fresh = water(400, Kit.utc(2024, 6, 1, 10), source: "Phone")
            for sample in shared + [fresh] { batch.append(sample, writer: &writer) }
            try store.save(batch, beforeWrite: { try guardian.check(&$0) }, afterWrite: { guardian.saved(through: $0) })
            let stored = try store.samples(ofType: SampleType.water.identifier, overlapping: WriteSafetyTests.everything)
            expectEqual(stored.count, 4)
            expectEqual(Set(stored.map(\.uuid)).count, 4)
            expectEqual(guardian.dropped, [SampleType.water.identifier: 2])
            try expectEqual(store.currentSequence(), 4, "the kept line took the next number")
        }
    }

    /// The import's writer saves each batch in turn and hands its buffer back, so the next batch fills the same
    /// memory; a batch that dropped lines another writer stored is saved from its copy and hands back its own buffer
    /// once.
    func theImportWriterSavesBatchesAndReusesTheirBuffer() throws {
        try withStore { store, _ in
            let writer = try ImportBatchWriter(store: store, catalogue: .standard)
            defer { writer.stop() }
            var lines = SampleLineWriter(catalogue: .standard, timeZone: .gmt)
            var first = EncodedSampleBatch(pool: writer.pool)
            let firstSamples = (1...3).map { water(Double($0) * 100, Kit.utc(2024, 6, $0, 8)) }
            for sample in firstSamples { first.append(sample, writer: &lines) }
            let buffer = try #require(first.bytes)
            try writer.submit(first)
            try writer.waitUntilIdle()
            // Another writer stores one sample of the next batch meanwhile: the batch's copy leaves it out.
            let shared = water(900, Kit.utc(2024, 7, 1, 8), source: "Phone")
            try store.save([shared])
            var second = EncodedSampleBatch(pool: writer.pool)
            let fresh = [Kit.steps(5, Kit.utc(2024, 7, 2, 8)), water(700, Kit.utc(2024, 7, 3, 8))]
            for sample in [shared] + fresh { second.append(sample, writer: &lines) }
            #expect(second.bytes === buffer, "the second batch fills the first one's buffer")
            try writer.submit(second)
            try writer.waitUntilIdle()
            expectEqual(writer.guardian.dropped, [SampleType.water.identifier: 1])
            let storedWater = try store.samples(ofType: SampleType.water.identifier, overlapping: WriteSafetyTests.everything)
            expectEqual(Set(storedWater.map(\.uuid)), Set((firstSamples + [shared, fresh[1]]).map(\.uuid)))
            try expectEqual(store.samples(ofType: SampleType.steps.identifier, overlapping: WriteSafetyTests.everything).map(\.uuid),
                            [fresh[0].uuid])
            #expect(writer.pool.take() === buffer, "the buffer went back after the second save")
            #expect(writer.pool.take() == nil, "and only once")
        }
    }

    func withoutOtherWritersNothingIsDropped() throws {
        try withStore { store, _ in
            let guardian = try ConcurrentWriteGuard(store: store, catalogue: .standard)
            var writer = SampleLineWriter(catalogue: .standard, timeZone: .gmt)
            for hour in [8, 9] {
                var batch = EncodedSampleBatch()
                batch.append(water(100, Kit.utc(2024, 6, 1, hour)), writer: &writer)
                batch.append(water(100, Kit.utc(2024, 6, 1, hour, 30)), writer: &writer)
                try store.save(batch, beforeWrite: { try guardian.check(&$0) }, afterWrite: { guardian.saved(through: $0) })
            }
            #expect(guardian.dropped.isEmpty)
            try expectEqual(store.samples(ofType: SampleType.water.identifier, overlapping: WriteSafetyTests.everything).count, 4)
        }
    }

    func removingLinesNumbersTheRestInTheirOrder() throws {
        var writer = SampleLineWriter(catalogue: .standard, timeZone: .gmt)
        var batch = EncodedSampleBatch()
        let samples = [water(1, Kit.utc(2024, 6, 1, 8)), Kit.steps(2, Kit.utc(2024, 5, 1, 8)), water(3, Kit.utc(2024, 6, 2, 8)),
                       Kit.steps(4, Kit.utc(2024, 5, 2, 8)), water(5, Kit.utc(2024, 6, 3, 8))]
        for sample in samples { batch.append(sample, writer: &writer) }
        let dropped = samples[1].uuid, alsoDropped = samples[2].uuid
        let removed = batch.removeLines { _, key in key.uuid == dropped || key.uuid == alsoDropped }
        expectEqual(removed, [SampleType.steps.identifier: 1, SampleType.water.identifier: 1])
        expectEqual(batch.count, 3)
        var numbers: [(UUID, UInt64)] = []
        for index in batch.partitions.indices {
            let out = ByteBuffer()
            batch.render(partition: index, firstSequence: 10, into: out)
            var codec = SampleLineCodec(catalogue: .standard, timeZone: .gmt)
            for line in Array(out.bytes).split(separator: 0x0A) {
                let sample = try Array(line).withUnsafeBufferPointer { try codec.decode($0) }
                numbers.append((sample.uuid, codec.lastSequence))
            }
        }
        let byNumber = numbers.sorted { $0.1 < $1.1 }
        expectEqual(byNumber.map(\.0), [samples[0].uuid, samples[3].uuid, samples[4].uuid])
        expectEqual(byNumber.map(\.1), [10, 11, 12])
    }

    // MARK: Paths

    func aFIFOWhereAStoreFileBelongsIsRefusedAtOnce() throws {
        try withStore { store, path in
            try store.save([water(100, Kit.utc(2024, 6, 1, 8))])
            let partition = path + "/" + WriteSafetyTests.waterFolder + "/2024-06.jsonl"
            unlink(partition)
            expectEqual(mkfifo(partition, 0o600), 0)
            let fresh = JSONFileStore(path: path, timeZone: .gmt, lockTimeout: 2)
            #expect(throws: StoreError.notAFile(partition, kind: "a FIFO (named pipe), not a regular file")) {
                _ = try fresh.samples(ofType: SampleType.water.identifier, overlapping: WriteSafetyTests.everything)
            }
            #expect(throws: StoreError.self) { try fresh.save([water(100, Kit.utc(2024, 6, 1, 9))]) }
            unlink(path + "/sequence")
            expectEqual(mkfifo(path + "/sequence", 0o600), 0)
            #expect(throws: StoreError.notAFile(path + "/sequence", kind: "a FIFO (named pipe), not a regular file")) { try fresh.currentSequence() }
        }
    }

    func aLinkedSamplesFolderIsNeverReadOrWritten() throws {
        try withStore { store, path in
            try store.save([water(100, Kit.utc(2024, 6, 1, 8))])
            let outside = path + "-outside"
            expectEqual(rename(path + "/samples", outside), 0)
            expectEqual(symlink(outside, path + "/samples"), 0)
            let fresh = JSONFileStore(path: path, timeZone: .gmt, lockTimeout: 2)
            #expect(throws: StoreError.self) {
                _ = try fresh.samples(ofType: SampleType.water.identifier, overlapping: WriteSafetyTests.everything)
            }
            #expect(throws: StoreError.self) { _ = try fresh.compact(now: Kit.utc(2024, 7, 1), retention: 0) }
            #expect(throws: StoreError.self) { try fresh.save([water(100, Kit.utc(2024, 6, 1, 9))]) }
            expectEqual(Kit.contents(of: outside + "/HKQuantityTypeIdentifierDietaryWater"), ["2024-06.jsonl"])
        }
    }
}

/// The checks ``WriteSafetyTests/checks(_:)`` runs.
private let writeSafetyTestsChecks: [Check<WriteSafetyTests>] = [
    Check("changeNumbersRunTo2To53Minus1", WriteSafetyTests.changeNumbersRunTo2To53Minus1),
    Check("readersRefuseNumbersBeyondTheRange", WriteSafetyTests.readersRefuseNumbersBeyondTheRange),
    Check("aWriteThatWouldPassTheLastNumberWritesNothing",
          WriteSafetyTests.aWriteThatWouldPassTheLastNumberWritesNothing),
    Check("aCounterBehindTheFileWrittenToIsRefused", WriteSafetyTests.aCounterBehindTheFileWrittenToIsRefused),
    Check("aCounterBehindTheLockRecordIsRefusedInAnyFile",
          WriteSafetyTests.aCounterBehindTheLockRecordIsRefusedInAnyFile),
    Check("aBatchThatFailsIsTakenBackCounterFilesAndFolders",
          WriteSafetyTests.aBatchThatFailsIsTakenBackCounterFilesAndFolders),
    Check("aFailedImportBatchDoesNotAdvanceTheCounter", WriteSafetyTests.aFailedImportBatchDoesNotAdvanceTheCounter),
    Check("aBatchDropsWhatAnotherWriterStoredMeanwhile", WriteSafetyTests.aBatchDropsWhatAnotherWriterStoredMeanwhile),
    Check("theImportWriterSavesBatchesAndReusesTheirBuffer", WriteSafetyTests.theImportWriterSavesBatchesAndReusesTheirBuffer),
    Check("withoutOtherWritersNothingIsDropped", WriteSafetyTests.withoutOtherWritersNothingIsDropped),
    Check("removingLinesNumbersTheRestInTheirOrder", WriteSafetyTests.removingLinesNumbersTheRestInTheirOrder),
    Check("aFIFOWhereAStoreFileBelongsIsRefusedAtOnce", WriteSafetyTests.aFIFOWhereAStoreFileBelongsIsRefusedAtOnce),
    Check("aLinkedSamplesFolderIsNeverReadOrWritten", WriteSafetyTests.aLinkedSamplesFolderIsNeverReadOrWritten),
]
