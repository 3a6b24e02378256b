#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TestKit

private let waterFolder = "samples/HKQuantityTypeIdentifierDietaryWater"
private let waterPartition = waterFolder + "/2024-06.jsonl"
private let nobody: uid_t = 65534

/// Issue 29, item 5: a store folder others can write to lets them plant store files (a journal the owner's next write
/// "finishes", a quarantine file the owner's repair fills). hkctl refuses such a folder whatever its sticky or setgid
/// bit, refuses every store file and folder another user owns (exit 77, naming it and the fix), and `doctor` reports
/// foreign owners and loose modes; a store made under any umask is still private and works.
struct SharedStoreFolderTests {
    /// A store with one water sample at 2024-06-01T08:00Z.
    private func withStore(_ body: (CLIRunner) throws -> Void) throws {
        try CLIRunner.withTemporaryStore { cli in
            try #require(try cli.run(["add", "water", "250mL", "--at", "08:00"]).status == 0)
            try body(cli)
        }
    }

    /// A journal that "finishes" a batch of one forged 19 L water sample from source hkctl into the June partition.
    private func forgedJournal(_ cli: CLIRunner) throws -> String {
        let length = try #require(try FileManager.default.attributesOfItem(atPath: cli.storePath + "/" + waterPartition)[.size] as? NSNumber)
        let line = "{\"uuid\":\"0badc0de-0000-4000-8000-000000000019\",\"type\":\"HKQuantityTypeIdentifierDietaryWater\","
            + "\"start\":\"2024-06-01T09:00:00+00:00\",\"end\":\"2024-06-01T09:00:00+00:00\",\"value\":19,\"unit\":\"L\","
            + "\"source\":\"hkctl\",\"created\":\"2024-06-01T09:00:00+00:00\",\"seq\":900}"
        return "{\"journal\":1,\"partitions\":[{\"path\":\"\(waterPartition)\",\"length\":\(length.intValue),\"lines\":1}]}\n" + line + "\n"
    }

