import Foundation
import Testing
import TestKit
@testable import HealthCore

/// A Health Auto Export remainder (`HAERemainder` = `export`) stays what the rule gives for the samples stored now when
/// a greater sync version replaces an export's sample it was computed against (docs/IMPORT.md, "One truth with bulk
/// imports"). The day: an export made at noon holds a walk of 300 steps (08:00–08:30, sync identifier `walk-1`,
/// version 1), HAE sends the day's 1,000, and a later export holds the walk edited to 350 (version 2). The day counts
/// 1,000 (the walk's 350 and a remainder of 650) in every order of the three.
struct HAERemainderSyncVersionTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: hAERemainderSyncVersionTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Support = ImportTestSupport

    /// One of the day's three files.
    enum File: CaseIterable, CustomStringConvertible {
        /// The export with the walk's version 1 (300).
        case first
        /// HAE's day total (1,000).
        case hae
        /// The export with the walk's version 2 (350).
        case second

        var description: String {
            switch self {
            case .first: "export v1"
            case .hae: "HAE"
            case .second: "export v2"
            }
        }
    }

    /// The walk in `version` (its value tells the versions apart), in an export made at noon.
    private static func export(_ steps: Int, version: Int) -> String {
        let walk = Support.record(value: String(steps), start: "2024-05-06 08:00:00 +0000", end: "2024-05-06 08:30:00 +0000",
                                  metadata: [("HKMetadataKeySyncIdentifier", "walk-1"), ("HKMetadataKeySyncVersion", String(version))])
        return Support.export(walk, exportDate: "2024-05-06 12:00:00 +0000")
    }

    /// A store at `folder` that records its writes as one operation (for `undo`).
    private static func recording(_ folder: String) -> JSONFileStore {
        JSONFileStore(path: folder + "/store", timeZone: .gmt, recording: OperationRecording(kind: .import, source: "hkctl", date: Date()))
    }

    /// Imports `file` into the store at `folder`, as a dry run when `dryRun`; the receipt (nil for HAE's push).
    @discardableResult
    private static func load(_ file: File, into folder: String, dryRun: Bool = false) throws -> ImportReceipt? {
        let store = recording(folder)
        switch file {
        case .first: return try Support.importXML(export(300, version: 1), into: store, dryRun: dryRun)
        case .second: return try Support.importXML(export(350, version: 2), into: store, dryRun: dryRun)
        case .hae:
            try Support.pushHAE(Support.haeSteps([("2024-05-06 00:00:00", 1000)]), into: store)
            return nil
        }
    }

    /// The day's steps as stored.
    private static func day(_ folder: String) throws -> Double {
        let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
        let from = ISO8601DateFormatter().date(from: "2024-05-06T00:00:00Z")!
        return try Support.proRataSteps(store, in: DateInterval(start: from, duration: 86_400))
    }

    /// The six orders of the three files.
    private static let orders: [[File]] = [
        [.first, .hae, .second], [.first, .second, .hae], [.hae, .first, .second],
        [.hae, .second, .first], [.second, .first, .hae], [.second, .hae, .first],
    ]

    /// In every order the day counts HAE's 1,000; the three files again change nothing. (Export v1, HAE, export v2
    /// counted 1,050: the remainder of 700 computed against version 1 stayed beside version 2's 350.)
    func everyOrderCountsTheDaysTotalOnce() throws {
        for order in Self.orders {
            try Support.withTemporaryDirectory { folder in
                for file in order { try Self.load(file, into: folder) }
                let got = try Self.day(folder)
                #expect(abs(got - 1000) < 1e-6, "\(order): got \(got)")
                let before = try Support.sampleFiles(folder + "/store")
                for file in order {
                    let receipt = try Self.load(file, into: folder)
                    #expect((receipt?.supersededHealthAutoExport ?? 0) == 0, "\(order): \(file) again superseded")
                }
                try #expect(Support.sampleFiles(folder + "/store") == before, "\(order): the files again changed the store")
            }
        }
    }

    /// Export v1, HAE, export v2, each undone in turn: 1,000 (300 and 700), then HAE's push undone leaves the walk's
    /// 300, then the first export's undo leaves nothing.
    func undoGoesBackThroughEachState() throws {
        try Support.withTemporaryDirectory { folder in
            for file in [File.first, .hae, .second] { try Self.load(file, into: folder) }
            let plain = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            for expected in [1000.0, 300, 0] {
                _ = try plain.undo(source: "hkctl", now: Date())
                let got = try Self.day(folder)
                #expect(abs(got - expected) < 1e-6, "after an undo: got \(got), expected \(expected)")
            }
        }
    }

    /// A dry run of the second export counts what the real import supersedes (the remainder computed again) and
    /// writes nothing.
    func aDryRunOfTheSecondExportAgreesWithTheImport() throws {
        try Support.withTemporaryDirectory { folder in
            for file in [File.first, .hae] { try Self.load(file, into: folder) }
            let before = try Support.sampleFiles(folder + "/store")
            let dry = try Self.load(.second, into: folder, dryRun: true)
            try #expect(Support.sampleFiles(folder + "/store") == before)
            let real = try Self.load(.second, into: folder)
            #expect(real?.supersededHealthAutoExport == 1)
            #expect(dry?.supersededHealthAutoExport == real?.supersededHealthAutoExport,
                    "dry \(String(describing: dry?.supersededHealthAutoExport)) real \(String(describing: real?.supersededHealthAutoExport))")
        }
    }

    /// A change to the walk after export v1 and HAE (300 and a remainder of 700) through the library, in one operation
    /// of `kind` (the store weighs HAE's points again itself, as `hkctl edit` and `hkctl delete` rely on). The day after
    /// it, and after its undo.
    private static func change(_ kind: OperationRecord.Kind, _ body: (JSONFileStore, Sample) throws -> Void) throws
        -> (after: Double, undone: Double, remainder: Double?) {
        try Support.withTemporaryDirectory { folder in
            for file in [File.first, .hae] { try load(file, into: folder) }
            let plain = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            let walk = try plain.samples(ofType: "HKQuantityTypeIdentifierStepCount", overlapping: OperationTestKit.everything)
                .first { $0.metadata[HAESampleBuilder.aggregationKey] == nil }!
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt,
                                      recording: OperationRecording(kind: kind, source: "hkctl", date: Date()))
            try body(store, walk)
            let after = try day(folder)
            _ = try plain.undo(source: "hkctl", now: Date())
            let remainder = try plain.samples(ofType: "HKQuantityTypeIdentifierStepCount", overlapping: OperationTestKit.everything)
                .first { $0.metadata[HAECoverage.remainderKey] != nil }?.value.quantity?.value
            return (after, try day(folder), remainder)
        }
    }

    /// The walk corrected to 350 (`hkctl edit`): the day stays 1,000 (350 and 650); undone, 300 and 700.
    func anEditOfTheExportsSampleWeighsTheRemainderAgain() throws {
        let got = try Self.change(.replace) { store, walk in
            var corrected = walk
            corrected.uuid = UUID()
            corrected.value = .quantity(Quantity(350, .count()))
            try store.replace([walk.uuid], with: [corrected], now: Date())
        }
        #expect(abs(got.after - 1000) < 1e-6 && abs(got.undone - 1000) < 1e-6, "after \(got.after), undone \(got.undone)")
        #expect(got.remainder == 700)
    }

    /// The walk deleted (`hkctl delete`): HAE's day is whole again, 1,000; undone, 300 and 700.
    func aDeleteOfTheExportsSampleGivesTheRemainderBack() throws {
        let got = try Self.change(.delete) { store, walk in
            _ = try store.delete(uuids: [walk.uuid], now: Date())
        }
        #expect(abs(got.after - 1000) < 1e-6 && abs(got.undone - 1000) < 1e-6, "after \(got.after), undone \(got.undone)")
        #expect(got.remainder == 700)
    }

    /// The walk in `version` with `steps`, as a program saves a newer version of it.
    private static func version(_ version: Int, steps: Double, of walk: Sample) -> Sample {
        var newer = walk
        newer.uuid = UUID()
        newer.value = .quantity(Quantity(steps, .count()))
        newer.metadata["HKMetadataKeySyncVersion"] = .number(Double(version))
        return newer
    }

    /// A program saving the walk's version 2 (350) through the library, as the owner: the day stays 1,000 (before
    /// session 46 only the next import weighed the remainder again, and the day read 1,050 until then).
    func aLibrarySaveOfAGreaterVersionWeighsTheRemainderAgain() throws {
        let got = try Self.change(.add) { store, walk in
            let outcome = try store.saveReporting([Self.version(2, steps: 350, of: walk)])
            expectEqual(outcome.replaced.count, 1, "\(outcome)")
        }
        #expect(abs(got.after - 1000) < 1e-6 && abs(got.undone - 1000) < 1e-6, "after \(got.after), undone \(got.undone)")
        #expect(got.remainder == 700)
    }

    /// The same through a `HealthStore` of the owner: its save of version 2, and its delete of the walk.
    func theOwnersHealthStoreWeighsTheRemainderAgain() throws {
        let saved = try Self.change(.add) { store, walk in
            try HealthStore(storage: store, source: AuthorizationState.ownerSource).save([Self.version(2, steps: 350, of: walk)])
        }
        #expect(abs(saved.after - 1000) < 1e-6 && abs(saved.undone - 1000) < 1e-6, "after \(saved.after), undone \(saved.undone)")
        let deleted = try Self.change(.delete) { store, walk in
            try HealthStore(storage: store, source: AuthorizationState.ownerSource).delete([walk])
        }
        #expect(abs(deleted.after - 1000) < 1e-6 && abs(deleted.undone - 1000) < 1e-6,
                "after \(deleted.after), undone \(deleted.undone)")
    }
}

