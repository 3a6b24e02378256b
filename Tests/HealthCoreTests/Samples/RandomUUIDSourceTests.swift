import Foundation
import Testing
import TestKit
@testable import HealthCore

/// ``RandomUUIDSource`` hands out version-4 UUIDs, each once, a growing pool per call into the kernel.
@Suite(.serialized) struct RandomUUIDSourceTests {  // two tests read the fork generation
    @Test func givesDistinctVersionFourUUIDsFromFewCalls() {
        let source = RandomUUIDSource()
        var seen = Set<UUID>()
        let count = 40_000
        for _ in 0..<count {
            let uuid = source.next()
            #expect(uuid.uuid.6 >> 4 == 4 && uuid.uuid.8 >> 6 == 2)
            seen.insert(uuid)
        }
        expectEqual(seen.count, count)
        // 256 bytes, doubling to 16 KiB: 16 + 32 + … + 512 = 1,008 UUIDs in 6 calls, then 1,024 a call.
        let expected = 6 + (count - 1_008 + 1_023) / 1_024
        expectEqual(source.refills, expected)
        // A small push takes one call of 256 bytes.
        let small = RandomUUIDSource()
        for _ in 0..<16 { _ = small.next() }
        expectEqual(small.refills, 1)
    }

    /// After a fork the child draws a fresh pool before its next UUID, so it never hands out what the parent will.
    @Test func aForkDrawsAFreshPool() {
        let source = RandomUUIDSource()
        _ = source.next()
        _ = source.next()
        expectEqual(source.refills, 1)
        RandomUUIDSource.forkGeneration &+= 1
        _ = source.next()
        expectEqual(source.refills, 2)
        _ = source.next()
        expectEqual(source.refills, 2)
    }

    #if os(Linux)
    /// The fork handler is registered with the first source and bumps the generation in the child only.
    @Test func theChildOfAForkSeesANewGeneration() {
        _ = RandomUUIDSource().next()
        let before = RandomUUIDSource.forkGeneration
        let child = fork()
        if child == 0 { _exit(RandomUUIDSource.forkGeneration == before &+ 1 ? 0 : 1) }
        #expect(child > 0)
        var status: Int32 = 0
        expectEqual(waitpid(child, &status, 0), child)
        expectEqual(status, 0)  // exited with 0: the child saw the next generation
        expectEqual(RandomUUIDSource.forkGeneration, before)
    }
    #endif
}
