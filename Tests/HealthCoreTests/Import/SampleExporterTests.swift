import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

extension ImportTests {
    /// `hkctl export` formats, and reading them back.
    struct SampleExporterTests {
        /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
        /// build a tenth of a `@Test` apiece (README.md, "Development").
        @Test(arguments: sampleExporterTestsChecks)
        func checks(_ check: Check<Self>) async throws {
            try await check.run(on: Self())
        }

        private typealias Support = ImportTestSupport

        private func exported(_ store: SampleStore, _ format: ExportFormat, types: [String]? = nil,
                              interval: DateInterval = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)) throws -> String {
            try Support.withTemporaryDirectory { folder in
                let path = folder + "/out"
                _ = try SampleExporter(store: store, timeZone: IndependentTestKit.zone("America/Los_Angeles"))
                    .export(types: types, interval: interval, format: format, exportDate: Date(timeIntervalSince1970: 1_717_243_200),
                            to: FileDestination(path: path))
                return try String(contentsOfFile: path, encoding: .utf8)
            }
        }

        private func sampleStore() throws -> InMemorySampleStore {
            let store = InMemorySampleStore()
            let body = [
                Support.record(value: "120", device: Support.watchDevice, metadata: [("HKTimeZone", "America/Los_Angeles"), ("note", "a, &quot;quoted&quot; note")]),
                Support.record("HKCategoryTypeIdentifierSleepAnalysis", value: "HKCategoryValueSleepAnalysisAsleepREM", unit: nil,
                               start: "2024-05-01 01:00:00 -0700", end: "2024-05-01 02:00:00 -0700"),
                Support.record("HKQuantityTypeIdentifierWalkingStepLength", value: "0.7", unit: "m"),
            ].joined(separator: "\n")
            _ = try Support.importXML(Support.export(body), into: store)
            return store
        }

        func csvHasStableColumnsAndEscapes() throws {
            let lines = try exported(sampleStore(), .csv).split(separator: "\n").map(String.init)
            expectEqual(lines.first, "type,start,end,value,unit,source,device,uuid,metadata")
            expectEqual(lines.count, 4)
            let steps = try #require(lines.first { $0.hasPrefix("HKQuantityTypeIdentifierStepCount,") })
            #expect(steps.hasPrefix("HKQuantityTypeIdentifierStepCount,2024-05-01T08:00:00-07:00,2024-05-01T08:10:00-07:00,120,count,Jane’s iPhone,\"name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.1\","))
            #expect(steps.hasSuffix(",\"{\"\"HKTimeZone\"\":\"\"America/Los_Angeles\"\",\"\"note\"\":\"\"a, \\\"\"quoted\\\"\" note\"\"}\""))
            #expect(lines.contains { $0.hasPrefix("HKCategoryTypeIdentifierSleepAnalysis,2024-05-01T01:00:00-07:00,2024-05-01T02:00:00-07:00,asleepREM,,") })
        }

