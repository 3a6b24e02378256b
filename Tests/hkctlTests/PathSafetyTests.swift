#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TestKit

private let waterFolder = "samples/HKQuantityTypeIdentifierDietaryWater"

/// `--store` pointing somewhere unsafe, and links inside the store: hkctl refuses, and never writes through a link.
struct PathSafetyTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: pathSafetyTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    func aSymbolicLinkLoopIsRefused() throws {
        try CLIRunner.withTemporaryStore { cli in
            let loop = (cli.storePath as NSString).deletingLastPathComponent + "/loop"
            try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: "loop")
            for arguments in [["add", "water", "1L"], ["list", "water"]] {
                let result = try cli.run(arguments + ["--store", loop])
                expectEqual(result.status, 77, "\(result.stderr)")
                #expect(result.stderr.contains("loop of symbolic links"), "\(result.stderr)")
            }
        }
    }

    func aWorldWritableStoreIsRefused() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "water", "1L"]).status, 0)
            chmod(cli.storePath, 0o777)
            let before = cli.snapshot()
            for arguments in [["add", "water", "2L"], ["list", "water"], ["doctor", "--repair"]] {
                let result = try cli.run(arguments)
                expectEqual(result.status, 77, "\(result.stderr)")
                #expect(result.stderr.contains("anyone can write to it"), "\(result.stderr)")
                #expect(result.stderr.contains("chmod 700"), "\(result.stderr)")
            }
            expectEqual(cli.snapshot(), before)
        }
    }

    @Test(.enabled(if: geteuid() == 0, "changing a folder's owner needs root"))
    func aStoreOwnedByAnotherUserIsRefused() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "water", "1L"]).status, 0)
            expectEqual(chown(cli.storePath, 65534, 65534), 0)
            let before = cli.snapshot()
            for arguments in [["add", "water", "2L"], ["list", "water"], ["export"]] {
                let result = try cli.run(arguments)
                expectEqual(result.status, 77, "\(result.stderr)")
                #expect(result.stderr.contains("belongs to user id 65534"), "\(result.stderr)")
            }
            expectEqual(cli.snapshot(), before)
        }
    }

    func aPartitionLinkedOutOfTheStoreIsNeverWrittenThrough() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "water", "1L", "--at", "08:00"]).status, 0)
            let outside = (cli.storePath as NSString).deletingLastPathComponent + "/outside.jsonl"
            let partition = cli.storePath + "/" + waterFolder + "/2024-06.jsonl"
            try FileManager.default.moveItem(atPath: partition, toPath: outside)
            try FileManager.default.createSymbolicLink(atPath: partition, withDestinationPath: outside)
            let outsideBefore = try Data(contentsOf: URL(fileURLWithPath: outside))
            let result = try cli.run(["add", "water", "2L", "--at", "09:00"])
            expectEqual(result.status, 77, "\(result.stderr)")
            #expect(result.stderr.contains("symbolic link"), "\(result.stderr)")
            try expectEqual(Data(contentsOf: URL(fileURLWithPath: outside)), outsideBefore)
        }
    }

    func aTypeFolderLinkedOutOfTheStoreIsNeverWrittenThrough() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "steps", "10", "--at", "08:00"]).status, 0)
            let outside = (cli.storePath as NSString).deletingLastPathComponent + "/outside"
            try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: false)
            try FileManager.default.createSymbolicLink(atPath: cli.storePath + "/" + waterFolder, withDestinationPath: outside)
            let result = try cli.run(["add", "water", "2L", "--at", "09:00"])
            expectEqual(result.status, 77, "\(result.stderr)")
            #expect(result.stderr.contains(waterFolder), "\(result.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
        }
    }

    func aBusyStoreNamesTheProcessHoldingTheLock() throws {
        try CLIRunner.withTemporaryStore { cli in
            try expectEqual(cli.run(["add", "water", "1L"]).status, 0)
            let lock = try ExclusiveLock(path: cli.storePath + "/.lock")
            let result = try withExtendedLifetime(lock) {
                try cli.run(["add", "water", "2L"], environment: ["HKCTL_LOCK_TIMEOUT": "0.2"])
            }
            expectEqual(result.status, 75)
            #expect(result.stderr.contains("process \(getpid()) held its lock"), "\(result.stderr)")
        }
    }
}

/// The checks ``PathSafetyTests/checks(_:)`` runs.
private let pathSafetyTestsChecks: [Check<PathSafetyTests>] = [
    Check("aSymbolicLinkLoopIsRefused", PathSafetyTests.aSymbolicLinkLoopIsRefused),
    Check("aWorldWritableStoreIsRefused", PathSafetyTests.aWorldWritableStoreIsRefused),
    Check("aPartitionLinkedOutOfTheStoreIsNeverWrittenThrough",
          PathSafetyTests.aPartitionLinkedOutOfTheStoreIsNeverWrittenThrough),
    Check("aTypeFolderLinkedOutOfTheStoreIsNeverWrittenThrough",
          PathSafetyTests.aTypeFolderLinkedOutOfTheStoreIsNeverWrittenThrough),
    Check("aBusyStoreNamesTheProcessHoldingTheLock", PathSafetyTests.aBusyStoreNamesTheProcessHoldingTheLock),
]
