import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Issue 31, "Corrections in one command": a uuid may be given git-style, as a unique prefix of 8 or more digits.
struct UUIDPrefixCLITests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: uUIDPrefixCLITestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private func line(_ uuid: String, minute: Int, source: String = "hkctl") -> String {
        let time = String(format: "2024-05-01T08:%02d:00+00:00", minute)
        return "{\"uuid\":\"\(uuid)\",\"type\":\"HKQuantityTypeIdentifierDietaryWater\",\"start\":\"\(time)\",\"end\":\"\(time)\","
            + "\"value\":250,\"unit\":\"mL\",\"source\":\"\(source)\",\"created\":\"2024-05-01T08:00:00+00:00\"}"
    }

    func aUniquePrefixDeletesAnAmbiguousOneListsTheCandidates() throws {
        try CLIRunner.withTemporaryStore { cli in
            let twins = ["1332c702-aaaa-4000-8000-000000000001", "1332c702-bbbb-4000-8000-000000000002"]
            let lone = "7f00d1e5-cccc-4000-8000-000000000003"
            let backup = [line(twins[0], minute: 1), line(twins[1], minute: 2), line(lone, minute: 3)].joined(separator: "\n") + "\n"
            try expectEqual(cli.run(["import", "-", "-q"], stdin: backup).status, 0)
            let before = cli.snapshot()
            let ambiguous = try cli.run(["delete", "1332c702", "--yes"])
            expectEqual(ambiguous.status, 64)
            #expect(ambiguous.stderr.contains(twins[0]) && ambiguous.stderr.contains(twins[1]))
            #expect(ambiguous.stderr.split(separator: "\n").first!.contains("give more of it"))
            let none = try cli.run(["delete", "deadbeef", "--yes"])
            expectEqual(none.status, 66)
            #expect(none.stderr.hasPrefix("Error: 'deadbeef' is not a uuid or a unique uuid prefix"))
            #expect(none.stderr.contains("see hkctl list"))
            let short = try cli.run(["delete", "7f00d1e", "--yes"])
            expectEqual(short.status, 64)
            #expect(short.stderr.contains("at least 8 hexadecimal digits"))
            let typo = try cli.run(["delete", "wter", "--today", "--yes"])
            #expect(typo.stderr.contains("did you mean 'water'"))
            expectEqual(cli.snapshot(), before)
            // Unique prefixes, any case, with or without the dash: one sample each.
            try expectEqual(cli.run(["delete", "7F00D1E5-cc", "--yes", "-q"]).status, 0)
            try expectEqual(cli.run(["delete", "1332c702-b", "--yes", "-q"]).status, 0)
            let left = try cli.run(["list", "water", "--format", "csv"]).stdout
            #expect(left.contains(twins[0]) && !left.contains(twins[1]) && !left.contains(lone))
            // A deleted sample's uuid no longer matches; the twin that is left is now unique.
            try expectEqual(cli.run(["delete", "1332c702", "--yes", "-q"]).status, 0)
            try expectEqual(cli.run(["list", "water", "--format", "csv"]).stdout.split(separator: "\n").count, 1)
        }
    }

    func aSourceSeesOnlyTheCandidatesItMayRead() throws {
        try CLIRunner.withTemporaryStore { cli in
            let backup = [line("abcdef01-aaaa-4000-8000-000000000001", minute: 1, source: "Phone"),
                          line("abcdef01-bbbb-4000-8000-000000000002", minute: 2, source: "app")].joined(separator: "\n") + "\n"
            try expectEqual(cli.run(["import", "-", "-q"], stdin: backup).status, 0)
            try expectEqual(cli.run(["auth", "grant", "app", "--share", "water", "-q"]).status, 0)
            // The app may not read water: only its own sample matches, so the prefix is unique for it.
            let own = try cli.run(["delete", "abcdef01", "--yes", "--source", "app"])
            expectEqual(own.status, 0, "\(own.stderr)")
            #expect(!own.stderr.contains("aaaa"))
            #expect(try cli.run(["list", "water", "--format", "csv"]).stdout.contains("abcdef01-aaaa"))
        }
    }

    func prefixesMatchNibbleByNibble() throws {
        let uuid = try #require(UUID(uuidString: "1332C702-7F1A-4B2C-8D3E-0123456789AB"))
        #expect(try #require(UUIDPrefix("1332c702")).matches(uuid))
        #expect(try #require(UUIDPrefix("1332c7027f1a4")).matches(uuid))
        #expect(try #require(UUIDPrefix("1332c702-7f1a-4b2c-8d3e-0123456789ab")).matches(uuid))
        #expect(!(try #require(UUIDPrefix("1332c703")).matches(uuid)))
        for bad in ["1332c70", "1332c70g", "1332-c702", "1332c702--7f", "", "1332c702-7f1a-4b2c-8d3e-0123456789abc"] {
            expectNil(UUIDPrefix(bad), "\(bad)")
        }
    }
}

/// The checks ``UUIDPrefixCLITests/checks(_:)`` runs.
private let uUIDPrefixCLITestsChecks: [Check<UUIDPrefixCLITests>] = [
    Check("aUniquePrefixDeletesAnAmbiguousOneListsTheCandidates",
          UUIDPrefixCLITests.aUniquePrefixDeletesAnAmbiguousOneListsTheCandidates),
    Check("aSourceSeesOnlyTheCandidatesItMayRead", UUIDPrefixCLITests.aSourceSeesOnlyTheCandidatesItMayRead),
    Check("prefixesMatchNibbleByNibble", UUIDPrefixCLITests.prefixesMatchNibbleByNibble),
]
