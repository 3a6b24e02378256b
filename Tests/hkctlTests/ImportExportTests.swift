import Foundation
import Testing
import TestKit

/// The real exports in `shared/fixtures/apple-health`, next to the repository, read in place.
enum ImportExportFixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("../shared/fixtures/apple-health").standardizedFileURL
    static let available = FileManager.default.fileExists(atPath: folder.path)
}

/// `hkctl import` and `hkctl export`, run as the built binary against temporary stores.
@Suite(.enabled(if: ImportExportFixtures.available,
                "shared/fixtures/apple-health is not next to the repository, so the import/export CLI tests are skipped"))
struct ImportExportTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: importExportTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    static func fixture(_ name: String) -> String { ImportExportFixtures.folder.appendingPathComponent(name).path }

    static let spanishXML = fixture("josejamilena_es-ES_iphone-mifit.export.xml")
    static let spanishZip = fixture("josejamilena_es-ES_exportación.zip")

    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not a JSON object: \(text)")
    }

    /// Runs `body` with `text` written to a scratch file named with `suffix`, removed afterwards.
    private func withScratchFile<T>(_ text: String, suffix: String, _ body: (String) throws -> T) throws -> T {
        let file = TestSupport.scratchRoot + "hkctl-\(UUID().uuidString)\(suffix)"
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        return try body(file)
    }

    /// The samples `hkctl list ARGUMENTS --format json` prints.
    private func listed(_ cli: CLIRunner, _ arguments: [String]) throws -> [[String: Any]] {
        let output = try cli.run(["list"] + arguments + ["--format", "json"]).stdout
        return try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]] ?? []
    }

    /// Runs `hkctl ARGS` with standard input read from a file (binary-safe, unlike CLIRunner's string input).
    private func run(_ cli: CLIRunner, _ arguments: [String], stdinFile: String) throws -> CLIResult {
        let process = Process()
        process.executableURL = CLIRunner.binaryURL
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin", "HKCTL_STORE": cli.storePath, "TZ": "UTC", "HOME": NSTemporaryDirectory()]
        return try CLIRunner.collect(process, standardInput: try FileHandle(forReadingFrom: URL(fileURLWithPath: stdinFile)))
    }

    /// The step total of a local day computed from the XML text alone: each StepCount record's value, split in
    /// proportion to the part of it inside the day (an instantaneous one counts where it is).
    private func stepsFromFile(_ path: String, day: String, offset: String) throws -> Double {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss Z"
        let dayStart = formatter.date(from: "\(day) 00:00:00 \(offset)")!
        let dayEnd = dayStart.addingTimeInterval(86_400)
        var total = 0.0
        for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        where line.contains("type=\"HKQuantityTypeIdentifierStepCount\"") {
            func attribute(_ name: String) -> String {
                let start = line.range(of: " \(name)=\"")!.upperBound
                return String(line[start...].prefix { $0 != "\"" })
            }
            let start = formatter.date(from: attribute("startDate"))!, end = formatter.date(from: attribute("endDate"))!
            let value = Double(attribute("value"))!
            if start == end {
                if start >= dayStart && start < dayEnd { total += value }
            } else {
                let overlap = min(end, dayEnd).timeIntervalSince(max(start, dayStart))
                if overlap > 0 { total += value * overlap / end.timeIntervalSince(start) }
            }
        }
        return total
    }

    func importsTheZipAndStepStatisticsMatchTheFile() throws {
        try CLIRunner.withTemporaryStore { cli in
            let imported = try cli.run(["import", Self.spanishZip, "--format", "json"])
            expectEqual(imported.status, 0, "\(imported.stderr)")
            let receipt = try json(imported.stdout)
            expectEqual((receipt["totals"] as? [String: Int])?["added"], 3823)
            expectEqual(receipt["archiveMember"] as? String, "exportación.xml")
            // Days recorded by the iPhone alone (the Mi Fit band starts in February 2016), in the export's +0100.
            for day in ["2015-12-24", "2016-01-15", "2016-01-29"] {
                let stats = try cli.run(["stats", "steps", "--from", day, "--to", day, "--tz", "Europe/Madrid", "--format", "json"])
                expectEqual(stats.status, 0, "\(stats.stderr)")
                let sum = try #require(try json(stats.stdout)["sum"] as? Double)
                let expected = try stepsFromFile(Self.spanishXML, day: day, offset: "+0100")
                #expect(abs(sum - expected) < 1e-6, "steps on \(day)")
                #expect(expected > 0)
            }
        }
    }

    func importingTheSameExportAgainAddsNothing() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["import", Self.spanishXML]).status, 0)
            let before = cli.snapshot()
            let again = try cli.run(["import", Self.spanishZip, "--format", "json"])
            expectEqual(again.status, 0)
            let totals = try json(again.stdout)["totals"] as? [String: Int]
            expectEqual(totals?["added"], 0)
            expectEqual(totals?["alreadyPresent"], 3823)
            expectEqual(cli.snapshot().filter { $0.key.hasPrefix("samples/") }, before.filter { $0.key.hasPrefix("samples/") })
        }
    }

    /// A sample corrected with `edit` (twice) stays corrected when the export that holds it is imported again: the
    /// record is the corrected sample's, not new (a review: the typo came back beside the correction, and won as the
    /// most recent). Undoing the correction brings the old sample back, which the record then finds as it is.
    func aCorrectionOutlivesImportingTheExportAgain() throws {
        try CLIRunner.withTemporaryStore { cli in
            let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
                + " <Record type=\"HKQuantityTypeIdentifierBodyMass\" sourceName=\"Jane’s iPhone\" unit=\"kg\" "
                + "creationDate=\"2024-05-01 08:00:00 +0200\" startDate=\"2024-05-01 08:00:00 +0200\" "
                + "endDate=\"2024-05-01 08:00:00 +0200\" value=\"72.4\"/>\n</HealthData>\n"
            try withScratchFile(xml, suffix: ".xml") { file in
                try expectEqual(cli.run(["import", file]).status, 0)
                let range = ["weight", "--from", "2024-04-30", "--to", "2024-05-02"]
                func weights() throws -> [Double] { try listed(cli, range).compactMap { $0["value"] as? Double }.sorted() }
                func uuid() throws -> String { try #require(try listed(cli, range).first?["uuid"] as? String) }
                func importAgain() throws -> Int? {
                    let again = try cli.run(["import", file, "--format", "json"])
                    return (try json(again.stdout)["totals"] as? [String: Int])?["added"]
            }
            try expectEqual(cli.run(["edit", try uuid(), "72.6kg"]).status, 0)
            try expectEqual(importAgain(), 0)
            try expectEqual(weights(), [72.6])
            try expectEqual(cli.run(["edit", try uuid(), "72.7kg"]).status, 0)
            try expectEqual(importAgain(), 0)
            try expectEqual(weights(), [72.7])
            try expectEqual(cli.run(["undo", "--yes"]).status, 0)
            try expectEqual(cli.run(["undo", "--yes"]).status, 0)
            try expectEqual(weights(), [72.4])
            try expectEqual(importAgain(), 0)
            try expectEqual(weights(), [72.4])
            }
        }
    }

    /// The same for a Health Auto Export file sent again: a point the person corrected is not sent back over the
    /// correction (a review: `REPLACED 3`, the old values back), and the points they did not correct stay unchanged.
    func aCorrectionOutlivesAHealthAutoExportSentAgain() throws {
        try CLIRunner.withTemporaryStore { cli in
            let payload = #"{"data":{"metrics":[{"name":"dietary_water","units":"mL","data":[{"date":"2024-05-01 08:00:00 +0000","qty":250,"source":"Phone"}]},"#
                + #"{"name":"step_count","units":"count","data":[{"date":"2024-05-01 09:00:00 +0000","qty":812,"source":"Watch"},"#
                + #"{"date":"2024-05-01 10:00:00 +0000","qty":300,"source":"Watch"}]}]}}"#
            try withScratchFile(payload, suffix: ".json") { file in
                try expectEqual(cli.run(["import", file, "-q"]).status, 0)
                func values(_ type: String) throws -> [Double] { try listed(cli, [type]).compactMap { $0["value"] as? Double }.sorted() }
                func uuid(_ type: String, _ value: Double) throws -> String {
                    try #require(try listed(cli, [type]).first { ($0["value"] as? Double) == value }?["uuid"] as? String)
            }
            try expectEqual(cli.run(["edit", try uuid("water", 250), "200mL"]).status, 0)
            try expectEqual(cli.run(["edit", try uuid("steps", 812), "900"]).status, 0)
            let again = try cli.run(["import", file, "--all-files", "--format", "json"])
            let totals = try #require((try json(again.stdout)["totals"]) as? [String: Int], "\(again.stdout)\(again.stderr)")
            #expect(totals["added"] == 0 && totals["replaced"] == 0 && totals["alreadyPresent"] == 3, "\(totals)")
            try expectEqual(values("water"), [200])
            try expectEqual(values("steps"), [300, 900])
            }
        }
    }

    /// `list` of a type an import kept generically (a clinical record) says where its samples are, rather than that
    /// the type is unknown (a review); an identifier with nothing stored stays unknown.
    func listNamesWhereATypeKeptGenericallyIs() throws {
        try CLIRunner.withTemporaryStore { cli in
            let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<HealthData locale=\"en_US\">\n"
                + " <ClinicalRecord type=\"HKClinicalTypeIdentifierLabResultRecord\" identifier=\"obs-1\" sourceName=\"Hospital\" "
                + "fhirVersion=\"4.0.1\" receivedDate=\"2024-05-01 10:00:00 +0200\" resourceFilePath=\"/clinical-records/1.json\"/>\n"
                + "</HealthData>\n"
            try withScratchFile(xml, suffix: ".xml") { file in try expectEqual(cli.run(["import", file]).status, 0) }
            let listed = try cli.run(["list", "HKClinicalTypeIdentifierLabResultRecord"])
            expectEqual(listed.status, 64)
            #expect(listed.stderr.contains("kept generically") && listed.stderr.contains("hkctl export --type HKClinicalTypeIdentifierLabResultRecord"),
                    "\(listed.stderr)")
            let exported = try cli.run(["export", "--type", "HKClinicalTypeIdentifierLabResultRecord", "--format", "jsonl"])
            #expect(exported.status == 0 && exported.stdout.contains("\"@identifier\":\"obs-1\""), "\(exported.stdout)\(exported.stderr)")
            let unknown = try cli.run(["list", "HKClinicalTypeIdentifierAllergyRecord"])
            #expect(unknown.status == 64 && unknown.stderr.contains("Unknown type"), "\(unknown.stderr)")
        }
    }

    func readsStandardInputAsXMLOrZip() throws {
        for file in [Self.spanishXML, Self.spanishZip] {
            try CLIRunner.withTemporaryStore { cli in
                let result = try run(cli, ["import", "-", "--format", "json"], stdinFile: file)
                expectEqual(result.status, 0, "\(result.stderr)")
                #expect((try json(result.stdout)["totals"] as? [String: Int])?["added"] == 3823)
            }
        }
    }

    func aDryRunWritesNothing() throws {
        try CLIRunner.withTemporaryStore { cli in
            let result = try cli.run(["import", Self.fixture("tdda_en-GB_export6s3sample.xml"), "--dry-run"])
            expectEqual(result.status, 0)
            #expect(result.stdout.contains("nothing was written"))
            #expect(cli.snapshot().isEmpty)
        }
    }

    func rejectedRecordsAreListedWithLinesAndExit65() throws {
        try CLIRunner.withTemporaryStore { cli in
            let folder = (cli.storePath as NSString).deletingLastPathComponent
            let path = folder + "/export.xml"
            let text = """
                <?xml version="1.0" encoding="UTF-8"?>
                <HealthData locale="en_US">
                 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="p" unit="count" startDate="2024-05-01 08:00:00 -0700" endDate="2024-05-01 08:10:00 -0700" value="12"/>
                 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="p" unit="count" startDate="2024-05-01 09:00:00 -0700" endDate="2024-05-01 09:10:00 -0700" value="twelve"/>
                </HealthData>

                """
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            let dryRun = try cli.run(["import", path, "--dry-run"])
            expectEqual(dryRun.status, 65)
            #expect(dryRun.stderr.contains("1 record was rejected; the rest would be imported (dry run: nothing was written)"))
            #expect(!dryRun.stderr.contains("the rest was imported"))
            let result = try cli.run(["import", path])
            expectEqual(result.status, 65)
            #expect(result.stderr.contains("1 record was rejected; the rest was imported"))
            #expect(result.stderr.contains("line 4: HKQuantityTypeIdentifierStepCount: the value 'twelve' is not a number"))
            let listed = try cli.run(["list", "steps", "--from", "2024-05-01", "--to", "2024-05-02", "--format", "json"])
            #expect(listed.stdout.contains("\"value\":12"), "the good record is imported")
            // A file cut off in a record: its problems are not records, and the last line says so (a review: it said
            // '2 records were rejected' beside a table whose REJECTED column was 0).
            let cut = folder + "/cut.xml"
            let whole = text.replacingOccurrences(of: "value=\"twelve\"", with: "value=\"13\"")
            try Data(whole.utf8.prefix(whole.utf8.count - 60)).write(to: URL(fileURLWithPath: cut))
            let truncated = try cli.run(["import", cut])
            expectEqual(truncated.status, 65)
            #expect(truncated.stderr.contains("truncated"), "\(truncated.stderr)")
            #expect(truncated.stderr.contains("problems were found (0 records rejected); the rest was imported"), "\(truncated.stderr)")
        }
    }

    func missingAndForeignFilesAreRefused() throws {
        try CLIRunner.withTemporaryStore { cli in
            let missing = try cli.run(["import", "/nonexistent/export.zip"])
            expectEqual(missing.status, 66)
            #expect(missing.stderr.hasPrefix("Error: Cannot open '/nonexistent/export.zip'"))
            let foreign = try cli.run(["import", "-"], stdin: "name,value\nsteps,12\n")
            expectEqual(foreign.status, 65)
            #expect(foreign.stderr.contains("is not an Apple Health export"))
            try expectEqual(cli.run(["import"]).status, 64)
        }
    }

    func progressCanBeForcedOnAPipe() throws {
        try CLIRunner.withTemporaryStore { cli in
            let quiet = try cli.run(["import", Self.spanishXML])
            #expect(!quiet.stderr.contains("records"))
            let shown = try cli.run(["import", Self.spanishXML, "--progress"])
            #expect(shown.stderr.contains("records"))
            #expect(shown.stderr.contains("MB/s"))
        }
    }

    func exportsCSVJSONAndJSONLines() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["import", Self.fixture("tdda_en-GB_export6s3sample.xml")]).status, 0)
            let csv = try cli.run(["export", "--format", "csv", "--type", "steps"])
            expectEqual(csv.status, 0, "\(csv.stderr)")
            let lines = csv.stdout.split(separator: "\n")
            expectEqual(lines.first, "type,start,end,value,unit,source,device,uuid,metadata")
            expectEqual(lines.count, 11)
            #expect(lines[1].hasPrefix("HKQuantityTypeIdentifierStepCount,2014-09-13T09:27:54+00:00,2014-09-13T09:27:59+00:00,329,count,Health,,"))
            // `--out -` is standard output, as for `chart --svg -`: no file named '-' (it was written to the working folder).
            let dash = try cli.run(["export", "--format", "csv", "--type", "steps", "--out", "-"])
            #expect(dash.status == 0 && dash.stdout == csv.stdout && !dash.stderr.contains("Exported"), "\(dash.stderr)")
            #expect(!FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/-"))
            let array = try cli.run(["export", "--format", "json"])
            let objects = try JSONSerialization.jsonObject(with: Data(array.stdout.utf8)) as? [[String: Any]]
            expectEqual(objects?.count, 18)
            let folder = (cli.storePath as NSString).deletingLastPathComponent
            let out = try cli.run(["export", "--out", folder + "/backup.jsonl", "--from", "2014-09-13", "--to", "2014-09-13"])
            expectEqual(out.status, 0)
            #expect(out.stderr.contains("Exported 10 samples"))
            try expectEqual(String(contentsOfFile: folder + "/backup.jsonl", encoding: .utf8).split(separator: "\n").count, 10)
        }
    }

    @Test(arguments: ["healthxml", "jsonl"])
    func roundTripGivesIdenticalStatistics(format: String) throws {
        try CLIRunner.withTemporaryStore { original in
            for name in ["josejamilena_es-ES_iphone-mifit.export.xml", "danecollins_en-US_watch-excerpt.export_small.xml",
                         "tdda_en-GB_export6s3sample.xml"] {
                try expectEqual(original.run(["import", Self.fixture(name)]).status, 0)
            }
            let folder = (original.storePath as NSString).deletingLastPathComponent
            let file = folder + "/export.\(format)"
            try expectEqual(original.run(["export", "--format", format, "--out", file]).status, 0)
            let copy = CLIRunner(storePath: folder + "/copy")
            let imported = try copy.run(["import", file, "--format", "json"])
            expectEqual(imported.status, 0, "\(imported.stderr)")
            #expect((try json(imported.stdout)["totals"] as? [String: Int])?["rejected"] == 0)
            for type in ["steps", "distance", "sleep", "heart-rate", "flights"] {
                let arguments = ["stats", type, "--from", "2014-01-01", "--to", "2024-01-01", "--by", "month", "--format", "json"]
                let a = try original.run(arguments), b = try copy.run(arguments)
                expectEqual(a.status, 0)
                expectEqual(a.stdout, b.stdout, "\(type) statistics differ after a \(format) round trip")
            }
            let again = try copy.run(["export", "--format", "jsonl"])
            let first = try original.run(["export", "--format", "jsonl"])
            expectEqual(again.stdout, first.stdout, "the store is the same after the round trip")
        }
    }
}

