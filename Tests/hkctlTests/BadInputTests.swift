#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TestKit
import TextSupport

/// What has to be in place, besides a store holding one good sample, before the bad command runs.
enum BadInputSetup: String, Sendable {
    /// Nothing more.
    case none
    /// The test process holds an exclusive `flock` on `<store>/.lock` while the command runs.
    case lockHeld
    /// The water partition has a garbage line between two valid lines.
    case corruptPartition
    /// `{scratch}/plain-file` is a regular file with mode 0644.
    case regularFile
    /// `{scratch}/foreign` is a folder holding `notes.txt` and no `hkctl-store.json`.
    case foreignFolder
}

/// One command line that must be refused: its exit code, what stderr must mention, and what to set up.
struct BadInput: Sendable, CustomTestStringConvertible {
    /// The arguments; `{scratch}` stands for the temporary folder that holds the store.
    let arguments: [String]
    /// The exact exit code (sysexits).
    let status: Int32
    /// Text that standard error must contain.
    let fragments: [String]
    var setup: BadInputSetup = .none
    var environment: [String: String] = [:]

    var testDescription: String {
        let setupText = setup == .none ? "" : " [\(setup.rawValue)]"
        return "hkctl " + arguments.map { $0.isEmpty ? "''" : $0 }.joined(separator: " ") + " → \(status)" + setupText
    }
}

/// sysexits(3) codes hkctl documents.
private let usage: Int32 = 64
private let dataError: Int32 = 65
private let cannotCreate: Int32 = 73
private let busy: Int32 = 75

private func bad(_ status: Int32, _ arguments: [String], _ fragments: [String], setup: BadInputSetup = .none,
                 environment: [String: String] = [:]) -> BadInput {
    BadInput(arguments: arguments, status: status, fragments: fragments, setup: setup, environment: environment)
}

