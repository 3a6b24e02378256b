import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

extension ImportTests {
    /// Exports that are not well-formed, or hold what hkctl does not type: never fatal, always reported.
    struct MalformedExportTests {
        /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
        /// build a tenth of a `@Test` apiece (README.md, "Development").
        @Test(arguments: malformedExportTestsChecks)
        func checks(_ check: Check<Self>) async throws {
            try await check.run(on: Self())
        }

        private typealias Support = ImportTestSupport

        /// The 1-based line of the first line containing `needle`.
        private func line(of needle: String, in text: String) -> Int {
            (text.components(separatedBy: "\n").firstIndex { $0.contains(needle) } ?? -1) + 1
        }

        func badRecordsAreRejectedWithTheirLinesAndTheRestIsImported() throws {
            let body = [
                Support.record(value: "100"),
                Support.record(value: "abc", start: "2024-05-01 09:00:00 -0700", end: "2024-05-01 09:10:00 -0700"),
                Support.record(value: "5", unit: "furlongs", start: "2024-05-01 10:00:00 -0700", end: "2024-05-01 10:10:00 -0700"),
                Support.record(value: "7", start: "2024-05-01 11:00:00 -0700", end: "yesterday"),
                Support.record(value: "8", unit: "kg", start: "2024-05-01 12:00:00 -0700", end: "2024-05-01 12:10:00 -0700"),
                " <Record sourceName=\"x\" startDate=\"2024-05-01 13:00:00 -0700\" endDate=\"2024-05-01 13:00:00 -0700\" value=\"1\"/>",
                " <Record type=\"HKQuantityTypeIdentifierStepCount\" value=>",
                Support.record(value: "9", start: "2024-05-01 14:00:00 -0700", end: "2024-05-01 13:00:00 -0700"),
                Support.record(value: "200", start: "2024-05-01 15:00:00 -0700", end: "2024-05-01 15:10:00 -0700"),
            ].joined(separator: "\n")
            let text = Support.export(body)
            let store = InMemorySampleStore()
            let receipt = try Support.importXML(text, into: store)
            expectEqual(receipt.counts["HKQuantityTypeIdentifierStepCount"]?.added, 2)
            expectEqual(store.allSamples.map { $0.value.quantity?.value }, [100, 200])
            expectEqual(receipt.problemCount, 7)
            let lines = receipt.problems.map(\.line)
            expectEqual(lines.sorted(), [
                line(of: "value=\"abc\"", in: text), line(of: "furlongs", in: text), line(of: "yesterday", in: text),
                line(of: "value=\"8\"", in: text), line(of: "13:00:00 -0700\" endDate=\"2024-05-01 13:00:00", in: text),
                line(of: "value=>", in: text), line(of: "value=\"9\"", in: text),
            ].sorted())
            #expect(receipt.problems.contains { $0.reason.contains("'abc' is not a number") })
            #expect(receipt.problems.contains { $0.reason.contains("furlongs") })
            #expect(receipt.problems.contains { $0.reason.contains("no 'type'") })
            #expect(receipt.hasProblems)
        }

        func moreThanTwentyProblemsAreCountedNotAllListed() throws {
            let body = (0..<30).map { Support.record(value: "x\($0)") }.joined(separator: "\n")
            let receipt = try Support.importXML(Support.export(body), into: InMemorySampleStore())
            expectEqual(receipt.problemCount, 30)
            expectEqual(receipt.problems.count, ImportReceipt.problemLimit)
        }

        func unknownElementsAndAttributesAreKept() throws {
            let body = """
                 <FutureThing a="1"><Nested/></FutureThing>
                 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="s" unit="count" shiny="yes" startDate="2024-05-01 08:00:00 -0700" endDate="2024-05-01 08:00:00 -0700" value="3"/>
                 <FutureThing/>
                """
            let store = InMemorySampleStore()
            let receipt = try Support.importXML(Support.export(body), into: store)
            // Elements of kinds hkctl does not know are kept generically (the export's date dates them).
            #expect(receipt.skippedElements.isEmpty)
            expectEqual(store.allSamples.filter { $0.typeIdentifier == "HKExportElementFutureThing" }.count, 2)
            // An attribute of a record hkctl does not know is kept with the record (a Health XML export writes it back).
            #expect(receipt.skippedAttributes.isEmpty)
            let record = store.allSamples.first { $0.typeIdentifier == "HKQuantityTypeIdentifierStepCount" }
            expectEqual(record?.metadata["@shiny"], .string("yes"))
            #expect(!receipt.hasProblems)
        }