/// The checks ``HAERemainderSyncVersionTests/checks(_:)`` runs.
private let hAERemainderSyncVersionTestsChecks: [Check<HAERemainderSyncVersionTests>] = [
    Check("everyOrderCountsTheDaysTotalOnce", HAERemainderSyncVersionTests.everyOrderCountsTheDaysTotalOnce),
    Check("undoGoesBackThroughEachState", HAERemainderSyncVersionTests.undoGoesBackThroughEachState),
    Check("aDryRunOfTheSecondExportAgreesWithTheImport", HAERemainderSyncVersionTests.aDryRunOfTheSecondExportAgreesWithTheImport),
    Check("anEditOfTheExportsSampleWeighsTheRemainderAgain", HAERemainderSyncVersionTests.anEditOfTheExportsSampleWeighsTheRemainderAgain),
    Check("aDeleteOfTheExportsSampleGivesTheRemainderBack", HAERemainderSyncVersionTests.aDeleteOfTheExportsSampleGivesTheRemainderBack),
    Check("aLibrarySaveOfAGreaterVersionWeighsTheRemainderAgain",
          HAERemainderSyncVersionTests.aLibrarySaveOfAGreaterVersionWeighsTheRemainderAgain),
    Check("theOwnersHealthStoreWeighsTheRemainderAgain", HAERemainderSyncVersionTests.theOwnersHealthStoreWeighsTheRemainderAgain),
]
