import Foundation
import Testing
import TestKit
@testable import HealthCore

/// An import of an older export stopped after its records were written and before its end (where its food entry is
/// decided), through the binary: `hkctl doctor` names the stopped import, and `hkctl import` of the same file keeps
/// the newer entry alone (350 kcal; before, 300 and 350 kcal stayed, the day's energy counting both versions).
struct StoppedImportCLITests {
    @Test(arguments: stoppedImportCLITestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static let energy = "HKQuantityTypeIdentifierDietaryEnergyConsumed"

    /// An export holding a lunch entry (sync keys `lunch-1`) in `version`: `kcal` and 10 g of protein, as top-level
    /// records first and inside the entry after them, as the phone writes them.
    private static func export(version: Int, kcal: Int, in folder: String) throws -> String {
        let when = "startDate=\"2024-03-12 13:00:00 +0100\" endDate=\"2024-03-12 13:00:00 +0100\""
        let records = [(energy, kcal, "kcal"), ("HKQuantityTypeIdentifierDietaryProtein", 10, "g")].map { type, value, unit in
            "  <Record type=\"\(type)\" sourceName=\"MyFitnessPal\" unit=\"\(unit)\" value=\"\(value)\" "
                + "creationDate=\"2024-03-12 21:05:00 +0100\" \(when)/>"
        }
        let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
            + " <ExportDate value=\"2024-06-01 09:00:00 +0000\"/>\n" + records.joined(separator: "\n") + "\n"
            + " <Correlation type=\"HKCorrelationTypeIdentifierFood\" sourceName=\"MyFitnessPal\" "
            + "creationDate=\"2024-03-12 21:05:00 +0100\" \(when)>\n"
            + "  <MetadataEntry key=\"HKMetadataKeySyncIdentifier\" value=\"lunch-1\"/>\n"
            + "  <MetadataEntry key=\"HKMetadataKeySyncVersion\" value=\"\(version)\"/>\n"
            + records.joined(separator: "\n") + "\n </Correlation>\n</HealthData>\n"
        let path = folder + "/export-v\(version).xml"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    private static func energyValues(_ cli: CLIRunner) throws -> [Double] {
        let listed = try cli.run(["list", energy, "--from", "2024-03-01", "--to", "2024-03-31", "--format", "json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]],
                                "\(listed.stderr)")
        return rows.compactMap { ($0["value"] as? NSNumber)?.doubleValue }.sorted()
    }

    func theNextImportSettlesWhatAStoppedImportLeft() throws {
        try CLIRunner.withTemporaryStore { cli in
            let folder = (cli.storePath as NSString).deletingLastPathComponent
            let newer = try Self.export(version: 2, kcal: 350, in: folder)
            let older = try Self.export(version: 1, kcal: 300, in: folder)
            try expectEqual(cli.run(["import", newer, "-q"]).status, 0)
            try expectEqual(Self.energyValues(cli), [350])
            // The older export's import, stopped as a kill after its last write would stop it.
            let store = JSONFileStore(path: cli.storePath, recording: OperationRecording(kind: .import, source: "hkctl", date: Date()))
            let stopped = HealthImporter(store: store, batchSize: 1)
            stopped.interruption = { throw StoreError.writeFailed(cli.storePath, reason: "killed") }
            #expect(throws: StoreError.self) { try stopped.importFile(atPath: older) }
            try expectEqual(Self.energyValues(cli), [300, 350])
            let doctor = try cli.run(["doctor"])
            expectEqual(doctor.status, 0, "warnings only: \(doctor.stderr)")
            #expect(doctor.stdout.contains("stopped before its end"), "\(doctor.stdout)")
            let again = try cli.run(["import", older, "-q"])
            expectEqual(again.status, 0, "\(again.stderr)")
            try expectEqual(Self.energyValues(cli), [350])
            let after = try cli.run(["doctor"])
            #expect(!after.stdout.contains("stopped before its end"), "\(after.stdout)")
            #expect(!FileManager.default.fileExists(atPath: cli.storePath + "/importing"))
            // A third run keeps the newer entry alone too (it writes the older record again and takes it back, as
            // any import of an older export after a newer one does) and leaves no mark.
            try expectEqual(cli.run(["import", older, "-q"]).status, 0)
            try expectEqual(Self.energyValues(cli), [350])
            #expect(!FileManager.default.fileExists(atPath: cli.storePath + "/importing"))
        }
    }
}

private let stoppedImportCLITestsChecks: [Check<StoppedImportCLITests>] = [
    Check("theNextImportSettlesWhatAStoppedImportLeft", StoppedImportCLITests.theNextImportSettlesWhatAStoppedImportLeft),
]
