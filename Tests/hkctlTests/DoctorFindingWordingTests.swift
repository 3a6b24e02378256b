import Foundation
import Testing
import TestKit
@testable import HealthCore
@testable import HKCtlCommands

/// The doctor's findings are the library's words (the doctor's repair, an undo, the store); `hkctl doctor` prints
/// them with hkctl's commands and flags, byte for byte as it printed them when the library used hkctl's words.
struct DoctorFindingWordingTests {
    private static let now = Date(timeIntervalSince1970: 1_717_243_200)  // 2024-06-01T12:00:00Z
    private static let water = "samples/HKQuantityTypeIdentifierDietaryWater"
    private static let uuid = "0a2b3c4d-0000-4000-8000-000000000001"

    /// A store with one damage of each kind the doctor words itself, its findings as hkctl prints them, and the
    /// library's own words for them.
    private static func findings(journal: String?, document: (name: String, bytes: String)?,
                                 _ body: ([DoctorFinding]) throws -> Void) throws {
        try TestSupport.withTemporaryDirectory { folder in
            let path = folder + "/store"
            let store = JSONFileStore(path: path, timeZone: .gmt, lockTimeout: 2, clock: { now })
            let day = Date(timeIntervalSince1970: 1_717_200_000)
            try store.save([Sample(typeIdentifier: "HKQuantityTypeIdentifierDietaryWater", start: day, end: day,
                                   value: .quantity(Quantity(250, try HealthUnit(parsing: "mL"))), source: "hkctl", created: day)])
            let files = FileManager.default
            let partition = path + "/" + water + "/2024-06.jsonl"
            let line = try String(contentsOfFile: partition, encoding: .utf8)
            let huge = line.replacing(/"value":[0-9.]+/, with: "\"value\":1e300").replacing(/"uuid":"[^"]+"/, with: "\"uuid\":\"\(uuid)\"")
                .replacing(/"seq":[0-9]+/, with: "\"seq\":2")
            try Data((line + huge + "garbage{not json\n{\"uuid\":\"torn").utf8).write(to: URL(fileURLWithPath: partition))
            try Data("1".utf8).write(to: URL(fileURLWithPath: path + "/sequence"))
            try Data("not a record\n".utf8).write(to: URL(fileURLWithPath: path + "/" + JSONFileStore.operationsFile))
            try Data("notes".utf8).write(to: URL(fileURLWithPath: path + "/" + water + "/notes.txt"))
            try files.createSymbolicLink(atPath: path + "/" + water + "/2024-07.jsonl", withDestinationPath: partition)
            try files.createDirectory(atPath: folder + "/elsewhere", withIntermediateDirectories: true)
            try files.createSymbolicLink(atPath: path + "/samples/HKQuantityTypeIdentifierStepCount", withDestinationPath: folder + "/elsewhere")
            // A folder others can write to, and a file of another user: both refused by every use of the store.
            try files.createDirectory(atPath: path + "/samples/HKQuantityTypeIdentifierBodyMass", withIntermediateDirectories: true)
            chmod(path + "/samples/HKQuantityTypeIdentifierBodyMass", 0o777)
            try Data("x".utf8).write(to: URL(fileURLWithPath: path + "/stray.json"))
            if getuid() == 0 { chown(path + "/stray.json", 4242, 4242) }
            if let journal { try Data(journal.utf8).write(to: URL(fileURLWithPath: path + "/journal.jsonl")) }
            if let document { try Data(document.bytes.utf8).write(to: URL(fileURLWithPath: path + "/" + document.name)) }
            try body(try StoreDoctor(store: store).check(now: now).findings)
        }
    }

    /// hkctl's line for a finding, as `hkctl doctor` prints it in a table.
    private static func printed(_ finding: DoctorFinding) -> String {
        TestSupport.maskingTemporaryFolders(
            "\(finding.severity.rawValue): \(finding.location): " + CLIErrorWording.message(for: finding))
    }

    /// Whether the library's words name the command line: the program, a flag, an exit status.
    private static func namesTheCommandLine(_ text: String) -> Bool {
        let words = TestSupport.maskingTemporaryFolders(text).replacing("hkctl-store", with: "")
        return words.contains("hkctl") || words.contains("--") || words.contains("exit 77") || words.contains("$HKCTL")
    }

    @Test func theCommandLinePrintsEachFindingAsBefore() throws {
        var lines: [String] = []
        var library: [String] = []
        let journals = ["{\"journal\":1,\"partitions\":[]}\n", "{\"journal\":2,\"undo\":true,\"partitions\":[]}\n",
                        "{\"journal\":3,\"partitions\":[]}\n"]
        for journal in journals {
            try Self.findings(journal: journal, document: nil) { findings in
                lines += findings.map(Self.printed)
                library += findings.map(\.message)
            }
        }
        let documents = ["settings.json", "goals.json", "characteristics.json", "priorities.json", "authorization.json",
                         "push-tokens.json", "compaction.json"]
        for name in documents {
            try Self.findings(journal: nil, document: (name, "[]")) { findings in
                lines += findings.filter { $0.file == name }.map(Self.printed)
                library += findings.map(\.message)
            }
        }
        try Self.findings(journal: nil, document: ("push-tokens.json", "{\"version\":2,\"tokens\":[]}")) { findings in
            lines += findings.filter { $0.file == "push-tokens.json" }.map(Self.printed)
            library += findings.map(\.message)
        }
        lines.removeAll { $0.contains("others may read it") }
        // A file of another user can be made only by root.
        expectEqual(Set(lines).sorted(), Self.expected.filter { getuid() == 0 || !$0.hasPrefix("error: stray.json") }.sorted())
        for message in Set(library) { #expect(!Self.namesTheCommandLine(message), "\(message)") }
    }

    private static let expected: [String] = [
        "error: authorization.json:1: it is not a JSON object; auth and every command another source runs fail until it is fixed by hand or moved away (hkctl does not rebuild it)",
        "error: characteristics.json:1: it is not a JSON object; me, import and export fail until it is fixed by hand or moved away (hkctl does not rebuild it)",
        "error: compaction.json:1: it is not a JSON object; changes then accepts anchors older than the deletions compaction dropped, and misses those deletions; fix it by hand (docs/STORE.md)",
        "error: goals.json:1: it is not a JSON object; today, goal and chart fail until it is fixed by hand or moved away (hkctl does not rebuild it)",
        "error: journal.jsonl:1: The store file '/T/store/journal.jsonl' is corrupt at line 1: the journal has version 3, and this hkctl knows versions 1 and 2 (a newer hkctl may have written it: finish it with that hkctl); move that line out of the file to go on (see docs/STORE.md).",
        "error: operations.jsonl:1: not an operation record; 'hkctl undo' fails until it is repaired ('hkctl doctor --repair' quarantines the line; the operation it described can then no longer be undone)",
        "error: priorities.json:1: it is not a JSON object; stats, today, chart, trend and sources fail until it is fixed by hand or moved away (hkctl does not rebuild it)",
        "error: push-tokens.json:1: it is not a JSON object; hkctl serve refuses every push and 'serve token' fails until it is fixed by hand or moved away (then make the tokens again)",
        "error: push-tokens.json:1: it is not a valid push-tokens.json document: 'version': version 2 is newer than the version 1 this hkctl reads; hkctl serve refuses every push and 'serve token' fails until it is fixed by hand or moved away (then make the tokens again)",
        "error: samples/HKQuantityTypeIdentifierBodyMass: anyone can write to it (mode 777), so another user could add store files to it; run: chmod 700 /T/store/samples/HKQuantityTypeIdentifierBodyMass; until then every command that uses it refuses (exit 77)",
        "error: samples/HKQuantityTypeIdentifierDietaryWater/2024-06.jsonl:2: out of range: its value 1e+300 mL is outside the valid range 0–20000 mL for water; no command stores it, and sums that include it can overflow (correct it, or 'hkctl delete 0a2b3c4d-0000-4000-8000-000000000001')",
        "error: samples/HKQuantityTypeIdentifierDietaryWater/2024-06.jsonl:3: invalid JSON: expected '{' at byte 1; commands that read this file fail until it is repaired ('hkctl doctor --repair' quarantines the line)",
        "error: samples/HKQuantityTypeIdentifierDietaryWater/2024-07.jsonl: a symbolic link where a data file belongs; hkctl never follows one",
        "error: samples/HKQuantityTypeIdentifierStepCount: a symbolic link where a folder belongs; hkctl never writes through one",
        "error: sequence:1: the change counter 1 is behind the largest change number in use, 2; 'hkctl doctor --repair' rebuilds it",
        "error: settings.json:1: it is not a JSON object; config, today and the commands that show display units fail until it is fixed by hand or moved away (hkctl does not rebuild it)",
        "error: stray.json: it belongs to user id 4242, not to the store's owner (user id 0), so hkctl did not make it (another user may have put it there); every command that uses it refuses (exit 77). Look at it, then remove it (rm -r /T/store/stray.json) or, if it is yours, give it back (chown -R 0 /T/store/stray.json)",
        "warning: journal.jsonl: a batch interrupted by a crash waits here; the next write (or --repair) finishes it",
        "warning: journal.jsonl: an import batch interrupted by a crash waits here; the next write (or --repair) removes its lines (import the file again to finish)",
        "warning: samples/HKQuantityTypeIdentifierDietaryWater/2024-06.jsonl:4: a torn final line (a write a crash interrupted, never acknowledged); readers skip it, --repair moves it aside",
        "warning: samples/HKQuantityTypeIdentifierDietaryWater/notes.txt: not a file hkctl writes; it is ignored",
    ]
}
