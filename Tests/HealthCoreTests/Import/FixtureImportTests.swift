import Foundation
import Testing
import TestKit
@testable import HealthCore

extension ImportTests {
    /// The real exports in `shared/fixtures/apple-health`, read in place.
    @Suite(.enabled(if: ImportTestSupport.fixturesAvailable,
                    "shared/fixtures/apple-health is not next to the repository, so the real-export tests are skipped"))
    struct FixtureImportTests {
        /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
        /// build a tenth of a `@Test` apiece (README.md, "Development").
        @Test(arguments: fixtureImportTestsChecks)
        func checks(_ check: Check<Self>) async throws {
            try await check.run(on: Self())
        }

        /// The receipt's per-type totals under the keys the independent count uses.
        private func receiptCounts(_ receipt: ImportReceipt) -> [String: Int] {
            var counts: [String: Int] = [:]
            for (type, count) in receipt.counts {
                let key = ["HKWorkoutTypeIdentifier": "Workout", "HKActivitySummaryTypeIdentifier": "ActivitySummary"][type] ?? type
                counts[key, default: 0] += count.total
            }
            return counts
        }

        @Test(arguments: ImportTestSupport.xmlFixtures)
        func readsEveryRecordOfTheFile(name: String) throws {
            let path = ImportTestSupport.fixture(name)
            let store = InMemorySampleStore()
            let receipt = try HealthImporter(store: store).importFile(atPath: path)
            #expect(receiptCounts(receipt) == (try ImportTestSupport.independentCounts(ofFile: path)))
            expectEqual(receipt.problemCount, 0, "\(receipt.problems)")
            #expect(receipt.complete)
            expectEqual(store.allSamples.count, receipt.totals.added + receipt.totals.keptGenerically)
            expectEqual(Set(store.allSamples.map(\.uuid)).count, store.allSamples.count)
        }

        /// Every record of a HealthKit identifier in a real export (the zip's included) is kept as a typed sample: the
        /// catalogue knows every identifier HealthKit has (before it did, `WalkingStepLength` was kept generically).
        @Test(arguments: ImportTestSupport.xmlFixtures + [ImportTestSupport.zipFixture])
        func noHealthKitRecordIsLeftUntyped(name: String) throws {
            let store = InMemorySampleStore()
            let receipt = try HealthImporter(store: store).importFile(atPath: ImportTestSupport.fixture(name))
            let healthKit = receipt.counts.filter {
                $0.key.hasPrefix("HKQuantityTypeIdentifier") || $0.key.hasPrefix("HKCategoryTypeIdentifier")
            }
            #expect(!healthKit.isEmpty)
            for (type, counts) in healthKit {
                #expect(counts.keptGenerically == 0 && counts.rejected == 0, "\(name): \(type) \(counts)")
                #expect(SampleTypeCatalogue.standard.type(identifier: type) != nil, "\(name): \(type)")
            }
            #expect(store.allSamples.filter { if case .generic = $0.value { return $0.typeIdentifier.hasPrefix("HKQuantityType") } else { return false } }.isEmpty)
        }

        @Test(arguments: ImportTestSupport.xmlFixtures)
        func importingAgainAddsNothing(name: String) throws {
            try ImportTestSupport.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store")
                let first = try HealthImporter(store: store).importFile(atPath: ImportTestSupport.fixture(name))
                let second = try HealthImporter(store: store).importFile(atPath: ImportTestSupport.fixture(name))
                expectEqual(second.totals.added, 0)
                expectEqual(second.totals.keptGenerically, 0)
                expectEqual(second.totals.alreadyPresent, first.totals.total)
            }
        }

        func theZipHoldsTheSameExportAsTheXML() throws {
            let fromXML = try HealthImporter(store: InMemorySampleStore())
                .importFile(atPath: ImportTestSupport.fixture("josejamilena_es-ES_iphone-mifit.export.xml"))
            let fromZip = try HealthImporter(store: InMemorySampleStore()).importFile(atPath: ImportTestSupport.fixture(ImportTestSupport.zipFixture))
            expectEqual(fromZip.inputKind, .zip)
            expectEqual(fromZip.archiveMember, "exportación.xml", "an NFD name without the UTF-8 flag, shown composed")
            expectEqual(fromZip.counts, fromXML.counts)
            expectEqual(fromZip.totals.added, 3823)
        }