        func toleratesTheMalformedIOS16DTDAndStrayVerticalTabs() throws {
            let body = Support.record(source: "Jane\u{0B}’s iPhone") + "\n\u{0B}\u{0B}\n" + Support.record(value: "5", start: "2024-05-02 08:00:00 -0700", end: "2024-05-02 08:00:00 -0700")
            let store = InMemorySampleStore()
            let receipt = try Support.importXML(Support.export(body, dtd: Support.malformedDTD), into: store)
            expectEqual(receipt.totals.added, 2)
            expectEqual(store.allSamples.first?.source, "Jane’s iPhone")
            #expect(!receipt.hasProblems)
        }

        func aTruncatedRecordIsRejectedAndTheFileReportedIncomplete() throws {
            let text = Support.export(Support.record()) .replacingOccurrences(of: "</HealthData>\n", with: "")
                + " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"s\" unit=\"count\" startDate=\"2024-05-01 09:00:00 -0700\" endDate=\"2024-05-01 09:00:00 -0700\" value=\"3\">\n  <MetadataEntry key=\"a\" value=\"b\"/>\n"
            let store = InMemorySampleStore()
            let receipt = try Support.importXML(text, into: store)
            #expect(!receipt.complete)
            expectEqual(receipt.totals.added, 1)
            expectEqual(receipt.counts["HKQuantityTypeIdentifierStepCount"]?.rejected, 1)
            #expect(receipt.problems.contains { $0.reason.contains("</HealthData>") })
        }

        @Test(arguments: [
            ([UInt8](), "it is empty"),
            (Array("hello, world\n".utf8), "does not start like XML"),
            ([0x1F, 0x8B, 0x08, 0, 1, 2, 3], "gzip"),
            (Array("<?xml version=\"1.0\"?><ClinicalDocument xmlns=\"urn:hl7-org:v3\"></ClinicalDocument>".utf8), "export_cda.xml"),
            ((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }, "does not start like"),
        ])
        func garbageIsRefusedClearly(bytes: [UInt8], expected: String) throws {
            try Support.withTemporaryDirectory { folder in
                let path = folder + "/garbage"
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                #expect {
                    _ = try HealthImporter(store: InMemorySampleStore()).importFile(atPath: path)
                } throws: { error in
                    guard case let ImportError.notAnExport(_, found)? = error as? ImportError else { return false }
                    return found.contains(expected)
                }
            }
        }

