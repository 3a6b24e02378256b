import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

/// What a tombstone hides, and anchors while a crashed batch is pending.
struct DeletionRulesTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: deletionRulesTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    let day = DateInterval(start: TestSupport.date("2024-06-01T00:00:00Z"), duration: 86_400)
    let now = TestSupport.referenceNow

    /// A deleted sample saved again later (an import of an old backup) is visible again and survives compaction.
    func aSampleRestoredAfterItsDeletionIsVisibleAgain() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store")
            let sample = TestSupport.quantitySample(.water, 250, "mL", start: "2024-06-01T08:00:00Z")
            try store.save([sample])
            try store.delete(uuids: [sample.uuid], now: now)
            #expect(try store.samples(ofType: SampleType.water.identifier, overlapping: day).isEmpty)
            // A library save refuses to revive the uuid; an import (its own rules) restores the backed-up sample.
            #expect(throws: SampleError.uuidInStore(sample.uuid.lowercasedText)) { try store.save([sample]) }
            try store.saveChecked([sample])
            try expectEqual(store.samples(ofType: SampleType.water.identifier, overlapping: day).map(\.uuid), [sample.uuid])
            _ = try store.compact(now: now.addingTimeInterval(86_400), retention: 0)
            try expectEqual(store.samples(ofType: SampleType.water.identifier, overlapping: day).map(\.uuid), [sample.uuid])
        }
    }

    /// One source's deletion never hides another source's sample that shares its uuid.
    func aDeletionHidesOnlyTheDeletingSourcesCopy() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store")
            let victim = TestSupport.quantitySample(.water, 250, "mL", start: "2024-06-01T08:00:00Z", source: "hkctl")
            var copy = TestSupport.quantitySample(.water, 1, "mL", start: "2024-06-01T09:00:00Z", source: "intruder")
            copy.uuid = victim.uuid
            try store.save([victim])
            // A library save refuses the uuid outright; an import path can still bring such a copy in.
            #expect(throws: SampleError.uuidInStore(victim.uuid.lowercasedText)) { try store.save([copy]) }
            try store.saveChecked([copy])
            try store.delete(uuids: [victim.uuid], now: now, source: "intruder")
            let left = try store.samples(ofType: SampleType.water.identifier, overlapping: day)
            expectEqual(left.map(\.source), ["hkctl"])
        }
    }

    /// While a crashed batch waits in the journal, its change numbers are not handed out as part of an anchor,
    /// so its samples arrive once the next writer finishes the batch.
    func anchorsStayBelowAPendingBatch() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store")
            let first = TestSupport.quantitySample(.water, 100, "mL", start: "2024-06-01T07:00:00Z")
            try store.save([first])
            // Simulate a crash after the journal was written and half of it applied.
            let pending = TestSupport.quantitySample(.water, 200, "mL", start: "2024-06-01T08:00:00Z")
            let partition = store.partitionPath(for: pending)
            let length = POSIXFile.size(folder + "/store/" + partition) ?? 0
            let line = store.codec.encode(pending, sequence: 2)
            try store.writeSequence(2)
            let journal = "{\"journal\":1,\"partitions\":[{\"path\":\(JSONText.quoted(partition)),\"length\":\(length),\"lines\":1}]}\n\(line)\n"
            try POSIXFile.writeAtomically(Array(journal.utf8), to: folder + "/store/journal.jsonl")
            try POSIXFile.writeAtomically(Array((try String(contentsOfFile: folder + "/store/" + partition, encoding: .utf8) + line + "\n").utf8),
                                          to: folder + "/store/" + partition)
            let before = try store.changes(since: .beginning)
            expectEqual(before.added.map(\.uuid), [first.uuid])
            expectEqual(before.anchor.sequence, 1)
            try expectEqual(store.currentAnchor().sequence, 1)
            // The next writer finishes the batch exactly once.
            let third = TestSupport.quantitySample(.water, 300, "mL", start: "2024-06-01T09:00:00Z")
            try store.save([third])
            let after = try store.changes(since: before.anchor)
            expectEqual(after.added.map(\.uuid), [pending.uuid, third.uuid])
            try expectEqual(store.samples(ofType: SampleType.water.identifier, overlapping: day).count, 3)
        }
    }
}

/// The checks ``DeletionRulesTests/checks(_:)`` runs.
private let deletionRulesTestsChecks: [Check<DeletionRulesTests>] = [
    Check("aSampleRestoredAfterItsDeletionIsVisibleAgain",
          DeletionRulesTests.aSampleRestoredAfterItsDeletionIsVisibleAgain),
    Check("aDeletionHidesOnlyTheDeletingSourcesCopy", DeletionRulesTests.aDeletionHidesOnlyTheDeletingSourcesCopy),
    Check("anchorsStayBelowAPendingBatch", DeletionRulesTests.anchorsStayBelowAPendingBatch),
]
