import Foundation
import Testing
@testable import HealthCore

/// Issue 30, bug 8 of the second HAE round: a dry run of an export's import says how many Health Auto Export samples
/// the import would supersede (delete, or cut to their remainder), exactly as the import then does, whichever path
/// its records take (straight from the export's bytes into a file store, through a `HealthStore`, or held for their
/// sync identifiers), and writes nothing.
struct HAEDryRunSupersedeTests {
    private typealias Support = ImportTestSupport

    /// HAE's day totals of steps: 10 May 4,500 and 11 May 3,000 (UTC days).
    private static let haeDays = """
        {"data":{"metrics":[{"name":"step_count","units":"count","data":[
          {"date":"2024-05-10 00:00:00 +0000","qty":4500,"source":"Jane’s iPhone"},
          {"date":"2024-05-11 00:00:00 +0000","qty":3000,"source":"Jane’s iPhone"}]}]}}
        """

    private static func steps(_ value: String, _ start: String, _ end: String, source: String = "Jane’s iPhone",
                              metadata: [(String, String)] = []) -> String {
        Support.record(value: value, source: source, start: start, end: end, metadata: metadata)
    }

    /// Exports and the number of HAE days each supersedes.
    static let cases: [(name: String, body: String, superseded: Int)] = [
        // The morning of the 10th (the day kept as its remainder), the 11th and a sample on the 12th (the 11th covered).
        ("remainder and covered", [
            steps("2000", "2024-05-10 08:00:00 +0000", "2024-05-10 09:00:00 +0000"),
            steps("1000", "2024-05-11 12:00:00 +0000", "2024-05-11 13:00:00 +0000"),
            steps("100", "2024-05-12 08:00:00 +0000", "2024-05-12 08:10:00 +0000"),
        ].joined(separator: "\n"), 2),
        // Held for its sync identifier: the same morning.
        ("with a sync identifier", steps("2000", "2024-05-10 08:00:00 +0000", "2024-05-10 09:00:00 +0000",
                                          metadata: [("HKMetadataKeySyncIdentifier", "walk"), ("HKMetadataKeySyncVersion", "1")]), 1),
        // Another app's entry never stands for the phone's total.
        ("another source", steps("2000", "2024-05-10 08:00:00 +0000", "2024-05-10 09:00:00 +0000", source: "Pedometer++"), 0),
        // Long before the HAE days: nothing.
        ("far earlier", steps("2000", "2023-01-10 08:00:00 +0000", "2023-01-10 09:00:00 +0000"), 0),
    ]

    private static func storeHAE(_ store: JSONFileStore) throws {
        let payload = try HealthAutoExportPayload(bytes: Array(haeDays.utf8), name: "days.json")
        _ = try HealthImporter(store: store, timeZone: .gmt).importHealthAutoExport(payload, receivedThrough: nil)
    }

    private static func files(_ folder: String) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder) {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder), !isFolder.boolValue {
                result[path] = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + path))
            }
        }
        return result
    }

    @Test(arguments: 0..<cases.count, [false, true])
    func aDryRunCountsWhatTheImportSupersedes(_ index: Int, throughHealthStore: Bool) throws {
        let example = Self.cases[index]
        try Support.withTemporaryDirectory { folder in
            let file = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            try Self.storeHAE(file)
            let store: SampleStore = throughHealthStore ? try HealthStore(storage: file, source: "hkctl") : file
            let before = try Self.files(folder + "/store")
            let dry = try Support.importXML(Support.export(example.body), into: store, dryRun: true)
            #expect(try Self.files(folder + "/store") == before, "a dry run writes nothing")
            let real = try Support.importXML(Support.export(example.body), into: store)
            #expect(real.supersededHealthAutoExport == example.superseded, "\(example.name)")
            #expect(dry.supersededHealthAutoExport == real.supersededHealthAutoExport, "\(example.name)")
        }
    }

    @Test func aDryRunIntoAStoreWithoutHAESamplesCountsNone() throws {
        try Support.withTemporaryDirectory { folder in
            let file = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            try file.save([])
            #expect(try file.healthAutoExportWindows().isEmpty)
            let dry = try Support.importXML(Support.export(Self.cases[0].body), into: file, dryRun: true)
            #expect(dry.supersededHealthAutoExport == 0 && dry.counts.values.reduce(0) { $0 + $1.added } == 3)
        }
    }
}