        func aMissingFileIsReportedAsSuch() {
            #expect(throws: ImportError.self) {
                _ = try HealthImporter(store: InMemorySampleStore()).importFile(atPath: "/nonexistent/export.zip")
            }
        }

        func readsIOS8CompactDatesAndMetadataAttributes() throws {
            let body = """
                 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="iPhone" unit="count" Was User Entered="1" startDate="20150616071916-0700" endDate="20150616072016-0700" value="42"/>
                """
            let store = InMemorySampleStore()
            let receipt = try Support.importXML(Support.export(body), into: store)
            let sample = try #require(store.allSamples.first)
            #expect(!receipt.hasProblems)
            expectEqual(sample.start, Date(timeIntervalSince1970: 1_434_464_356))
            expectEqual(sample.metadata["Was User Entered"], .string("1"))
        }

        func keepsMetadataKeysThatDifferOnlyInCaseAndTheTimeZone() throws {
            let body = Support.record(metadata: [("HKTimeZone", "Europe/Berlin"), ("Mood", "good"), ("mood", "bad"), ("note", "a &amp; b")])
            let store = InMemorySampleStore()
            _ = try Support.importXML(Support.export(body), into: store)
            let metadata = try #require(store.allSamples.first?.metadata)
            expectEqual(metadata, ["HKTimeZone": .string("Europe/Berlin"), "Mood": .string("good"), "mood": .string("bad"), "note": .string("a & b")])
        }

        func mapsCategoryValuesAndKeepsUnknownOnesGenerically() throws {
            let sleep = "HKCategoryTypeIdentifierSleepAnalysis"
            let body = [
                Support.record(sleep, value: "HKCategoryValueSleepAnalysisAsleepCore", unit: nil),
                Support.record(sleep, value: "HKCategoryValueSleepAnalysisAsleep", unit: nil, start: "2024-05-01 09:00:00 -0700", end: "2024-05-01 09:30:00 -0700"),
                Support.record(sleep, value: "HKCategoryValueSleepAnalysisAsleepDreamy", unit: nil, start: "2024-05-01 10:00:00 -0700", end: "2024-05-01 10:30:00 -0700"),
            ].joined(separator: "\n")
            let store = InMemorySampleStore()
            let receipt = try Support.importXML(Support.export(body), into: store)
            expectEqual(store.allSamples.map(\.value), [.category(3), .category(1), .generic(value: "HKCategoryValueSleepAnalysisAsleepDreamy", unit: nil)])
            expectEqual(receipt.counts[sleep]?.added, 2)
            expectEqual(receipt.counts[sleep]?.keptGenerically, 1)
        }

        func keepsTypesNotInTheCatalogueGenerically() throws {
            // A type of a later SDK than the catalogue's (the catalogue knows every identifier HealthKit has now).
            let body = Support.record("HKQuantityTypeIdentifierSomethingNew", value: "0.712", unit: "m", device: Support.watchDevice)
            let store = InMemorySampleStore()
            let receipt = try Support.importXML(Support.export(body), into: store)
            let sample = try #require(store.allSamples.first)
            expectEqual(sample.value, .generic(value: "0.712", unit: "m"))
            expectEqual(sample.device, "name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.1")
            expectEqual(sample.sourceVersion, "17.1")
            expectEqual(receipt.counts["HKQuantityTypeIdentifierSomethingNew"]?.keptGenerically, 1)
        }

        func keepsWorkoutsCorrelationsAndSummariesWithTheirChildren() throws {
            let body = """
                 <Workout workoutActivityType="HKWorkoutActivityTypeRunning" duration="30" durationUnit="min" sourceName="Watch" sourceVersion="10.1" device="\(Support.watchDevice)" creationDate="2024-05-01 18:31:00 -0700" startDate="2024-05-01 18:00:00 -0700" endDate="2024-05-01 18:30:00 -0700">
                  <MetadataEntry key="HKIndoorWorkout" value="0"/>
                  <WorkoutEvent type="HKWorkoutEventTypePause" date="2024-05-01 18:10:00 -0700"/>
                  <WorkoutStatistics type="HKQuantityTypeIdentifierActiveEnergyBurned" startDate="2024-05-01 18:00:00 -0700" endDate="2024-05-01 18:30:00 -0700" sum="345" unit="kcal"/>
                  <WorkoutActivity uuid="A1" startDate="2024-05-01 18:00:00 -0700"><WorkoutEvent type="HKWorkoutEventTypeSegment" date="2024-05-01 18:05:00 -0700"/></WorkoutActivity>
                 </Workout>
                 <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Cuff" creationDate="2024-05-01 07:00:00 -0700" startDate="2024-05-01 07:00:00 -0700" endDate="2024-05-01 07:00:00 -0700">
                  <MetadataEntry key="HKWasUserEntered" value="1"/>
                \(Support.record("HKQuantityTypeIdentifierBloodPressureSystolic", value: "120", unit: "mmHg", source: "Cuff", start: "2024-05-01 07:00:00 -0700", end: "2024-05-01 07:00:00 -0700"))
                \(Support.record("HKQuantityTypeIdentifierBloodPressureDiastolic", value: "80", unit: "mmHg", source: "Cuff", start: "2024-05-01 07:00:00 -0700", end: "2024-05-01 07:00:00 -0700"))
                 </Correlation>
                \(Support.record("HKQuantityTypeIdentifierBloodPressureSystolic", value: "120", unit: "mmHg", source: "Cuff", start: "2024-05-01 07:00:00 -0700", end: "2024-05-01 07:00:00 -0700"))
                 <ActivitySummary dateComponents="2024-05-01" activeEnergyBurned="512.5" activeEnergyBurnedGoal="500" activeEnergyBurnedUnit="kcal"/>
                """
            let store = InMemorySampleStore()
            let receipt = try Support.importXML(Support.export(body), into: store)
            #expect(!receipt.hasProblems, "\(receipt.problems)")
            let workout = try #require(store.allSamples.first { $0.typeIdentifier == "HKWorkoutTypeIdentifier" })
            // Typed as a workout (running = 37), keeping the export form for a faithful Health XML export.
            expectEqual(workout.value, .category(37))
            let typed = try #require(Workout(sample: workout))
            expectEqual(typed.duration, 1800)
            expectEqual(typed.detail.events.map(\.kind), [.pause])
            expectEqual(typed.energyKilocalories, 345)
            expectEqual(typed.detail.activities.first?.events.map(\.kind), [.segment])
            expectEqual(typed.isIndoor, false)
            expectEqual(workout.metadata["@duration"], .string("30"))
            expectEqual(workout.metadata["HKIndoorWorkout"], .string("0"))
            guard case let .string(json)? = workout.metadata["@children"] else {
                Issue.record("workout children are not kept")
                return
            }
            let children = try ExportNode.nodes(fromJSON: json)
            expectEqual(children.map(\.name), ["WorkoutEvent", "WorkoutStatistics", "WorkoutActivity"])
            expectEqual(children[1].attribute("sum"), "345")
            expectEqual(children[2].children.first?.attribute("type"), "HKWorkoutEventTypeSegment")
            let correlation = try #require(store.allSamples.first { $0.typeIdentifier == "HKCorrelationTypeIdentifierBloodPressure" })
            expectEqual(correlation.metadata["HKWasUserEntered"], .string("1"))
            let members = try #require(correlation.detail?.correlation?.members)
            expectEqual(members.map(\.typeIdentifier), ["HKQuantityTypeIdentifierBloodPressureSystolic", "HKQuantityTypeIdentifierBloodPressureDiastolic"])
            #expect(Set(members.map(\.uuid)).isSubset(of: Set(store.allSamples.map(\.uuid))))
            expectEqual(store.allSamples.filter { $0.typeIdentifier == "HKQuantityTypeIdentifierBloodPressureSystolic" }.count, 1)
            let day = DateInterval(start: ISODate.parse("2024-05-01T00:00:00Z")!, duration: 86_400 * 2)
            let readings = try CorrelationQuery(type: .bloodPressure, interval: day).run(on: store)
            expectEqual(readings.map { $0.members.count }, [2])
            // The systolic record inside the correlation and the same record at top level are one sample (the export
            // writes a correlation's records at top level too), not two occurrences.
            expectEqual(receipt.counts["HKQuantityTypeIdentifierBloodPressureSystolic"]?.alreadyPresent, 1)
            let summary = try #require(store.allSamples.first { $0.typeIdentifier == "HKActivitySummaryTypeIdentifier" })
            expectEqual(summary.start, ISODate.parse("2024-05-01T00:00:00Z"))
            expectEqual(summary.metadata["@activeEnergyBurned"], .string("512.5"))
            expectEqual(summary.source, "Health")
        }

        func theCharacteristicsOfMeAreImported() throws {
            let receipt = try Support.importXML(Support.export(""), into: InMemorySampleStore())
            expectEqual(receipt.characteristics, ["date-of-birth": "1988-04-02", "biological-sex": "female", "blood-type": "A+"])
        }

        func syncIdentifiersMakeAnUpdatedRecordTheSameRecord() throws {
            let sync = [("HKMetadataKeySyncIdentifier", "meal-7"), ("HKMetadataKeySyncVersion", "1")]
            let first = Support.export(Support.record(value: "100", metadata: sync))
            let store = InMemorySampleStore()
            _ = try Support.importXML(first, into: store)
            let again = try Support.importXML(Support.export(Support.record(value: "100", start: "2024-05-01 08:00:00 +0000", end: "2024-05-01 08:10:00 +0000", metadata: sync)), into: store)
            expectEqual(again.totals.alreadyPresent, 1)
        }

        func aNewerExportAddsOnlyWhatIsNew() throws {
            let older = Support.export([Support.record(value: "1"), Support.record(value: "2", start: "2024-05-02 08:00:00 -0700", end: "2024-05-02 08:10:00 -0700", device: Support.watchDevice)].joined(separator: "\n"))
            // The same records written in another offset, with another device address, plus one new one.
            let newer = Support.export([
                Support.record(value: "1", start: "2024-05-01 09:00:00 -0600", end: "2024-05-01 09:10:00 -0600"),
                Support.record(value: "2", start: "2024-05-02 09:00:00 -0600", end: "2024-05-02 09:10:00 -0600",
                               device: Support.watchDevice.replacingOccurrences(of: "0x600001a2c0f0", with: "0x2821818b0")),
                Support.record(value: "3", start: "2024-05-03 08:00:00 -0700", end: "2024-05-03 08:10:00 -0700"),
            ].joined(separator: "\n"))
            try Support.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store")
                _ = try Support.importXML(older, into: store)
                let receipt = try Support.importXML(newer, into: store)
                expectEqual(receipt.totals.added, 1)
                expectEqual(receipt.totals.alreadyPresent, 2)
            }
        }

        func duplicatesAreFoundWhenOnlyAFewMonthsFitInMemory() throws {
            // 36 months, a record a week, each written twice in a row (two samples); at most 10 identities in memory.
            let records = (0..<156).map { week -> String in
                let start = ISODate.format(ISODate.parse("2021-01-01T08:00:00Z")!.addingTimeInterval(Double(week) * 7 * 86_400), offsetSeconds: 0)
                let date = String(start.prefix(10)) + " 08:00:00 +0000"
                return Support.record(value: String(week), start: date, end: date)
            }
            let text = Support.export(records.map { $0 + "\n" + $0 }.joined(separator: "\n"))
            try Support.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store")
                let path = try Support.write(text, in: folder)
                let first = try HealthImporter(store: store, batchSize: 7, identityCapacity: 10).importFile(atPath: path)
                expectEqual(first.totals.added, 312)
                expectEqual(first.totals.alreadyPresent, 0)
                let second = try HealthImporter(store: store, batchSize: 7, identityCapacity: 10).importFile(atPath: path)
                expectEqual(second.totals.added, 0)
                expectEqual(second.totals.alreadyPresent, 312)
            }
        }

        func aDryRunWritesNothing() throws {
            try Support.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store")
                let receipt = try Support.importXML(Support.export(Support.record()), into: store, dryRun: true)
                expectEqual(receipt.totals.added, 1)
                #expect(!FileManager.default.fileExists(atPath: folder + "/store"))
            }
        }

        /// A store whose `failingSave`-th save fails, as a full disk would.
        final class FailingStore: SampleStore, Sendable {
            let inner = InMemorySampleStore()
            private let failing: Locked<Int?>
            var failingSave: Int? {
                get { failing.current }
                set { failing.withLock { $0 = newValue } }
            }
            private let saveCount = Locked(0)
            var saves: Int { saveCount.current }
            init(failingSave: Int?) { failing = Locked(failingSave) }
            func save(_ samples: [Sample]) throws {
                let saves = saveCount.withLock { count in
                    count += 1
                    return count
                }
                if saves == failingSave { throw StoreError.writeFailed("store", reason: "No space left on device") }
                try inner.save(samples)
            }
            func forEachSample(ofType identifier: String, overlapping interval: DateInterval, _ body: (Sample) throws -> Void) throws {
                try inner.forEachSample(ofType: identifier, overlapping: interval, body)
            }
        }

        func anInterruptedImportKeepsWholeBatchesAndCanBeRunAgain() throws {
            let body = (0..<25).map {
                Support.record(value: String($0 + 1), start: String(format: "2024-05-01 08:%02d:00 -0700", $0), end: String(format: "2024-05-01 08:%02d:30 -0700", $0))
            }.joined(separator: "\n")
            let store = FailingStore(failingSave: 3)
            #expect(throws: StoreError.self) { _ = try Support.importXML(Support.export(body), into: store, batchSize: 10) }
            expectEqual(store.inner.allSamples.count, 20, "two whole batches of 10, not a partial third")
            store.failingSave = nil
            let resumed = try Support.importXML(Support.export(body), into: store, batchSize: 10)
            expectEqual(resumed.totals.added, 5)
            expectEqual(resumed.totals.alreadyPresent, 20)
            expectEqual(store.inner.allSamples.count, 25)
        }
    }
}

