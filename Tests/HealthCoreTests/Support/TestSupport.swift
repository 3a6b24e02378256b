import Foundation
import Testing
@testable import HealthCore
@_exported import TestKit

/// The HealthCore tests' own builders, beside the shared ones (TestKit).
extension TestSupport {
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
