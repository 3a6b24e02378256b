import Foundation
import Testing
@testable import HealthCore
import TestKit

/// Issue 30, bug 8 of the second HAE round: a dry run of an export's import says how many Health Auto Export samples
/// the import would supersede (delete, or cut to their remainder), exactly as the import then does, whichever path
/// its records take (straight from the export's bytes into a file store, through a `HealthStore`, or held for their
/// sync identifiers), and writes nothing.
struct HAEDryRunSupersedeTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: hAEDryRunSupersedeTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

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
        // The morning of the 10th, then a week of the phone's and the Watch's samples after (the 10th covered: the
        // samples go on past it; the 11th has none of its own): the dry run keeps one per source of those, and counts
        // the same.
        ("a week after", ([steps("2000", "2024-05-10 08:00:00 +0000", "2024-05-10 09:00:00 +0000")]
            + (0..<42).map { index in
                // Every four hours from 12 May to 18 May.
                let at = "2024-05-\(12 + index / 6) " + String(format: "%02d", index % 6 * 4)
                return steps("50", at + ":00:00 +0000", at + ":10:00 +0000", source: index % 2 == 0 ? "Jane’s iPhone" : "Jane’s Apple Watch")
            }).joined(separator: "\n"), 1),
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
            try expectEqual(Self.files(folder + "/store"), before, "a dry run writes nothing")
            let real = try Support.importXML(Support.export(example.body), into: store)
            expectEqual(real.supersededHealthAutoExport, example.superseded, "\(example.name)")
            expectEqual(dry.supersededHealthAutoExport, real.supersededHealthAutoExport, "\(example.name)")
        }
    }

    /// After an export's first import, the look for HAE samples it now covers reads none of the files the import
    /// started itself (it read back everything it had just written); a file another instance appended to since (an
    /// HAE push during the import), or one holding a line with HAE's mark, is read as before and its samples are
    /// superseded.
    func theLookForHAESamplesSkipsOnlyFilesTheImportWroteAloneWithoutTheirMark() throws {
        try Support.withTemporaryDirectory { folder in
            let file = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            // Steps late in May and in June, far from HAE's days.
            let later = Support.export(Self.steps("700", "2024-05-25 08:00:00 +0000", "2024-05-25 09:00:00 +0000") + "\n"
                                       + Self.steps("800", "2024-06-02 08:00:00 +0000", "2024-06-02 09:00:00 +0000"))
            let first = try Support.importXML(later, into: file)
            expectEqual(first.counts.values.map(\.added).sum, 2)
            expectEqual(file.readCounts.current.partitionsSearchedForHAE, 0, "the import read back what it wrote")
            // HAE's days arrive through another instance (hkctl serve) into the May file the import started; an
            // export covering them, imported by the first instance, finds and supersedes them.
            try Self.storeHAE(JSONFileStore(path: folder + "/store", timeZone: .gmt))
            expectEqual(try file.healthAutoExportSamples(readingOfType: "HKQuantityTypeIdentifierStepCount").count, 2,
                        "the first instance's look sees what another wrote into its file")
            let covering = try Support.importXML(Support.export(Self.cases[0].body), into: file)
            expectEqual(covering.supersededHealthAutoExport, 2)
            expectEqual(file.readCounts.current.partitionsSearchedForHAE, 2, "the May file, which HAE's days joined (twice)")
            // Written by the same instance, HAE's days mark the file: it is read.
            let other = JSONFileStore(path: folder + "/other", timeZone: .gmt)
            try Self.storeHAE(other)
            let same = try Support.importXML(Support.export(Self.cases[0].body), into: other)
            expectEqual(same.supersededHealthAutoExport, 2)
        }
    }

    func aDryRunIntoAStoreWithoutHAESamplesCountsNone() throws {
        try Support.withTemporaryDirectory { folder in
            let file = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            try file.save([])
            #expect(try file.healthAutoExportSamples(readingOfType: "HKQuantityTypeIdentifierStepCount").isEmpty)
            let dry = try Support.importXML(Support.export(Self.cases[0].body), into: file, dryRun: true)
            #expect(dry.supersededHealthAutoExport == 0 && dry.counts.values.map(\.added).sum == 3)
        }
    }

    /// Session 15's review, F3: a record the identity index first took as present and released later (its twin named
    /// the stored sample it had taken) is added by the import, so the dry run must see it as added too. A twin pair
    /// of exports is imported, one twin deleted, HAE's day arrives, and the same export is dry-run then imported:
    /// whichever twin was deleted, the dry run keeps exactly what the import adds.
    @Test(arguments: [0, 1])
    func aDryRunSeesARecordTheIdentityIndexReleases(_ deleted: Int) throws {
        let twins = Support.export([
            Self.steps("2000", "2024-05-10 08:00:00 +0000", "2024-05-10 09:00:00 +0000"),
            Self.steps("2000", "2024-05-10 08:00:00 +0000", "2024-05-10 09:00:00 +0000"),
        ].joined(separator: "\n"))
        let type = "HKQuantityTypeIdentifierStepCount"
        let days = DateInterval(start: Date(timeIntervalSince1970: 1_715_299_200), duration: 2 * 86_400)  // 10–11 May
        try Support.withTemporaryDirectory { folder in
            let file = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            _ = try Support.importXML(twins, into: file)
            let stored = try file.samples(ofType: type, overlapping: days).sorted { $0.uuid.uuidString < $1.uuid.uuidString }
            try #require(stored.count == 2)
            try file.delete(uuids: [stored[deleted].uuid], now: Date())
            try Self.storeHAE(file)
            let before = Set(try file.samples(ofType: type, overlapping: days).map(\.uuid))

            let dry = try Support.withTemporaryDirectory { input in
                let importer = HealthImporter(store: file, dryRun: true)
                _ = try importer.importFile(atPath: try Support.write(twins, in: input))
                return importer.dryRunHAE?.samples ?? []
            }
            _ = try Support.importXML(twins, into: file)
            // HAE's remainder is weighed again against both twins (``HAEWritePlan/exportHeldKey``): the day stays 4,500.
            let added = try file.samples(ofType: type, overlapping: days)
                .filter { !before.contains($0.uuid) && $0.metadata[HAESampleBuilder.aggregationKey] == nil }
            expectEqual(added.count, 1, "the deleted twin comes back, once")
            expectEqual(dry.map { [$0.start, $0.end] }, added.map { [$0.start, $0.end] })
            let day = try Support.proRataSteps(file, in: DateInterval(start: days.start, duration: 86_400))
            #expect(abs(day - 4500) < 1e-6, "10 May got \(day)")
        }
    }

    /// Session 15's review, F4: a dry run keeps, of the samples it would add, only what coverage can use: every sample
    /// touching an HAE point's period, and of the others one per source between two point ends. It reads the HAE
    /// points of a type only when a sample of that type comes, once.
    func aDryRunKeepsWhatCoverageReadsAndLoadsEachTypeOnce() throws {
        let steps = "HKQuantityTypeIdentifierStepCount"
        let day: TimeInterval = 86_400
        let may10 = Date(timeIntervalSince1970: 1_715_299_200)
        var point: Sample = Sample(typeIdentifier: steps, start: may10, end: may10.addingTimeInterval(day),
                           value: .quantity(Quantity(4500, .count())), source: "Jane’s iPhone", created: may10)
        point.metadata[HAESampleBuilder.aggregationKey] = MetadataValue.string("day")
        var loaded: [String] = []
        var additions = HAEDryRunAdditions { type in
            loaded.append(type)
            return type == steps ? [point] : []
        }
        func minute(_ index: Int, source: String = "Jane’s iPhone", type: String = steps) throws {
            let start = may10.addingTimeInterval(Double(index) * 60 - day)
            let sample = Sample(typeIdentifier: type, start: start, end: start.addingTimeInterval(60),
                                value: .quantity(Quantity(10, .count())), source: source, created: start)
            try additions.note({ sample }, type: type, start: sample.start, end: sample.end)
        }
        // Three days of minutes from the day before the point: of the day before, only the minute that ends as the
        // point's day starts (the window opens there, edges touch); the point's day whole; of the day after, the
        // minute that starts as it ends (touching) and one more of each source (the iPhone's and the Watch's).
        for index in 0..<(3 * 1440) { try minute(index) }
        for index in (2 * 1440)..<(3 * 1440) { try minute(index, source: "Jane’s Apple Watch") }
        for index in 0..<100 { try minute(index, type: "HKQuantityTypeIdentifierDietaryWater") }
        let kept = additions.samples
        expectEqual(kept.count, 1 + 1440 + 2 + 2)
        #expect(kept.allSatisfy { sample in sample.metadata.isEmpty && sample.detail == nil })
        expectEqual(loaded, [steps, "HKQuantityTypeIdentifierDietaryWater"], "each type's HAE points read once, when first met")
        #expect(additions.meetsAnyPoint)
    }
}

/// The checks ``HAEDryRunSupersedeTests/checks(_:)`` runs.
private let hAEDryRunSupersedeTestsChecks: [Check<HAEDryRunSupersedeTests>] = [
    Check("theLookForHAESamplesSkipsOnlyFilesTheImportWroteAloneWithoutTheirMark",
          HAEDryRunSupersedeTests.theLookForHAESamplesSkipsOnlyFilesTheImportWroteAloneWithoutTheirMark),
    Check("aDryRunIntoAStoreWithoutHAESamplesCountsNone",
          HAEDryRunSupersedeTests.aDryRunIntoAStoreWithoutHAESamplesCountsNone),
    Check("aDryRunKeepsWhatCoverageReadsAndLoadsEachTypeOnce",
          HAEDryRunSupersedeTests.aDryRunKeepsWhatCoverageReadsAndLoadsEachTypeOnce),
]
