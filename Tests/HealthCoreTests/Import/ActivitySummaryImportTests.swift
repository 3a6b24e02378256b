import Foundation
import Testing
import TestKit
@testable import HealthCore

extension ImportTests {
    /// A day's activity summary is one object that later exports write again, with fuller figures or in another
    /// energy unit (``ActivitySummaryVersion``): the store keeps one summary a day, the latest export's.
    struct ActivitySummaryImportTests {
        /// Runs each of this suite's checks (the list at the end of the file) as a case of one test.
        @Test(arguments: activitySummaryImportTestsChecks)
        func checks(_ check: Check<Self>) async throws {
            try await check.run(on: Self())
        }

        private typealias Support = ImportTestSupport

        static let type = "HKActivitySummaryTypeIdentifier"

        /// An `ActivitySummary` element of `day` burning `energy` in `unit`, with `exercise` minutes.
        static func summary(_ day: String, energy: String, unit: String = "kcal", goal: String = "680", exercise: String) -> String {
            " <ActivitySummary dateComponents=\"\(day)\" activeEnergyBurned=\"\(energy)\" activeEnergyBurnedGoal=\"\(goal)\" "
                + "activeEnergyBurnedUnit=\"\(unit)\" appleExerciseTime=\"\(exercise)\" appleExerciseTimeGoal=\"30\" "
                + "appleStandHours=\"9\" appleStandHoursGoal=\"12\"/>"
        }

        /// The first export, made on the evening of 31 May: the 31st is still going.
        static let may31Evening = Support.export([summary("2024-05-30", energy: "512.5", exercise: "41"),
                                                  summary("2024-05-31", energy: "56.6", exercise: "6")].joined(separator: "\n"),
                                                 exportDate: "2024-05-31 19:00:00 +0200")
        /// A later export, the phone's energy unit now kJ: the 30th again (512.5 kcal = 2144.3 kJ), the 31st whole, and
        /// a new day.
        static let june2 = Support.export([summary("2024-05-30", energy: "2144.3", unit: "kJ", goal: "2845.12", exercise: "41"),
                                           summary("2024-05-31", energy: "3012.48", unit: "kJ", goal: "2845.12", exercise: "52"),
                                           summary("2024-06-01", energy: "1500", unit: "kJ", goal: "2845.12", exercise: "20")]
                                              .joined(separator: "\n"),
                                          exportDate: "2024-06-02 08:00:00 +0200")

        static let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)

        /// The June export made a week later, the same figures.
        static let june9 = june2.replacingOccurrences(of: "2024-06-02 08:00:00 +0200", with: "2024-06-09 08:00:00 +0200")

        /// Writes all of `store` to `path` as hkctl's `format` export.
        static func export(_ store: JSONFileStore, as format: ExportFormat, to path: String, exportDate: TimeInterval,
                           zone: String = "UTC") throws {
            _ = try SampleExporter(store: store, timeZone: IndependentTestKit.zone(zone))
                .export(types: nil, interval: everything, format: format, exportDate: Date(timeIntervalSince1970: exportDate),
                        to: FileDestination(path: path))
        }

        /// The stored summaries as "day energy unit exercise", sorted.
        static func days(_ store: SampleStore) throws -> [String] {
            var found: [String] = []
            try store.forEachSample(ofType: type, overlapping: everything) { sample in
                found.append([sample.metadata["@dateComponents"], sample.metadata["@activeEnergyBurned"],
                              sample.metadata["@activeEnergyBurnedUnit"], sample.metadata["@appleExerciseTime"]]
                    .map { $0?.text ?? "-" }.joined(separator: " "))
            }
            return found.sorted()
        }

        /// The stores an import writes into: a file store, the in-memory store, and a `HealthStore` over a file store.
        static func eachStore(_ body: (_ store: SampleStore, _ name: String) throws -> Void) throws {
            try Support.withTemporaryDirectory { folder in
                try body(JSONFileStore(path: folder + "/file"), "file")
                try body(InMemorySampleStore(), "memory")
                try body(HealthStore(storage: JSONFileStore(path: folder + "/health"), source: "hkctl"), "health")
            }
        }

