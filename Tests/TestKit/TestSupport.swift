import Foundation
import HealthCore

/// Builders and folders every test target shares; each target extends it with its own.
public enum TestSupport {
    /// 2024-06-01T12:00:00Z, a Saturday.
    public static let referenceNow = IndependentTestKit.referenceNow

    public static func date(_ iso: String) -> Date {
        guard let date = ISODate.parse(iso) else { fatalError("bad test date \(iso)") }
        return date
    }

    public static func quantitySample(_ type: SampleType, _ value: Double, _ unit: String, start: String, end: String? = nil,
                                      source: String = "hkctl") -> Sample {
        Sample(typeIdentifier: type.identifier, start: date(start), end: date(end ?? start),
               value: .quantity(Quantity(value, try! HealthUnit(parsing: unit))), source: source, created: date(start))
    }

    /// A sleep analysis sample of category value `raw` (0 in bed, 2 awake, 3 core, 4 deep, 5 REM).
    public static func sleepSample(_ raw: Int, start: String, end: String, source: String = "hkctl") -> Sample {
        Sample(typeIdentifier: "HKCategoryTypeIdentifierSleepAnalysis", start: date(start), end: date(end),
               value: .category(raw), source: source, created: date(start))
    }

    /// A fresh temporary folder, removed after `body`.
    public static func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
        let path = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }

    /// ``withTemporaryDirectory(_:)`` for an `async` body.
    public static func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
        let path = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try await body(path)
    }

    /// The folder the tests make their temporary folders and stores in, ending in `/`: `/dev/shm` where it is a
    /// folder this user can write to, that lets programs run from it, with 1 GiB free (Linux: a file system in
    /// memory; a container's is often `noexec` and 64 MiB), else the system's temporary folder.
    ///
    /// A store there behaves as on a disk but that its `fsync`s return at once: on this 2-core machine the suite
    /// waited on the disk for about a tenth of its run (BENCHMARKS.md, "Session 26"). The tests that need a
    /// particular file system (a full disk, a missing mount) make it themselves.
    public static let scratchRoot: String = {
        var isFolder: ObjCBool = false
        var space = statvfs()
        let noExec: UInt = 8  // ST_NOEXEC of Linux's <sys/statvfs.h>, which Swift does not import
        if FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isFolder), isFolder.boolValue,
           access("/dev/shm", W_OK | X_OK) == 0, statvfs("/dev/shm", &space) == 0,
           UInt(space.f_flag) & noExec == 0, UInt64(space.f_bavail) * UInt64(space.f_frsize) >= 1 << 30 {
            return "/dev/shm/"
        }
        let system = NSTemporaryDirectory()
        return system.hasSuffix("/") ? system : system + "/"
    }()

    /// `text` with each folder of ``withTemporaryDirectory(_:)`` in it (`<scratch root>hkctl-test-<UUID>`) written
    /// `/T`, so that messages naming a store compare equal from run to run.
    public static func maskingTemporaryFolders(_ text: String) -> String {
        let prefix = scratchRoot + "hkctl-test-"
        var result = ""
        var rest = Substring(text)
        while let found = rest.range(of: prefix) {
            result += rest[..<found.lowerBound] + "/T"
            rest = rest[found.upperBound...].drop { $0.isHexDigit || $0 == "-" }
        }
        return result + rest
    }

    private static func makeTemporaryDirectory() throws -> String {
        let path = scratchRoot + "hkctl-test-" + UUID().uuidString
        // 0700 whatever the umask: a test may use the folder as a store, and hkctl refuses one others can write to.
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        return path
    }
}
