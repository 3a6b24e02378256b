import Foundation
import Testing

/// What a person and their cron scripts meet every day (issue 22).
struct DailyUseTests {
    /// A range delete from a script cannot ask, so it deletes nothing without --yes and says how to go on.
    @Test func aRangeDeleteThatCannotAskNeedsYes() throws {
        try CLIRunner.withTemporaryStore { cli in
            #expect(try cli.run(["add", "water", "250mL", "--at", "08:00"]).status == 0)
            #expect(try cli.run(["add", "water", "300mL", "--at", "09:00"]).status == 0)
            let before = cli.snapshot()
            let refused = try cli.run(["delete", "water", "--today"])
            #expect(refused.status == 64)
            #expect(refused.stderr.contains("--yes") && refused.stderr.contains("2 samples"), "\(refused.stderr)")
            #expect(refused.stdout.isEmpty)
            #expect(cli.snapshot() == before)
            let dry = try cli.run(["delete", "water", "--today", "--dry-run"])
            #expect(dry.status == 0 && dry.stdout.contains("300 mL"), "\(dry.stdout)")
            let done = try cli.run(["delete", "water", "--today", "--yes"])
            #expect(done.status == 0, "\(done.stderr)")
            #expect(try cli.run(["list", "water", "--format", "json"]).stdout == "[]\n")
        }
    }

    /// Deleting one sample by its uuid names exactly what goes, so it needs no --yes.
    @Test func aDeleteByUUIDNeedsNoConfirmation() throws {
        try CLIRunner.withTemporaryStore { cli in
            let added = try cli.run(["add", "water", "250mL", "--at", "08:00", "--format", "json"])
            let uuid = String(try #require(added.stdout.firstMatch(of: /[0-9a-f-]{36}/)).output)
            let result = try cli.run(["delete", uuid])
            #expect(result.status == 0, "\(result.stderr)")
        }
    }
}
