import Foundation
import Testing

/// `hkctl import` of the export variations in Tests/Fixtures/import (issue 23), run as the built binary.
struct ImportVariationCLITests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/import").path

    static func fixture(_ name: String) -> String { folder + "/" + name }

    static let exports = ["locale-digits.ascii.xml", "locale-digits.arabic-indic.xml", "locale-digits.persian.xml",
                          "locale-digits.devanagari.xml", "look-alike.xml", "ios8.xml", "me-generic.xml"]

    @Test(arguments: exports)
    func everyVariationImportsWithExitZeroAndAgainAddsNothing(name: String) throws {
        try CLIRunner.withTemporaryStore { cli in
            let first = try cli.run(["import", Self.fixture(name), "--format", "json"])
            #expect(first.status == 0, "\(first.stderr)")
            let receipt = try #require(try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])
            let totals = try #require(receipt["totals"] as? [String: Int])
            #expect(totals["rejected"] == 0)
            #expect(totals["alreadyPresent"] == 0)
            let second = try cli.run(["import", Self.fixture(name), "--format", "json"])
            #expect(second.status == 0, "\(second.stderr)")
            let again = try #require(try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any])
            let againTotals = try #require(again["totals"] as? [String: Int])
            #expect(againTotals["added"] == 0)
            #expect(againTotals["keptGenerically"] == 0)
        }
    }

    @Test func lookAlikesAreListedNotRemoved() throws {
        try CLIRunner.withTemporaryStore { cli in
            #expect(try cli.run(["import", Self.fixture("look-alike.xml")]).status == 0)
            let before = cli.snapshot()
            let listed = try cli.run(["sources", "--look-alikes", "--format", "json"])
            #expect(listed.status == 0, "\(listed.stderr)")
            let groups = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
            #expect(groups.count == 5)
            #expect(groups.map { ($0["samples"] as? [Any])?.count ?? 0 }.reduce(0, +) == 15)
            let energy = try #require(groups.first { $0["type"] as? String == "HKQuantityTypeIdentifierActiveEnergyBurned" })
            #expect((energy["samples"] as? [Any])?.count == 5)
            let table = try cli.run(["sources", "--look-alikes", "active-energy"], environment: ["COLUMNS": "200"])
            #expect(table.status == 0)
            #expect(table.stdout.contains("5 samples in 1 groups look alike"))
            let csv = try cli.run(["sources", "--look-alikes", "sleep", "--format", "csv"])
            #expect(csv.stdout.split(separator: "\n").count == 4)
            #expect(cli.snapshot() == before, "listing changes nothing")
            // Reading every source's samples is for the owner.
            let other = try cli.run(["sources", "--look-alikes", "--source", "SomeApp"])
            #expect(other.status == 77)
            // Deleting one of a group leaves the others.
            let uuid = try #require(((energy["samples"] as? [[String: Any]])?.last?["uuid"]) as? String)
            #expect(try cli.run(["delete", uuid, "--yes"]).status == 0)
            let after = try cli.run(["sources", "--look-alikes", "active-energy", "--format", "json"])
            let remaining = try #require(try JSONSerialization.jsonObject(with: Data(after.stdout.utf8)) as? [[String: Any]])
            #expect((remaining.first?["samples"] as? [Any])?.count == 4)
        }
    }

    @Test func unknownCharacteristicsAreListedByMeAndExportedBack() throws {
        try CLIRunner.withTemporaryStore { cli in
            let imported = try cli.run(["import", Self.fixture("me-generic.xml")])
            #expect(imported.status == 0, "\(imported.stderr)")
            #expect(!imported.stdout.contains("Skipped"), "\(imported.stdout)")
            let me = try cli.run(["me", "--format", "json"])
            #expect(me.stdout.contains("\"HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse\":\"HKCardioFitnessMedicationsUseOptionBetaBlocker\""), "\(me.stdout)")
            #expect(try cli.run(["me"]).stdout.contains("HKCharacteristicTypeIdentifierActivityMoveMode"))
            let exported = try cli.run(["export", "--format", "healthxml"])
            #expect(exported.status == 0)
            #expect(exported.stdout.contains(" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse=\"HKCardioFitnessMedicationsUseOptionBetaBlocker\""))
        }
    }
}
