#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import HealthCore

/// Helpers every test target shares (HealthCoreTests, HKCtlSupportTests, hkctlTests): numbers, dates, zones,
/// samples and files.
///
/// Dates are built here with Foundation's own Gregorian calendar rather than with `ISODate`, so fixtures do not
/// depend on the code under test. Built on HealthCore's public API only.
public enum IndependentTestKit {
    // MARK: Numbers

    /// Whether `a` and `b` agree to `relative` (or to `absolute` near zero).
    public static func isClose(_ a: Double, _ b: Double, relative: Double = 1e-12, absolute: Double = 1e-12) -> Bool {
        if a == b { return true }
        return abs(a - b) <= max(absolute, relative * max(abs(a), abs(b)))
    }

    /// SplitMix64: a tiny deterministic generator, so property-style tests are reproducible.
    public struct SeededGenerator: RandomNumberGenerator {
        private var state: UInt64
        public init(seed: UInt64) { state = seed }
        public mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    // MARK: Dates

    /// 2024-06-01T12:00:00Z, a Saturday: the tests' "now".
    public static let referenceNow = Date(timeIntervalSince1970: 1_717_243_200)

    /// A wall-clock time in `zone`, computed by Foundation (not by ISODate).
    public static func date(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0,
                     zone: String = "UTC") -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        return calendar.date(from: components)!
    }

    /// A UTC instant.
    public static func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Date {
        date(year, month, day, hour, minute, second, zone: "UTC")
    }

    /// A zone from the system's tz database (the tests need the tzdata package, as hkctl does).
    public static func zone(_ identifier: String) -> ZoneRules {
        guard let zone = ZoneDatabase.system(environment: [:]).zone(named: identifier) else {
            fatalError("no zone \(identifier) in /usr/share/zoneinfo: install the tzdata package")
        }
        return zone
    }

    // MARK: Samples

    /// A step count sample.

    public static func steps(_ value: Double, _ start: Date, _ end: Date? = nil, source: String = "hkctl") -> Sample {
        Sample(typeIdentifier: "HKQuantityTypeIdentifierStepCount", start: start, end: end ?? start,
               value: .quantity(Quantity(value, .count())), source: source, created: start)
    }

    public static func quantity(_ type: SampleType, _ value: Double, _ unit: String, _ start: Date, _ end: Date? = nil,
                         metadata: [String: MetadataValue] = [:]) -> Sample {
        Sample(typeIdentifier: type.identifier, start: start, end: end ?? start,
               value: .quantity(Quantity(value, try! HealthUnit(parsing: unit))), source: "hkctl", created: start,
               metadata: metadata)
    }

    public static func sleep(_ raw: Int, _ start: Date, _ end: Date, source: String = "hkctl") -> Sample {
        Sample(typeIdentifier: "HKCategoryTypeIdentifierSleepAnalysis", start: start, end: end, value: .category(raw),
               source: source, created: start)
    }

    // MARK: Files

    public static func bytes(_ path: String) -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return Array(data)
    }

    public static func write(_ text: String, to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    public static func append(_ text: String, to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
    }

    /// The permission bits (`0o700`, `0o600`...) of a file or folder.
    public static func mode(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_mode) & 0o777
    }

    public static func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    /// Every file and folder under `root` (relative paths), with whether it is a folder and its permission bits.
    public static func walk(_ root: String) -> [(path: String, isFolder: Bool, mode: Int)] {
        var result: [(path: String, isFolder: Bool, mode: Int)] = []
        for name in contents(of: root) {
            let full = root + "/" + name
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: full, isDirectory: &isFolder)
            result.append((name, isFolder.boolValue, mode(full) ?? -1))
            if isFolder.boolValue {
                result += walk(full).map { (name + "/" + $0.path, $0.isFolder, $0.mode) }
            }
        }
        return result
    }

    public static func contents(of folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }
}
