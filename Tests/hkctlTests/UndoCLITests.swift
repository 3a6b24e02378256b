import Foundation
import Testing
import TestKit
import TextSupport

/// Issue 22: `hkctl undo` takes back this source's last add, import or delete (again: the one before), shows it first,
/// asks on a terminal, needs --yes elsewhere, and leaves tombstones or new samples that sync clients see.
struct UndoCLITests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: undoCLITestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private func csvRows(_ cli: CLIRunner, _ type: String) throws -> [[String]] {
        let result = try cli.run(["list", type, "--format", "csv"])
        expectEqual(result.status, 0, "\(result.stderr)")
        return result.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    private func anchor(_ cli: CLIRunner) throws -> String {
        let result = try cli.run(["changes", "--format", "json"])
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return try #require(object?["anchor"] as? String)
    }

    /// `changes --since anchor`: the uuids added and deleted.
    private func changes(_ cli: CLIRunner, since anchor: String) throws -> (added: [String], deleted: [String]) {
        let result = try cli.run(["changes", "--since", anchor, "--format", "json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let added = (object["added"] as? [[String: Any]] ?? []).compactMap { $0["uuid"] as? String }
        let deleted = (object["deleted"] as? [[String: Any]] ?? []).compactMap { $0["uuid"] as? String }
        return (added, deleted)
    }

    func undoingAnAddRemovesItWithATombstone() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "water", "500mL", "--at", "08:00"]).status, 0)
            let added = try cli.run(["add", "water", "250mL", "--at", "09:00", "--format", "csv"])
            let uuid = try #require(added.stdout.split(separator: "\n").last?.split(separator: ",").first.map(String.init))
            let since = try anchor(cli)
            let result = try cli.run(["undo", "--yes"])
            expectEqual(result.status, 0, "\(result.stderr)")
            expectEqual(result.stdout, "Undo add of 1 water sample (2024-06-01 12:00): deletes it\n"
                + "Undone: deleted 1 water sample (the add is marked undone).\n", "\(result.stdout)")
            try expectEqual(csvRows(cli, "water").map { $0[4] }, ["500"])
            let seen = try changes(cli, since: since)
            #expect(seen.added.isEmpty && seen.deleted == [uuid], "a syncing client learns of the undo")
        }
    }

    func undoingAnImportRemovesEverythingItImported() throws {
        try CLIRunner.withTemporaryStore { cli in
            let folder = (cli.storePath as NSString).deletingLastPathComponent
            var lines: [String] = []
            for day in 1...9 {
                lines.append("{\"uuid\":\"\(UUID().uuidString.lowercased())\",\"type\":\"HKQuantityTypeIdentifierStepCount\","
                    + "\"start\":\"2024-05-0\(day)T10:00:00+00:00\",\"end\":\"2024-05-0\(day)T10:30:00+00:00\","
                    + "\"value\":\(1000 + day),\"unit\":\"count\",\"source\":\"Phone\"}")
            }
            try (lines.joined(separator: "\n") + "\n").write(toFile: folder + "/steps.jsonl", atomically: true, encoding: .utf8)
            try expectEqual(cli.run(["add", "steps", "500", "--at", "08:00"]).status, 0)
            try expectEqual(cli.run(["import", folder + "/steps.jsonl", "--batch-size", "4"]).status, 0)
            let dry = try cli.run(["undo", "--dry-run"])
            expectEqual(dry.stdout, "Undo import of 9 steps samples (2024-06-01 12:00): deletes them\n", "\(dry.stdout)")
            let result = try cli.run(["undo", "--yes", "--format", "json"])
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            #expect(object["undo"] as? String == "import" && object["count"] as? Int == 9 && object["done"] as? Bool == true)
            try expectEqual(csvRows(cli, "steps").map { $0[4] }, ["500"], "the add before the import stays")
            // The import can be run again: its samples come back.
            try expectEqual(cli.run(["import", folder + "/steps.jsonl"]).status, 0)
            try expectEqual(csvRows(cli, "steps").count, 10)
        }
    }

    func undoingADeleteRestoresTheSamplesUnderNewUUIDs() throws {
        try CLIRunner.withTemporaryStore { cli in
            for (amount, time) in [("500mL", "08:00"), ("250mL", "09:00"), ("330mL", "10:00")] {
                try expectEqual(cli.run(["add", "water", amount, "--at", time]).status, 0)
            }
            let before = try csvRows(cli, "water")
            try expectEqual(cli.run(["delete", "water", "--today", "--yes"]).status, 0)
            #expect(try csvRows(cli, "water").isEmpty)
            let since = try anchor(cli)
            let dry = try cli.run(["undo", "--dry-run"])
            #expect(dry.stdout.hasPrefix("Undo delete of 3 water samples (2024-06-01 12:00): restores them"), "\(dry.stdout)")
            try expectEqual(cli.run(["undo", "--yes"]).status, 0)
            let after = try csvRows(cli, "water")
            expectEqual(after.map { Array($0[1...6]) }, before.map { Array($0[1...6]) }, "same times, values, source")
            #expect(Set(after.map { $0[0] }).isDisjoint(with: before.map { $0[0] }), "new uuids")
            let seen = try changes(cli, since: since)
            #expect(Set(seen.added) == Set(after.map { $0[0] }) && seen.deleted.isEmpty)
        }
    }

    func undoIsAStackAndSaysWhenNothingIsLeft() throws {
        try CLIRunner.withTemporaryStore { cli in
            let none = try cli.run(["undo", "--yes"])
            #expect(none.status == 66 && none.stdout.isEmpty, "\(none.stderr)")
            #expect(none.stderr.hasPrefix("Error: Nothing to undo: source 'hkctl' has no add, import, delete or replacement left"), "\(none.stderr)")
            #expect(!FileManager.default.fileExists(atPath: cli.storePath), "nothing is created")
            try expectEqual(cli.run(["add", "water", "500mL", "--at", "08:00"]).status, 0)
            try expectEqual(cli.run(["add", "water", "250mL", "--at", "09:00"]).status, 0)
            try expectEqual(cli.run(["undo", "--yes", "-q"]).status, 0)
            try expectEqual(csvRows(cli, "water").map { $0[4] }, ["500"])
            try expectEqual(cli.run(["undo", "--yes", "-q"]).status, 0)
            #expect(try csvRows(cli, "water").isEmpty)
            let empty = try cli.run(["undo", "--dry-run"])
            #expect(empty.status == 66 && empty.stderr.contains("Nothing to undo"), "\(empty.stderr)")
        }
    }

    func aDryRunOrARefusalChangesNothing() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "water", "500mL", "--at", "08:00"]).status, 0)
            let before = cli.snapshot()
            let dry = try cli.run(["undo", "--dry-run"])
            #expect(dry.status == 0 && dry.stdout.hasPrefix("Undo add of 1 water sample"), "\(dry.stderr)")
            expectEqual(cli.snapshot(), before, "a dry run changes nothing, byte for byte")
            let refused = try cli.run(["undo"])
            #expect(refused.status == 64 && refused.stdout.isEmpty)
            #expect(refused.stderr.hasPrefix("Error: Refusing to undo without confirmation (Undo add of 1 water sample")
                    && refused.stderr.contains("add --yes"), "\(refused.stderr)")
            expectEqual(cli.snapshot(), before)
            let stray = try cli.run(["undo", "water"])
            #expect(stray.status == 64 && stray.stderr.contains("Unexpected argument 'water'"))
            expectEqual(cli.snapshot(), before)
        }
    }

    func onATerminalItAsksFirst() throws {
        try CLIRunner.withTemporaryStore { cli in
            let added = try cli.run(["add", "water", "500mL", "--at", "08:00"])
            expectEqual(added.status, 0)
            let before = cli.snapshot()
            try expectEqual(cli.runOnTerminal(["undo"], answers: ["n"]), 0)
            expectEqual(cli.snapshot(), before, "declined: nothing changes")
            try expectEqual(cli.runOnTerminal(["undo"], answers: ["y"]), 0)
            #expect(try csvRows(cli, "water").isEmpty)
        }
    }

    func eachSourceUndoesOnlyItsOwnOperations() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["auth", "grant", "scale", "--share", "weight"]).status, 0)
            try expectEqual(cli.run(["add", "weight", "70kg", "--at", "07:00", "--source", "scale"]).status, 0)
            try expectEqual(cli.run(["add", "weight", "71kg", "--at", "08:00"]).status, 0)
            let scale = try cli.run(["undo", "--yes", "--source", "scale"])
            expectEqual(scale.status, 0, "\(scale.stderr)")
            try expectEqual(csvRows(cli, "weight").map { $0[6] }, ["hkctl"], "the owner's add stays")
            try expectEqual(cli.run(["undo", "--dry-run", "--source", "scale"]).status, 66)
            // A source that may no longer write a type cannot bring its samples back.
            try expectEqual(cli.run(["add", "weight", "72kg", "--at", "09:00", "--source", "scale"]).status, 0)
            let uuid = try #require(try csvRows(cli, "weight").first { $0[6] == "scale" }?[0])
            try expectEqual(cli.run(["delete", uuid, "--source", "scale", "--yes"]).status, 0)
            try expectEqual(cli.run(["auth", "revoke", "scale"]).status, 0)
            let before = cli.snapshot()
            let revoked = try cli.run(["undo", "--yes", "--source", "scale"])
            expectEqual(revoked.status, 77, "\(revoked.stderr)")
            expectEqual(cli.snapshot(), before)
        }
    }

    func aRecordThatCannotBeWrittenTakesTheAddBack() throws {
        try CLIRunner.withTemporaryStore { cli in
            // Enough adds that operations.jsonl outgrows a 2 KiB file-size limit, while the new partition stays small.
            for hour in 0..<16 {
                try expectEqual(cli.run(["add", "steps", "\(100 + hour)", "--at", "2024-05-01T\(hour < 10 ? "0" : "")\(hour):00"]).status, 0)
            }
            let before = cli.snapshot()
            let result = try runShell("ulimit -f 4; exec \"$HKCTL\" add water 500mL --at 08:00", cli)
            expectEqual(result.status, 74, "\(result.stderr)")
            expectEqual(cli.snapshot(), before, "the line is taken back with its record")
            #expect(try cli.run(["undo", "--dry-run"]).stdout.hasPrefix("Undo add of 1 steps sample"))
        }
    }

    func doctorChecksAndRepairsTheRecordOfOperations() throws {
        try CLIRunner.withTemporaryStore { cli in
            let first = try cli.run(["add", "water", "500mL", "--at", "08:00"])
            expectEqual(first.status, 0)
            try expectEqual(cli.run(["add", "water", "250mL", "--at", "09:00"]).status, 0)
            let file = cli.storePath + "/operations.jsonl"
            let records = try String(contentsOfFile: file, encoding: .utf8)
            try ("garbage\n" + records).write(toFile: file, atomically: false, encoding: .utf8)
            let damaged = try cli.run(["undo", "--dry-run"])
            #expect(damaged.status == 65 && damaged.stderr.contains("operations.jsonl' is corrupt at line 1"), "\(damaged.stderr)")
            let doctor = try cli.run(["doctor"])
            #expect(doctor.status == 65 && doctor.stdout.contains("error: operations.jsonl:1: not an operation record"),
                    "\(doctor.stdout)")
            try expectEqual(cli.run(["doctor", "--repair", "-q"]).status, 0)
            #expect(try cli.run(["undo", "--dry-run"]).stdout.hasPrefix("Undo add of 1 water sample"))
        }
    }
}

