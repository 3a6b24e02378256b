import Foundation
import Testing
import TestKit

/// Permissions end to end: request, grant, deny, revoke, status, log, and enforcement on every path.
struct AuthCLITests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: authCLITestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    func writingWithoutPermissionDistinguishesNotDeterminedFromDenied() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "water", "1L", "--at", "08:00"]).status, 0)
            let before = cli.snapshot()
            let undecided = try cli.run(["add", "weight", "72kg", "--source", "scale"])
            expectEqual(undecided.status, 77)
            #expect(undecided.stderr.contains("not determined") && undecided.stderr.contains("hkctl auth grant scale --share weight"))
            expectEqual(cli.snapshot(), before)
            try expectEqual(cli.run(["auth", "deny", "scale", "--share", "weight"]).status, 0)
            let afterDeny = cli.snapshot()
            let denied = try cli.run(["add", "weight", "72kg", "--source", "scale"])
            expectEqual(denied.status, 77)
            #expect(denied.stderr.contains("was denied"))
            expectEqual(cli.snapshot(), afterDeny)
        }
    }

    func requestOffATerminalIsRecordedAndExits77() throws {
        try CLIRunner.withTemporaryStore { cli in
            let request = try cli.run(["auth", "request", "--share", "weight", "--read", "weight"], environment: ["HKCTL_SOURCE": "scale"])
            expectEqual(request.status, 77)
            #expect(request.stderr.contains("hkctl auth grant scale"))
            let status = try cli.run(["auth", "status", "--format", "json"])
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [[String: Any]])
            expectEqual(rows.first?["share"] as? String, "notDetermined")
            expectEqual(rows.first?["shareRawValue"] as? Int, 0)
            try expectEqual(cli.run(["auth", "grant", "scale", "--share", "weight", "--read", "weight"]).status, 0)
            try expectEqual(cli.run(["add", "weight", "72kg", "--source", "scale"]).status, 0)
            let again = try cli.run(["auth", "request", "--share", "weight"], environment: ["HKCTL_SOURCE": "scale"])
            expectEqual(again.status, 0, "a request with nothing undecided is unnecessary, and changes nothing")
            let log = try cli.run(["auth", "log", "--format", "json"])
            let actions = log.stdout.split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["action"] as? String
            }
            expectEqual(actions, ["request", "grant"])
        }
    }

    func readingWithoutPermissionShowsOnlyOwnSamplesSilently() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "water", "1L", "--at", "08:00"]).status, 0)
            try expectEqual(cli.run(["auth", "grant", "bottle", "--share", "water"]).status, 0)
            try expectEqual(cli.run(["add", "water", "250mL", "--at", "09:00", "--source", "bottle"]).status, 0)
            let list = try cli.run(["list", "water", "--format", "json", "--source", "bottle"])
            expectEqual(list.status, 0)
            #expect(list.stdout.contains("\"value\":250") && !list.stdout.contains("\"value\":1000"))
            let stats = try cli.run(["stats", "water", "--format", "json", "--source", "bottle"])
            #expect(stats.stdout.contains("\"sum\":250"))
            let changes = try cli.run(["changes", "--format", "json", "--source", "bottle"])
            #expect(changes.stdout.contains("\"value\":250") && !changes.stdout.contains("\"value\":1000"))
            // Once read is granted, everything.
            try expectEqual(cli.run(["auth", "grant", "bottle", "--read", "water"]).status, 0)
            #expect(try cli.run(["stats", "water", "--format", "json", "--source", "bottle"]).stdout.contains("\"sum\":1250"))
            // The source cannot tell whether read was denied: its status shows no read column.
            let status = try cli.run(["auth", "status", "--format", "json", "--source", "bottle"])
            #expect(!status.stdout.contains("\"read\""))
        }
    }

    func onlyTheOwnerChangesPermissionsAndRevokeResets() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["auth", "grant", "app", "--share", "water"]).status, 0)
            let selfGrant = try cli.run(["auth", "grant", "app", "--share", "steps", "--source", "app"])
            expectEqual(selfGrant.status, 77)
            try expectEqual(cli.run(["add", "water", "1L", "--source", "app"]).status, 0)
            try expectEqual(cli.run(["auth", "revoke", "app", "water"]).status, 0)
            try expectEqual(cli.run(["add", "water", "1L", "--source", "app"]).status, 77)
            let unshareable = try cli.run(["auth", "request", "--share", "exercise-time", "--source", "app"])
            expectEqual(unshareable.status, 65)
            #expect(unshareable.stderr.contains("cannot be written"))
            let characteristic = try cli.run(["auth", "request", "--share", "blood-type", "--source", "app"])
            expectEqual(characteristic.status, 65)
        }
    }

    func aSourceSeesACharacteristicOnlyOnceAllowedToReadIt() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["me", "set", "blood-type", "O+"]).status, 0)
            try expectEqual(cli.run(["me", "set", "date-of-birth", "1988-04-02"]).status, 0)
            func seen() throws -> [String: String] {
                let me = try cli.run(["me", "--format", "json", "--source", "app"])
                expectEqual(me.status, 0, "\(me.stderr)")
                let object = try #require(try JSONSerialization.jsonObject(with: Data(me.stdout.utf8)) as? [String: Any])
                return object.compactMapValues { $0 as? String }
            }
            #expect(try seen().isEmpty, "a source with no permission reads every characteristic as not set")
            try expectEqual(cli.run(["auth", "request", "--read", "blood-type,steps", "--source", "app"]).status, 77)
            try expectEqual(cli.run(["auth", "grant", "app", "--read", "blood-type"]).status, 0)
            try expectEqual(seen(), ["blood-type": "O+"])
            let status = try cli.run(["auth", "status", "app"])
            #expect(status.stdout.contains("blood-type"))
            // Writing one is never allowed, and asking changes nothing.
            let before = cli.snapshot()
            let share = try cli.run(["auth", "grant", "app", "--share", "blood-type"])
            expectEqual(share.status, 65)
            #expect(share.stderr.contains("cannot be written"))
            expectEqual(cli.snapshot(), before)
            try expectEqual(cli.run(["auth", "revoke", "app"]).status, 0)
            #expect(try seen().isEmpty)
            // A revoke that leaves nothing says what it did (it said 'No permissions recorded' right after revoking).
            try expectEqual(cli.run(["auth", "grant", "scale", "--share", "water,steps"]).status, 0)
            let revoked = try cli.run(["auth", "revoke", "scale"])
            expectEqual(revoked.status, 0)
            #expect(revoked.stderr.contains("Revoked all 2 permissions of 'scale'; it has none left."), "\(revoked.stderr)")
            let again = try cli.run(["auth", "revoke", "scale"])
            #expect(again.status == 0 && again.stderr.contains("'scale' had no permissions to revoke."), "\(again.stderr)")
        }
    }

    func deleteByAnotherSourceOnlyTouchesItsOwnSamples() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "water", "1L", "--at", "08:00"]).status, 0)
            try expectEqual(cli.run(["auth", "grant", "app", "--share", "water", "--read", "water"]).status, 0)
            try expectEqual(cli.run(["add", "water", "250mL", "--at", "09:00", "--source", "app"]).status, 0)
            let deleted = try cli.run(["delete", "water", "--today", "--source", "app", "--yes", "--format", "json"])
            expectEqual(deleted.status, 0)
            let remaining = try cli.run(["list", "water", "--format", "json"]).stdout
            #expect(remaining.contains("\"value\":1000") && !remaining.contains("\"value\":250"))
        }
    }
}