        func stepValuesMatchTheFile() throws {
            // Independently: sum the StepCount values of the file by the day of their start date as written (+0100).
            let path = ImportTestSupport.fixture("josejamilena_es-ES_iphone-mifit.export.xml")
            let text = try String(contentsOfFile: path, encoding: .utf8)
            var expected: [String: Double] = [:]
            for line in text.split(separator: "\n") where line.contains("type=\"HKQuantityTypeIdentifierStepCount\"") {
                func attribute(_ name: String) -> Substring {
                    let start = line.range(of: " \(name)=\"")!.upperBound
                    return line[start...].prefix { $0 != "\"" }
                }
                expected[String(attribute("startDate").prefix(10)), default: 0] += Double(attribute("value"))!
            }
            let store = InMemorySampleStore()
            _ = try HealthImporter(store: store).importFile(atPath: path)
            let zone = ZoneRules(secondsFromGMT: 3600)
            for day in ["2015-12-24", "2016-01-15", "2016-02-20", "2016-03-05"] {
                let start = ISODate.parse(day + "T00:00:00+01:00")!
                let sum = store.allSamples.filter {
                    $0.typeIdentifier == "HKQuantityTypeIdentifierStepCount" && $0.start >= start && $0.start < start.addingTimeInterval(86_400)
                }.reduce(0.0) { $0 + (try! $1.value.quantity!.value(in: .count())) }
                expectEqual(sum, expected[day], "steps on \(day) in \(zone)")
                #expect(sum > 0)
            }
        }

        func devicesLoseTheirMemoryAddressAndSourcesKeepTheirCharacters() throws {
            let store = InMemorySampleStore()
            _ = try HealthImporter(store: store).importFile(atPath: ImportTestSupport.fixture("danecollins_en-US_watch-excerpt.export_small.xml"))
            let devices = Set(store.allSamples.compactMap(\.device))
            #expect(!devices.isEmpty)
            #expect(devices.allSatisfy { $0.hasPrefix("name:") && !$0.contains("0x") && !$0.contains("HKDevice") })
            #expect(devices.contains("name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch4,4, software:5.3.1"))
            let sources = Set(store.allSamples.map(\.source))
            #expect(sources.contains("Dane’s iPhone"))
            #expect(sources.contains("Dane's Apple\u{00A0}Watch"))
        }

        func keepsChildrenNoRecordShouldLose() throws {
            let store = InMemorySampleStore()
            _ = try HealthImporter(store: store).importFile(atPath: ImportTestSupport.fixture("danecollins_en-US_watch-excerpt.export_small.xml"))
            let hrv = try #require(store.allSamples.first { $0.typeIdentifier == "HKQuantityTypeIdentifierHeartRateVariabilitySDNN" })
            guard case let .string(json)? = hrv.metadata["@children"] else {
                Issue.record("the beat list is not kept")
                return
            }
            let nodes = try ExportNode.nodes(fromJSON: json)
            expectEqual(nodes.first?.name, "HeartRateVariabilityMetadataList")
            expectEqual(nodes.first?.children.map { $0.attribute("bpm") }, ["64", "66", "63"])
            let heartRate = try #require(store.allSamples.first { $0.typeIdentifier == "HKQuantityTypeIdentifierHeartRate" })
            expectEqual(heartRate.metadata["HKMetadataKeyHeartRateMotionContext"], .string("2"))
        }

        func aFileCutShortKeepsItsCompleteRecordsAndSaysSo() throws {
            let path = ImportTestSupport.fixture("josejamilena_es-ES_iphone-mifit.export.xml")
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            let prefix = Array(bytes[0..<(bytes.count / 2)])
            let text = String(decoding: prefix, as: UTF8.self)
            let complete = text.components(separatedBy: "\n").filter { $0.hasPrefix(" <Record ") && $0.hasSuffix("/>") }.count
            try ImportTestSupport.withTemporaryDirectory { folder in
                let cut = folder + "/export.xml"
                try Data(prefix).write(to: URL(fileURLWithPath: cut))
                let store = InMemorySampleStore()
                let receipt = try HealthImporter(store: store).importFile(atPath: cut)
                #expect(!receipt.complete)
                expectEqual(receipt.totals.added, complete)
                #expect(receipt.problemCount >= 1)
                #expect(receipt.problems.contains { $0.reason.contains("truncated") })
                // Running the whole file afterwards completes the import without duplicates.
                let rest = try HealthImporter(store: store).importFile(atPath: path)
                expectEqual(rest.totals.alreadyPresent, complete)
                expectEqual(store.allSamples.count, 3823)
            }
        }
    }
}

/// The checks ``ImportTests.FixtureImportTests/checks(_:)`` runs.
private let fixtureImportTestsChecks: [Check<ImportTests.FixtureImportTests>] = [
    Check("theZipHoldsTheSameExportAsTheXML", ImportTests.FixtureImportTests.theZipHoldsTheSameExportAsTheXML),
    Check("stepValuesMatchTheFile", ImportTests.FixtureImportTests.stepValuesMatchTheFile),
    Check("devicesLoseTheirMemoryAddressAndSourcesKeepTheirCharacters",
          ImportTests.FixtureImportTests.devicesLoseTheirMemoryAddressAndSourcesKeepTheirCharacters),
    Check("keepsChildrenNoRecordShouldLose", ImportTests.FixtureImportTests.keepsChildrenNoRecordShouldLose),
    Check("aFileCutShortKeepsItsCompleteRecordsAndSaysSo",
          ImportTests.FixtureImportTests.aFileCutShortKeepsItsCompleteRecordsAndSaysSo),
]