        /// A summary as builds before sync keys stored it.
        static func legacy(_ day: String, energy: String, unit: String) -> Sample {
            let start = ISODate.parse(day + "T00:00:00Z")!
            return Sample(typeIdentifier: type, start: start, end: start, value: .generic(value: "", unit: nil), source: "Health",
                          created: start, metadata: ["@element": .string("ActivitySummary"), "@dateComponents": .string(day),
                                                     "@activeEnergyBurned": .string(energy), "@activeEnergyBurnedUnit": .string(unit),
                                                     "@appleExerciseTime": .string("41")])
        }

        static let later = ["2024-05-30 2144.3 kJ 41", "2024-05-31 3012.48 kJ 52", "2024-06-01 1500 kJ 20"]

        /// An export made later writes a day again in kJ, and a day that was still going with its whole figures: each
        /// replaces the stored summary of its day (the review of session 35: kcal, then kJ, stored every day twice).
        func aLaterExportsSummaryOfADayReplacesTheEarlierOne() throws {
            try Self.eachStore { store, name in
                let first = try Support.importXML(Self.may31Evening, into: store)
                expectEqual(first.counts[Self.type]?.keptGenerically, 2, "\(name)")
                let second = try Support.importXML(Self.june2, into: store)
                expectEqual(try Self.days(store), Self.later, "\(name)")
                expectEqual(second.counts[Self.type]?.replaced, 2, "\(name): \(second.counts)")
                expectEqual(second.counts[Self.type]?.keptGenerically, 1, "\(name): \(second.counts)")
                // The earlier export again, or the later one again, changes nothing.
                for again in [Self.may31Evening, Self.june2] {
                    let receipt = try Support.importXML(again, into: store)
                    expectEqual(receipt.counts[Self.type]?.alreadyPresent, again == Self.june2 ? 3 : 2, "\(name): \(receipt.counts)")
                    expectEqual((receipt.counts[Self.type]?.keptGenerically ?? 0) + (receipt.counts[Self.type]?.replaced ?? 0), 0, "\(name)")
                    expectEqual(try Self.days(store), Self.later, "\(name)")
                }
            }
        }

        /// The later export first, then the earlier one: the earlier adds nothing and replaces nothing.
        func anEarlierExportDoesNotReplaceALaterOnesSummary() throws {
            try Self.eachStore { store, name in
                _ = try Support.importXML(Self.june2, into: store)
                let earlier = try Support.importXML(Self.may31Evening, into: store)
                expectEqual(earlier.counts[Self.type]?.alreadyPresent, 2, "\(name): \(earlier.counts)")
                expectEqual(try Self.days(store), Self.later, "\(name)")
                // A dry run of the earlier one says the same, and a dry run of a later one names what it replaces.
                let dry = try Support.importXML(Self.may31Evening, into: store, dryRun: true)
                expectEqual(dry.counts[Self.type]?.alreadyPresent, 2, "\(name)")
            }
        }

        /// One export holding a day twice (an export of a store an older build doubled) stores the day once, and
        /// an export without an `ExportDate` has the lowest version: a dated export replaces its summaries.
        func aDayWrittenTwiceInOneExportIsStoredOnce() throws {
            try Self.eachStore { store, name in
                let twice = Support.export(Self.summary("2024-05-30", energy: "512.5", exercise: "41") + "\n"
                                           + Self.summary("2024-05-30", energy: "2144.3", unit: "kJ", exercise: "41"))
                let receipt = try Support.importXML(twice, into: store)
                expectEqual(try Self.days(store), ["2024-05-30 512.5 kcal 41"], "\(name): \(receipt.counts)")
                let undated = Support.export(Self.summary("2024-05-30", energy: "400", exercise: "30"))
                    .replacingOccurrences(of: " <ExportDate value=\"2024-06-01 09:00:00 -0700\"/>\n", with: "")
                let fresh = InMemorySampleStore()
                _ = try Support.importXML(undated, into: fresh)
                expectEqual(try Self.days(fresh), ["2024-05-30 400 kcal 30"], "\(name)")
                _ = try Support.importXML(twice, into: fresh)
                expectEqual(try Self.days(fresh), ["2024-05-30 512.5 kcal 41"], "\(name)")
            }
        }

