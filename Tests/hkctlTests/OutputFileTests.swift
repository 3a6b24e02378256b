#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TestKit
import TextSupport

/// Issue 22: a file the user names for output (`export --out`, `chart --svg`) never destroys what is at the path. A
/// link is followed (its target replaced atomically, the link kept), a device or FIFO is written in place, a folder or
/// a link to nothing is refused (exit 73, nothing created), a replaced file keeps its mode and a new one is 0600.
struct OutputFileTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: outputFileTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private func mode(_ path: String, follow: Bool = true) -> mode_t? {
        var info = stat()
        return (follow ? stat(path, &info) : lstat(path, &info)) == 0 ? info.st_mode : nil
    }

    private func contents(_ path: String) -> String? { try? String(contentsOfFile: path, encoding: .utf8) }

    private func names(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    func aLinkToAFileIsFollowedAndStaysALink() throws {
        try CLIRunner.withOneWaterSampleAndOutputFolder { cli, folder in
            let target = folder + "/target.jsonl", link = folder + "/link.jsonl"
            try "old\n".write(toFile: target, atomically: false, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "target.jsonl")
            let result = try cli.run(["export", "--out", link])
            expectEqual(result.status, 0, "\(result.stderr)")
            expectEqual(mode(link, follow: false).map { $0 & S_IFMT }, S_IFLNK)
            try expectEqual(FileManager.default.destinationOfSymbolicLink(atPath: link), "target.jsonl")
            let written = try #require(contents(target))
            #expect(written.hasPrefix("{\"uuid\":") && written.contains("DietaryWater"), "\(written)")
            expectEqual(names(folder), ["link.jsonl", "target.jsonl"], "no temporary file is left")
        }
    }

    func aLinkIntoAnotherFolderReplacesTheTargetThere() throws {
        try CLIRunner.withOneWaterSampleAndOutputFolder { cli, folder in
            try FileManager.default.createDirectory(atPath: folder + "/real", withIntermediateDirectories: true)
            try "old\n".write(toFile: folder + "/real/steps.svg", atomically: false, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: folder + "/chart.svg", withDestinationPath: "real/steps.svg")
            let result = try cli.run(["chart", "water", "--svg", folder + "/chart.svg"])
            #expect(result.status == 0 && result.stdout.isEmpty, "\(result.stderr)")
            expectEqual(mode(folder + "/chart.svg", follow: false).map { $0 & S_IFMT }, S_IFLNK)
            expectEqual(contents(folder + "/real/steps.svg")?.hasPrefix("<?xml"), true)
            expectEqual(names(folder + "/real"), ["steps.svg"])
        }
    }

    @Test(arguments: ["export", "chart"])
    func aDanglingLinkOrALoopIsRefusedAndNothingIsCreated(command: String) throws {
        try CLIRunner.withOneWaterSampleAndOutputFolder { cli, folder in
            try FileManager.default.createSymbolicLink(atPath: folder + "/dangling", withDestinationPath: "missing/nothing")
            try FileManager.default.createSymbolicLink(atPath: folder + "/loop-a", withDestinationPath: "loop-b")
            try FileManager.default.createSymbolicLink(atPath: folder + "/loop-b", withDestinationPath: "loop-a")
            let before = names(folder), store = cli.snapshot()
            for (name, words) in [("dangling", "which does not exist"), ("loop-a", "loops")] {
                let path = folder + "/" + name
                let arguments = command == "export" ? ["export", "--out", path] : ["chart", "water", "--svg", path]
                let result = try cli.run(arguments)
                expectEqual(result.status, 73, "\(result.stderr)")
                #expect(result.stdout.isEmpty)
                #expect(result.stderr.hasPrefix("Error: '\(path)' is a symbolic link") && result.stderr.contains(words),
                        "\(result.stderr)")
                expectEqual(result.stderr.split(separator: "\n").count, 1, "one line: \(result.stderr)")
            }
            expectEqual(names(folder), before)
            #expect(!FileManager.default.fileExists(atPath: folder + "/missing"))
            expectEqual(cli.snapshot(), store)
        }
    }

    func aFolderIsRefused() throws {
        try CLIRunner.withOneWaterSampleAndOutputFolder { cli, folder in
            for arguments in [["export", "--out", folder], ["chart", "water", "--svg", folder]] {
                let result = try cli.run(arguments)
                #expect(result.status == 73 && result.stderr.contains("is a folder"), "\(result.stderr)")
            }
            #expect(names(folder).isEmpty)
        }
    }

    func aFIFOIsWrittenInPlaceAndItsReaderGetsTheExport() throws {
        try CLIRunner.withOneWaterSampleAndOutputFolder { cli, folder in
            let fifo = folder + "/pipe"
            try #require(mkfifo(fifo, 0o600) == 0)
            let received = Received()
            let reader = Thread {
                // A blocking open waits for the writer, then reads until it closes the pipe.
                let fd = open(fifo, O_RDONLY)
                var bytes: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 4096)
                while fd >= 0 {
                    let count = read(fd, &chunk, chunk.count)
                    if count <= 0 { break }
                    bytes += chunk[..<count]
                }
                if fd >= 0 { close(fd) }
                received.text = String(decoding: bytes, as: UTF8.self)
                received.done.signal()
            }
            reader.start()
            // `timeout`: a reader that never came would leave hkctl waiting for one forever.
            let result = try runShell("exec timeout 30 \"$HKCTL\" export --out '\(fifo)' --format csv", cli)
            expectEqual(result.status, 0, "\(result.stderr)")
            expectEqual(received.done.wait(timeout: .now() + 10), .success)
            #expect(received.text.hasPrefix("type,start,end,value,unit"), "\(received.text)")
            expectEqual(mode(fifo).map { $0 & S_IFMT }, S_IFIFO, "still a FIFO")
            expectEqual(names(folder), ["pipe"])
        }
    }

    func aCharacterDeviceStaysADevice() throws {
        try CLIRunner.withOneWaterSampleAndOutputFolder { cli, _ in
            for arguments in [["export", "--out", "/dev/null"], ["chart", "water", "--svg", "/dev/null"]] {
                let result = try cli.run(arguments)
                expectEqual(result.status, 0, "\(result.stderr)")
                expectEqual(mode("/dev/null", follow: false).map { $0 & S_IFMT }, S_IFCHR)
            }
            #expect(!FileManager.default.fileExists(atPath: "/dev/null.hkctl-partial-1"))
        }
    }

    func aReplacedFileKeepsItsModeAndANewFileIsPrivate() throws {
        try CLIRunner.withOneWaterSampleAndOutputFolder { cli, folder in
            let existing = folder + "/shared.csv"
            try "old\n".write(toFile: existing, atomically: false, encoding: .utf8)
            try #require(chmod(existing, 0o644) == 0)
            try expectEqual(cli.run(["export", "--out", existing, "--format", "csv"]).status, 0)
            expectEqual(mode(existing).map { $0 & 0o777 }, 0o644)
            expectEqual(contents(existing)?.hasPrefix("type,"), true)
            for arguments in [["export", "--out", folder + "/new.jsonl"], ["chart", "water", "--svg", folder + "/new.svg"]] {
                try expectEqual(cli.run(arguments).status, 0)
                expectEqual(mode(arguments[arguments.count - 1]).map { $0 & 0o777 }, 0o600, "\(arguments)")
            }
            expectEqual(names(folder), ["new.jsonl", "new.svg", "shared.csv"])
        }
    }

    func aFailedWriteLeavesTheTargetAsItWasAndNoTemporaryFile() throws {
        try CLIRunner.withOneWaterSampleAndOutputFolder { cli, folder in
            // Enough samples that the export outgrows a 4 KiB file-size limit.
            var lines: [String] = []
            for minute in 0..<60 {
                lines.append("{\"uuid\":\"\(UUID().uuidString.lowercased())\",\"type\":\"HKQuantityTypeIdentifierStepCount\","
                    + "\"start\":\"2024-05-01T10:\(minute < 10 ? "0" : "")\(minute):00+00:00\",\"end\":\"2024-05-01T10:"
                    + "\(minute < 10 ? "0" : "")\(minute):30+00:00\",\"value\":\(100 + minute),\"unit\":\"count\",\"source\":\"hkctl\"}")
            }
            let input = folder + "/../steps.jsonl"
            try (lines.joined(separator: "\n") + "\n").write(toFile: input, atomically: false, encoding: .utf8)
            try expectEqual(cli.run(["import", input]).status, 0)
            let target = folder + "/backup.jsonl"
            try "precious\n".write(toFile: target, atomically: false, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: "backup.jsonl")
            for path in [target, folder + "/link"] {
                let result = try runShell("ulimit -f 4; exec \"$HKCTL\" export --out '\(path)'", cli)
                expectEqual(result.status, 74, "\(result.stderr)")
                expectEqual(contents(target), "precious\n")
                expectEqual(names(folder), ["backup.jsonl", "link"], "\(names(folder))")
            }
        }
    }
}

