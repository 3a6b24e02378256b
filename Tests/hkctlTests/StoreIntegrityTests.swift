#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TestKit
import TextSupport

/// The second hostile round (issue 20): nothing doubled by concurrent imports, change numbers never reused or
/// overflowed, failed writes leave the store as they found it, and every store path is opened safely.
private let waterFolder = "samples/HKQuantityTypeIdentifierDietaryWater"
private let stepsFolder = "samples/HKQuantityTypeIdentifierStepCount"

/// Runs `hkctl ARGS` in the background and kills it when it has not ended after `seconds`.
///
/// - Returns: The result, and whether it had to be killed (it hung).
private func runWithDeadline(_ cli: CLIRunner, _ arguments: [String], seconds: Double = 20,
                             environment: [String: String] = [:]) throws -> (result: CLIResult, hung: Bool) {
    let folder = cli.storePath + "-output"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let spawned = try Spawned.start(arguments, cli: cli, outputFolder: folder, label: UUID().uuidString,
                                    environment: environment)
    let deadline = Date().addingTimeInterval(seconds)
    while spawned.process.isRunning && Date() < deadline { usleep(20_000) }
    let hung = spawned.process.isRunning
    if hung { spawned.killNow() }
    return (spawned.wait().result, hung)
}

/// The uuids (with how many times each is stored) in every sample file of the store, read as a reader outside hkctl.
private func storedUUIDs(_ store: String) throws -> [String: Int] {
    var counts: [String: Int] = [:]
    guard let enumerator = FileManager.default.enumerator(atPath: store + "/samples") else { return counts }
    while let relative = enumerator.nextObject() as? String {
        guard relative.hasSuffix(".jsonl"), !relative.hasSuffix("tombstones.jsonl") else { continue }
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: store + "/samples/" + relative)), as: UTF8.self)
        for line in text.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            counts[try #require(object["uuid"] as? String), default: 0] += 1
        }
    }
    return counts
}

/// Every `seq` on the sample and tombstone lines of the store.
private func storedChangeNumbers(_ store: String) throws -> [Int] {
    var numbers: [Int] = []
    guard let enumerator = FileManager.default.enumerator(atPath: store + "/samples") else { return numbers }
    while let relative = enumerator.nextObject() as? String {
        guard relative.hasSuffix(".jsonl") else { continue }
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: store + "/samples/" + relative)), as: UTF8.self)
        numbers += text.matches(of: /"seq":(\d+)/).map { Int($0.output.1)! }
    }
    return numbers
}

private func write(_ text: String, to path: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
}

/// Whether this process may mount a small tmpfs (root in a sandbox that allows it), for disk-full runs.
private func mountTmpfs(at path: String, kilobytes: Int) -> Bool {
    guard geteuid() == 0 else { return false }
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/mount")
    process.arguments = ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", path]
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
}

private func unmount(_ path: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/umount")
    process.arguments = [path]
    try? process.run()
    process.waitUntilExit()
}

/// Fills the file system holding `folder` with a filler file, leaving about `free` bytes.
private func fill(_ folder: String, leaving free: Int) throws {
    var info = statvfs()
    guard statvfs(folder, &info) == 0 else { throw CocoaError(.fileReadUnknown) }
    let available = Int(info.f_bavail) * Int(info.f_frsize)
    let filler = folder + "/filler"
    if available > free {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: filler, isDirectory: false), creatingIfNeeded: true)
        try? handle.write(contentsOf: Data(count: available - free))
        try? handle.close()
    }
}

private extension FileHandle {
    convenience init(forWritingTo url: URL, creatingIfNeeded: Bool) throws {
        if creatingIfNeeded && !FileManager.default.fileExists(atPath: url.path) {
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        }
        try self.init(forWritingTo: url)
    }
}