        /// A store written by a build before summaries carried sync keys (the summary's metadata as it stored it),
        /// with a day stored twice (kcal, then kJ): the next import leaves one summary a day, the export's.
        func summariesStoredWithoutSyncKeysAreReplacedByTheNextImport() throws {
            try Self.eachStore { store, name in
                try store.saveImported([Self.legacy("2024-05-30", energy: "512.5", unit: "kcal"), Self.legacy("2024-05-30", energy: "2144.3", unit: "kJ"),
                                        Self.legacy("2024-05-29", energy: "300", unit: "kcal")])
                let receipt = try Support.importXML(Self.june2, into: store)
                expectEqual(try Self.days(store), ["2024-05-29 300 kcal 41"] + Self.later, "\(name): \(receipt.counts)")
                // The day stored twice is one summary replaced (its copy goes with it); the two other days are new.
                expectEqual(receipt.counts[Self.type]?.replaced, 1, "\(name): \(receipt.counts)")
                expectEqual(receipt.counts[Self.type]?.keptGenerically, 2, "\(name): \(receipt.counts)")
            }
        }

        /// hkctl's JSON-lines export made by a build before summaries had sync keys (a backup): importing it again
        /// into the store it came from changes nothing, after a later export replaced its summary too, and in a fresh
        /// store its summary is replaced by a dated export's.
        func aBackupFromBeforeSyncKeysDoesNotBringAReplacedSummaryBack() throws {
            try Support.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store")
                try store.saveImported([Self.legacy("2024-05-30", energy: "512.5", unit: "kcal")])
                let backup = folder + "/backup.jsonl"
                try Self.export(store, as: .jsonl, to: backup, exportDate: 1_717_243_200)
                let files = try ExportVariationTests.storeContents(folder + "/store")
                let same = try HealthImporter(store: store).importFile(atPath: backup)
                expectEqual(same.counts[Self.type]?.alreadyPresent, 1, "\(same.counts)")
                #expect(try ExportVariationTests.storeContents(folder + "/store") == files, "the store was written")
                expectEqual(try Self.days(store), ["2024-05-30 512.5 kcal 41"])
                _ = try Support.importXML(Self.june2, into: store)
                let back = try HealthImporter(store: store).importFile(atPath: backup)
                expectEqual(back.counts[Self.type]?.alreadyPresent, 1, "\(back.counts)")
                expectEqual(try Self.days(store), Self.later)
                let fresh = JSONFileStore(path: folder + "/fresh")
                _ = try HealthImporter(store: fresh).importFile(atPath: backup)
                _ = try Support.importXML(Self.june2, into: fresh)
                expectEqual(try Self.days(fresh), Self.later)
            }
        }

        /// The review of this rule: a later export writing past days as they were (a week's exports, each holding the
        /// year) changes nothing, instead of replacing every summary with its copy; a summary whose day does not
        /// exist, or is written another way, gets no sync keys (it is not one of a day's versions); hkctl's own Health
        /// XML export of a summary without keys (a build before them) is that day's lowest version, not the backup's
        /// date; and a library save keeps refusing a uuid the store holds.
        func theReviewsCasesOfTheRule() throws {
            try Self.eachStore { store, name in
                _ = try Support.importXML(Self.june2, into: store)
                let again = try Support.importXML(Self.june9, into: store)
                expectEqual(again.counts[Self.type]?.alreadyPresent, 3, "\(name): \(again.counts)")
                expectEqual(again.counts[Self.type]?.replaced ?? 0, 0, "\(name): \(again.counts)")
            }
            try Support.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store")
                _ = try Support.importXML(Self.june2, into: store)
                let files = try ExportVariationTests.storeContents(folder + "/store").filter { $0.key.hasPrefix("samples/") }
                _ = try Support.importXML(Self.june9, into: store)
                #expect(try ExportVariationTests.storeContents(folder + "/store").filter { $0.key.hasPrefix("samples/") } == files,
                        "a later export of the same figures rewrote the store")
                // Days that do not exist, or written another way: no keys.
                let odd = JSONFileStore(path: folder + "/odd")
                _ = try Support.importXML(Support.export(Self.summary("2024-02-30", energy: "100", exercise: "1") + "\n"
                                                         + Self.summary("2024-5-30", energy: "100", exercise: "1")), into: odd)
                var stored: [Sample] = []
                try odd.forEachSample(ofType: Self.type, overlapping: Self.everything) {
                    stored.append($0)
                }
                expectEqual(stored.count, 2)
                #expect(stored.allSatisfy { $0.metadata[MetadataKeySyncIdentifier] == nil }, "\(stored.map(\.metadata))")
                // A Health XML backup made by a build before sync keys, imported after a later export: no change.
                let legacy = JSONFileStore(path: folder + "/legacy")
                try legacy.saveImported([Self.legacy("2024-05-30", energy: "512.5", unit: "kcal")])
                let backup = folder + "/backup.xml"
                try Self.export(legacy, as: .healthxml, to: backup, exportDate: 1_900_000_000)
                _ = try Support.importXML(Self.june2, into: legacy)
                let restored = try HealthImporter(store: legacy).importFile(atPath: backup)
                expectEqual(restored.counts[Self.type]?.alreadyPresent, 1, "\(restored.counts)")
                expectEqual(try Self.days(legacy), Self.later)
                // A library save of a stored sample under its uuid, with a greater version: refused, as before.
                let library = JSONFileStore(path: folder + "/library")
                let weight = try #require(SampleTypeCatalogue.standard.type(identifier: "HKQuantityTypeIdentifierBodyMass"))
                var sample = IndependentTestKit.quantity(weight, 72, "kg", Date(timeIntervalSince1970: 1_717_000_000))
                sample.metadata = [MetadataKeySyncIdentifier: .string("scale-1"), MetadataKeySyncVersion: .number(1)]
                try library.save([sample])
                sample.metadata[MetadataKeySyncVersion] = .number(2)
                #expect(throws: SampleError.self) { try library.save([sample]) }
            }
        }

        /// A day written twice by one export is stored once, counted as by the rule (the dry run alike); one written
        /// twice with keys (hkctl's own export, versions 1 and 3) is stored once and an undo of the import leaves
        /// nothing (a review of a route that wrote the first with the batches: the undo brought version 1 back); and
        /// another process storing summaries of the same days during an import (a later export's) leaves one a day.
        func aDayTwiceInOneExportAndAnotherWriterMeanwhile() throws {
            try Support.withTemporaryDirectory { folder in
                let twice = Support.export(Self.summary("2024-05-30", energy: "512.5", exercise: "41") + "\n"
                                           + Self.summary("2024-05-30", energy: "2144.3", unit: "kJ", exercise: "41"))
                let store = JSONFileStore(path: folder + "/twice")
                let receipt = try Support.importXML(twice, into: store)
                expectEqual(try Self.days(store), ["2024-05-30 512.5 kcal 41"])
                expectEqual(receipt.counts[Self.type]?.keptGenerically, 1, "\(receipt.counts)")
                expectEqual(receipt.counts[Self.type]?.alreadyPresent, 1, "\(receipt.counts)")
                let dry = try Support.importXML(twice, into: JSONFileStore(path: folder + "/dry"), dryRun: true)
                expectEqual(dry.counts, receipt.counts)
                // Another writer stores the June export's summaries while the import goes on.
                let steps = Support.record(value: "100", start: "2024-05-29 08:00:00 +0000", end: "2024-05-29 08:10:00 +0000")
                let may = Support.export(steps + "\n" + Self.summary("2024-05-30", energy: "512.5", exercise: "41") + "\n"
                                         + Self.summary("2024-05-31", energy: "56.6", exercise: "6"), exportDate: "2024-05-31 19:00:00 +0200")
                let shared = folder + "/shared"
                let path = try Support.write(may, in: folder)
                var other = false
                let importer = HealthImporter(store: JSONFileStore(path: shared), progressInterval: 1)
                _ = try importer.importFile(atPath: path) { progress in
                    guard !other, progress.records >= 2 else { return }
                    other = true
                    _ = try? Support.importXML(Self.june2, into: JSONFileStore(path: shared))
                }
                #expect(other)
                expectEqual(try Self.days(JSONFileStore(path: shared)), Self.later)
                // Keyed twice, into an empty store, then undone.
                func keyed(_ energy: String, version: Int) -> String {
                    " <ActivitySummary dateComponents=\"2024-05-30\" activeEnergyBurned=\"\(energy)\" activeEnergyBurnedUnit=\"kcal\">\n"
                        + "  <MetadataEntry key=\"HKMetadataKeySyncIdentifier\" value=\"hkctl.ActivitySummary.2024-05-30\"/>\n"
                        + "  <MetadataEntry key=\"HKMetadataKeySyncVersion\" value=\"\(version)\"/>\n </ActivitySummary>"
                }
                let recorded = JSONFileStore(path: folder + "/undo", timeZone: .gmt,
                                             recording: OperationRecording(kind: .import, source: "hkctl", date: Date()))
                let keyedTwice = try Support.importXML(Support.export(keyed("100", version: 1) + "\n" + keyed("200", version: 3)), into: recorded)
                expectEqual(keyedTwice.counts[Self.type]?.keptGenerically, 1, "\(keyedTwice.counts)")
                let plain = JSONFileStore(path: folder + "/undo", timeZone: .gmt)
                expectEqual(try Self.days(plain), ["2024-05-30 200 kcal -"])
                _ = try plain.undo(source: "hkctl", now: Date(timeIntervalSince1970: 1_800_000_000))
                expectEqual(try Self.days(plain), [])
            }
        }

        /// hkctl's own Health XML export writes a summary's sync keys as metadata entries: importing it into the same
        /// store changes nothing, and into a fresh one gives the same summaries.
        func aSummaryRoundTripsThroughHkctlsExport() throws {
            try Support.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store")
                _ = try Support.importXML(Self.may31Evening, into: store)
                _ = try Support.importXML(Self.june2, into: store)
                let xml = folder + "/export.xml"
                try Self.export(store, as: .healthxml, to: xml, exportDate: 1_900_000_000, zone: "Europe/Berlin")
                let back = try HealthImporter(store: store).importFile(atPath: xml)
                expectEqual(back.counts[Self.type]?.alreadyPresent, 3, "\(back.counts)")
                let fresh = JSONFileStore(path: folder + "/fresh")
                _ = try HealthImporter(store: fresh).importFile(atPath: xml)
                expectEqual(try Self.days(fresh), Self.later)
                expectEqual(try ExportVariationTests.lines(fresh), try ExportVariationTests.lines(store))
                // The June export after the round trip: the same versions, nothing changes.
                let again = try Support.importXML(Self.june2, into: fresh)
                expectEqual(again.counts[Self.type]?.alreadyPresent, 3, "\(again.counts)")
            }
        }

        /// Undoing the import that replaced summaries brings the earlier ones back.
        func undoingTheLaterImportBringsTheEarlierSummariesBack() throws {
            try Support.withTemporaryDirectory { folder in
                func importing() -> JSONFileStore {
                    JSONFileStore(path: folder + "/store", timeZone: .gmt, recording: OperationRecording(kind: .import, source: "hkctl", date: Date()))
                }
                _ = try Support.importXML(Self.may31Evening, into: importing())
                let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
                let before = try Self.days(store)
                _ = try Support.importXML(Self.june2, into: importing())
                let undone = try store.undo(source: "hkctl", now: Date(timeIntervalSince1970: 1_800_000_000))
                expectEqual(undone.kind, .replace)
                expectEqual(try Self.days(store), before)
            }
        }
    }
}

