import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

extension ImportTests {
    /// Records read straight from their bytes (``DirectRecordEncoder`` → ``DirectLineComposer``) against the general
    /// reading (`Sample`s through ``SampleLineCodec``): which records take the direct path, and that the stores,
    /// receipts and rejections are the same byte for byte either way.
    struct DirectImportTests {
        /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
        /// build a tenth of a `@Test` apiece (README.md, "Development").
        @Test(arguments: directImportTestsChecks)
        func checks(_ check: Check<Self>) async throws {
            try await check.run(on: Self())
        }

        typealias Support = ImportTestSupport
        static let watch = Support.watchDevice
        static let otherWatch = "&lt;&lt;HKDevice: 0x7fab12345678&gt;, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.1&gt;"
        static let phone = "&lt;&lt;HKDevice: 0x600001a2c2d0&gt;, name:iPhone, manufacturer:Apple Inc., model:iPhone, hardware:iPhone14,5, software:17.1&gt;"

        static func heartRate(_ bpm: String, at time: String, metadata: [(String, String)] = [], device: String? = watch,
                              source: String = "Jane’s Apple Watch") -> String {
            Support.record("HKQuantityTypeIdentifierHeartRate", value: bpm, unit: "count/min", source: source,
                           start: time, end: time, device: device, metadata: metadata)
        }

        static func sleep(_ value: String, _ start: String, _ end: String) -> String {
            Support.record("HKCategoryTypeIdentifierSleepAnalysis", value: value, unit: nil, source: "Jane’s Apple Watch",
                           start: start, end: end, device: watch)
        }

        /// Records the direct path takes: plain quantities and categories, with and without metadata and devices.
        static let plainRecords = [
            Support.record(),
            Support.record(value: "8000", source: "Bob &amp; Alice’s iPhone", device: phone),
            heartRate("59", at: "2024-05-01 08:00:00 -0700", metadata: [("HKMetadataKeyHeartRateMotionContext", "0")]),
            heartRate("61", at: "2024-05-01 08:05:00 -0700", metadata: [
                ("zeta", "last"), ("HKMetadataKeyHeartRateMotionContext", "1"), ("Ünïcode ключ", "värde &amp; &#233;line"),
            ], device: otherWatch),
            heartRate("64.5", at: "2024-05-01 08:10:00 -0700", device: "SomeDevice"),
            heartRate("70", at: "2024-05-01 08:11:00 -0700", device: ""),
            heartRate("71", at: "2024-05-01 08:12:00 -0700", device: nil, source: "Zoë’s Watch ⌚"),
            Support.record("HKQuantityTypeIdentifierBodyMass", value: "152.9", unit: "lb", source: "Withings"),
            Support.record("HKQuantityTypeIdentifierBodyMass", value: "72.40", unit: "kg", source: "Withings"),
            Support.record("HKQuantityTypeIdentifierBodyMass", value: "1e2", unit: "kg", source: "Withings"),
            Support.record("HKQuantityTypeIdentifierBodyTemperature", value: "98.6", unit: "degF", source: "Thermo"),
            Support.record("HKQuantityTypeIdentifierDietaryWater", value: "0.25", unit: "L", source: "WaterMinder"),
            Support.record("HKQuantityTypeIdentifierDietaryWater", value: "0.0004", unit: "L", source: "WaterMinder"),
            Support.record("HKQuantityTypeIdentifierDietaryWater", value: "0.004", unit: "L", source: "WaterMinder"),
            Support.record("HKQuantityTypeIdentifierDietaryWater", value: "0", unit: "mL", source: "WaterMinder"),
            Support.record("HKQuantityTypeIdentifierDietaryWater", value: "19999.5", unit: "mL", source: "WaterMinder"),
            sleep("HKCategoryValueSleepAnalysisInBed", "2024-04-30 22:00:00 -0700", "2024-05-01 06:30:00 -0700"),
            sleep("HKCategoryValueSleepAnalysisAsleepCore", "2024-04-30 23:00:00 -0700", "2024-04-30 23:45:00 -0700"),
            // Across the UTC month boundary, in offsets other than the store's, and around a DST change.
            Support.record(start: "2024-05-31 23:59:00 -0000", end: "2024-06-01 00:01:00 -0000"),
            Support.record(start: "2024-06-01 05:29:00 +0530", end: "2024-06-01 05:31:00 +0530"),
            Support.record(start: "2024-03-10 01:59:00 -0800", end: "2024-03-10 03:00:00 -0700"),
            Support.record(start: "2024-10-27 00:30:00 +0100", end: "2024-10-27 01:30:00 +0000"),
            Support.record(start: "2024-12-31 23:00:00 +1400", end: "2025-01-01 10:00:00 -1000"),
            // No creationDate, no sourceVersion.
            " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Pedometer\" unit=\"count\" startDate=\"2024-05-02 08:00:00 -0700\" endDate=\"2024-05-02 08:10:00 -0700\" value=\"12\"/>",
            // Numbers marked as hkctl's Health XML export marks them, beside text that looks like a number.
            withChildren(heartRate("66", at: "2024-05-01 08:20:00 -0700"), """
                  <MetadataEntry key="count" value="42" hkctlType="number"/>
                  <MetadataEntry key="note" value="42"/>
                  <MetadataEntry key="big" value="1e+20" hkctlType="number"/>
                  <MetadataEntry key="small" value="-0.5" hkctlType="number"/>
                """),
            withChildren(heartRate("67", at: "2024-05-01 08:21:00 -0700"), "  <MetadataEntry key=\"count\" value=\"7\" hkctlType=\"number\"/>"),
        ]

