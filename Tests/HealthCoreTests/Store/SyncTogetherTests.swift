import Foundation
import Testing
import TestKit
@testable import HealthCore
#if canImport(Glibc)
import Glibc
#endif

/// `SyncTogether`: several files synced at once, each on a thread; the caller learns of the first that failed.
struct SyncTogetherTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: syncTogetherTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    static func withFiles<T>(_ count: Int, _ body: ([Int32]) throws -> T) throws -> T {
        let folder = TestSupport.scratchRoot + "hkctl-sync-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let descriptors = (0..<count).map { open(folder + "/f\($0)", O_WRONLY | O_CREAT | O_APPEND, 0o600) }
        defer { for descriptor in descriptors where descriptor >= 0 { close(descriptor) } }
        #expect(descriptors.allSatisfy { $0 >= 0 })
        for descriptor in descriptors { _ = "line\n".withCString { write(descriptor, $0, 5) } }
        return try body(descriptors)
    }

    func everyFileSyncedGivesNoFailure() throws {
        for count in [0, 1, 2, 20] {
            try Self.withFiles(count) { expectNil(SyncTogether.sync($0), "\(count) files") }
        }
    }

    /// A thread that cannot be made (the process at its limits) leaves its file to the calling thread.
    func aThreadThatCannotBeMadeRunsNothingAndSaysSo() {
        final class Flag: @unchecked Sendable { var ran = false }
        let flag = Flag()
        let thread = WorkerThread { flag.ran = true }
        // A stack larger than any address space: pthread_create refuses it.
        thread.stackSize = Int.max / 2
        #expect(!thread.startIfPossible())
        #expect(!flag.ran)
    }

    func theFirstFailureIsNamedWithItsError() throws {
        try Self.withFiles(6) { descriptors in
            // A descriptor that is not open fails with EBADF; the first such one is reported, wherever it is.
            var mixed = descriptors
            mixed[3] = 100_000
            mixed[5] = 100_001
            let failure = SyncTogether.sync(mixed)
            #expect(failure?.index == 3 && failure?.code == EBADF)
            expectEqual(SyncTogether.sync([100_002])?.code, EBADF)
        }
    }
}

/// The checks ``SyncTogetherTests/checks(_:)`` runs.
private let syncTogetherTestsChecks: [Check<SyncTogetherTests>] = [
    Check("everyFileSyncedGivesNoFailure", SyncTogetherTests.everyFileSyncedGivesNoFailure),
    Check("aThreadThatCannotBeMadeRunsNothingAndSaysSo", SyncTogetherTests.aThreadThatCannotBeMadeRunsNothingAndSaysSo),
    Check("theFirstFailureIsNamedWithItsError", SyncTogetherTests.theFirstFailureIsNamedWithItsError),
]