/// The checks ``UndoCLITests/checks(_:)`` runs.
private let undoCLITestsChecks: [Check<UndoCLITests>] = [
    Check("undoingAnAddRemovesItWithATombstone", UndoCLITests.undoingAnAddRemovesItWithATombstone),
    Check("undoingAnImportRemovesEverythingItImported", UndoCLITests.undoingAnImportRemovesEverythingItImported),
    Check("undoingADeleteRestoresTheSamplesUnderNewUUIDs", UndoCLITests.undoingADeleteRestoresTheSamplesUnderNewUUIDs),
    Check("undoIsAStackAndSaysWhenNothingIsLeft", UndoCLITests.undoIsAStackAndSaysWhenNothingIsLeft),
    Check("aDryRunOrARefusalChangesNothing", UndoCLITests.aDryRunOrARefusalChangesNothing),
    Check("onATerminalItAsksFirst", UndoCLITests.onATerminalItAsksFirst),
    Check("eachSourceUndoesOnlyItsOwnOperations", UndoCLITests.eachSourceUndoesOnlyItsOwnOperations),
    Check("aRecordThatCannotBeWrittenTakesTheAddBack", UndoCLITests.aRecordThatCannotBeWrittenTakesTheAddBack),
    Check("doctorChecksAndRepairsTheRecordOfOperations", UndoCLITests.doctorChecksAndRepairsTheRecordOfOperations),
]