let activitySummaryImportTestsChecks: [Check<ImportTests.ActivitySummaryImportTests>] = [
    Check("aLaterExportsSummaryOfADayReplacesTheEarlierOne", ImportTests.ActivitySummaryImportTests.aLaterExportsSummaryOfADayReplacesTheEarlierOne),
    Check("anEarlierExportDoesNotReplaceALaterOnesSummary", ImportTests.ActivitySummaryImportTests.anEarlierExportDoesNotReplaceALaterOnesSummary),
    Check("aDayWrittenTwiceInOneExportIsStoredOnce", ImportTests.ActivitySummaryImportTests.aDayWrittenTwiceInOneExportIsStoredOnce),
    Check("summariesStoredWithoutSyncKeysAreReplacedByTheNextImport",
          ImportTests.ActivitySummaryImportTests.summariesStoredWithoutSyncKeysAreReplacedByTheNextImport),
    Check("aBackupFromBeforeSyncKeysDoesNotBringAReplacedSummaryBack",
          ImportTests.ActivitySummaryImportTests.aBackupFromBeforeSyncKeysDoesNotBringAReplacedSummaryBack),
    Check("aDayTwiceInOneExportAndAnotherWriterMeanwhile", ImportTests.ActivitySummaryImportTests.aDayTwiceInOneExportAndAnotherWriterMeanwhile),
    Check("theReviewsCasesOfTheRule", ImportTests.ActivitySummaryImportTests.theReviewsCasesOfTheRule),
    Check("aSummaryRoundTripsThroughHkctlsExport", ImportTests.ActivitySummaryImportTests.aSummaryRoundTripsThroughHkctlsExport),
    Check("undoingTheLaterImportBringsTheEarlierSummariesBack",
          ImportTests.ActivitySummaryImportTests.undoingTheLaterImportBringsTheEarlierSummariesBack),
]
