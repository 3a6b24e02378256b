import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Issue 22: the record of operations (`operations.jsonl`) that `undo` works from is written with the write it
/// describes, under the same lock: a failed or crashed write leaves no record of lines that were not written.
struct OperationLogTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: operationLogTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit
    private typealias Ops = OperationTestKit
    private struct Stop: Error {}

    // MARK: The record of operations

    func eachRecordedWriteAppendsOneRecordNamingItsChangeNumbers() throws {
        try Ops.withStore { store, path in
            try store.save([Ops.water(100, hour: 7)])
            #expect(!Kit.exists(path + "/operations.jsonl"), "a store without recording records nothing")
            try Ops.recording(store, .add).save([Ops.water(200, hour: 8)])
            try Ops.recording(store, .add).save([Ops.water(300, hour: 9), Kit.steps(50, Kit.utc(2024, 5, 3, 8))])
            let deleter = Ops.recording(store, .delete)
            try deleter.delete(uuids: [try Ops.visible(store)[0].uuid], now: Ops.undoneAt)
            try expectEqual(Ops.records(path), [
                OperationRecord(kind: .add, operation: 2, source: "hkctl", date: Ops.madeAt, changes: 2...2,
                                types: [SampleType.water.identifier]),
                OperationRecord(kind: .add, operation: 3, source: "hkctl", date: Ops.madeAt, changes: 3...4,
                                types: [SampleType.water.identifier, SampleType.steps.identifier]),
                OperationRecord(kind: .delete, operation: 5, source: "hkctl", date: Ops.madeAt, changes: 5...5,
                                types: [SampleType.water.identifier]),
            ])
            let line = String(decoding: Kit.bytes(path + "/operations.jsonl"), as: UTF8.self).split(separator: "\n")[0]
            expectEqual(line, "{\"op\":\"add\",\"id\":2,\"source\":\"hkctl\",\"at\":\"2024-06-01T12:00:00+00:00\",\"first\":2,"
                + "\"last\":2,\"types\":[\"HKQuantityTypeIdentifierDietaryWater\"]}")
        }
    }

    func theBatchesOfAnImportShareTheImportsID() throws {
        try Ops.withStore { store, path in
            let importer = Ops.recording(store, .import)
            var writer = SampleLineWriter(catalogue: .standard, timeZone: .gmt)
            for month in [1, 2] {
                var batch = EncodedSampleBatch()
                for day in 1...3 { batch.append(Kit.steps(Double(day), Kit.utc(2024, month, day, 8)), writer: &writer) }
                try importer.save(batch)
            }
            var single = EncodedSampleBatch()
            single.append(Kit.steps(9, Kit.utc(2024, 3, 1, 8)), writer: &writer)
            try importer.save(single)
            try expectEqual(Ops.records(path).map(\.operation), [1, 1, 1])
            try expectEqual(Ops.records(path).map(\.changes), [1...3, 4...6, 7...7])
        }
    }

    func aHealthStoreRecordsItsWritesAsOneOperation() throws {
        try Ops.withStore { store, path in
            // A HealthStore writes through a fresh store instance each time; they share the recording's id.
            let health = try HealthStore(storage: Ops.recording(store, .import), source: "hkctl")
            try health.save([Ops.water(100, hour: 7)])
            try health.save([Ops.water(200, hour: 8), Ops.water(300, hour: 9)])
            try expectEqual(Ops.records(path).map(\.operation), [1, 1])
            try expectEqual(store.undo(source: "hkctl", now: Ops.undoneAt).total, 3)
        }
    }

    func aFailedWriteTakesItsRecordBackWithIt() throws {
        try Ops.withStore { store, path in
            try Ops.recording(store, .add).save([Ops.water(100, hour: 7)])
            let before = Ops.tree(path)
            let failing = Ops.recording(store, .add)
            failing.afterPartitionWrite = { written in if written == 2 { throw Stop() } }
            #expect(throws: Stop.self) { try failing.save([Ops.water(100, hour: 9), Kit.steps(10, Kit.utc(2022, 3, 1, 8))]) }
            expectEqual(Ops.tree(path), before, "lines, counter and record are all taken back")
        }
    }

    func aCrashedImportBatchDropsItsRecordWithItsLines() throws {
        try Ops.withStore { store, path in
            try Ops.recording(store, .add).save([Kit.steps(5, Kit.utc(2024, 1, 1, 8))])
            let partition = "samples/HKQuantityTypeIdentifierStepCount/2024-01.jsonl"
            let lengths = [partition, "operations.jsonl"].map { Kit.bytes(path + "/" + $0).count }
            var writer = SampleLineWriter(catalogue: .standard, timeZone: .gmt)
            var batch = EncodedSampleBatch()
            for day in 2...3 { batch.append(Kit.steps(Double(day), Kit.utc(2024, 1, day, 8)), writer: &writer) }
            try Ops.recording(store, .import).save(batch)
            // A crash after the batch's appends and before its journal was removed: the journal names both files.
            try Kit.write("{\"journal\":2,\"undo\":true,\"partitions\":[{\"path\":\"\(partition)\",\"length\":\(lengths[0]),"
                + "\"lines\":2},{\"path\":\"operations.jsonl\",\"length\":\(lengths[1]),\"lines\":1}]}\n",
                to: path + "/journal.jsonl")
            let reader = JSONFileStore(path: path, timeZone: .gmt)
            try expectEqual(reader.undoPlan(source: "hkctl")?.kind, .add, "readers do not see the interrupted batch's record")
            try reader.save([Ops.water(1, hour: 1)])  // the next writer cuts both files back
            try expectEqual(Ops.records(path).map(\.kind), [.add])
            try expectEqual(reader.samples(ofType: SampleType.steps.identifier, overlapping: Ops.everything).count, 1)
        }
    }

    func aTornFinalRecordIsSkippedAndADamagedOneReported() throws {
        try Ops.withStore { store, path in
            try Ops.recording(store, .add).save([Ops.water(100, hour: 7)])
            try Kit.append("{\"op\":\"add\",\"id\":", to: path + "/operations.jsonl")
            try expectEqual(Ops.records(path).count, 1)
            try Ops.recording(store, .add).save([Ops.water(200, hour: 8)])  // moves the torn tail aside first
            try expectEqual(Ops.records(path).count, 2)
            try Kit.write("not json\n" + String(decoding: Kit.bytes(path + "/operations.jsonl"), as: UTF8.self),
                          to: path + "/operations.jsonl")
            #expect(throws: StoreError.self) { try store.undoPlan(source: "hkctl") }
        }
    }

    /// A replace whose numbers are all tombstones (an export's import taking HAE points out) reads back; one naming
    /// more tombstones than numbers, or none, does not.
    func aReplaceOfOnlyTombstonesReadsBack() throws {
        let record = OperationRecord(kind: .replace, operation: 2, source: "hkctl", date: Date(timeIntervalSince1970: 0),
                                     changes: 5...6, types: ["HKQuantityTypeIdentifierStepCount"], replaced: 2)
        func read(_ line: String) -> OperationRecord? {
            Array(line.utf8).withUnsafeBufferPointer { OperationRecord.decode($0) }
        }
        let line = record.line(zone: .gmt)
        expectEqual(read(line), record)
        expectNil(read(line).flatMap(\.sampleNumbers))
        expectEqual(read(line)?.tombstoneNumbers, 5...6)
        expectNil(read(line.replacingOccurrences(of: "\"replaced\":2", with: "\"replaced\":3")))
        expectNil(read(line.replacingOccurrences(of: "\"replaced\":2", with: "\"replaced\":0")))
    }
}

/// The checks ``OperationLogTests/checks(_:)`` runs.
private let operationLogTestsChecks: [Check<OperationLogTests>] = [
    Check("eachRecordedWriteAppendsOneRecordNamingItsChangeNumbers",
          OperationLogTests.eachRecordedWriteAppendsOneRecordNamingItsChangeNumbers),
    Check("theBatchesOfAnImportShareTheImportsID", OperationLogTests.theBatchesOfAnImportShareTheImportsID),
    Check("aHealthStoreRecordsItsWritesAsOneOperation", OperationLogTests.aHealthStoreRecordsItsWritesAsOneOperation),
    Check("aFailedWriteTakesItsRecordBackWithIt", OperationLogTests.aFailedWriteTakesItsRecordBackWithIt),
    Check("aCrashedImportBatchDropsItsRecordWithItsLines",
          OperationLogTests.aCrashedImportBatchDropsItsRecordWithItsLines),
    Check("aTornFinalRecordIsSkippedAndADamagedOneReported",
          OperationLogTests.aTornFinalRecordIsSkippedAndADamagedOneReported),
    Check("aReplaceOfOnlyTombstonesReadsBack", OperationLogTests.aReplaceOfOnlyTombstonesReadsBack),
]