struct BadInputTests {
    static let cases: [BadInput] = [
        // MARK: 64, usage
        bad(usage, ["add", "water", "1L", "--bogus"], ["Unknown option '--bogus'", "See 'hkctl add --help' for its usage."]),
        bad(usage, ["list", "water", "--limt", "3"], ["--limt", "did you mean '--limit'"]),
        bad(usage, ["list", "water", "-x"], ["Unknown option '-x'"]),
        bad(usage, ["add", "water", "1L", "--at"], ["Missing value", "--at"]),
        bad(usage, ["list", "water", "--store"], ["Missing value", "--store"]),
        bad(usage, ["add"], ["Missing expected argument '<type>'"]),
        bad(usage, ["add", "water"], ["Missing expected argument '<value>'", "500mL", "See 'hkctl add --help' for its usage."]),
        bad(usage, ["list"], ["Missing expected argument '<type>'"]),
        bad(usage, ["stats"], ["Missing expected argument '<type>'"]),
        bad(usage, ["add", "sleep", "--stage", "deep"], ["time range", "23:10-07:05"]),
        bad(usage, ["add", "coffee", "1L"], ["Unknown type 'coffee'", "water"]),
        bad(usage, ["list", "coffee"], ["Unknown type 'coffee'"]),
        bad(usage, ["stats", "HKQuantityTypeIdentifierCoffee"], ["HKQuantityTypeIdentifierCoffee"]),
        bad(usage, ["frobnicate"], ["Unknown subcommand 'frobnicate'"]),
        bad(usage, ["lst", "water"], ["Unknown subcommand 'lst'", "did you mean 'list'"]),
        bad(usage, ["help", "frobnicate"], ["Unknown subcommand 'frobnicate'"]),
        bad(usage, ["--format", "json", "--"], ["Missing subcommand"]),  // global options alone give today
        bad(usage, ["list", "water", "--limit", "0"], ["'0'", "--limit"]),
        bad(usage, ["list", "water", "--limit", "-3"], ["'-3'", "--limit"]),
        bad(usage, ["list", "water", "--limit", "abc"], ["'abc'", "--limit"]),
        bad(usage, ["stats", "water", "--by", "fortnight"], ["'fortnight'", "--by"]),
        bad(usage, ["list", "water", "--today", "--week"], ["Give one range"]),
        bad(usage, ["stats", "water", "--yesterday", "--from", "2024-05-01"], ["Give one range"]),
        bad(usage, ["add", "water", "1L", "--at", "08:00", "--from", "07:00", "--to", "07:30"], ["--at", "--from"]),
        bad(usage, ["add", "steps", "100", "--from", "07:00"], ["--from and --to go together"]),
        bad(usage, ["add", "steps", "100", "--to", "07:00"], ["--from and --to go together"]),
        bad(usage, ["list", "water", "--format", "xml"], ["'xml'", "--format"]),
        bad(usage, ["list", "water", "--limit", "1", "--limit", "2"], ["'--limit' was given twice"]),
        bad(usage, ["list", "water", "--today=yes"], ["'--today' does not take a value"]),
        bad(usage, ["add", "water", "5", "mL", "extra"], ["Unexpected argument 'extra'"]),
        bad(usage, ["list", "water", "steps"], ["Unexpected argument 'steps'"]),
        bad(usage, ["types", "extra"], ["Unexpected argument 'extra'"]),
        bad(usage, ["add", "water", "1L", "--meta", "novalue"], ["'novalue'", "--meta"]),
        bad(usage, ["add", "water", "1L", "--source", ""], ["source name"]),
        // An option that is not global, before the subcommand: the message must name the option, not
        // complain about its value as a subcommand.
        bad(usage, ["--limit", "5", "list", "water"], ["--limit"]),
        // Options that do not apply must be refused, not silently ignored (the sample would be saved).
        bad(usage, ["add", "water", "1L", "--stage", "deep"], ["--stage"]),
        bad(usage, ["add", "sleep", "23:10-07:05", "--from", "2024-05-31T20:00", "--to", "2024-05-31T21:00"], ["--from"]),

        // MARK: 65, bad data
        bad(dataError, ["add", "water", "5kg"], ["'kg'", "does not measure water; write the amount like 500mL"]),
        bad(dataError, ["add", "steps", "100kg"], ["does not measure steps; write the amount like 8000."]),
        bad(dataError, ["add", "water", "500"], ["'500'", "needs a unit"]),
        bad(dataError, ["add", "water", "500", "kg"], ["'kg'", "does not measure water"]),
        bad(dataError, ["add", "water", "--", "-5L"], ["-5", "negative"]),
        bad(dataError, ["add", "water", "-5L"], ["-5", "negative"]),
        bad(dataError, ["add", "water", "nanL"], ["'nanL'", "not a number"]),
        bad(dataError, ["add", "water", "infL"], ["'infL'", "not a number"]),
        bad(dataError, ["add", "water", "abcmL"], ["'abcmL'", "not a number"]),
        bad(dataError, ["add", "water", "1,5L"], ["'1,5L'"]),
        bad(dataError, ["add", "steps", "1e400"], ["steps", "not a finite number"]),
        bad(dataError, ["add", "water", "25L"], ["25 L", "plausible range 0–20 L"]),
        bad(dataError, ["add", "weight", "5000kg"], ["5000", "plausible range"]),
        bad(dataError, ["add", "weight", "0kg"], ["weight", "plausible range"]),
        // A percentage in the percent typed (stored as a fraction), and -0 as typed.
        bad(dataError, ["add", "body-fat", "150%"], ["150 %", "plausible range 1–80 %"]),
        // Bounds in a unit far from the type's: whole numbers, not 499999999.99999994 (a review found that).
        bad(dataError, ["add", "weight", "1mcg"], ["1 mcg", "plausible range 500000000–700000000000 mcg"]),
        bad(dataError, ["add", "body-fat", "0.5%"], ["0.5 %", "plausible range 1–80 %"]),
        bad(dataError, ["add", "water", "-0mL"], ["amount -0 is negative"]),
        bad(dataError, ["add", "water", "1cup"], ["'cup'", "cup_us", "cup_imp"]),
        bad(dataError, ["add", "water", "5m^L"], ["'m^L'", "malformed"]),
        bad(dataError, ["add", "water", "1L", "--at", "2024-02-30"], ["'2024-02-30'", "29 days"]),
        bad(dataError, ["add", "water", "1L", "--at", "2024-13-01"], ["'2024-13-01'", "no month 13"]),
        bad(dataError, ["add", "water", "1L", "--at", "25:00"], ["'25:00'", "does not exist"]),
        bad(dataError, ["add", "water", "1L", "--at", "12:60"], ["'12:60'", "does not exist"]),
        bad(dataError, ["add", "water", "1L", "--at", "8h30"], ["'8h30'", "not understood", "'yesterday 22:30'", "'-2h'"]),
        bad(dataError, ["add", "water", "1L", "--at", "2024-06-01T08:00+19:00"], ["offset"]),
        bad(dataError, ["add", "water", "1L", "--at", "1899-12-31"], ["'1899-12-31'", "1900"]),
        bad(dataError, ["add", "water", "1L", "--at", "2024-06-02"], ["2024-06-02T00:00:00+00:00", "after now"]),
        bad(dataError, ["add", "water", "1L", "--at", "+2h"], ["2024-06-01T14:00:00+00:00", "after now"]),
        bad(dataError, ["add", "sleep", "--from", "2024-05-30T20:00", "--to", "2024-06-01T08:00"], ["36 hours", "24 hours"]),
        bad(dataError, ["add", "sleep", "--from", "2024-06-01T08:00", "--to", "2024-06-01T07:00"],
            ["2024-06-01T07:00:00+00:00", "before the start"]),
        bad(dataError, ["add", "steps", "8000", "--from", "09:00", "--to", "08:00"], ["before the start"]),
        bad(dataError, ["add", "sleep", "23:10-07:05", "--stage", "dozing"], ["'dozing'", "deep"]),
        bad(dataError, ["list", "water", "--unit", "kg"], ["'kg'", "does not measure water"]),
        bad(dataError, ["stats", "weight", "--unit", "mL"], ["'mL'", "does not measure weight"]),
        bad(dataError, ["list", "water", "--tz", "Mars/Olympus"], ["'Mars/Olympus'"]),
        bad(dataError, ["list", "water", "--now", "garbage"], ["'garbage'"]),
        // The message must name the --to the user typed, not only a computed instant.
        bad(dataError, ["list", "water", "--from", "2024-06-02", "--to", "2024-06-01"], ["empty", "2024-06-01"]),
        bad(dataError, ["list", "water"], ["corrupt at line 2", "2024-06.jsonl"], setup: .corruptPartition),
        bad(dataError, ["stats", "water", "--today"], ["corrupt at line 2", "2024-06.jsonl"], setup: .corruptPartition),

        // MARK: 73, cannot create
        bad(cannotCreate, ["add", "water", "1L", "--store", "{scratch}/plain-file/x"], ["plain-file/x", "is a file, not a folder"],
            setup: .regularFile),
        bad(cannotCreate, ["add", "water", "1L", "--store", "{scratch}/plain-file"], ["plain-file"], setup: .regularFile),
        bad(cannotCreate, ["add", "water", "1L", "--store", "{scratch}/foreign"], ["foreign", "not an hkctl store"],
            setup: .foreignFolder),
        bad(cannotCreate, ["list", "water", "--store", "{scratch}/foreign"], ["foreign", "not an hkctl store"],
            setup: .foreignFolder),

        // MARK: 75, busy
        bad(busy, ["add", "water", "1L"], ["busy", "HKCTL_LOCK_TIMEOUT"], setup: .lockHeld,
            environment: ["HKCTL_LOCK_TIMEOUT": "0.3"]),
        bad(busy, ["list", "water"], ["busy"], setup: .lockHeld, environment: ["HKCTL_LOCK_TIMEOUT": "0.3"]),
    ]