@Suite(.serialized) struct StoreIntegrityTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: storeIntegrityTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    // MARK: 1. Concurrent imports

    /// N imports of the same export (xml and jsonl) at once, with adds in between: every record stored once.
    func concurrentImportsOfOneExportStoreEachRecordOnce() throws {
        try CLIRunner.withTemporaryStore { cli in
            let folder = cli.storePath + "-inputs"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let xml = folder + "/export.xml"
            try write(stepsExport(source: "Phone", values: Array(1...600), firstMinute: 0), to: xml)
            // A jsonl export of the same kind, from another store.
            let other = CLIRunner(storePath: folder + "/other")
            try expectEqual(other.run(["import", xml]).status, 0)
            let jsonl = folder + "/export.jsonl"
            let exported = try other.run(["export", "--format", "jsonl"])
            try #require(exported.status == 0, "\(exported.stderr)")
            try write(exported.stdout, to: jsonl)

            let output = cli.storePath + "-output"
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            var started: [Spawned] = []
            for index in 0..<4 {
                started.append(try Spawned.start(["import", index % 2 == 0 ? xml : jsonl], cli: cli, outputFolder: output,
                                                 label: "import-\(index)", environment: ["HKCTL_LOCK_TIMEOUT": "60"]))
                started.append(try Spawned.start(["add", "water", "\(100 + index)mL"], cli: cli, outputFolder: output,
                                                 label: "add-\(index)", environment: ["HKCTL_LOCK_TIMEOUT": "60"]))
            }
            for spawned in started {
                let result = spawned.wait().result
                expectEqual(result.status, 0, "\(result.stderr)")
            }
            let uuids = try storedUUIDs(cli.storePath)
            #expect(uuids.values.allSatisfy { $0 == 1 }, "uuids stored twice: \(uuids.filter { $0.value > 1 }.count)")
            // 600 step records: the jsonl holds the same records (their uuids are the xml's identities); 4 waters.
            expectEqual(uuids.count, 600 + 4, "\(uuids.count) samples")
            let stats = try cli.run(["stats", "steps", "--from", "2024-04-01", "--to", "2024-04-01", "--format", "json"])
            #expect(stats.stdout.contains("\"sum\":180300"), "\(stats.stdout)")
            let doctor = try cli.run(["doctor"])
            expectEqual(doctor.status, 0, "\(doctor.stdout)\(doctor.stderr)")
        }
    }

    /// A uuid stored twice under different change numbers is an error for doctor, and --repair keeps the first.
    func doctorFindsAUUIDStoredTwiceWhateverItsNumbers() throws {
        try CLIRunner.withTemporaryStore { cli in
            let added = try cli.run(["add", "water", "250mL", "--at", "08:00", "--format", "json"])
            try #require(added.status == 0, "\(added.stderr)")
            try expectEqual(cli.run(["add", "water", "300mL", "--at", "09:00"]).status, 0)
            let partition = cli.storePath + "/" + waterFolder + "/2024-06.jsonl"
            let lines = String(decoding: try Data(contentsOf: URL(fileURLWithPath: partition)), as: UTF8.self)
                .split(separator: "\n").map(String.init)
            // The first sample again, with a later change number, as two racing writers left it.
            let copy = lines[0].replacingOccurrences(of: "\"seq\":1}", with: "\"seq\":3}")
            try write(lines.joined(separator: "\n") + "\n" + copy + "\n", to: partition)
            try write("00000000000000000003\n", to: cli.storePath + "/sequence")
            let sumBefore = try cli.run(["stats", "water", "--today", "--format", "json"])
            #expect(sumBefore.stdout.contains("\"sum\":800"), "the copy is counted: \(sumBefore.stdout)")

            let check = try cli.run(["doctor"])
            expectEqual(check.status, 65)
            #expect(check.stdout.contains("2024-06.jsonl") && check.stdout.contains("second copy"), "\(check.stdout)")
            let repair = try cli.run(["doctor", "--repair"])
            expectEqual(repair.status, 0, "\(repair.stdout)\(repair.stderr)")
            let kept = String(decoding: try Data(contentsOf: URL(fileURLWithPath: partition)), as: UTF8.self)
            expectEqual(kept, lines.joined(separator: "\n") + "\n", "the first copy stays, the later one goes")
            let quarantine = String(decoding: try Data(contentsOf: URL(fileURLWithPath: cli.storePath + "/quarantine.jsonl")),
                                    as: UTF8.self)
            #expect(quarantine.contains("\\\"seq\\\":3}"), "\(quarantine)")
            let sumAfter = try cli.run(["stats", "water", "--today", "--format", "json"])
            #expect(sumAfter.stdout.contains("\"sum\":550"), "\(sumAfter.stdout)")
        }
    }

    /// A sample deleted and imported again is stored twice by design (the tombstone hides the first): no error.
    func aSampleImportedAgainAfterItsDeletionIsNoCopy() throws {
        try CLIRunner.withTemporaryStore { cli in
            let folder = cli.storePath + "-inputs"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let xml = folder + "/export.xml"
            try write(stepsExport(source: "Phone", values: [10, 20, 30], firstMinute: 0), to: xml)
            try expectEqual(cli.run(["import", xml]).status, 0)
            try expectEqual(cli.run(["delete", "steps", "--from", "2024-04-01", "--to", "2024-04-01", "--yes"]).status, 0)
            try expectEqual(cli.run(["import", xml]).status, 0)
            let doctor = try cli.run(["doctor"])
            expectEqual(doctor.status, 0, "\(doctor.stdout)")
            let stats = try cli.run(["stats", "steps", "--from", "2024-04-01", "--to", "2024-04-01", "--format", "json"])
            #expect(stats.stdout.contains("\"sum\":60"), "\(stats.stdout)")
        }
    }

    // MARK: 2-3. Change numbers

    /// Writers refuse to pass the largest change number readers accept; nothing is written.
    func changeNumbersStopAtTheLargestReadersAccept() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "water", "250mL", "--at", "08:00"]).status, 0)
            let largest: UInt64 = (1 << 53) - 1
            try write(String(format: "%020llu\n", largest - 1), to: cli.storePath + "/sequence")
            let last = try cli.run(["add", "water", "100mL", "--at", "09:00"])
            expectEqual(last.status, 0, "the last number is still handed out: \(last.stderr)")
            let before = cli.snapshot()
            let refused = try cli.run(["add", "water", "100mL", "--at", "10:00"])
            expectEqual(refused.status, 65)
            #expect(refused.stderr.contains("change numbers end at \(largest)") && refused.stderr.contains("nothing was saved"),
                    "\(refused.stderr)")
            expectEqual(cli.snapshot(), before)
            // Every reader accepts the largest number: list, changes and doctor.
            #expect(try cli.run(["list", "water", "--format", "json"]).stdout.contains("100"))
            let changes = try cli.run(["changes", "--format", "json"])
            expectEqual(changes.status, 0, "\(changes.stderr)")
            let doctor = try cli.run(["doctor"])
            expectEqual(doctor.status, 0, "\(doctor.stdout)")
        }
    }

    /// A counter beyond the range (2^64 - 2, as hand-edited) is damage: writers refuse it, doctor --repair rebuilds it
    /// without quarantining any acknowledged sample, and nothing traps.
    func aCounterBeyondTheRangeIsRepairedNotTrapped() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "water", "250mL", "--at", "08:00"]).status, 0)
            try write("18446744073709551614\n", to: cli.storePath + "/sequence")
            let before = cli.snapshot()
            let refused = try cli.run(["add", "water", "100mL", "--at", "09:00"])
            expectEqual(refused.status, 65, "\(refused.stderr)")
            #expect(refused.stderr.contains("sequence") && refused.stderr.contains("doctor --repair"), "\(refused.stderr)")
            expectEqual(cli.snapshot(), before)
            let repair = try cli.run(["doctor", "--repair"])
            expectEqual(repair.status, 0, "\(repair.stdout)\(repair.stderr)")
            #expect(!FileManager.default.fileExists(atPath: cli.storePath + "/quarantine.jsonl"))
            try expectEqual(cli.run(["add", "water", "100mL", "--at", "09:00"]).status, 0)
            try expectEqual(cli.run(["add", "water", "100mL", "--at", "10:00"]).status, 0)
            let listed = try cli.run(["list", "water", "--format", "json"])
            expectEqual(listed.stdout.components(separatedBy: "\"uuid\"").count - 1, 3, "\(listed.stdout)")
        }
    }

    /// A counter set back behind the lines never makes a writer reuse a number, in the same partition or another.
    func aCounterBehindTheLinesIsRefusedUntilRepaired() throws {
        try CLIRunner.withTemporaryStore { cli in
            for hour in 8...10 { try expectEqual(cli.run(["add", "water", "250mL", "--at", "\(hour):00"]).status, 0) }
            try write("00000000000000000001\n", to: cli.storePath + "/sequence")
            let before = cli.snapshot()
            for arguments in [["add", "water", "100mL", "--at", "11:00"], ["add", "steps", "100", "--at", "11:00"],
                              ["delete", "water", "--today", "--yes"]] {
                let refused = try cli.run(arguments)
                expectEqual(refused.status, 65, "\(arguments): \(refused.stderr)")
                #expect(refused.stderr.contains("doctor --repair"), "\(refused.stderr)")
                expectEqual(cli.snapshot(), before, "\(arguments) changed the store")
            }
            let doctor = try cli.run(["doctor"])
            #expect(doctor.status == 65 && doctor.stdout.contains("behind"), "\(doctor.stdout)")
            try expectEqual(cli.run(["doctor", "--repair"]).status, 0)
            try expectEqual(cli.run(["add", "steps", "100", "--at", "11:00"]).status, 0)
            let numbers = try storedChangeNumbers(cli.storePath)
            #expect(numbers.count == 4 && Set(numbers).count == numbers.count, "a change number was reused: \(numbers)")
        }
    }

    // MARK: 4. Failed writes

    /// A write past the file-size limit fails part-way through its line (as a filling disk does): exit 74, and the
    /// store is left byte for byte as it was, counter included; the next add works once space allows.
    func aWriteCutShortLeavesNoTrace() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "water", "250mL", "--at", "08:00"]).status, 0)
            let before = cli.snapshot()
            // The line (over 4 KiB of metadata) crosses the 4 KiB file-size limit part-way.
            let script = "ulimit -f 4; exec \"$0\" \"$@\""
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", script, CLIRunner.binaryURL.path, "add", "water", "300mL", "--at", "11:30"] + bigMetadata
            process.environment = ["PATH": "/usr/bin:/bin", "HKCTL_STORE": cli.storePath, "TZ": "UTC",
                                   "HKCTL_NOW": "2024-06-01T21:00:00Z", "HOME": NSTemporaryDirectory()]
            let err = Pipe()
            process.standardError = err
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            expectEqual(process.terminationReason, .exit, "killed by a signal: \(message)")
            expectEqual(process.terminationStatus, 74, "\(message)")
            #expect(message.contains("nothing was saved"), "\(message)")
            expectEqual(cli.snapshot(), before, "the failed add left a trace")
            try expectEqual(cli.run(["add", "water", "300mL", "--at", "11:30"] + bigMetadata).status, 0)
            try expectEqual(cli.run(["doctor"]).status, 0)
        }
    }

    /// Four metadata values of 1,000 characters: a line longer than a 4 KiB page, which a full disk cannot take.
    private let bigMetadata = (1...4).flatMap { ["--meta", "note\($0)=" + String(repeating: "x", count: 1000)] }

    /// On a full disk (a small tmpfs; root only) add, a range delete and import fail with exit 74 and leave the
    /// store byte-identical: no counter advanced, no empty partition or folder, no torn line.
    func aFullDiskLeavesTheStoreAsItWas() throws {
        let mountPoint = TestSupport.scratchRoot + "hkctl-full-" + UUID().uuidString
        guard mountTmpfs(at: mountPoint, kilobytes: 256) else {
            print("skipped: mounting a tmpfs needs root in a sandbox that allows it; the file-size-limit test covers a cut write")
            return
        }
        defer {
            unmount(mountPoint)
            try? FileManager.default.removeItem(atPath: mountPoint)
        }
        let cli = CLIRunner(storePath: mountPoint + "/store")
        try expectEqual(cli.run(["add", "water", "250mL", "--at", "08:00"]).status, 0)
        try expectEqual(cli.run(["add", "water", "300mL", "--at", "09:00"]).status, 0)
        let export = TestSupport.scratchRoot + "hkctl-full-export-\(UUID().uuidString).xml"
        try write(stepsExport(source: "Phone", values: Array(1...3000), firstMinute: 0), to: export)
        defer { try? FileManager.default.removeItem(atPath: export) }
        try fill(mountPoint, leaving: 0)
        for arguments in [["add", "water", "100mL", "--at", "10:00"] + bigMetadata,
                          ["add", "weight", "70kg", "--at", "2023-01-05T08:00"], ["import", export],
                          ["delete", "water", "--today", "--yes"]] {
            let before = cli.snapshot()
            let result = try cli.run(arguments)
            expectEqual(result.status, 74, "\(arguments): \(result.status) \(result.stderr)")
            expectEqual(cli.snapshot(), before, "\(arguments) changed the store")
        }
        try FileManager.default.removeItem(atPath: mountPoint + "/filler")
        try expectEqual(cli.run(["add", "water", "100mL", "--at", "10:00"]).status, 0)
        let doctor = try cli.run(["doctor"])
        expectEqual(doctor.status, 0, "\(doctor.stdout)")
    }

    // MARK: 5-6. Containment

    /// A `samples` folder (or a type's folder) linked out of the store is refused by every command, compact and
    /// doctor --repair included, and nothing outside is written.
    func aLinkedFolderInsideTheStoreIsNeverUsed() throws {
        for linked in ["samples", waterFolder] {
            try CLIRunner.withTemporaryStore { cli in
                try expectEqual(cli.run(["add", "water", "250mL", "--at", "08:00"]).status, 0)
                try expectEqual(cli.run(["add", "water", "250mL", "--at", "09:00"]).status, 0)
                try expectEqual(cli.run(["delete", "water", "--from", "2024-06-01T08:30", "--to", "2024-06-01T09:30", "--yes"]).status, 0)
                let outside = cli.storePath + "-outside"
                try FileManager.default.moveItem(atPath: cli.storePath + "/" + linked, toPath: outside)
                try FileManager.default.createSymbolicLink(atPath: cli.storePath + "/" + linked, withDestinationPath: outside)
                let outsideBefore = try FileTree(outside)
                for arguments in [["compact", "--retention", "0"], ["doctor", "--repair"], ["list", "water"],
                                  ["add", "water", "1L"], ["stats", "water", "--today"], ["export"], ["changes"]] {
                    let result = try cli.run(arguments)
                    #expect(result.status != 0, "\(linked): \(arguments) used the link: \(result.stdout)")
                    #expect(result.stderr.contains("symbolic link") || result.stdout.contains("symbolic link"),
                            "\(arguments): \(result.stderr)\(result.stdout)")
                }
                try expectEqual(FileTree(outside).entries, outsideBefore.entries, "\(linked): something outside the store was written")
                let doctor = try cli.run(["doctor"])
                #expect(doctor.status != 0)
            }
        }
    }

    /// A FIFO in place of any store file makes no command hang: each fails at once naming the file, and doctor
    /// reports it.
    func aFIFOInPlaceOfAStoreFileHangsNothing() throws {
        let planted = [waterFolder + "/2024-06.jsonl", ".lock", "sequence", "settings.json", "journal.jsonl",
                       "authorization.json", waterFolder + "/tombstones.jsonl"]
        for name in planted {
            try CLIRunner.withTemporaryStore { cli in
                try expectEqual(cli.run(["add", "water", "250mL", "--at", "08:00"]).status, 0)
                let path = cli.storePath + "/" + name
                try? FileManager.default.removeItem(atPath: path)
                try #require(mkfifo(path, 0o600) == 0)
                for arguments in [["add", "water", "100mL", "--at", "09:00"], ["list", "water"], ["stats", "water", "--today"],
                                  ["delete", "water", "--today", "--yes"], ["changes"], ["doctor"], ["export"], ["compact"]] {
                    let (result, hung) = try runWithDeadline(cli, arguments)
                    #expect(!hung, "\(arguments) hung on a FIFO at \(name)")
                    // A command that does not need the file may succeed; one that fails names it.
                    if result.status != 0 {
                        expectEqual(result.status, 65, "\(name) \(arguments): \(result.status) \(result.stderr)")
                        #expect((result.stderr + result.stdout).contains(PathText.lastComponentForTest(name)),
                                "\(name) \(arguments): \(result.stderr)\(result.stdout)")
                    }
                }
                let (doctor, _) = try runWithDeadline(cli, ["doctor"])
                expectEqual(doctor.status, 65, "\(name): \(doctor.stdout)\(doctor.stderr)")
                #expect(doctor.stdout.contains("FIFO") && doctor.stdout.contains(name), "\(name): \(doctor.stdout)")
            }
        }
    }

    // MARK: 8. Privacy

    /// doctor shows every source's samples, so another source cannot run it.
    func doctorIsForTheOwnerOnly() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "water", "250mL", "--at", "08:00"]).status, 0)
            let result = try cli.run(["doctor"], environment: ["HKCTL_SOURCE": "other-app"])
            expectEqual(result.status, 77, "\(result.stderr)")
            #expect(result.stdout.isEmpty)
            #expect(!result.stderr.contains("HKQuantityTypeIdentifierDietaryWater/2024-06"))
        }
    }
}