/// The rest of the authorization contract: the terminal approval, import as a source, identities, request status.
struct AuthCLIMoreTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: authCLIMoreTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// On a terminal the owner answers type by type (python3 drives a pseudo-terminal).
    func requestOnATerminalAsksPerType() throws {
        try CLIRunner.withTemporaryStore { cli in
            // write water: yes; write steps: no; read water: yes
            let status = try cli.runOnTerminal(["auth", "request", "--source", "app", "--share", "water,steps", "--read", "water"],
                                               answers: ["y", "n", "y"])
            expectEqual(status, 0)
            let shown = try cli.run(["auth", "status", "app", "--format", "json"])
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [[String: Any]])
            let byType = Dictionary(uniqueKeysWithValues: rows.map { ($0["type"] as! String, $0) })
            expectEqual(byType["HKQuantityTypeIdentifierDietaryWater"]?["share"] as? String, "sharingAuthorized")
            expectEqual(byType["HKQuantityTypeIdentifierStepCount"]?["share"] as? String, "sharingDenied")
            expectEqual(byType["HKQuantityTypeIdentifierDietaryWater"]?["read"] as? Bool, true)
        }
    }

    /// Import is a write path too: a source imports only its own samples of types it may write.
    func importAsASourceIsEnforced() throws {
        try CLIRunner.withTemporaryStore { cli in
            let folder = (cli.storePath as NSString).deletingLastPathComponent
            let export = folder + "/export.xml"
            try """
                <?xml version="1.0" encoding="UTF-8"?>
                <HealthData locale="en_US">
                 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="app" unit="count" value="1200" startDate="2024-06-01 08:00:00 +0000" endDate="2024-06-01 08:30:00 +0000"/>
                </HealthData>
                """.write(toFile: export, atomically: true, encoding: .utf8)
            try expectEqual(cli.run(["add", "water", "1L"]).status, 0)
            let before = cli.snapshot()
            let refused = try cli.run(["import", export, "--source", "app"])
            expectEqual(refused.status, 77)
            #expect(refused.stderr.contains("not determined"))
            expectEqual(cli.snapshot(), before)
            try expectEqual(cli.run(["auth", "grant", "app", "--share", "steps"]).status, 0)
            try expectEqual(cli.run(["import", export, "--source", "app"]).status, 0)
            #expect(try cli.run(["stats", "steps", "--format", "json"]).stdout.contains("\"sum\":1200"))
            // An export holds every source's samples: only the owner may write one out.
            try expectEqual(cli.run(["export", "--source", "app"]).status, 77)
        }
    }

    func aSourcesVersionAndDeviceAreStoredWithItsSamples() throws {
        try CLIRunner.withTemporaryStore { cli in
            let request = try cli.run(["auth", "request", "--source", "scale", "--share", "weight",
                                       "--bundle-id", "com.example.scale", "--source-version", "2.1", "--device", "Scale X"])
            expectEqual(request.status, 77)
            let pending = try cli.run(["auth", "request-status", "--source", "scale", "--share", "weight", "--format", "json"])
            #expect(pending.stdout.contains("\"requestStatus\":\"shouldRequest\""))
            try expectEqual(cli.run(["auth", "grant", "scale", "--share", "weight"]).status, 0)
            let decided = try cli.run(["auth", "request-status", "--source", "scale", "--share", "weight"])
            expectEqual(decided.stdout, "unnecessary\n")
            try expectEqual(cli.run(["add", "weight", "72kg", "--source", "scale"]).status, 0)
            let exported = try cli.run(["export", "--format", "jsonl"])
            #expect(exported.stdout.contains("\"sourceVersion\":\"2.1\"") && exported.stdout.contains("\"device\":\"Scale X\""))
        }
    }
}

