#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TestKit

/// Issue 29, items 13 and 16, and the FIFO exit code: `doctor` finds every store document a command cannot read (it
/// reads each as its command does), `doctor --quiet` still lists the errors it refers to, and a FIFO where a store file
/// belongs is damage (exit 65), as docs/STORE.md and docs/RELIABILITY.md say.
struct DoctorCoverageTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: doctorCoverageTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private func withStore(_ body: (CLIRunner) throws -> Void) throws {
        try CLIRunner.withTemporaryStore { cli in
            try #require(try cli.run(["add", "water", "250mL", "--at", "08:00"]).status == 0)
            try body(cli)
        }
    }

    /// A damaged document, and a command that reads it.
    static let damagedDocuments: [(name: String, text: String, command: [String])] = [
        ("goals.json", "not json\n", ["today"]),
        ("goals.json", "not json\n", ["goal"]),
        ("goals.json", "{\"amounts\": 5}\n", ["goal"]),
        ("goals.json", "{\"amounts\": {\"water\": {\"value\": \"2\", \"unit\": \"L\"}}}\n", ["today"]),
        ("settings.json", "{\"units\": 5}\n", ["config", "list"]),
        ("settings.json", "{\"displayUnits\": [\"mL\"]}\n", ["config", "list"]),
        ("characteristics.json", "{\"biologicalSex\": \"female\"}\n", ["me"]),
        ("priorities.json", "{\"priorities\": {\"HKQuantityTypeIdentifierDietaryWater\": 5}}\n", ["sources", "priority", "water"]),
        ("priorities.json", "{\"version\": 99}\n", ["stats", "water", "--today"]),
        ("authorization.json", "{\"sources\": 5, \"log\": []}\n", ["auth", "status"]),
    ]

    func doctorFindsEveryDocumentACommandCannotRead() throws {
        for (name, text, command) in Self.damagedDocuments {
            try withStore { cli in
                try text.write(toFile: cli.storePath + "/" + name, atomically: false, encoding: .utf8)
                let failing = try cli.run(command)
                expectEqual(failing.status, 65, "\(name) \(text) \(command): \(failing.status) \(failing.stderr)")
                let doctor = try cli.run(["doctor"])
                expectEqual(doctor.status, 65, "\(name) \(text): \(doctor.stdout)")
                #expect(doctor.stdout.contains("error: \(name):1:"), "\(name) \(text): \(doctor.stdout)")
                let json = try cli.run(["doctor", "--format", "json"])
                #expect(json.stdout.contains("\"errors\":1,"), "\(name) \(text): \(json.stdout)")
            }
        }
    }

    /// A compaction record doctor cannot read would let `changes` accept anchors whose deletions are gone.
    func doctorFindsAnUnreadableCompactionRecord() throws {
        for text in ["{}\n", "not json\n", "{\"tombstonesDroppedThrough\": \"12\"}\n", "{\"tombstonesDroppedThrough\": -1}\n"] {
            try withStore { cli in
                try text.write(toFile: cli.storePath + "/compaction.json", atomically: false, encoding: .utf8)
                let doctor = try cli.run(["doctor"])
                #expect(doctor.status == 65 && doctor.stdout.contains("error: compaction.json:1:"), "\(text): \(doctor.stdout)")
            }
        }
    }

    /// Every document the commands write passes doctor, so the checks do not cry wolf.
    func documentsTheCommandsWritePassDoctor() throws {
        try withStore { cli in
            for command in [["config", "set", "unit.water", "mL"], ["goal", "water", "3L"], ["goal", "steps", "8000"],
                            ["me", "set", "biological-sex", "female"], ["me", "set", "date-of-birth", "1988-04-02"],
                            ["sources", "priority", "water", "Watch", "hkctl"], ["auth", "grant", "app", "--share", "water"],
                            ["delete", "water", "--today", "--yes"], ["compact", "--retention", "0"]] {
                let result = try cli.run(command)
                expectEqual(result.status, 0, "\(command): \(result.stderr)")
            }
            let doctor = try cli.run(["doctor"])
            #expect(doctor.status == 0 && doctor.stdout.contains("0 errors, 0 warnings"), "\(doctor.stdout)")
        }
    }

    /// `doctor -q` prints nothing for a healthy store (warnings included), and lists on standard error every error its
    /// last line counts.
    func quietDoctorListsTheErrorsItCounts() throws {
        try withStore { cli in
            let healthy = try cli.run(["doctor", "-q"])
            #expect(healthy.status == 0 && healthy.stdout.isEmpty && healthy.stderr.isEmpty, "\(healthy.stdout)\(healthy.stderr)")
            try "nope\n".write(toFile: cli.storePath + "/goals.json", atomically: false, encoding: .utf8)
            try "[]\n".write(toFile: cli.storePath + "/characteristics.json", atomically: false, encoding: .utf8)
            for arguments in [["doctor", "-q"], ["doctor", "--quiet", "--repair"], ["doctor", "-q", "--format", "json"]] {
                let result = try cli.run(arguments)
                expectEqual(result.status, 65, "\(arguments): \(result.stderr)")
                #expect(result.stdout.isEmpty, "\(arguments): \(result.stdout)")
                let lines = result.stderr.split(separator: "\n")
                #expect(lines.contains { $0.hasPrefix("error: goals.json:1:") }, "\(arguments): \(result.stderr)")
                #expect(lines.contains { $0.hasPrefix("error: characteristics.json:1:") }, "\(arguments): \(result.stderr)")
                expectEqual(lines.last?.hasPrefix("Error: The store has 2 errors (listed above)"), true, "\(arguments): \(result.stderr)")
                expectEqual(lines.count, 3, "\(arguments): \(result.stderr)")
            }
        }
    }

    /// A FIFO in place of a store file is damage in the store: exit 65, naming it, for readers and writers alike.
    func aFIFOInPlaceOfAStoreFileExits65() throws {
        let cases: [(String, [String])] = [("samples/HKQuantityTypeIdentifierDietaryWater/2024-06.jsonl", ["list", "water"]),
                                           ("settings.json", ["config", "list"]), (".lock", ["add", "water", "1L"]),
                                           ("sequence", ["add", "water", "1L"])]
        for (name, arguments) in cases {
            try withStore { cli in
                let path = cli.storePath + "/" + name
                try? FileManager.default.removeItem(atPath: path)
                try #require(mkfifo(path, 0o600) == 0)
                let result = try cli.run(arguments)
                expectEqual(result.status, 65, "\(name) \(arguments): \(result.status) \(result.stderr)")
                #expect(result.stderr.contains("FIFO") && result.stderr.contains(name), "\(result.stderr)")
            }
        }
    }
}

/// The checks ``DoctorCoverageTests/checks(_:)`` runs.
private let doctorCoverageTestsChecks: [Check<DoctorCoverageTests>] = [
    Check("doctorFindsEveryDocumentACommandCannotRead", DoctorCoverageTests.doctorFindsEveryDocumentACommandCannotRead),
    Check("doctorFindsAnUnreadableCompactionRecord", DoctorCoverageTests.doctorFindsAnUnreadableCompactionRecord),
    Check("documentsTheCommandsWritePassDoctor", DoctorCoverageTests.documentsTheCommandsWritePassDoctor),
    Check("quietDoctorListsTheErrorsItCounts", DoctorCoverageTests.quietDoctorListsTheErrorsItCounts),
    Check("aFIFOInPlaceOfAStoreFileExits65", DoctorCoverageTests.aFIFOInPlaceOfAStoreFileExits65),
]
