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

    private static func makeTemporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "hkctl-test-" + UUID().uuidString
        // 0700 whatever the umask: a test may use the folder as a store, and hkctl refuses one others can write to.
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        return path
    }
}