    @Test func thereAreAtLeastFortyDistinctBadInputs() {
        #expect(Self.cases.count >= 40)
        expectEqual(Set(Self.cases.map(\.testDescription)).count, Self.cases.count)
    }

    @Test(arguments: BadInputTests.cases)
    func isRefusedWithoutSideEffects(_ input: BadInput) throws {
        try CLIRunner.withTemporaryStore { cli in
            let seeded = try cli.run(["add", "water", "250mL", "--at", "08:00"])
            try #require(seeded.status == 0, "seeding failed: \(seeded.stderr)")
            let scratch = (cli.storePath as NSString).deletingLastPathComponent
            try Self.prepare(input.setup, store: cli.storePath, scratch: scratch)

            let before = cli.snapshot()
            let treeBefore = try FileTree(scratch)
            let arguments = input.arguments.map { $0.replacingOccurrences(of: "{scratch}", with: scratch) }
            let result: CLIResult
            if input.setup == .lockHeld {
                let lock = try ExclusiveLock(path: cli.storePath + "/.lock")
                result = try withExtendedLifetime(lock) { try cli.run(arguments, environment: input.environment) }
            } else {
                result = try cli.run(arguments, environment: input.environment)
            }

            expectEqual(result.status, input.status, "exit code; stderr: \(result.stderr)")
            #expect(!result.stderr.isEmpty)
            #expect(result.stderr.hasPrefix("Error: "), "stderr: \(result.stderr)")
            // One line, usage errors too (the brief: one clear line on stderr).
            expectEqual(result.stderr.split(separator: "\n").count, 1, "stderr: \(result.stderr)")
            for fragment in input.fragments {
                #expect(result.stderr.contains(fragment), "stderr lacks \"\(fragment)\": \(result.stderr)")
            }
            #expect(result.stdout.isEmpty, "stdout: \(result.stdout)")
            expectEqual(cli.snapshot(), before, "the store changed")
            let changes = try FileTree(scratch).differences(from: treeBefore)
            #expect(changes.isEmpty, "files in and next to the store changed: \(changes)")
        }
    }