/// The checks ``ImportExportTests/checks(_:)`` runs.
private let importExportTestsChecks: [Check<ImportExportTests>] = [
    Check("importsTheZipAndStepStatisticsMatchTheFile", ImportExportTests.importsTheZipAndStepStatisticsMatchTheFile),
    Check("importingTheSameExportAgainAddsNothing", ImportExportTests.importingTheSameExportAgainAddsNothing),
    Check("aCorrectionOutlivesImportingTheExportAgain", ImportExportTests.aCorrectionOutlivesImportingTheExportAgain),
    Check("aCorrectionOutlivesAHealthAutoExportSentAgain", ImportExportTests.aCorrectionOutlivesAHealthAutoExportSentAgain),
    Check("listNamesWhereATypeKeptGenericallyIs", ImportExportTests.listNamesWhereATypeKeptGenericallyIs),
    Check("readsStandardInputAsXMLOrZip", ImportExportTests.readsStandardInputAsXMLOrZip),
    Check("aDryRunWritesNothing", ImportExportTests.aDryRunWritesNothing),
    Check("rejectedRecordsAreListedWithLinesAndExit65", ImportExportTests.rejectedRecordsAreListedWithLinesAndExit65),
    Check("missingAndForeignFilesAreRefused", ImportExportTests.missingAndForeignFilesAreRefused),
    Check("progressCanBeForcedOnAPipe", ImportExportTests.progressCanBeForcedOnAPipe),
    Check("exportsCSVJSONAndJSONLines", ImportExportTests.exportsCSVJSONAndJSONLines),
]
