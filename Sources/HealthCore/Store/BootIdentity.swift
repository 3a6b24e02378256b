#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if os(Linux)
internal import CStatx
#endif
import TextSupport

/// Which boot of the machine this process runs in, and which mount of the storage a store lies on: values the
/// kernel makes anew at every start and at every mount, so that a change counter written without a sync can be told
/// from one that a crash of the machine, or storage unmounted (or pulled out) before its writes were synced, may
/// have lost (``ChangeCounter``).
enum BootIdentity {
    /// This boot's identity, read once per process; nil when the system does not tell it.
    static let current: String? = read()

    /// The identity a writer of the store in `folder` reserves change numbers under: this boot and the mount the
    /// folder lies on (``combined(boot:mount:)``), read at each call, so a long-running process sees a remount. Nil
    /// when the system tells either not (no boot id, a kernel before Linux 6.8, macOS, a folder not yet made): every
    /// write then syncs its counter, as before reservations.
    static func current(forStoreIn folder: String) -> String? {
        guard let boot = current, let mount = uniqueMountID(of: folder) else { return nil }
        return combined(boot: boot, mount: mount)
    }

    /// `<boot>-m<mount id in hexadecimal>`: at most 36 + 2 + 16 characters for Linux's boot ids, within
    /// ``ChangeCounter/longestBoot``, and of the characters an older hkctl reads as a boot (which then takes the
    /// reservation as another boot's, the safe reading).
    static func combined(boot: String, mount: UInt64) -> String { boot + "-m" + String(mount, radix: 16) }

    /// The kernel's unique id of the mount `path` lies on (`statx` with `STATX_MNT_ID_UNIQUE`, Linux 6.8 and
    /// later): never given to another mount while the machine runs, unlike the reusable ids of
    /// `/proc/self/mountinfo`. Nil where the kernel or system does not tell it.
    static func uniqueMountID(of path: String) -> UInt64? {
#if os(Linux)
        let id = hkctl_unique_mount_id(path)
        return id == 0 ? nil : id
#else
        return nil
#endif
    }

    private static func read() -> String? {
#if os(Linux)
        // A random UUID the kernel makes at each boot.
        guard let bytes = try? POSIXFile.readFile("/proc/sys/kernel/random/boot_id", limit: 128, followLinks: true) else {
            return nil
        }
        let text = String(decoding: bytes, as: UTF8.self).trimmingSpacesAndNewlines()
#elseif canImport(Darwin)
        // The boot session's UUID (untested: hkctl is built and tested on Linux only).
        var size = 0
        guard sysctlbyname("kern.bootsessionuuid", nil, &size, nil, 0) == 0, size > 1, size <= 128 else { return nil }
        var buffer = [CChar](repeating: 0, count: size)
        guard sysctlbyname("kern.bootsessionuuid", &buffer, &size, nil, 0) == 0 else { return nil }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
#else
        let text = ""
#endif
        return ChangeCounter.isBoot(Array(text.utf8)[...]) ? text : nil
    }
}