        /// `record` (an empty element) with `children` inside.
        static func withChildren(_ record: String, _ children: String) -> String {
            record.replacingOccurrences(of: "/>", with: ">") + "\n" + children + "\n </Record>"
        }

        /// Records the direct path refuses: each is read the general way (and some are rejected there).
        static let refusedRecords = [
            Support.record(start: "2024-05-01T08:00:00-07:00", end: "2024-05-01T08:10:00-07:00"),
            Support.record(start: "2024-05-01 08:00:00.250 -0700", end: "2024-05-01 08:10:00 -0700"),
            Support.record(start: "2024-06-30 23:59:60 -0000", end: "2024-07-01 00:10:00 -0000"),
            Support.record(start: "yesterday", end: "2024-05-01 08:10:00 -0700"),
            Support.record(start: "2024-02-30 08:00:00 -0700", end: "2024-05-01 08:10:00 -0700"),
            Support.record(start: "2024-05-01 08:10:00 -0700", end: "2024-05-01 08:00:00 -0700"),
            Support.record(value: "-5"),
            Support.record(value: "12", unit: "kg"),
            Support.record(value: "lots"),
            Support.record(value: "12", unit: "furlongs"),
            Support.record(value: "10", unit: nil),
            heartRate("900", at: "2024-05-01 09:00:00 -0700"),
            Support.record("HKQuantityTypeIdentifierDietaryWater", value: "123456789012345", unit: "mL", source: "WaterMinder"),
            Support.record("HKQuantityTypeIdentifierSomethingNew", value: "3", unit: "count"),
            Support.record("HKQuantity&#84;ypeIdentifierStepCount", value: "3", unit: "count"),
            sleep("HKCategoryValueSleepAnalysisSomethingNew", "2024-05-01 01:00:00 -0700", "2024-05-01 02:00:00 -0700"),
            sleep("HKCategoryValueSleepAnalysisInBed", "2024-04-01 01:00:00 -0700", "2024-05-01 02:00:00 -0700"),
            " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"A\" unit=\"count\" value=\"1\" value=\"2\" startDate=\"2024-05-02 08:00:00 -0700\" endDate=\"2024-05-02 08:10:00 -0700\"/>",
            " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"A\" unit=\"count\" value=\"1\" Meta Data=\"x\" startDate=\"2024-05-02 08:00:00 -0700\" endDate=\"2024-05-02 08:10:00 -0700\"/>",
            " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"A\" unit=\"count\" value=\"1\" colour=\"red\" startDate=\"2024-05-02 08:00:00 -0700\" endDate=\"2024-05-02 08:10:00 -0700\"/>",
            " <Record type=\"HKQuantityTypeIdentifierStepCount\" unit=\"count\" value=\"1\" startDate=\"2024-05-02 08:00:00 -0700\" endDate=\"2024-05-02 08:10:00 -0700\"/>",
            " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"A\" unit=\"count\" value=\"1\" endDate=\"2024-05-02 08:10:00 -0700\"/>",
            heartRate("60", at: "2024-05-01 09:01:00 -0700", metadata: [("HKMetadataKeySyncIdentifier", "abc"), ("HKMetadataKeySyncVersion", "2")]),
            heartRate("60", at: "2024-05-01 09:02:00 -0700", metadata: [("@duration", "5")]),
            heartRate("60", at: "2024-05-01 09:03:00 -0700", metadata: [("a", "1"), ("a", "2")]),
            heartRate("60", at: "2024-05-01 09:04:00 -0700", metadata: [("e\u{301}", "1"), ("\u{e9}", "2")]),
        ]