    static func prepare(_ setup: BadInputSetup, store: String, scratch: String) throws {
        let files = FileManager.default
        switch setup {
        case .none, .lockHeld:
            break
        case .corruptPartition:
            let partition = store + "/samples/HKQuantityTypeIdentifierDietaryWater/2024-06.jsonl"
            let text = try String(contentsOfFile: partition, encoding: .utf8)
            let firstLine = try #require(text.split(separator: "\n").first)
            let corrupted = text + "garbage{not json\n" + firstLine + "\n"
            try Data(corrupted.utf8).write(to: URL(fileURLWithPath: partition))
        case .regularFile:
            let path = scratch + "/plain-file"
            try #require(files.createFile(atPath: path, contents: Data("keep me\n".utf8),
                                          attributes: [.posixPermissions: 0o644]))
            try files.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        case .foreignFolder:
            let folder = scratch + "/foreign"
            try files.createDirectory(atPath: folder, withIntermediateDirectories: false,
                                      attributes: [.posixPermissions: 0o755])
            try #require(files.createFile(atPath: folder + "/notes.txt", contents: Data("mine\n".utf8),
                                          attributes: [.posixPermissions: 0o644]))
        }
    }
}

/// An exclusive `flock` on a file, held until the value is released.
final class ExclusiveLock {
    private let fd: Int32

    init(path: String) throws {
        fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw CocoaError(.fileNoSuchFile) }
        guard flock(fd, LOCK_EX) == 0 else {
            close(fd)
            throw CocoaError(.fileLocking)
        }
    }

    deinit {
        flock(fd, LOCK_UN)
        close(fd)
    }
}

/// Every file and folder under a folder with its permission bits and bytes.
struct FileTree {
    struct Entry: Equatable {
        var mode: Int
        var bytes: Data?
    }

    var entries: [String: Entry] = [:]

    init(_ root: String) throws {
        let files = FileManager.default
        guard let enumerator = files.enumerator(atPath: root) else { return }
        while let relative = enumerator.nextObject() as? String {
            let path = root + "/" + relative
            let attributes = try files.attributesOfItem(atPath: path)
            let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
            let isFile = (attributes[.type] as? FileAttributeType) == .typeRegular
            entries[relative] = Entry(mode: mode, bytes: isFile ? files.contents(atPath: path) : nil)
        }
    }

    /// A short description of what differs, for failure messages.
    func differences(from other: FileTree) -> String {
        let keys = Set(entries.keys).union(other.entries.keys).sorted()
        return keys.compactMap { key -> String? in
            switch (other.entries[key], entries[key]) {
            case (nil, .some): return "\(key) appeared"
            case (.some, nil): return "\(key) disappeared"
            case let (old?, new?) where old != new:
                return old.mode != new.mode
                    ? "\(key) mode \(String(old.mode, radix: 8)) → \(String(new.mode, radix: 8))"
                    : "\(key) content changed"
            default: return nil
            }
        }.joined(separator: "; ")
    }
}
