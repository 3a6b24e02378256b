import Foundation
@testable import HealthCore

/// Stores and samples shared by the tests of the record of operations and of undo.
enum OperationTestKit {
    private typealias Kit = IndependentTestKit
    static let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
    /// When the recorded operations are made.
    static let madeAt = Kit.utc(2024, 6, 1, 12)
    /// When they are undone.
    static let undoneAt = Kit.utc(2024, 6, 2, 9)

    /// A store in a fresh temporary folder, and its path.
    static func withStore(_ body: (JSONFileStore, String) throws -> Void) throws {
        try TestSupport.withTemporaryDirectory { folder in
            let path = folder + "/store"
            try body(JSONFileStore(path: path, timeZone: .gmt, lockTimeout: 2), path)
        }
    }

    /// Another instance of `store` that records its writes as one operation of `kind` by `source`.
    static func recording(_ store: JSONFileStore, _ kind: OperationRecord.Kind, source: String = "hkctl") -> JSONFileStore {
        JSONFileStore(path: store.path, timeZone: .gmt, lockTimeout: 2,
                      recording: OperationRecording(kind: kind, source: source, date: madeAt))
    }

    /// Water taken on 2024-06-01 at `hour` UTC.
    static func water(_ millilitres: Double, hour: Int, source: String = "hkctl") -> Sample {
        var sample = Kit.quantity(.water, millilitres, "mL", Kit.utc(2024, 6, 1, hour))
        sample.source = source
        return sample
    }

    /// The samples of a type a reader sees.
    static func visible(_ store: JSONFileStore, _ type: SampleType = .water) throws -> [Sample] {
        try store.samples(ofType: type.identifier, overlapping: everything)
    }

    /// The records of `operations.jsonl`.
    static func records(_ path: String) throws -> [OperationRecord] {
        try JSONFileStore(path: path, timeZone: .gmt).operationRecords()
    }

    /// Every file and folder under `root` with its bytes (nil for a folder).
    static func tree(_ root: String) -> [String: [UInt8]?] {
        var result: [String: [UInt8]?] = [:]
        for entry in Kit.walk(root) { result[entry.path] = entry.isFolder ? nil : Kit.bytes(entry.path) }
        return result
    }
}