        /// Records that start the direct way and are handed to the general reading by a later child or the end.
        static let laterRefusedRecords = [
            // A MetadataEntry with an end tag of its own, then a beat list after a metadata entry.
            Support.record("HKQuantityTypeIdentifierHeartRate", value: "60", unit: "count/min", start: "2024-05-01 10:00:00 -0700",
                           end: "2024-05-01 10:00:00 -0700").replacingOccurrences(of: "/>", with: ">")
                + "\n  <MetadataEntry key=\"a\" value=\"1\"></MetadataEntry>\n </Record>",
            Support.record("HKQuantityTypeIdentifierHeartRateVariabilitySDNN", value: "45", unit: "ms", start: "2024-05-01 10:01:00 -0700",
                           end: "2024-05-01 10:02:00 -0700").replacingOccurrences(of: "/>", with: ">")
                + "\n  <MetadataEntry key=\"HKAlgorithmVersion\" value=\"1\"/>\n  <HeartRateVariabilityMetadataList>\n"
                + "   <InstantaneousBeatsPerMinute bpm=\"61\" time=\"10:01:00.00 AM\"/>\n  </HeartRateVariabilityMetadataList>\n </Record>",
            Support.record("HKQuantityTypeIdentifierHeartRate", value: "62", unit: "count/min", start: "2024-05-01 10:03:00 -0700",
                           end: "2024-05-01 10:03:00 -0700", metadata: [("b", "2"), ("HKMetadataKeySyncIdentifier", "later")]),
            Support.record("HKQuantityTypeIdentifierHeartRate", value: "63", unit: "count/min", start: "2024-05-01 10:04:00 -0700",
                           end: "2024-05-01 10:04:00 -0700").replacingOccurrences(of: "/>", with: ">")
                + "\n  <MetadataEntry key=\"c\" value=\"3\" extra=\"x\"/>\n </Record>",
            // A type this version does not know (kept as text), a "number" that is not one (rejected), and one in a
            // locale's own digits.
            withChildren(heartRate("68", at: "2024-05-01 10:05:00 -0700"), "  <MetadataEntry key=\"when\" value=\"2024\" hkctlType=\"date\"/>"),
            withChildren(heartRate("69", at: "2024-05-01 10:06:00 -0700"), "  <MetadataEntry key=\"count\" value=\"many\" hkctlType=\"number\"/>"),
            withChildren(heartRate("70", at: "2024-05-01 10:07:00 -0700"), "  <MetadataEntry key=\"count\" value=\"٤٢\" hkctlType=\"number\"/>"),
        ]

        /// Events the reader hands over for `body`: records in direct groups, and records read the general way.
        static func paths(_ body: String) throws -> (direct: Int, general: Int) {
            let reader = HealthExportReader(reader: ArrayByteReader(Support.export(body), chunk: 4096), displayName: "export.xml",
                                            catalogue: .standard)
            reader.direct = DirectRecordEncoder(catalogue: .standard, storeCatalogue: .standard)
            var direct = 0, general = 0
            _ = try reader.read { event in
                switch consume event {
                case let .direct(group):
                    #expect(group.fields != nil)
                    direct += group.count
                case .record: general += 1
                case .characteristics, .problem: break
                }
            }
            return (direct, general)
        }

