import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Issue 30, bug 14 of the second HAE round: a push taken back with `undo` takes with it what another source's
/// replacement left of it (an export's import keeps a Health Auto Export point as its remainder, under the point's
/// sync identifier), and undoing that replacement afterwards never brings the taken-back push back.
struct UndoSuccessorTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: undoSuccessorTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Ops = OperationTestKit

    /// Water of the phone (sample source `phone`) at `hour`, under sync identifier `key`, version `version`.
    /// `remainder`: marked as what an export's import keeps of a point (``HAECoverage/remainderKey``).
    private static func point(_ millilitres: Double, hour: Int, key: String = "HAE|water|1", version: Double = 1,
                              remainder: Bool = false) -> Sample {
        var sample = Ops.water(millilitres, hour: hour, source: "phone")
        sample.metadata[MetadataKeySyncIdentifier] = .string(key)
        sample.metadata[MetadataKeySyncVersion] = .number(version)
        if remainder { sample.metadata[HAECoverage.remainderKey] = .string("export") }
        return sample
    }

    /// The push (acting source `iphone`), then the owner's replacement of it by `successor` (the owner's import).
    private static func pushThenReplace(_ store: JSONFileStore, successor: Sample) throws -> Sample {
        let pushed = point(500, hour: 8)
        try Ops.recording(store, .import, source: "iphone").save([pushed])
        try Ops.recording(store, .import).replace([pushed.uuid], with: [successor], now: Ops.madeAt)
        return pushed
    }

    func undoingAPushDeletesTheRemainderAnotherSourceLeftOfIt() throws {
        try Ops.withStore { store, _ in
            _ = try Self.pushThenReplace(store, successor: Self.point(200, hour: 9, version: 2, remainder: true))
            let plan = try store.undo(source: "iphone", now: Ops.undoneAt)
            #expect(plan.total == 1 && plan.alreadyDeleted == 0, "the remainder goes in the push's place")
            #expect(try Ops.visible(store).isEmpty)
            let owner = try store.undo(source: "hkctl", now: Ops.undoneAt)
            #expect(owner.kind == .replace && owner.restored == 0 && owner.undoneSince == 1)
            #expect(try Ops.visible(store).isEmpty, "undoing the replacement does not bring the taken-back push back")
        }
    }

    func undoingTheReplacementFirstThenThePushLeavesNothing() throws {
        try Ops.withStore { store, _ in
            _ = try Self.pushThenReplace(store, successor: Self.point(200, hour: 9, version: 2, remainder: true))
            let owner = try store.undo(source: "hkctl", now: Ops.undoneAt)
            #expect(owner.restored == 1 && owner.undoneSince == 0)
            try expectEqual(Ops.visible(store).map(\.value), [Self.point(500, hour: 8).value])
            let plan = try store.undo(source: "iphone", now: Ops.undoneAt)
            expectEqual(plan.total, 1)
            #expect(try Ops.visible(store).isEmpty)
        }
    }

    /// Another identity, the owner's own sample, or another source's newer version of the same point (not a remainder:
    /// a second phone's or the owner's re-send of the grown figure) stays when the push is taken back.
    func aSampleWrittenInPlaceUnderAnotherIdentityOrSourceStays() throws {
        for successor in [Self.point(200, hour: 9, key: "HAE|water|2", version: 2, remainder: true), Ops.water(200, hour: 9),
                          Self.point(800, hour: 8, version: 2)] {
            try Ops.withStore { store, _ in
                _ = try Self.pushThenReplace(store, successor: successor)
                let plan = try store.undo(source: "iphone", now: Ops.undoneAt)
                #expect(plan.total == 0 && plan.alreadyDeleted == 1)
                try expectEqual(Ops.visible(store).map(\.uuid), [successor.uuid], "not the push's: the owner's own")
            }
        }
    }

    func undoingADeleteDoesNotRestoreASampleWhosePushWasTakenBack() throws {
        try Ops.withStore { store, _ in
            let pushed = Self.point(500, hour: 8)
            try Ops.recording(store, .import, source: "iphone").save([pushed])
            try Ops.recording(store, .delete).delete(uuids: [pushed.uuid], now: Ops.madeAt)
            try expectEqual(store.undo(source: "iphone", now: Ops.undoneAt).alreadyDeleted, 1)
            let owner = try store.undo(source: "hkctl", now: Ops.undoneAt)
            #expect(owner.kind == .delete && owner.total == 0 && owner.undoneSince == 1)
            #expect(try Ops.visible(store).isEmpty)
        }
    }

    func aChainOfRemaindersGoesWithThePush() throws {
        try Ops.withStore { store, _ in
            let first = Self.point(200, hour: 9, version: 2, remainder: true)
            _ = try Self.pushThenReplace(store, successor: first)
            let second = Self.point(100, hour: 10, version: 3, remainder: true)
            try Ops.recording(store, .import).replace([first.uuid], with: [second], now: Ops.madeAt)
            let plan = try store.undo(source: "iphone", now: Ops.undoneAt)
            #expect(plan.total == 1 && plan.alreadyDeleted == 0)
            #expect(try Ops.visible(store).isEmpty)
        }
    }
}

/// The checks ``UndoSuccessorTests/checks(_:)`` runs.
private let undoSuccessorTestsChecks: [Check<UndoSuccessorTests>] = [
    Check("undoingAPushDeletesTheRemainderAnotherSourceLeftOfIt",
          UndoSuccessorTests.undoingAPushDeletesTheRemainderAnotherSourceLeftOfIt),
    Check("undoingTheReplacementFirstThenThePushLeavesNothing",
          UndoSuccessorTests.undoingTheReplacementFirstThenThePushLeavesNothing),
    Check("aSampleWrittenInPlaceUnderAnotherIdentityOrSourceStays",
          UndoSuccessorTests.aSampleWrittenInPlaceUnderAnotherIdentityOrSourceStays),
    Check("undoingADeleteDoesNotRestoreASampleWhosePushWasTakenBack",
          UndoSuccessorTests.undoingADeleteDoesNotRestoreASampleWhosePushWasTakenBack),
    Check("aChainOfRemaindersGoesWithThePush", UndoSuccessorTests.aChainOfRemaindersGoesWithThePush),
]