    /// Writes `text` to `relative` in the store as user `nobody` (through a folder opened to others for the moment),
    /// then closes the folder again, as an owner who notices the loose mode later would.
    private func plantAsAnotherUser(_ text: String, at relative: String, mode: String = "600", _ cli: CLIRunner) throws {
        chmod(cli.storePath, 0o1777)
        defer { chmod(cli.storePath, 0o700) }
        let folder = (cli.storePath as NSString).deletingLastPathComponent
        chmod(folder, 0o755)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=\(nobody)", "--regid=\(nobody)", "--clear-groups", "/bin/sh", "-c",
                             "umask 000; printf '%s' \"$1\" > \"$2\" && chmod \(mode) \"$2\"", "sh", text, cli.storePath + "/" + relative]
        let result = try CLIRunner.collect(process)
        try #require(result.status == 0, "planting as uid \(nobody) failed: \(result.stderr)")
        var info = stat()
        try #require(lstat(cli.storePath + "/" + relative, &info) == 0 && info.st_uid == nobody)
    }

    @Test(arguments: [0o1777, 0o1770, 0o2770, 0o0770, 0o0730, 0o0703, 0o0777] as [mode_t])
    func aStoreFolderOthersCanWriteToIsRefused(mode: mode_t) throws {
        try withStore { cli in
            expectEqual(chmod(cli.storePath, mode), 0)
            let before = cli.snapshot()
            for arguments in [["add", "water", "1L"], ["list", "water"], ["export"], ["doctor"], ["doctor", "--repair"]] {
                let result = try cli.run(arguments)
                expectEqual(result.status, 77, "mode \(String(mode, radix: 8)) \(arguments): \(result.status) \(result.stderr)")
                #expect(result.stderr.contains("can write to it") && result.stderr.contains("chmod 700"),
                        "mode \(String(mode, radix: 8)) \(arguments): \(result.stderr)")
                #expect(result.stdout.isEmpty)
            }
            expectEqual(cli.snapshot(), before)
        }
    }

    /// The journal another user planted is not "finished" by the owner's next write: no forged sample appears.
    @Test(.enabled(if: geteuid() == 0, "planting a file as another user needs root"))
    func aJournalAnotherUserPlantedIsNeverFinished() throws {
        try withStore { cli in
            try plantAsAnotherUser(try forgedJournal(cli), at: "journal.jsonl", cli)
            let before = cli.snapshot()
            for arguments in [["add", "water", "1L", "--at", "10:00"], ["list", "water"], ["stats", "water", "--today"]] {
                let result = try cli.run(arguments)
                expectEqual(result.status, 77, "\(arguments): \(result.status) \(result.stderr)")
                #expect(result.stderr.contains("journal.jsonl") && result.stderr.contains("belongs to user id \(nobody)"),
                        "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains("rm ") && result.stderr.contains("chown"), "\(arguments): \(result.stderr)")
                #expect(!result.stdout.contains("19 L"))
            }
            expectEqual(cli.snapshot(), before, "the store changed")
            // Once the planted file is gone, the store works and never held the forged sample.
            expectEqual(unlink(cli.storePath + "/journal.jsonl"), 0)
            let list = try cli.run(["list", "water", "--format", "csv"])
            #expect(list.status == 0 && !list.stdout.contains("0badc0de") && !list.stdout.contains(",19,"), "\(list.stdout)")
        }
    }

    /// A world-readable quarantine file another user planted never receives the owner's data.
    @Test(.enabled(if: geteuid() == 0, "planting a file as another user needs root"))
    func aQuarantineFileAnotherUserPlantedReceivesNothing() throws {
        try withStore { cli in
            try expectEqual(cli.run(["add", "water", "300mL", "--at", "09:00"]).status, 0)
            // A bad line in the middle of the partition: repair would move it into quarantine.jsonl.
            let partition = cli.storePath + "/" + waterPartition
            var text = try String(contentsOfFile: partition, encoding: .utf8)
            text = text.replacingOccurrences(of: "\n", with: "\nsecret garbage\n", options: [], range: text.range(of: "\n"))
            try text.write(toFile: partition, atomically: false, encoding: .utf8)
            try plantAsAnotherUser("", at: "quarantine.jsonl", mode: "666", cli)
            let before = cli.snapshot()
            let repair = try cli.run(["doctor", "--repair"])
            expectEqual(repair.status, 77, "\(repair.status) \(repair.stderr)")
            #expect(repair.stderr.contains("quarantine.jsonl") && repair.stderr.contains("belongs to user id \(nobody)"),
                    "\(repair.stdout)\(repair.stderr)")
            #expect(try String(contentsOfFile: cli.storePath + "/quarantine.jsonl", encoding: .utf8).isEmpty,
                    "the owner's data went into a file another user can read")
            expectEqual(cli.snapshot(), before, "the store changed")
        }
    }

    /// Every kind of store file and folder another user owns is refused when a command opens it, and listed by doctor.
    @Test(.enabled(if: geteuid() == 0, "giving a file to another user needs root"))
    func storeFilesAndFoldersOfAnotherUserAreRefusedAndReported() throws {
        let commands: [String: [String]] = [
            waterPartition: ["list", "water"], waterFolder + "/tombstones.jsonl": ["list", "water"],
            "sequence": ["add", "water", "1L"], "operations.jsonl": ["undo", "--yes"], "settings.json": ["config", "list"],
            ".lock": ["list", "water"], "hkctl-store.json": ["list", "water"], waterFolder: ["list", "water"],
            "samples": ["list", "water"],
        ]
        for (relative, arguments) in commands.sorted(by: { $0.key < $1.key }) {
            try withStore { cli in
                try expectEqual(cli.run(["config", "set", "unit.water", "mL"]).status, 0)
                let path = cli.storePath + "/" + relative
                if !FileManager.default.fileExists(atPath: path) { try "".write(toFile: path, atomically: false, encoding: .utf8) }
                expectEqual(lchown(path, nobody, nobody), 0)
                let before = cli.snapshot()
                let result = try cli.run(arguments)
                expectEqual(result.status, 77, "\(relative) \(arguments): \(result.status) \(result.stderr)")
                #expect(result.stderr.contains(relative) && result.stderr.contains("belongs to user id \(nobody)"),
                        "\(relative) \(arguments): \(result.stderr)")
                expectEqual(cli.snapshot(), before, "\(relative): the store changed")
                if relative != "hkctl-store.json" {
                    let doctor = try cli.run(["doctor"])
                    expectEqual(doctor.status, 65, "\(relative): \(doctor.status) \(doctor.stdout)\(doctor.stderr)")
                    #expect(doctor.stdout.contains("error: \(relative)") && doctor.stdout.contains("user id \(nobody)"),
                            "\(relative): \(doctor.stdout)")
                    expectEqual(cli.snapshot(), before, "\(relative): doctor changed the store")
                }
            }
        }
    }

    /// doctor lists folders inside the store that others can write to (errors: commands refuse them) and files others
    /// may read or write (warnings).
    @Test func doctorReportsLooseModesInsideTheStore() throws {
        try withStore { cli in
            expectEqual(chmod(cli.storePath + "/" + waterFolder, 0o777), 0)
            expectEqual(chmod(cli.storePath + "/" + waterPartition, 0o666), 0)
            let list = try cli.run(["list", "water"])
            #expect(list.status == 77 && list.stderr.contains(waterFolder) && list.stderr.contains("chmod 700"), "\(list.stderr)")
            let doctor = try cli.run(["doctor"])
            expectEqual(doctor.status, 65, "\(doctor.stdout)\(doctor.stderr)")
            #expect(doctor.stdout.contains("error: \(waterFolder): anyone can write to it (mode 777)"), "\(doctor.stdout)")
            #expect(doctor.stdout.contains("warning: \(waterPartition): others may read and write it (mode 666)"), "\(doctor.stdout)")
            expectEqual(chmod(cli.storePath + "/" + waterFolder, 0o700), 0)
            try expectEqual(cli.run(["list", "water"]).status, 0)
        }
    }

    /// A store made under umask 000 or 002 is as private as any: folders 0700, files 0600, and every command works.
    @Test(arguments: ["000", "002", "077"])
    func aStoreMadeUnderAnyUmaskIsPrivateAndWorks(umask: String) throws {
        try CLIRunner.withTemporaryStore { cli in
            let jsonl = (cli.storePath as NSString).deletingLastPathComponent + "/in.jsonl"
            try bulkStepLines(30).write(toFile: jsonl, atomically: false, encoding: .utf8)
            let script = """
                umask \(umask)
                set -e
                "$HKCTL" add water 250mL --at 08:00
                "$HKCTL" import '\(jsonl)'
                "$HKCTL" delete water --today --yes
                "$HKCTL" undo --yes
                "$HKCTL" config set unit.water mL
                "$HKCTL" goal water 2L
                "$HKCTL" me set biological-sex female
                "$HKCTL" sources priority water Watch hkctl
                "$HKCTL" compact
                "$HKCTL" doctor --repair
                "$HKCTL" list water
                """
            let result = try runShell(script, cli)
            expectEqual(result.status, 0, "\(result.stderr)")
            for entry in try walk(cli.storePath) {
                expectEqual(entry.mode, (entry.isFolder ? 0o700 : 0o600), "umask \(umask): \(entry.path) has mode \(String(entry.mode, radix: 8))")
            }
            let doctor = try cli.run(["doctor"])
            #expect(doctor.status == 0 && doctor.stdout.contains("0 errors, 0 warnings"), "\(doctor.stdout)")
        }
    }

    private func walk(_ root: String) throws -> [(path: String, mode: mode_t, isFolder: Bool)] {
        var entries: [(String, mode_t, Bool)] = []
        var info = stat()
        expectEqual(lstat(root, &info), 0)
        entries.append((root, info.st_mode & 0o7777, true))
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let relative = enumerator?.nextObject() as? String {
            expectEqual(lstat(root + "/" + relative, &info), 0)
            entries.append((relative, info.st_mode & 0o7777, (info.st_mode & S_IFMT) == S_IFDIR))
        }
        return entries
    }
}
