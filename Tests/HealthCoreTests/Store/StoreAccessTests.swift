#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

/// Who may write a store (issue 29, item 5): a store folder others can write to is refused, and every store file and
/// folder must belong to the store's owner.
struct StoreAccessTests {
    private typealias Kit = IndependentTestKit
    private static let nobody: uid_t = 65534

    private func withStore(_ body: (JSONFileStore, String) throws -> Void) throws {
        try TestSupport.withOneWaterSampleStore(body)
    }

    @Test(arguments: [0o1777, 0o1770, 0o2770, 0o0770, 0o0720, 0o0702, 0o0777, 0o3775] as [mode_t])
    func aStoreFolderOthersCanWriteToIsRefused(mode: mode_t) throws {
        try withStore { store, path in
            expectEqual(chmod(path, mode), 0)
            #expect {
                try store.isExistingStore()
            } throws: { error in
                guard case let StoreError.unsafe(folder, reason) = error else { return false }
                return folder == path && reason.contains("can write to it") && reason.contains("chmod 700")
            }
        }
    }

    @Test(arguments: [0o0700, 0o0750, 0o0755, 0o0711, 0o2750] as [mode_t])
    func aStoreFolderOnlyItsOwnerCanWriteToIsUsed(mode: mode_t) throws {
        try withStore { store, path in
            expectEqual(chmod(path, mode), 0)
            let opened = try store.isExistingStore()
            #expect(opened)
        }
    }

    @Test func aFolderInsideTheStoreOthersCanWriteToIsRefused() throws {
        try withStore { store, path in
            let folder = path + "/samples/HKQuantityTypeIdentifierDietaryWater"
            expectEqual(chmod(folder, 0o1777), 0)
            let fresh = JSONFileStore(path: path, timeZone: .gmt)
            #expect {
                _ = try fresh.tombstones(ofType: SampleType.water.identifier)
            } throws: { error in
                guard case let StoreError.unsafe(named, reason) = error else { return false }
                return named == folder && reason.contains("can write to it")
            }
        }
    }

    @Test(.enabled(if: geteuid() == 0, "giving a file to another user needs root"))
    func aStoreFileOfAnotherUserIsRefusedWhenOpened() throws {
        try withStore { store, path in
            let partition = path + "/samples/HKQuantityTypeIdentifierDietaryWater/2024-06.jsonl"
            expectEqual(chown(partition, Self.nobody, Self.nobody), 0)
            let before = TestSupport.walkFiles(path)
            for flags in [O_RDONLY, O_WRONLY | O_APPEND] {
                #expect(throws: StoreError.foreignOwner(partition, owner: Self.nobody, storeOwner: geteuid())) {
                    _ = try POSIXFile.openRegular(partition, flags: flags)
                }
            }
            #expect(throws: StoreError.foreignOwner(partition, owner: Self.nobody, storeOwner: geteuid())) {
                try store.save([Sample(typeIdentifier: SampleType.water.identifier, start: Kit.utc(2024, 6, 1, 9),
                                       end: Kit.utc(2024, 6, 1, 9), value: .quantity(Quantity(1, try HealthUnit(parsing: "L"))),
                                       source: "hkctl", created: Kit.utc(2024, 6, 1, 9))])
            }
            expectEqual(TestSupport.walkFiles(path), before)
            let message = StoreError.foreignOwner(partition, owner: Self.nobody, storeOwner: 0).description
            #expect(message.contains("belongs to user id 65534") && message.contains("rm ") && message.contains("chown -R 0 "),
                    "\(message)")
        }
    }

    @Test(.enabled(if: geteuid() == 0, "giving a folder to another user needs root"))
    func aFolderOfAnotherUserInsideTheStoreIsRefused() throws {
        try withStore { store, path in
            let folder = path + "/samples/HKQuantityTypeIdentifierDietaryWater"
            expectEqual(chown(folder, Self.nobody, Self.nobody), 0)
            let fresh = JSONFileStore(path: path, timeZone: .gmt)
            #expect(throws: StoreError.foreignOwner(folder, owner: Self.nobody, storeOwner: geteuid())) {
                _ = try fresh.tombstones(ofType: SampleType.water.identifier)
            }
        }
    }
}
