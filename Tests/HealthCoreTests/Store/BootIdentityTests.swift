import Foundation
import Testing
import TestKit
@testable import HealthCore

/// The identity a writer reserves change numbers under: this boot and the mount of the storage the store lies on, so
/// that storage mounted again after losing unsynced writes is not trusted as the same (``BootIdentity``).
struct BootIdentityTests: ReservedCounterTesting {
    @Test(.enabled(if: KernelVersion.tellsUniqueMountIDs, "needs a kernel that tells unique mount ids (Linux 6.8 or later)"))
    func aStoresIdentityIsThisBootAndTheMountItsFolderLiesOn() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let boot = try #require(BootIdentity.current)
            let mount = try #require(BootIdentity.uniqueMountID(of: folder))
            let identity = try #require(BootIdentity.current(forStoreIn: folder))
            expectEqual(identity, "\(boot)-m\(String(mount, radix: 16))")
            #expect(ChangeCounter.isBoot(Array(identity.utf8)[...]), "the counter file can hold it: \(identity)")
            // Another folder on the same mount has the same identity; /proc, a mount of its own, another.
            try FileManager.default.createDirectory(atPath: folder + "/inner", withIntermediateDirectories: false)
            expectEqual(BootIdentity.current(forStoreIn: folder + "/inner"), identity)
            let proc = try #require(BootIdentity.current(forStoreIn: "/proc"))
            #expect(proc != identity && proc.hasPrefix(boot + "-m"))
            // A folder not yet made tells nothing: its first write syncs.
            expectNil(BootIdentity.current(forStoreIn: folder + "/missing"))
        }
    }

    @Test func theIdentityJoinsBootAndMount() {
        expectEqual(BootIdentity.combined(boot: Self.bootA, mount: 0x1_0000_0fff), Self.bootA + "-m100000fff")
        let longest = BootIdentity.combined(boot: Self.bootA, mount: .max)
        #expect(longest.count == 54 && ChangeCounter.isBoot(Array(longest.utf8)[...]))
    }

    @Test(.enabled(if: KernelVersion.tellsUniqueMountIDs, "needs a kernel that tells unique mount ids (Linux 6.8 or later)"))
    func aStoreReservesUnderItsOwnIdentityAndAnotherMountTakesTheBlocksEnd() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let path = folder + "/store"
            let real = JSONFileStore(path: path, timeZone: .gmt, lockTimeout: 2)
            try real.save([water(1)])
            try real.save([water(2)])
            let identity = try #require(BootIdentity.current(forStoreIn: path))
            let text = String(decoding: IndependentTestKit.bytes(path + "/sequence"), as: UTF8.self)
            expectEqual(text, "00000000000000000002\nreserved 00000000000000001025 boot \(identity)\n")
            expectEqual(real.counterSyncs.current, 1, "one reservation for both saves")
            // The same storage seen through another mount (mounted again, or bind-mounted into a container).
            let boot = try #require(BootIdentity.current)
            let elsewhere = store(path, boot: BootIdentity.combined(boot: boot, mount: 1))
            try expectEqual(elsewhere.currentSequence(), 1025)
            try expectEqual(real.currentSequence(), 2)
        }
    }
}