/// What a FIFO's reader thread received.
private final class Received: @unchecked Sendable {
    var text = ""
    let done = DispatchSemaphore(value: 0)
}

/// The checks ``OutputFileTests/checks(_:)`` runs.
private let outputFileTestsChecks: [Check<OutputFileTests>] = [
    Check("aLinkToAFileIsFollowedAndStaysALink", OutputFileTests.aLinkToAFileIsFollowedAndStaysALink),
    Check("aLinkIntoAnotherFolderReplacesTheTargetThere", OutputFileTests.aLinkIntoAnotherFolderReplacesTheTargetThere),
    Check("aFolderIsRefused", OutputFileTests.aFolderIsRefused),
    Check("aFIFOIsWrittenInPlaceAndItsReaderGetsTheExport",
          OutputFileTests.aFIFOIsWrittenInPlaceAndItsReaderGetsTheExport),
    Check("aCharacterDeviceStaysADevice", OutputFileTests.aCharacterDeviceStaysADevice),
    Check("aReplacedFileKeepsItsModeAndANewFileIsPrivate",
          OutputFileTests.aReplacedFileKeepsItsModeAndANewFileIsPrivate),
    Check("aFailedWriteLeavesTheTargetAsItWasAndNoTemporaryFile",
          OutputFileTests.aFailedWriteLeavesTheTargetAsItWasAndNoTemporaryFile),
]
