import Foundation
import Testing
import TestKit

/// `--meta note=...` shows in table and CSV output (issue 22): a METADATA column in tables when a listed sample has
/// metadata, always a `metadata` column in CSV, JSON unchanged.
struct MetadataListCLITests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: metadataListCLITestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private func add(_ cli: CLIRunner, _ arguments: [String]) throws {
        let result = try cli.run(["add"] + arguments)
        expectEqual(result.status, 0, "\(result.stderr)")
    }

    func theTableHasAMetadataColumnOnlyWhenASampleHasMetadata() throws {
        try CLIRunner.withTemporaryStore { cli in
            try add(cli, ["water", "250mL", "--at", "09:00"])
            let plain = try cli.run(["list", "water"])
            expectEqual(plain.stdout.split(separator: "\n").first?.split(separator: " "), ["START", "END", "VALUE", "SOURCE", "UUID"])
            #expect(!plain.stdout.contains("METADATA"))
            try add(cli, ["water", "500mL", "--at", "08:00", "--meta", "note=after the run, \"long\" one"])
            try add(cli, ["water", "300mL", "--at", "10:00", "--meta", "mood=good", "--meta", "note=x", "--meta", "cups=2"])
            let table = try cli.run(["list", "water"])
            expectEqual(table.status, 0)
            let lines = table.stdout.split(separator: "\n").map(String.init)
            expectEqual(lines.first?.hasSuffix("UUID                                  METADATA"), true, "\(lines)")
            #expect(lines[1].hasSuffix("  note=x; cups=2; mood=good"), "the note first, then the other keys in order")
            #expect(!lines[2].contains("note") && !lines[2].hasSuffix(" "), "no trailing spaces for a sample without metadata")
            #expect(lines[3].hasSuffix("  note=after the run, \"long\" one"))
            // The dashboard of one sample (add) and delete's list use the same table.
            let added = try cli.run(["add", "water", "100mL", "--at", "11:00", "--meta", "note=tea"])
            #expect(added.stdout.contains("METADATA") && added.stdout.contains("note=tea"), "\(added.stdout)")
        }
    }

    func csvAlwaysHasTheMetadataColumnEscaped() throws {
        try CLIRunner.withTemporaryStore { cli in
            try add(cli, ["water", "250mL", "--at", "09:00"])
            let plain = try cli.run(["list", "water", "--format", "csv"]).stdout.split(separator: "\n")
            expectEqual(plain.first, "uuid,type,start,end,value,unit,source,metadata", "a stable header")
            // Every add records its zone (HKTimeZone), which CSV and JSON show and tables leave out.
            expectEqual(plain.last?.hasSuffix(",250,mL,hkctl,\"{\"\"HKTimeZone\"\":\"\"GMT\"\"}\""), true, "\(plain)")
            try add(cli, ["water", "500mL", "--at", "08:00", "--meta", "note=after the run, \"long\" one", "--meta", "cups=2"])
            let csv = try cli.run(["list", "water", "--format", "csv"]).stdout.split(separator: "\n")
            expectEqual(csv.count, 3)
            expectEqual(csv.last?.hasSuffix(",500,mL,hkctl,\"{\"\"HKTimeZone\"\":\"\"GMT\"\",\"\"cups\"\":2,\"\"note\"\":\"\"after the run, \\\"\"long\\\"\" one\"\"}\""), true,
                        "\(csv)")
        }
    }

    func jsonIsUnchanged() throws {
        try CLIRunner.withTemporaryStore { cli in
            try add(cli, ["water", "500mL", "--at", "08:00", "--meta", "note=a, \"b\"", "--meta", "cups=2"])
            let json = try cli.run(["list", "water", "--format", "json"]).stdout
            #expect(json.contains(",\"source\":\"hkctl\",\"metadata\":{\"HKTimeZone\":\"GMT\",\"cups\":2,\"note\":\"a, \\\"b\\\"\"}}"), "\(json)")
        }
    }

    /// A store edited by hand (or written by an older build) may hold what `add` refuses: the table shows it escaped,
    /// on one line, shortened; CSV keeps it whole inside the JSON object.
    func controlCharactersAreEscapedInTables() throws {
        try CLIRunner.withTemporaryStore { cli in
            try add(cli, ["water", "250mL", "--at", "09:00"])
            let file = cli.storePath + "/samples/HKQuantityTypeIdentifierDietaryWater/2024-06.jsonl"
            let long = String(repeating: "x", count: 100)
            let line = #"{"uuid":"11111111-2222-4333-8444-555555555555","type":"HKQuantityTypeIdentifierDietaryWater","start":"2024-06-01T11:00:00Z","end":"2024-06-01T11:00:00Z","value":100,"unit":"mL","source":"hkctl","created":"2024-06-01T11:00:00Z","metadata":{"note":"one\ntwo \u001b[31mred\u202e","@children":"[{}]","long":"\#(long)"},"seq":2}"#
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: file))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data((line + "\n").utf8))
            try handle.close()
            let table = try cli.run(["list", "water"])
            expectEqual(table.status, 0, "\(table.stderr)")
            let lines = table.stdout.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.isEmpty }
            expectEqual(lines.count, 3, "one line per sample: \(lines)")
            #expect(!table.stdout.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x202E })
            #expect(lines[1].hasSuffix("note=one\\u{A}two \\u{1B}[31mred\\u{202E}; long=" + String(repeating: "x", count: 60) + "…"), "\(lines[1])")
            #expect(!lines[1].contains("@children"), "hkctl's own keys are not shown in tables")
            let csv = try cli.run(["list", "water", "--format", "csv"]).stdout
            expectEqual(csv.split(separator: "\n").count, 3, "the newline stays escaped inside the JSON")
            #expect(csv.contains(#""{""@children"":""[{}]"",""long"":""\#(long)"",""note"":""one\ntwo \u001b[31mred"#), "\(csv)")
        }
    }

    func correlationsAndWorkoutsShowTheirNotesToo() throws {
        try CLIRunner.withTemporaryStore { cli in
            try add(cli, ["blood-pressure", "120/80", "--at", "08:00", "--meta", "note=left arm, sitting"])
            let table = try cli.run(["list", "blood-pressure"]).stdout.split(separator: "\n")
            #expect(table.first?.hasSuffix("  METADATA") == true && table.last?.hasSuffix("  note=left arm, sitting") == true, "\(table)")
            let csv = try cli.run(["list", "blood-pressure", "--format", "csv"]).stdout.split(separator: "\n")
            expectEqual(csv.first, "uuid,start,systolic,diastolic,unit,source,metadata")
            // CSV and JSON show the zone the reading was recorded in (HKTimeZone), as for every sample `add` saves.
            expectEqual(csv.last?.hasSuffix(",120,80,mmHg,hkctl,\"{\"\"HKTimeZone\"\":\"\"GMT\"\",\"\"note\"\":\"\"left arm, sitting\"\"}\""), true, "\(csv)")
            let workouts = try cli.run(["list", "workouts", "--format", "csv"]).stdout
            #expect(workouts.hasPrefix("uuid,activity,start,end,duration,energy_kcal,distance_m,pace_s_per_km,average_heart_rate,source,metadata\n"))
        }
    }

    func importedMetadataShowsToo() throws {
        try CLIRunner.withTemporaryStore { cli in
            let path = (cli.storePath as NSString).deletingLastPathComponent + "/export.xml"
            let text = """
                <?xml version="1.0" encoding="UTF-8"?>
                <HealthData locale="en_US">
                 <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" unit="kg" startDate="2024-05-01 08:00:00 +0000" endDate="2024-05-01 08:00:00 +0000" value="71.2">
                  <MetadataEntry key="HKWasUserEntered" value="1"/>
                 </Record>
                 <Record type="HKQuantityTypeIdentifierBodyMass" sourceName="Scale" unit="kg" startDate="2024-05-02 08:00:00 +0000" endDate="2024-05-02 08:00:00 +0000" value="71.0"/>
                </HealthData>

                """
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            try expectEqual(cli.run(["import", path]).status, 0)
            let table = try cli.run(["list", "weight"]).stdout.split(separator: "\n")
            expectEqual(table.first?.hasSuffix("METADATA"), true)
            expectEqual(table.last?.hasSuffix("  HKWasUserEntered=1"), true, "\(table)")
        }
    }
}

/// The checks ``MetadataListCLITests/checks(_:)`` runs.
private let metadataListCLITestsChecks: [Check<MetadataListCLITests>] = [
    Check("theTableHasAMetadataColumnOnlyWhenASampleHasMetadata",
          MetadataListCLITests.theTableHasAMetadataColumnOnlyWhenASampleHasMetadata),
    Check("csvAlwaysHasTheMetadataColumnEscaped", MetadataListCLITests.csvAlwaysHasTheMetadataColumnEscaped),
    Check("jsonIsUnchanged", MetadataListCLITests.jsonIsUnchanged),
    Check("controlCharactersAreEscapedInTables", MetadataListCLITests.controlCharactersAreEscapedInTables),
    Check("correlationsAndWorkoutsShowTheirNotesToo", MetadataListCLITests.correlationsAndWorkoutsShowTheirNotesToo),
    Check("importedMetadataShowsToo", MetadataListCLITests.importedMetadataShowsToo),
]
