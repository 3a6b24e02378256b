import Foundation
import Testing
import TestKit
@testable import HealthCore

/// A new store is not made on the bare folder of a disk that is not mounted (``MountTable``): its samples would be
/// hidden once the disk is back.
struct MountTableTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: mountTableTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// `/etc/fstab` of a machine with a removable disk at /media/backup (noauto), a data disk at /srv/data, swap, and
    /// a path with a space.
    static let fstab = """
        # <file system> <mount point> <type> <options> <dump> <pass>
        UUID=0a1b  /               ext4  errors=remount-ro 0 1
        UUID=2c3d  /srv/data       ext4  defaults          0 2
        UUID=4e5f  /srv/data/archive ext4 noauto,nofail    0 2
        LABEL=backup /media/backup/ exfat noauto,user,uid=1000 0 0
        UUID=6a7b  none            swap  sw                0 0
        \t
        //nas/share /home/jane/My\\040NAS cifs noauto 0 0
        """

    /// `/proc/self/mountinfo` with `/` and `/srv/data` mounted.
    static let mounted = """
        22 27 0:21 / /proc rw,relatime - proc proc rw
        27 1 8:1 / / rw,relatime - ext4 /dev/sda1 rw
        31 27 8:17 / /srv/data rw,relatime - ext4 /dev/sdb1 rw
        """

    func aStoreUnderAnUnmountedDiskNamesItsMountPoint() {
        expectEqual(MountTable.unmountedMountPoint(holding: "/media/backup/health", fstab: Self.fstab, mountInfo: Self.mounted), "/media/backup")
        expectEqual(MountTable.unmountedMountPoint(holding: "/media/backup", fstab: Self.fstab, mountInfo: Self.mounted), "/media/backup", "the bare mount point itself")
        expectEqual(MountTable.unmountedMountPoint(holding: "/media/backup/a/b/c", fstab: Self.fstab, mountInfo: Self.mounted), "/media/backup")
    }

    func theDeepestMountPointDecides() {
        expectEqual(MountTable.unmountedMountPoint(holding: "/srv/data/archive/hk", fstab: Self.fstab, mountInfo: Self.mounted), "/srv/data/archive", "a disk inside a mounted one")
        expectNil(MountTable.unmountedMountPoint(holding: "/srv/data/hk", fstab: Self.fstab, mountInfo: Self.mounted),
                  "under a mounted disk")
        let archiveMounted = Self.mounted + "\n40 31 8:33 / /srv/data/archive rw - ext4 /dev/sdc1 rw\n"
        expectNil(MountTable.unmountedMountPoint(holding: "/srv/data/archive/hk", fstab: Self.fstab,
                                                 mountInfo: archiveMounted))
    }

    func pathsOutsideEveryNamedMountPointAreFine() {
        for path in ["/home/jane/.local/share/hkctl", "/media/backups/hk", "/srv/database", "/tmp/hk"] {
            expectNil(MountTable.unmountedMountPoint(holding: path, fstab: Self.fstab, mountInfo: Self.mounted), "\(path)")
        }
        expectNil(MountTable.unmountedMountPoint(holding: "/media/backup/hk", fstab: "", mountInfo: Self.mounted),
                  "no fstab, no mount points to miss")
    }

    func escapedSpacesInBothTablesAreDecoded() {
        expectEqual(MountTable.unmountedMountPoint(holding: "/home/jane/My NAS/hk", fstab: Self.fstab, mountInfo: Self.mounted), "/home/jane/My NAS")
        let nasMounted = Self.mounted + "\n41 27 0:50 / /home/jane/My\\040NAS rw - cifs //nas/share rw\n"
        expectNil(MountTable.unmountedMountPoint(holding: "/home/jane/My NAS/hk", fstab: Self.fstab, mountInfo: nasMounted))
        expectEqual(MountTable.unescaped("a\\134b\\011c\\04"), "a\\b\tc\\04", "a backslash, a tab, and a cut-off escape kept")
    }

    func theResolvedPathFollowsLinksOfTheExistingPartOnly() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let pointer = try #require(realpath(folder, nil))
            let real = String(cString: pointer)
            free(pointer)
            try FileManager.default.createDirectory(atPath: folder + "/disk", withIntermediateDirectories: false)
            try FileManager.default.createSymbolicLink(atPath: folder + "/link", withDestinationPath: folder + "/disk")
            expectEqual(MountTable.resolvedPath(folder + "/link/new/store"), real + "/disk/new/store")
            expectEqual(MountTable.resolvedPath(folder + "/link/./a/../b/"), real + "/disk/b")
            expectEqual(MountTable.resolvedPath(folder + "/disk"), real + "/disk")
        }
    }

    /// A store on this machine's tables: a folder under no mount point of `/etc/fstab` is created as before.
    func anOrdinaryNewStoreIsStillCreated() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/a/b/store")
            let start = Date(timeIntervalSince1970: 1_700_000_000)
            try store.save([Sample(typeIdentifier: SampleType.water.identifier, start: start, end: start,
                                   value: .quantity(Quantity(500, try HealthUnit(parsing: "mL"))), source: "hkctl", created: start)])
            #expect(FileManager.default.fileExists(atPath: folder + "/a/b/store/hkctl-store.json"))
        }
    }
}