private enum PathText {
    /// The last component of a relative path, as messages name files.
    static func lastComponentForTest(_ path: String) -> String {
        String(path.split(separator: "/").last ?? Substring(path))
    }
}

/// The checks ``StoreIntegrityTests/checks(_:)`` runs.
private let storeIntegrityTestsChecks: [Check<StoreIntegrityTests>] = [
    Check("concurrentImportsOfOneExportStoreEachRecordOnce",
          StoreIntegrityTests.concurrentImportsOfOneExportStoreEachRecordOnce),
    Check("doctorFindsAUUIDStoredTwiceWhateverItsNumbers",
          StoreIntegrityTests.doctorFindsAUUIDStoredTwiceWhateverItsNumbers),
    Check("aSampleImportedAgainAfterItsDeletionIsNoCopy",
          StoreIntegrityTests.aSampleImportedAgainAfterItsDeletionIsNoCopy),
    Check("changeNumbersStopAtTheLargestReadersAccept", StoreIntegrityTests.changeNumbersStopAtTheLargestReadersAccept),
    Check("aCounterBeyondTheRangeIsRepairedNotTrapped", StoreIntegrityTests.aCounterBeyondTheRangeIsRepairedNotTrapped),
    Check("aCounterBehindTheLinesIsRefusedUntilRepaired",
          StoreIntegrityTests.aCounterBehindTheLinesIsRefusedUntilRepaired),
    Check("aWriteCutShortLeavesNoTrace", StoreIntegrityTests.aWriteCutShortLeavesNoTrace),
    Check("aFullDiskLeavesTheStoreAsItWas", StoreIntegrityTests.aFullDiskLeavesTheStoreAsItWas),
    Check("aLinkedFolderInsideTheStoreIsNeverUsed", StoreIntegrityTests.aLinkedFolderInsideTheStoreIsNeverUsed),
    Check("aFIFOInPlaceOfAStoreFileHangsNothing", StoreIntegrityTests.aFIFOInPlaceOfAStoreFileHangsNothing),
    Check("doctorIsForTheOwnerOnly", StoreIntegrityTests.doctorIsForTheOwnerOnly),
]