        /// An activity summary names a day, not an instant (an import stores it at that day's midnight UTC): a range
        /// of days takes the summaries of those days in the export's zone, east or west of UTC (a review found May 30
        /// in Los Angeles giving May 31's), at a month's edge too; records dated by an instant keep the overlap rule.
        func activitySummariesAreTakenByTheirDayInTheExportsZone() throws {
            let days = ["2024-05-29", "2024-05-30", "2024-05-31", "2024-06-01", "2024-06-02"]
            let body = days.map { " <ActivitySummary dateComponents=\"\($0)\" activeEnergyBurned=\"400\" activeEnergyBurnedUnit=\"kcal\"/>" }
                + [" <ClinicalRecord type=\"HKClinicalTypeIdentifierLabResultRecord\" sourceName=\"Clinic\" receivedDate=\"2024-05-31 22:30:00 -0700\" identifier=\"x\"/>"]
            try Support.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store")
                _ = try Support.importXML(Support.export(body.joined(separator: "\n")), into: store)
                for zoneName in ["America/Los_Angeles", "Pacific/Pago_Pago", "UTC", "Asia/Tokyo", "Pacific/Kiritimati"] {
                    let zone = IndependentTestKit.zone(zoneName)
                    func exported(_ first: String, _ last: String) throws -> [String] {
                        let from = try #require(try? ISODate.components(first)), to = try #require(try? ISODate.components(last))
                        let start = Date(timeIntervalSince1970: Double(zone.instant(ofLocal: Int64(ISODate.instant(from, offsetSeconds: 0).timeIntervalSince1970))))
                        let end = Date(timeIntervalSince1970: Double(zone.instant(ofLocal: Int64(ISODate.instant(to, offsetSeconds: 0).timeIntervalSince1970) + 86_400)))
                        let path = folder + "/out-\(zoneName.replacingOccurrences(of: "/", with: "-"))"
                        _ = try SampleExporter(store: store, timeZone: zone)
                            .export(types: nil, interval: DateInterval(start: start, end: end), format: .jsonl,
                                    exportDate: Date(timeIntervalSince1970: 1_717_243_200), to: FileDestination(path: path))
                        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { line in
                            if let range = line.range(of: "\"@dateComponents\":\"") { return String(line[range.upperBound...].prefix(10)) }
                            return line.contains("Clinical") ? "clinical" : String(line)
                        }
                    }
                    try expectEqual(exported("2024-05-30", "2024-05-30"), ["2024-05-30"], "\(zoneName)")
                    try expectEqual(exported("2024-06-01", "2024-06-01").filter { $0 != "clinical" }, ["2024-06-01"], "\(zoneName)")
                    try expectEqual(exported("2024-05-30", "2024-06-01").filter { $0 != "clinical" }, ["2024-05-30", "2024-05-31", "2024-06-01"], "\(zoneName)")
                    // The clinical record's receivedDate is an instant (June 1, 05:30 UTC): found by it, as before.
                    let instant = Date(timeIntervalSince1970: 1_717_219_800)
                    let holding = try exported("2024-05-28", "2024-06-03").contains("clinical")
                    #expect(holding, "\(zoneName)")
                    let day = try exported("2024-05-31", "2024-05-31").contains("clinical")
                    expectEqual(day, instant < Date(timeIntervalSince1970: Double(zone.instant(ofLocal: 1_717_200_000))), "\(zoneName)")
                }
            }
        }

        func jsonIsOneValidArray() throws {
            let text = try exported(sampleStore(), .json)
            let objects = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]
            expectEqual(objects?.count, 3)
            try expectEqual(exported(InMemorySampleStore(), .json), "[]\n")
        }

        @Test(arguments: [ExportFormat.jsonl, .json, .healthxml])
        func readsBackToTheSameSamples(format: ExportFormat) throws {
            let original = try sampleStore()
            let text = try exported(original, format)
            let copy = InMemorySampleStore()
            let receipt = try Support.withTemporaryDirectory { folder in
                try HealthImporter(store: copy).importFile(atPath: try Support.write(text, named: "export.\(format.rawValue)", in: folder))
            }
            #expect(!receipt.hasProblems, "\(receipt.problems)")
            let sort = { (samples: [Sample]) in samples.sorted { $0.uuid.uuidString < $1.uuid.uuidString } }
            expectEqual(sort(copy.allSamples), sort(original.allSamples))
        }

        func jsonlKeepsForeignUUIDsAndNumbersInMetadata() throws {
            let sample = Sample(typeIdentifier: "HKQuantityTypeIdentifierDietaryWater", start: ISODate.parse("2024-06-01T08:00:00.250Z")!,
                                end: ISODate.parse("2024-06-01T08:00:00.250Z")!, value: .quantity(Quantity(0.5, try HealthUnit(parsing: "L"))),
                                source: "hkctl", created: ISODate.parse("2024-06-01T08:00:04Z")!, metadata: ["glasses": .number(2)])
            let text = try exported(InMemorySampleStore([sample]), .jsonl)
            let copy = InMemorySampleStore()
            _ = try Support.withTemporaryDirectory { folder in
                try HealthImporter(store: copy).importFile(atPath: try Support.write(text, named: "backup.jsonl", in: folder))
            }
            expectEqual(copy.allSamples, [sample])
            // Importing it again is recognised by the UUID.
            let again = try Support.withTemporaryDirectory { folder in
                try HealthImporter(store: copy).importFile(atPath: try Support.write(text, named: "backup.jsonl", in: folder))
            }
            expectEqual(again.totals.alreadyPresent, 1)
        }

        func selectsTypesAndRange() throws {
            let store = try sampleStore()
            let range = DateInterval(start: ISODate.parse("2024-05-01T07:30:00-07:00")!, end: ISODate.parse("2024-05-02T00:00:00-07:00")!)
            let text = try exported(store, .jsonl, types: ["HKQuantityTypeIdentifierStepCount", "HKCategoryTypeIdentifierSleepAnalysis"], interval: range)
            expectEqual(text.split(separator: "\n").count, 1)
            #expect(text.contains("HKQuantityTypeIdentifierStepCount"))
        }

        func theFileStoreIsExportedMonthByMonthInOrderIncludingLongSamples() throws {
            try Support.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store")
                var samples: [Sample] = []
                for day in stride(from: 60, through: 0, by: -3) {
                    let start = ISODate.parse("2024-03-01T12:00:00Z")!.addingTimeInterval(Double(day) * 86_400)
                    samples.append(Sample(typeIdentifier: "HKQuantityTypeIdentifierStepCount", start: start, end: start.addingTimeInterval(60),
                                          value: .quantity(Quantity(Double(day), .count())), source: "s", created: start))
                }
                // A generic sample lasting 10 days, starting in a month without other samples of its type.
                let long = Sample(typeIdentifier: "HKCategoryTypeIdentifierSomethingNew", start: ISODate.parse("2023-12-28T00:00:00Z")!,
                                  end: ISODate.parse("2024-01-07T00:00:00Z")!, value: .generic(value: "HKCategoryValueNotApplicable", unit: nil),
                                  source: "s", created: ISODate.parse("2024-01-07T00:00:00Z")!)
                try store.save(samples + [long])
                let exporter = SampleExporter(store: store)
                try expectEqual(exporter.storedTypeIdentifiers(), ["HKCategoryTypeIdentifierSomethingNew", "HKQuantityTypeIdentifierStepCount"])
                var seen: [Sample] = []
                let all = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
                for type in try exporter.storedTypeIdentifiers() {
                    try exporter.forEachChunk(ofType: type, overlapping: all) { seen += $0 }
                }
                expectEqual(seen.count, samples.count + 1)
                expectEqual(seen.first, long)
                let steps = seen.dropFirst().map(\.start)
                expectEqual(steps, steps.sorted())
            }
        }
    }
}

/// The checks ``ImportTests.SampleExporterTests/checks(_:)`` runs.
private let sampleExporterTestsChecks: [Check<ImportTests.SampleExporterTests>] = [
    Check("csvHasStableColumnsAndEscapes", ImportTests.SampleExporterTests.csvHasStableColumnsAndEscapes),
    Check("jsonIsOneValidArray", ImportTests.SampleExporterTests.jsonIsOneValidArray),
    Check("activitySummariesAreTakenByTheirDayInTheExportsZone",
          ImportTests.SampleExporterTests.activitySummariesAreTakenByTheirDayInTheExportsZone),
    Check("jsonlKeepsForeignUUIDsAndNumbersInMetadata",
          ImportTests.SampleExporterTests.jsonlKeepsForeignUUIDsAndNumbersInMetadata),
    Check("selectsTypesAndRange", ImportTests.SampleExporterTests.selectsTypesAndRange),
    Check("theFileStoreIsExportedMonthByMonthInOrderIncludingLongSamples",
          ImportTests.SampleExporterTests.theFileStoreIsExportedMonthByMonthInOrderIncludingLongSamples),
]