/// The store's own refusals, with the tables given (no namespace or root needed): a write and a token look-up on a
/// store whose disk is missing.
struct MissingDiskStoreTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: missingDiskStoreTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    /// A store at `folder/disk/health` with `/etc/fstab` naming `folder/disk` (spelled `fstabPoint`), mounted or not.
    private func store(in folder: String, fstabPoint: String? = nil, mounted: Bool) throws -> (JSONFileStore, disk: String) {
        let pointer = try #require(realpath(folder, nil))
        let real = String(cString: pointer)
        free(pointer)
        let disk = real + "/disk"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        let store = JSONFileStore(path: folder + "/disk/health")
        let mountInfo = "27 1 8:1 / / rw - ext4 /dev/sda1 rw\n" + (mounted ? "40 27 8:33 / \(disk) rw - ext4 /dev/sdc1 rw\n" : "")
        store.mountTablesForTests.withLock {
            $0 = MountTable.Tables(fstab: "UUID=1 / ext4 defaults 0 1\r\nLABEL=b \(fstabPoint ?? disk) ext4 noauto 0 0\r\n",
                                   mountInfo: mountInfo)
        }
        return (store, disk)
    }

    private func water(_ start: Date) -> Sample {
        Sample(typeIdentifier: SampleType.water.identifier, start: start, end: start,
               value: .quantity(Quantity(250, try! HealthUnit(parsing: "mL"))), source: "hkctl", created: start)
    }

    func aSaveOnTheMissingDiskIsRefusedAndMakesNothing() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let (store, disk) = try store(in: folder, mounted: false)
            #expect(throws: StoreError.notMounted(store.path, mountPoint: disk)) {
                try store.save([water(Date(timeIntervalSince1970: 1_700_000_000))])
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: disk).isEmpty)
            // Without a store its tokens are on the missing disk: the look-up says so rather than "no such token".
            #expect(throws: StoreError.notMounted(store.path, mountPoint: disk)) { try store.source(forPushToken: "abc") }
        }
    }

    func theMountedDiskTakesTheStore() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let (store, disk) = try store(in: folder, mounted: true)
            try store.save([water(Date(timeIntervalSince1970: 1_700_000_000))])
            #expect(FileManager.default.fileExists(atPath: disk + "/health/hkctl-store.json"))
            try expectNil(store.source(forPushToken: "abc"))
        }
    }

    /// `/etc/fstab` may name the mount point through a symbolic link (`/media` linking to `run/media`): it is matched as
    /// the kernel lists it, with the link resolved.
    func aMountPointNamedThroughALinkIsMatched() throws {
        try TestSupport.withTemporaryDirectory { folder in
            try FileManager.default.createSymbolicLink(atPath: folder + "/media", withDestinationPath: folder)
            let (store, disk) = try store(in: folder, fstabPoint: folder + "/media/disk", mounted: false)
            #expect(throws: StoreError.notMounted(store.path, mountPoint: disk)) {
                try store.save([water(Date(timeIntervalSince1970: 1_700_000_000))])
            }
        }
    }

    func theMessageSaysWhatToDo() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let pointer = try #require(realpath(folder, nil))
            let real = String(cString: pointer)
            free(pointer)
            let inside = StoreError.notMounted(real + "/health", mountPoint: real).description
            #expect(inside.contains("mount it and try again") && inside.contains("mkdir -p -m 700 \(real)/health"), "\(inside)")
            // The bare mount point itself: making the folder would change nothing.
            let bare = StoreError.notMounted(real, mountPoint: real).description
            #expect(bare.contains("open a store in a folder inside it") && !bare.contains("mkdir"), "\(bare)")
        }
    }
}

/// The checks ``MountTableTests/checks(_:)`` runs.
private let mountTableTestsChecks: [Check<MountTableTests>] = [
    Check("aStoreUnderAnUnmountedDiskNamesItsMountPoint", MountTableTests.aStoreUnderAnUnmountedDiskNamesItsMountPoint),
    Check("theDeepestMountPointDecides", MountTableTests.theDeepestMountPointDecides),
    Check("pathsOutsideEveryNamedMountPointAreFine", MountTableTests.pathsOutsideEveryNamedMountPointAreFine),
    Check("escapedSpacesInBothTablesAreDecoded", MountTableTests.escapedSpacesInBothTablesAreDecoded),
    Check("theResolvedPathFollowsLinksOfTheExistingPartOnly",
          MountTableTests.theResolvedPathFollowsLinksOfTheExistingPartOnly),
    Check("anOrdinaryNewStoreIsStillCreated", MountTableTests.anOrdinaryNewStoreIsStillCreated),
]

/// The checks ``MissingDiskStoreTests/checks(_:)`` runs.
private let missingDiskStoreTestsChecks: [Check<MissingDiskStoreTests>] = [
    Check("aSaveOnTheMissingDiskIsRefusedAndMakesNothing",
          MissingDiskStoreTests.aSaveOnTheMissingDiskIsRefusedAndMakesNothing),
    Check("theMountedDiskTakesTheStore", MissingDiskStoreTests.theMountedDiskTakesTheStore),
    Check("aMountPointNamedThroughALinkIsMatched", MissingDiskStoreTests.aMountPointNamedThroughALinkIsMatched),
    Check("theMessageSaysWhatToDo", MissingDiskStoreTests.theMessageSaysWhatToDo),
]