/// The checks ``ImportTests.MalformedExportTests/checks(_:)`` runs.
private let malformedExportTestsChecks: [Check<ImportTests.MalformedExportTests>] = [
    Check("badRecordsAreRejectedWithTheirLinesAndTheRestIsImported",
          ImportTests.MalformedExportTests.badRecordsAreRejectedWithTheirLinesAndTheRestIsImported),
    Check("moreThanTwentyProblemsAreCountedNotAllListed",
          ImportTests.MalformedExportTests.moreThanTwentyProblemsAreCountedNotAllListed),
    Check("unknownElementsAndAttributesAreKept", ImportTests.MalformedExportTests.unknownElementsAndAttributesAreKept),
    Check("toleratesTheMalformedIOS16DTDAndStrayVerticalTabs",
          ImportTests.MalformedExportTests.toleratesTheMalformedIOS16DTDAndStrayVerticalTabs),
    Check("aTruncatedRecordIsRejectedAndTheFileReportedIncomplete",
          ImportTests.MalformedExportTests.aTruncatedRecordIsRejectedAndTheFileReportedIncomplete),
    Check("aMissingFileIsReportedAsSuch", ImportTests.MalformedExportTests.aMissingFileIsReportedAsSuch),
    Check("readsIOS8CompactDatesAndMetadataAttributes",
          ImportTests.MalformedExportTests.readsIOS8CompactDatesAndMetadataAttributes),
    Check("keepsMetadataKeysThatDifferOnlyInCaseAndTheTimeZone",
          ImportTests.MalformedExportTests.keepsMetadataKeysThatDifferOnlyInCaseAndTheTimeZone),
    Check("mapsCategoryValuesAndKeepsUnknownOnesGenerically",
          ImportTests.MalformedExportTests.mapsCategoryValuesAndKeepsUnknownOnesGenerically),
    Check("keepsTypesNotInTheCatalogueGenerically",
          ImportTests.MalformedExportTests.keepsTypesNotInTheCatalogueGenerically),
    Check("keepsWorkoutsCorrelationsAndSummariesWithTheirChildren",
          ImportTests.MalformedExportTests.keepsWorkoutsCorrelationsAndSummariesWithTheirChildren),
    Check("theCharacteristicsOfMeAreImported", ImportTests.MalformedExportTests.theCharacteristicsOfMeAreImported),
    Check("syncIdentifiersMakeAnUpdatedRecordTheSameRecord",
          ImportTests.MalformedExportTests.syncIdentifiersMakeAnUpdatedRecordTheSameRecord),
    Check("aNewerExportAddsOnlyWhatIsNew", ImportTests.MalformedExportTests.aNewerExportAddsOnlyWhatIsNew),
    Check("duplicatesAreFoundWhenOnlyAFewMonthsFitInMemory",
          ImportTests.MalformedExportTests.duplicatesAreFoundWhenOnlyAFewMonthsFitInMemory),
    Check("aDryRunWritesNothing", ImportTests.MalformedExportTests.aDryRunWritesNothing),
    Check("anInterruptedImportKeepsWholeBatchesAndCanBeRunAgain",
          ImportTests.MalformedExportTests.anInterruptedImportKeepsWholeBatchesAndCanBeRunAgain),
]
