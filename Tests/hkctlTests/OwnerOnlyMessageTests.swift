import Foundation
import Testing
import TestKit

/// Issue 29, item 18: a command only the owner may run says what it does when another source runs it.
struct OwnerOnlyMessageTests {
    static let commands: [(arguments: [String], action: String)] = [
        (["doctor"], "check the store"), (["doctor", "--repair"], "repair the store"), (["export"], "export the store"),
        (["export", "--out", "x.jsonl"], "export the store"), (["compact"], "compact the store"),
        (["goal", "water", "3L"], "change goals"), (["goal", "water", "--unset"], "change goals"),
        (["me", "set", "biological-sex", "female"], "change characteristics"), (["me", "unset", "blood-type"], "change characteristics"),
        (["config", "set", "unit.water", "mL"], "change settings"), (["config", "unset", "unit.water"], "change settings"),
        (["sources", "priority", "water", "Watch", "hkctl"], "change source priorities"),
        (["sources", "priority", "water", "--reset"], "change source priorities"),
        (["sources", "--look-alikes"], "compare every source's names"),
        (["auth", "grant", "other", "--share", "water"], "change permissions"), (["auth", "revoke", "other"], "change permissions"),
        (["auth", "log"], "read the permissions log"), (["auth", "status", "other"], "see another source's permissions"),
    ]

    @Test func eachOwnerOnlyCommandSaysWhatItDoes() throws {
        try CLIRunner.withTemporaryStore { cli in
            try #require(try cli.run(["add", "water", "250mL", "--at", "08:00"]).status == 0)
            let before = cli.snapshot()
            for (arguments, action) in Self.commands {
                let result = try cli.run(arguments, environment: ["HKCTL_SOURCE": "app"])
                expectEqual(result.status, 77, "\(arguments): \(result.status) \(result.stderr)")
                expectEqual(result.stderr, "Error: Only the owner may \(action), not source 'app'; run this without --source "
                            + "and without $HKCTL_SOURCE.\n", "\(arguments): \(result.stderr)")
                #expect(result.stdout.isEmpty)
            }
            expectEqual(cli.snapshot(), before)
        }
    }
}
