import Foundation

/// What the kernel the tests run on can tell, for tests that need it (skipped with a message elsewhere).
public enum KernelVersion {
    /// Whether `statx` gives unique mount ids (`STATX_MNT_ID_UNIQUE`): Linux 6.8 and later.
    public static let tellsUniqueMountIDs: Bool = {
#if os(Linux)
        let version = ProcessInfo.processInfo.operatingSystemVersion
        return (version.majorVersion, version.minorVersion) >= (6, 8)
#else
        return false
#endif
    }()
}