        func plainRecordsTakeTheDirectPath() throws {
            for record in Self.plainRecords {
                let counts = try Self.paths(record)
                #expect(counts == (1, 0), "\(record)")
            }
            let counts = try Self.paths(Self.plainRecords.joined(separator: "\n"))
            #expect(counts == (Self.plainRecords.count, 0))
        }

        @Test(arguments: refusedRecords + laterRefusedRecords)
        func recordsTheDirectPathRefusesAreReadTheGeneralWay(record: String) throws {
            let counts = try Self.paths(Support.record() + "\n" + record + "\n" + Support.record(value: "7"))
            #expect(counts == (2, 1))
        }

        func moreRecordsThanAGroupHoldsArriveInOrder() throws {
            var records: [String] = []
            for minute in 0..<(DirectRecordGroup.capacity * 2 + 10) {
                records.append(Self.heartRate(String(50 + minute % 40), at: String(format: "2024-05-%02d %02d:%02d:00 -0700",
                                                                                 1 + minute / 1440, minute / 60 % 24, minute % 60)))
                if minute % 300 == 7 { records.append(Self.refusedRecords[minute % Self.refusedRecords.count]) }
            }
            try Support.withTemporaryDirectory { folder in
                let path = try Support.write(Support.export(records.joined(separator: "\n")), in: folder)
                try ImportEquivalenceTests.compareBothPaths(path, zone: "America/Los_Angeles", batchSize: 333)
            }
        }

        @Test(arguments: ["UTC", "America/Los_Angeles", "Asia/Kolkata", "Europe/London", "Australia/Lord_Howe", "Pacific/Kiritimati"])
        func directAndGeneralPathsWriteTheSameStore(zone: String) throws {
            let body = (Self.plainRecords + Self.refusedRecords + Self.laterRefusedRecords + Self.plainRecords)
                .joined(separator: "\n")
            try Support.withTemporaryDirectory { folder in
                let path = try Support.write(Support.export(body), in: folder)
                // Batches of one record (a journal and its syncs each) in one zone: the zones test the dates, the
                // batch sizes the journal, and each such run took seconds.
                for batchSize in zone == "UTC" ? [1, 5, 20_000] : [5, 20_000] {
                    try ImportEquivalenceTests.compareBothPaths(path, zone: zone, batchSize: batchSize)
                }
            }
        }

        /// A second export that overlaps the first, imported into the store the first filled.
        func reimportsIntoANonEmptyStoreMatch() throws {
            let first = Self.plainRecords.prefix(12).joined(separator: "\n")
            let second = (Array(Self.plainRecords.suffix(14)) + [Self.heartRate("88", at: "2024-05-03 08:00:00 -0700")]).joined(separator: "\n")
            try Support.withTemporaryDirectory { folder in
                let firstPath = try Support.write(Support.export(first), named: "first.xml", in: folder)
                let secondPath = try Support.write(Support.export(second), named: "second.xml", in: folder)
                let timeZone = IndependentTestKit.zone("America/Los_Angeles")
                let fast = JSONFileStore(path: folder + "/fast", timeZone: timeZone)
                let plain = JSONFileStore(path: folder + "/plain", timeZone: timeZone)
                for path in [firstPath, secondPath, firstPath] {
                    let fastReceipt = try HealthImporter(store: fast, batchSize: 4).importFile(atPath: path)
                    let plainReceipt = try HealthImporter(store: ImportEquivalenceTests.PlainPathStore(plain), batchSize: 4)
                        .importFile(atPath: path)
                    expectEqual(fastReceipt.counts, plainReceipt.counts)
                }
                let fastFiles = try ImportEquivalenceTests.storeFiles(fast.path)
                #expect(fastFiles == (try ImportEquivalenceTests.storeFiles(plain.path)))
                #expect(fastFiles.count > 2)
            }
        }

