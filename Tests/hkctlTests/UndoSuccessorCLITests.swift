import Foundation
import Testing
import TestKit

/// What `hkctl undo` says when a push it takes back was reduced by an export (issue 30, round-2 bug 14): the push's
/// undo deletes the remainder, and the export's undo names what it leaves deleted, in the sentence and in JSON.
struct UndoSuccessorCLITests {
    private typealias H = HAEIndependent
    private typealias H2 = HAEIndependent2

    @Test func theExportsUndoSaysThePushStaysDeleted() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["auth", "grant", "iphone", "--share", "steps"]).status, 0)
            try expectEqual(cli.run(["import", H2.first("hae-day-steps.json"), "--source", "iphone", "-q"], environment: H.berlin).status, 0)
            try H2.importQuietly(cli, H2.first("export-until-14.xml"))
            let push = try cli.run(["undo", "--yes"], environment: H.berlin.merging(["HKCTL_SOURCE": "iphone"]) { $1 })
            #expect(push.status == 0 && push.stdout.contains("Undone: deleted 1 steps sample"), "\(push.stdout)")
            let plan = try cli.run(["undo", "--dry-run", "--format", "json"], environment: H.berlin)
            expectEqual(plan.status, 0, "\(plan.stderr)")
            #expect(H.number(try H.object(plan.stdout)["undoneSince"]) == 1, "\(plan.stdout)")
            let sentence = try cli.run(["undo", "--dry-run"], environment: H.berlin)
            #expect(sentence.stdout.contains("1 stays deleted: the add or import that saved it was undone"), "\(sentence.stdout)")
        }
    }
}