/// The checks ``AuthCLITests/checks(_:)`` runs.
private let authCLITestsChecks: [Check<AuthCLITests>] = [
    Check("writingWithoutPermissionDistinguishesNotDeterminedFromDenied",
          AuthCLITests.writingWithoutPermissionDistinguishesNotDeterminedFromDenied),
    Check("requestOffATerminalIsRecordedAndExits77", AuthCLITests.requestOffATerminalIsRecordedAndExits77),
    Check("readingWithoutPermissionShowsOnlyOwnSamplesSilently",
          AuthCLITests.readingWithoutPermissionShowsOnlyOwnSamplesSilently),
    Check("onlyTheOwnerChangesPermissionsAndRevokeResets", AuthCLITests.onlyTheOwnerChangesPermissionsAndRevokeResets),
    Check("aSourceSeesACharacteristicOnlyOnceAllowedToReadIt",
          AuthCLITests.aSourceSeesACharacteristicOnlyOnceAllowedToReadIt),
    Check("deleteByAnotherSourceOnlyTouchesItsOwnSamples", AuthCLITests.deleteByAnotherSourceOnlyTouchesItsOwnSamples),
]

/// The checks ``AuthCLIMoreTests/checks(_:)`` runs.
private let authCLIMoreTestsChecks: [Check<AuthCLIMoreTests>] = [
    Check("requestOnATerminalAsksPerType", AuthCLIMoreTests.requestOnATerminalAsksPerType),
    Check("importAsASourceIsEnforced", AuthCLIMoreTests.importAsASourceIsEnforced),
    Check("aSourcesVersionAndDeviceAreStoredWithItsSamples",
          AuthCLIMoreTests.aSourcesVersionAndDeviceAreStoredWithItsSamples),
]