        /// A record left open by the end of the file or by `</HealthData>` is rejected with its line, as before.
        func openDirectRecordsAtTheEndAreRejectedAsBefore() throws {
            let open = Self.heartRate("60", at: "2024-05-01 11:00:00 -0700", metadata: [("a", "1")])
                .replacingOccurrences(of: " </Record>", with: "")
            let texts = [
                Support.export(Support.record() + "\n" + open),
                Support.export(Support.record() + "\n" + open).replacingOccurrences(of: "</HealthData>", with: ""),
            ]
            try Support.withTemporaryDirectory { folder in
                for (index, text) in texts.enumerated() {
                    let path = try Support.write(text, named: "open\(index).xml", in: folder)
                    try ImportEquivalenceTests.compareBothPaths(path, zone: "UTC", batchSize: 3)
                    let receipt = try HealthImporter(store: JSONFileStore(path: folder + "/s\(index)", timeZone: .gmt)).importFile(atPath: path)
                    expectEqual(receipt.counts["HKQuantityTypeIdentifierHeartRate"]?.rejected, 1)
                }
            }
        }

        /// A dry run counts direct records without writing them.
        func aDryRunCountsDirectRecords() throws {
            try Support.withTemporaryDirectory { folder in
                let path = try Support.write(Support.export(Self.plainRecords.joined(separator: "\n")), in: folder)
                let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
                let dry = try HealthImporter(store: store, dryRun: true, batchSize: 3).importFile(atPath: path)
                let plain = JSONFileStore(path: folder + "/plain", timeZone: .gmt)
                let real = try HealthImporter(store: ImportEquivalenceTests.PlainPathStore(plain)).importFile(atPath: path)
                expectEqual(dry.counts, real.counts)
                #expect(!FileManager.default.fileExists(atPath: folder + "/store/samples"))
            }
        }

        /// In a dry run the batches (and so when identities are dropped over capacity) count direct and general
        /// records alike: the receipts match the general path's dry run.
        @Test(arguments: [(1, 2), (3, 2), (4, 5), (7, 1)])
        func dryRunBatchesCountEveryRecord(batchSize: Int, capacity: Int) throws {
            let body = (Self.plainRecords + Self.refusedRecords + Self.plainRecords + Self.refusedRecords).joined(separator: "\n")
            try Support.withTemporaryDirectory { folder in
                let path = try Support.write(Support.export(body), in: folder)
                let direct = try HealthImporter(store: JSONFileStore(path: folder + "/direct", timeZone: .gmt), dryRun: true,
                                                batchSize: batchSize, identityCapacity: capacity).importFile(atPath: path)
                let general = try HealthImporter(store: ImportEquivalenceTests.PlainPathStore(JSONFileStore(path: folder + "/general",
                                                                                                            timeZone: .gmt)),
                                                 dryRun: true, batchSize: batchSize, identityCapacity: capacity).importFile(atPath: path)
                expectEqual(direct.counts, general.counts)
                expectEqual(direct.problems.map(\.line), general.problems.map(\.line))
            }
        }
    }
}

/// The checks ``ImportTests.DirectImportTests/checks(_:)`` runs.
private let directImportTestsChecks: [Check<ImportTests.DirectImportTests>] = [
    Check("plainRecordsTakeTheDirectPath", ImportTests.DirectImportTests.plainRecordsTakeTheDirectPath),
    Check("moreRecordsThanAGroupHoldsArriveInOrder",
          ImportTests.DirectImportTests.moreRecordsThanAGroupHoldsArriveInOrder),
    Check("reimportsIntoANonEmptyStoreMatch", ImportTests.DirectImportTests.reimportsIntoANonEmptyStoreMatch),
    Check("openDirectRecordsAtTheEndAreRejectedAsBefore",
          ImportTests.DirectImportTests.openDirectRecordsAtTheEndAreRejectedAsBefore),
    Check("aDryRunCountsDirectRecords", ImportTests.DirectImportTests.aDryRunCountsDirectRecords),
]
