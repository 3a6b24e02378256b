import Foundation
import Testing
@testable import HealthCore

/// Builders and fixtures shared by the HealthCore tests.
enum TestSupport {
    /// 2024-06-01T12:00:00Z, a Saturday.
    static let referenceNow = Date(timeIntervalSince1970: 1_717_243_200)

    static func date(_ iso: String) -> Date {
        guard let date = ISODate.parse(iso) else { fatalError("bad test date \(iso)") }
        return date
    }

    static func quantitySample(_ type: SampleType, _ value: Double, _ unit: String, start: String, end: String? = nil,
                               source: String = "hkctl") -> Sample {
        Sample(typeIdentifier: type.identifier, start: date(start), end: date(end ?? start),
               value: .quantity(Quantity(value, try! HealthUnit(parsing: unit))), source: source, created: date(start))
    }

    static func sleepSample(_ raw: Int, start: String, end: String, source: String = "hkctl") -> Sample {
        Sample(typeIdentifier: "HKCategoryTypeIdentifierSleepAnalysis", start: date(start), end: date(end),
               value: .category(raw), source: source, created: date(start))
    }

    /// A fresh temporary folder, removed after `body`.
    static func withTemporaryDirectory<T>(_ body: (String) throws -> T) throws -> T {
        let path = NSTemporaryDirectory() + "hkctl-test-" + UUID().uuidString
        // 0700 whatever the umask: a test may use the folder as a store, and hkctl refuses one others can write to.
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try body(path)
    }

    /// A store in a fresh temporary folder holding one water sample (250 mL on 2024-06-01, "now" 2024-06-02), with
    /// its path: for tests of who may open the store and what lies inside it.
    static func withOneWaterSampleStore(_ body: (JSONFileStore, String) throws -> Void) throws {
        try withTemporaryDirectory { folder in
            let path = folder + "/store"
            let day = IndependentTestKit.utc(2024, 6, 1)
            let store = JSONFileStore(path: path, timeZone: .gmt, lockTimeout: 2, clock: { IndependentTestKit.utc(2024, 6, 2) })
            try store.save([Sample(typeIdentifier: SampleType.water.identifier, start: day, end: day,
                                   value: .quantity(Quantity(250, try HealthUnit(parsing: "mL"))), source: "hkctl", created: day)])
            try body(store, path)
        }
    }

    /// ``withTemporaryDirectory(_:)`` for an `async` body.
    static func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
        let path = NSTemporaryDirectory() + "hkctl-test-" + UUID().uuidString
        // 0700 whatever the umask: a test may use the folder as a store, and hkctl refuses one others can write to.
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try await body(path)
    }

    /// A catalogue example (`500mL`, `21.5%`, `8000`) as a quantity: the number, then a HealthKit unit string (none
    /// for a count type; `%` a percentage, stored as a fraction; `bpm`, count/min). The catalogue's examples use no
    /// other form.
    static func quantity(example: String, for type: SampleType) throws -> Quantity {
        let number = example.prefix { $0.isNumber || $0 == "." || $0 == "-" || $0 == "+" }
        let value = try #require(Double(String(number)), "example \(example)")
        let unitText = example.dropFirst(number.count).trimmingCharacters(in: .whitespaces)
        if unitText.isEmpty { return Quantity(value, try #require(type.canonicalUnit)) }
        if unitText == "%" { return Quantity(value / 100, .percent()) }
        return Quantity(value, try HealthUnit(parsing: unitText == "bpm" ? "count/min" : unitText))
    }

    /// Every file under `folder` with its bytes, to show that something changed nothing.
    static func walkFiles(_ folder: String) -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for entry in IndependentTestKit.walk(folder) where !entry.isFolder { files[entry.path] = IndependentTestKit.bytes(entry.path) }
        return files
    }
}

extension ObjectType {
    static let water = try! SampleTypeCatalogue.standard.type(named: "water")
    static let steps = try! SampleTypeCatalogue.standard.type(named: "steps")
    static let weight = try! SampleTypeCatalogue.standard.type(named: "weight")
    static let sleep = try! SampleTypeCatalogue.standard.type(named: "sleep")
}
