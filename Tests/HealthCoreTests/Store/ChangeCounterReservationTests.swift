import Foundation
import Testing
import TestKit
@testable import HealthCore

/// The store's change counter with reserved blocks: a run of writes in one boot syncs it once per block, a restart
/// of the machine (acted out with ``JSONFileStore/bootForTests`` and a counter file rolled back, as a power loss can
/// leave it) never hands out a number twice and never moves an anchor past a change, and a failed write puts the file
/// back byte for byte.
struct ChangeCounterReservationTests: ReservedCounterTesting {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: changeCounterReservationTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit
    private struct Stop: Error {}

    /// Every file and folder of the store (with its bytes) before and after a batch of three samples over three new
    /// or existing partitions that fails after its second partition.
    private func failedBatch(_ writer: JSONFileStore, _ path: String) throws
        -> (before: [(String, [UInt8]?)], after: [(String, [UInt8]?)]) {
        let before = Kit.walk(path).map { ($0.path, $0.isFolder ? nil : Kit.bytes($0.path)) }
        writer.afterPartitionWrite = { written in if written == 2 { throw Stop() } }
        #expect(throws: Stop.self) {
            try writer.save([water(2), Kit.steps(10, Kit.utc(2022, 3, 1, 8)), Kit.steps(10, Kit.utc(2022, 4, 1, 8))])
        }
        writer.afterPartitionWrite = nil
        return (before, Kit.walk(path).map { ($0.path, $0.isFolder ? nil : Kit.bytes($0.path)) })
    }

    /// Every change number in the store's lines and tombstones.
    private func numbers(_ store: JSONFileStore) throws -> [UInt64] {
        var found: [UInt64] = []
        for identifier in try store.typeIdentifiersOnDisk() {
            for partition in try store.partitions(ofType: identifier, overlapping: Self.everything) {
                try store.readPartitionWithSequence(partition) { _, sequence in found.append(sequence) }
            }
            try store.forEachTombstone(ofType: identifier) { found.append($0.sequence) }
        }
        return found.sorted()
    }

    private func counterText(_ path: String) -> String { String(decoding: Kit.bytes(path + "/sequence"), as: UTF8.self) }

    func aRunOfWritesInOneBootSyncsTheCounterOncePerBlock() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let path = folder + "/store"
            let writer = store(path, boot: Self.bootA)
            for hour in 0..<5 { try writer.save([water(hour)]) }
            expectEqual(writer.counterSyncs.current, 1, "the first write reserved a block; the next four took from it")
            expectEqual(counterText(path), "00000000000000000005\nreserved 00000000000000001025 boot \(Self.bootA)\n")
            // Other processes of the same boot read the exact last number, and each adds to the same block.
            let other = store(path, boot: Self.bootA)
            try expectEqual(other.currentSequence(), 5)
            try other.save([water(6)])
            expectEqual(other.counterSyncs.current, 0)
            // A batch that passes the block reserves the next one, synced once.
            let batch = (0..<1100).map { index in
                Sample(typeIdentifier: SampleType.water.identifier, start: Kit.utc(2024, 7, 1, 0).addingTimeInterval(Double(index) * 60),
                       end: Kit.utc(2024, 7, 1, 0).addingTimeInterval(Double(index) * 60),
                       value: .quantity(Quantity(10, try! HealthUnit(parsing: "mL"))), source: "hkctl", created: Kit.utc(2024, 7, 2, 0))
            }
            try other.save(batch)
            expectEqual(other.counterSyncs.current, 1)
            try expectEqual(other.currentSequence(), 1106)
            #expect(counterText(path).hasSuffix("reserved \(String(format: "%020d", 1106 + ChangeCounter.slack)) boot \(Self.bootA)\n"))
            try expectEqual(numbers(other), Array(1...1106), "no gap and no repeat within a boot")
        }
    }

    func aRestartAfterALostCounterStartsAfterTheBlockAndAnchorsSeeEveryChange() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let path = folder + "/store"
            let durable = try threeSavesKeepingTheFirstsFiles(path, boot: Self.bootA).counter
            let reader = store(path, boot: Self.bootA)
            let anchorBefore = try reader.currentAnchor()
            expectEqual(anchorBefore.sequence, 3)
            // A power loss: the lines were synced, the counter's two later rewrites were not.
            try Data(durable).write(to: URL(fileURLWithPath: path + "/sequence"))
            // The same boot never sees that (its page cache holds the rewrites); were it to, the lock's record of
            // the highest number handed out refuses to reuse one.
            #expect(throws: StoreError.counterBehind(path + "/sequence", counter: 1, used: 3)) {
                try store(path, boot: Self.bootA).save([water(4)])
            }
            // After the restart: the next write starts after the block's end.
            let after = store(path, boot: Self.bootB)
            try expectEqual(after.currentSequence(), 1025)
            let anchor = try after.currentAnchor()
            // Its anchor is the largest number in the lines, not the block's end: a writer of the reserving boot, were
            // it still running (ForeignBootAnchorTests), would number its next change below that end.
            expectEqual(anchor.sequence, 3)
            try after.save([water(5)])
            expectEqual(after.counterSyncs.current, 1, "a block of this boot was reserved")
            try expectEqual(numbers(after), [1, 2, 3, 1026], "no number handed out twice")
            expectEqual(counterText(path), "00000000000000001026\nreserved \(String(format: "%020d", 1026 + ChangeCounter.slack)) boot \(Self.bootB)\n")
            // An anchor from before the restart, and one from after it, each see the new sample.
            for old in [anchorBefore, anchor] {
                let changes = try after.changes(since: old)
                expectEqual(changes.added.map(\.start), [Kit.utc(2024, 6, 1, 5)], "since \(old.sequence)")
                expectEqual(changes.anchor.sequence, 1026)
            }
            // A later write of the new boot takes from its block.
            try after.save([water(6)])
            expectEqual(after.counterSyncs.current, 1)
            try expectEqual(numbers(after).suffix(2), [1026, 1027])
        }
    }

    func aProcessThatCannotTellItsBootSyncsEveryWrite() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let path = folder + "/store"
            try store(path, boot: Self.bootA).save([water(1)])
            // "" stands for a system that tells no boot: it must take the block's end, and keep every number durable.
            let blind = store(path, boot: "")
            try expectEqual(blind.currentSequence(), 1025)
            try blind.save([water(2)])
            try blind.save([water(3)])
            expectEqual(blind.counterSyncs.current, 2)
            expectEqual(counterText(path), "00000000000000001027\n", "the first form: a durable last number")
            try expectEqual(numbers(blind), [1, 1026, 1027])
        }
    }

    func aFailedWriteThatReservedABlockPutsTheCounterBackByteForByte() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let path = folder + "/store"
            let writer = store(path, boot: Self.bootA)
            try writer.save([water(1)])
            // The doctor's rebuilt counter: the first form, so the next write must reserve (and grow the file).
            try writer.writeSequence(7)
            expectEqual(counterText(path), "00000000000000000007\n", "a longer counter file is cut to the first form")
            let (before, after) = try failedBatch(writer, path)
            expectEqual(after.map(\.0), before.map(\.0))
            expectEqual(after.map(\.1), before.map(\.1), "the counter, partitions and folders as before")
            try writer.save([water(3)])
            try expectEqual(numbers(writer), [1, 8])
        }
    }

    func aFailedWriteAfterAnEmptyCounterLeavesItEmpty() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let path = folder + "/store"
            let writer = store(path, boot: Self.bootA)
            try writer.save([water(1)])
            // What a crash during the counter's first write leaves: an empty file, rebuilt from the lines when read.
            try Data().write(to: URL(fileURLWithPath: path + "/sequence"))
            let (before, after) = try failedBatch(writer, path)
            expectEqual(after.map(\.0), before.map(\.0))
            expectEqual(after.map(\.1), before.map(\.1), "the counter file is empty again")
            try writer.save([water(3)])
            try expectEqual(numbers(writer), [1, 2])
        }
    }
}

/// The checks ``ChangeCounterReservationTests/checks(_:)`` runs.
private let changeCounterReservationTestsChecks: [Check<ChangeCounterReservationTests>] = [
    Check("aRunOfWritesInOneBootSyncsTheCounterOncePerBlock",
          ChangeCounterReservationTests.aRunOfWritesInOneBootSyncsTheCounterOncePerBlock),
    Check("aRestartAfterALostCounterStartsAfterTheBlockAndAnchorsSeeEveryChange",
          ChangeCounterReservationTests.aRestartAfterALostCounterStartsAfterTheBlockAndAnchorsSeeEveryChange),
    Check("aProcessThatCannotTellItsBootSyncsEveryWrite",
          ChangeCounterReservationTests.aProcessThatCannotTellItsBootSyncsEveryWrite),
    Check("aFailedWriteThatReservedABlockPutsTheCounterBackByteForByte",
          ChangeCounterReservationTests.aFailedWriteThatReservedABlockPutsTheCounterBackByteForByte),
    Check("aFailedWriteAfterAnEmptyCounterLeavesItEmpty",
          ChangeCounterReservationTests.aFailedWriteAfterAnEmptyCounterLeavesItEmpty),
]
