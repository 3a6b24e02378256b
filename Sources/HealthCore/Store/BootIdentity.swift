#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TextSupport

/// Which boot of the machine this process runs in: a value the kernel makes anew at every start, so that a change
/// counter written without a sync can be told from one a crash of the machine may have lost (``ChangeCounter``).
enum BootIdentity {
    /// This boot's identity, read once per process; nil when the system does not tell it (every write then syncs
    /// its counter, as before reservations).
    static let current: String? = read()

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
