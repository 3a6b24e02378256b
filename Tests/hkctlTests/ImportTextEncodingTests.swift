import Foundation
import Testing
import TestKit

/// Issue 29, items 10 and 11: text is read as it was written, or refused; never replaced or misread.
struct ImportTextEncodingTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: importTextEncodingTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static let dates = "creationDate=\"2024-05-01 08:00:00 +0000\" startDate=\"2024-05-01 08:00:00 +0000\" endDate=\"2024-05-01 08:00:00 +0000\""

    /// A water record (250 mL at 08:00) from `source`, with `extra` bytes inside its start tag.
    private static func water(_ source: [UInt8], extra: [UInt8] = [], close: Bool = true) -> [UInt8] {
        Array("<Record type=\"HKQuantityTypeIdentifierDietaryWater\" sourceName=\"".utf8) + source
            + Array("\" unit=\"mL\" \(dates) value=\"250\"".utf8) + extra + Array((close ? "/>\n" : ">\n").utf8)
    }

    private static func text(_ string: String) -> [UInt8] { Array(string.utf8) }

    /// Whether any file of the store holds U+FFFD (EF BF BD), the mark of a replaced character.
    private func holdsReplacementCharacter(_ cli: CLIRunner) -> Bool {
        cli.snapshot().values.contains { data in
            data.withUnsafeBytes { bytes in
                bytes.count >= 3 && (0..<bytes.count - 2).contains { bytes[$0] == 0xEF && bytes[$0 + 1] == 0xBF && bytes[$0 + 2] == 0xBD }
            }
        }
    }

    /// The lines `line N:` that standard error names.
    private func namedLines(_ stderr: String) -> Set<Int> {
        Set(stderr.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("line ") else { return nil }
            return Int(line.dropFirst(5).prefix { $0.isNumber })
        })
    }

    /// Invalid UTF-8 in every place an export holds text, one place a line: each such record is rejected with its
    /// line, the others are imported, and nothing replaced is stored. Both an export that declares UTF-8 and one that
    /// declares nothing.
    @Test(arguments: ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", "<?xml version=\"1.0\"?>\n", "\n"])
    func invalidUTF8IsRefusedRecordByRecordNamingTheLine(declaration: String) throws {
        try CLIRunner.withTemporaryStore { cli in
            let t = Self.text
            var lines: [[UInt8]] = [
                t(declaration),                                                                    // 1
                t("<HealthData locale=\"en_US\">\n"),                                              // 2
                t("<Me HKCharacteristicTypeIdentifierBiologicalSex=\"HKBiologicalSexFemale\" HKCharacteristicTypeIdentifierSomethingNew=\"caf") + [0xE9] + t("\"/>\n"), // 3
                Self.water(t("café")),                                                             // 4
                Self.water(t("caf") + [0xE9]),                                                     // 5
                Self.water(t("caf") + [0xE8]),                                                     // 6
                Self.water(t("watch"), extra: t(" device=\"&lt;&lt;HKDevice: 0x1&gt;, name:Watch") + [0xE9] + t("&gt;\"")), // 7
                Self.water(t("meta value"), close: false),                                         // 8
                t("  <MetadataEntry key=\"note\" value=\"caf") + [0xE9] + t("\"/>\n"),             // 9
                t("</Record>\n"),                                                                  // 10
                Self.water(t("meta key"), close: false),                                           // 11
                t("  <MetadataEntry key=\"n") + [0xF6] + t("te\" value=\"x\"/>\n"),                // 12
                t("</Record>\n"),                                                                  // 13
                t("<Record type=\"HKQuantityTypeIdentifierSomethingNew") + [0xE9] + t("\" sourceName=\"x\" unit=\"mL\" \(Self.dates) value=\"3\"/>\n"), // 14
                Self.water(t("version"), extra: t(" sourceVersion=\"1.") + [0xFF] + t("\"")),       // 15
                t("<Workout workoutActivityType=\"HKWorkoutActivityTypeRunning\" duration=\"30\" durationUnit=\"min\" sourceName=\"w\" \(Self.dates)>\n"), // 16
                t("  <WorkoutStatistics type=\"HKQuantityTypeIdentifierHeartRate\" startDate=\"2024-05-01 08:00:00 +0000\" endDate=\"2024-05-01 08:00:00 +0000\" average=\"140\" unit=\"count/min") + [0xE9] + t("\"/>\n"), // 17
                t("</Workout>\n"),                                                                 // 18
                t("<ActivitySummary dateComponents=\"2024-05-01\" activeEnergyBurned=\"1") + [0xE9] + t("\"/>\n"), // 19
                t("<Unkn") + [0xF6] + t("wn date=\"2024-05-01\"/>\n"),                             // 20
                Self.water(t("surrogate"), close: false),                                          // 21
                t("  <MetadataEntry key=\"note\" value=\"") + [0xED, 0xA0, 0x80] + t("\"/>\n"),    // 22
                t("</Record>\n"),                                                                  // 23
                Self.water(t("overlong"), extra: t(" note=\"") + [0xC0, 0xAF] + t("\"")),         // 24
                Self.water(t("plain")),                                                            // 25
                t("</HealthData>\n"),                                                              // 26
            ]
            if declaration == "\n" { lines[0] = [] }
            let offset = declaration == "\n" ? 1 : 0
            let file = (cli.storePath as NSString).deletingLastPathComponent + "/export.xml"
            try Data(lines.flatMap { $0 }).write(to: URL(fileURLWithPath: file))
            let result = try cli.run(["import", file])
            expectEqual(result.status, 65, "\(result.stderr)")
            let expected: Set<Int> = [3, 5, 6, 7, 8, 11, 14, 15, 16, 19, 20, 21, 24]
            expectEqual(namedLines(result.stderr), Set(expected.map { $0 - offset }), "\(result.stderr)")
            #expect(result.stderr.contains("not valid UTF-8"), "\(result.stderr)")
            let sources = try cli.run(["sources", "water", "--format", "csv"]).stdout
            #expect(sources.contains("café,") && sources.contains("plain,"), "\(sources)")
            expectEqual(sources.split(separator: "\n").count, 3, "\(sources)")
            #expect(!holdsReplacementCharacter(cli))
            #expect(!(try cli.run(["me", "--format", "json"]).stdout.contains("SomethingNew")))
        }
    }

    /// A jsonl backup: a line with bytes that are not UTF-8 (in a name, a metadata key or value) is rejected with its
    /// line number; the others are restored.
    func invalidUTF8InAJSONLinesBackupIsRefusedNamingTheLine() throws {
        try CLIRunner.withTemporaryStore { cli in
            func line(_ index: Int, source: [UInt8], metadata: [UInt8] = Array("{}".utf8)) -> [UInt8] {
                let time = String(format: "2024-05-01T08:%02d:00+00:00", index)
                return Array(("{\"uuid\":\"00000000-0000-4000-8000-\(String(format: "%012d", index))\",\"type\":\"HKQuantityTypeIdentifierDietaryWater\","
                    + "\"start\":\"\(time)\",\"end\":\"\(time)\",\"value\":250,\"unit\":\"mL\",\"source\":\"").utf8) + source
                    + Array("\",\"created\":\"\(time)\",\"metadata\":".utf8) + metadata + Array("}\n".utf8)
            }
            let t = Self.text
            let lines = [
                line(1, source: t("café")),
                line(2, source: t("caf") + [0xE9]),
                line(3, source: t("caf") + [0xE8]),
                line(4, source: t("x"), metadata: t("{\"n") + [0xF6] + t("te\":\"x\"}")),
                line(5, source: t("x"), metadata: t("{\"note\":\"") + [0xED, 0xA0, 0x80] + t("\"}")),
                line(6, source: t("plain")),
            ]
            let file = (cli.storePath as NSString).deletingLastPathComponent + "/backup.jsonl"
            try Data(lines.flatMap { $0 }).write(to: URL(fileURLWithPath: file))
            let result = try cli.run(["import", file])
            expectEqual(result.status, 65, "\(result.stderr)")
            expectEqual(namedLines(result.stderr), [2, 3, 4, 5], "\(result.stderr)")
            #expect(result.stderr.contains("not valid UTF-8"), "\(result.stderr)")
            let sources = try cli.run(["sources", "water", "--format", "csv"]).stdout
            expectEqual(sources.split(separator: "\n").count, 3, "\(sources)")
            #expect(!holdsReplacementCharacter(cli))
        }
    }

    /// A UTF-8 byte order mark contradicts a declaration of any other encoding (XML 1.0 §4.3.3 and appendix F):
    /// refused whole, naming both; with a UTF-8 declaration, or none, the file reads as UTF-8.
    func aByteOrderMarkThatContradictsTheDeclarationIsRefused() throws {
        try CLIRunner.withTemporaryStore { cli in
            let folder = (cli.storePath as NSString).deletingLastPathComponent
            func export(_ declaration: String) -> [UInt8] {
                [0xEF, 0xBB, 0xBF] + Array(declaration.utf8) + Array("\n<HealthData locale=\"fr_FR\">\n".utf8) + Self.water(Array("café".utf8))
                    + Array("</HealthData>\n".utf8)
            }
            try expectEqual(cli.run(["add", "water", "1L", "--at", "08:00"]).status, 0)
            let before = cli.snapshot()
            for encoding in ["ISO-8859-1", "windows-1252", "latin1", "US-ASCII", "UTF-16"] {
                let file = folder + "/bom-\(encoding).xml"
                try Data(export("<?xml version=\"1.0\" encoding=\"\(encoding)\"?>")).write(to: URL(fileURLWithPath: file))
                let result = try cli.run(["import", file])
                expectEqual(result.status, 65, "\(encoding): \(result.stderr)")
                #expect(result.stderr.contains("byte order mark") && result.stderr.contains(encoding), "\(result.stderr)")
                expectEqual(result.stderr.split(separator: "\n").count, 1, "\(result.stderr)")
            }
            expectEqual(cli.snapshot(), before)
            for declaration in ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<?xml version=\"1.0\" encoding=\"utf8\"?>", "<?xml version=\"1.0\"?>"] {
                let file = folder + "/bom-utf8.xml"
                try Data(export(declaration)).write(to: URL(fileURLWithPath: file))
                let result = try cli.run(["import", file])
                expectEqual(result.status, 0, "\(declaration): \(result.stderr)")
            }
            let sources = try cli.run(["sources", "water", "--format", "csv"]).stdout
            #expect(sources.contains("café,"), "\(sources)")
            #expect(!sources.contains("Ã"), "\(sources)")
        }
    }
}

/// The checks ``ImportTextEncodingTests/checks(_:)`` runs.
private let importTextEncodingTestsChecks: [Check<ImportTextEncodingTests>] = [
    Check("invalidUTF8InAJSONLinesBackupIsRefusedNamingTheLine",
          ImportTextEncodingTests.invalidUTF8InAJSONLinesBackupIsRefusedNamingTheLine),
    Check("aByteOrderMarkThatContradictsTheDeclarationIsRefused",
          ImportTextEncodingTests.aByteOrderMarkThatContradictsTheDeclarationIsRefused),
]
