import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Issue 30: exports and Health Auto Export points of several forms in many orders (a reviewer's probes of session 16's
/// `HAEFinerPoints` and `HAEPeriodStart`). Each test states the figure a person expects.
struct HAEExportAndChainTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: hAEExportAndChainTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Support = ImportTestSupport
    private static let type = "HKQuantityTypeIdentifierStepCount"

    private static func push(_ points: [(date: String, steps: Double)], into store: JSONFileStore) throws {
        try Support.pushHAE(Support.haeSteps(points), into: store)
    }

    private static func steps(_ value: Int, _ start: String, _ end: String, source: String = "Jane’s iPhone") -> String {
        Support.record(value: String(value), source: source, start: start + " +0000", end: end + " +0000")
    }

    private static func exportXML(_ records: [String], into store: JSONFileStore) throws {
        _ = try Support.importXML(Support.export(records.joined(separator: "\n")), into: store)
    }

    private static func date(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    /// Steps between two UTC times (``ImportTestSupport/proRataSteps(_:in:)``).
    private static func total(_ store: JSONFileStore, _ from: String, _ to: String) throws -> Double {
        try Support.proRataSteps(store, in: DateInterval(start: date(from), end: date(to)))
    }

    /// R1. HAE day 10,000; an export made at noon (4,000 08–12): the day's rest is 6,000 over 12:00–24:00 with
    /// HAEPeriodStart. A later import that adds any step (here another app's 500 steps) re-runs the superseding: the
    /// rest is weighed over its whole period again and the export's morning comes off it a second time.
    func r1ALaterImportDoesNotTakeTheExportsMorningOffTheRestAgain() throws {
        try Support.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            try Self.push([("2024-05-06 00:00:00", 10000)], into: store)
            try Self.exportXML([Self.steps(4000, "2024-05-06 08:00:00", "2024-05-06 12:00:00")], into: store)
            #expect(abs(try Self.total(store, "2024-05-06T00:00:00Z", "2024-05-07T00:00:00Z") - 10000) < 1e-6)
            try Self.exportXML([Self.steps(500, "2024-05-06 09:00:00", "2024-05-06 09:30:00", source: "Pedometer++")], into: store)
            let got = try Self.total(store, "2024-05-06T00:00:00Z", "2024-05-07T00:00:00Z")
            #expect(abs(got - 10500) < 1e-6, "got \(got)")
        }
    }

    /// R1b. The same day, a second export made at 21:00 (the morning again and 5,000 13:00–20:00): the day counts
    /// 10,000 (the export's 9,000 and HAE's rest 1,000 over 20:00–24:00).
    func r1bASecondExportTheSameDayKeepsTheDaysTotal() throws {
        try Support.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            try Self.push([("2024-05-06 00:00:00", 10000)], into: store)
            let morning = Self.steps(4000, "2024-05-06 08:00:00", "2024-05-06 12:00:00")
            try Self.exportXML([morning], into: store)
            try Self.exportXML([morning, Self.steps(5000, "2024-05-06 13:00:00", "2024-05-06 20:00:00")], into: store)
            let got = try Self.total(store, "2024-05-06T00:00:00Z", "2024-05-07T00:00:00Z")
            #expect(abs(got - 10000) < 1e-6, "got \(got)")
        }
    }

    /// R2. The existing test's store (week 70,000, Monday 12,000, Tuesday 9,000, export at Tuesday noon) and then a
    /// second export at Tuesday 21:00 (Tuesday 13:00–20:00, 5,000 more): the week still counts 70,000.
    func r2ASecondExportAfterTheWeeksDaysKeepsTheWeeksTotal() throws {
        try Support.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            try Self.push([("2024-05-06 00:00:00", 70000), ("2024-05-13 00:00:00", 35000)], into: store)
            try Self.push([("2024-05-06 00:00:00", 12000)], into: store)
            try Self.push([("2024-05-07 00:00:00", 9000)], into: store)
            let first = [Self.steps(12000, "2024-05-06 08:00:00", "2024-05-06 20:00:00"),
                         Self.steps(3000, "2024-05-07 08:00:00", "2024-05-07 12:00:00")]
            try Self.exportXML(first, into: store)
            #expect(abs(try Self.total(store, "2024-05-06T00:00:00Z", "2024-05-13T00:00:00Z") - 70000) < 1e-6)
            try Self.exportXML(first + [Self.steps(5000, "2024-05-07 13:00:00", "2024-05-07 20:00:00")], into: store)
            let week = try Self.total(store, "2024-05-06T00:00:00Z", "2024-05-13T00:00:00Z")
            let tuesday = try Self.total(store, "2024-05-07T00:00:00Z", "2024-05-08T00:00:00Z")
            #expect(abs(week - 70000) < 1e-6, "week got \(week)")
            #expect(abs(tuesday - 9000) < 1e-6, "Tuesday got \(tuesday)")
        }
    }

    /// R3. HAE day Tuesday 9,000; an export at Tuesday noon (Monday 12,000, Tuesday 3,000 08–12): Tuesday's rest is
    /// 6,000 over 12:00–24:00. Then HAE's week (70,000, another automation or a changed setting): the week's own
    /// remainder after the export (55,000 from Tuesday noon) already holds Tuesday afternoon, so Tuesday's rest
    /// must go: 70,000, not 76,000.
    func r3AWeekSentAfterADaysExportRemainderCountsOnce() throws {
        try Support.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            try Self.push([("2024-05-07 00:00:00", 9000)], into: store)
            try Self.exportXML([Self.steps(12000, "2024-05-06 08:00:00", "2024-05-06 20:00:00"),
                                Self.steps(3000, "2024-05-07 08:00:00", "2024-05-07 12:00:00")], into: store)
            #expect(abs(try Self.total(store, "2024-05-07T00:00:00Z", "2024-05-08T00:00:00Z") - 9000) < 1e-6)
            try Self.push([("2024-05-06 00:00:00", 70000), ("2024-05-13 00:00:00", 35000)], into: store)
            let week = try Self.total(store, "2024-05-06T00:00:00Z", "2024-05-13T00:00:00Z")
            #expect(abs(week - 70000) < 1e-6, "week got \(week)")
        }
    }

    /// R4. Week 70,000; Monday 12,000 and Tuesday 9,000 (days); then Tuesday's first hours (00:00 100, 01:00 200):
    /// the week counts 70,000 and Tuesday 9,000 (the hours come off Tuesday's day, which comes off the week).
    func r4HoursInsideADayInsideAWeekCountOnce() throws {
        try Support.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            try Self.push([("2024-05-06 00:00:00", 70000), ("2024-05-13 00:00:00", 35000)], into: store)
            try Self.push([("2024-05-06 00:00:00", 12000), ("2024-05-07 00:00:00", 9000)], into: store)
            try Self.push([("2024-05-07 00:00:00", 100), ("2024-05-07 01:00:00", 200)], into: store)
            let week = try Self.total(store, "2024-05-06T00:00:00Z", "2024-05-13T00:00:00Z")
            let tuesday = try Self.total(store, "2024-05-07T00:00:00Z", "2024-05-08T00:00:00Z")
            #expect(abs(week - 70000) < 1e-6, "week got \(week)")
            #expect(abs(tuesday - 9000) < 1e-6, "Tuesday got \(tuesday)")
        }
    }

    /// R4b. The same without a leading run (Wednesday alone, then its hours): was the chain wrong before 57e6b17 too?
    func r4bHoursInsideAMiddleDayInsideAWeekCountOnce() throws {
        try Support.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            try Self.push([("2024-05-06 00:00:00", 70000), ("2024-05-13 00:00:00", 35000)], into: store)
            try Self.push([("2024-05-08 00:00:00", 10000)], into: store)
            try Self.push([("2024-05-08 00:00:00", 100), ("2024-05-08 01:00:00", 200)], into: store)
            let week = try Self.total(store, "2024-05-06T00:00:00Z", "2024-05-13T00:00:00Z")
            #expect(abs(week - 70000) < 1e-6, "week got \(week)")
        }
    }

    private static let weekPayload: [(date: String, steps: Double)] = [("2024-05-06 00:00:00", 70000), ("2024-05-13 00:00:00", 35000)]
    private static let daysPayload: [(date: String, steps: Double)] = [("2024-05-06 00:00:00", 12000), ("2024-05-07 00:00:00", 9000)]
    private static let hoursPayload: [(date: String, steps: Double)] = [("2024-05-07 00:00:00", 100), ("2024-05-07 01:00:00", 200)]

    /// R5. R4's three payloads (a synced folder with files of three aggregation settings) imported again as they are:
    /// nothing written.
    func r5TheSameThreeSettingsAgainWriteNothing() throws {
        try Support.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            for points in [Self.weekPayload, Self.daysPayload, Self.hoursPayload] { try Self.push(points, into: store) }
            let before = try Support.sampleFiles(folder + "/store")
            for points in [Self.weekPayload, Self.daysPayload, Self.hoursPayload] { try Self.push(points, into: store) }
            try expectEqual(Support.sampleFiles(folder + "/store"), before, "the same payloads again rewrote the store")
            let week = try Self.total(store, "2024-05-06T00:00:00Z", "2024-05-13T00:00:00Z")
            #expect(abs(week - 70000) < 1e-6, "week got \(week)")
        }
    }

    /// R6. Week, Monday and Tuesday, then Monday's first hours: the week and Monday day both start at Monday 00:00, so
    /// the plan settles them in a dictionary's order. The same input must give the same figure every time.
    func r6HoursAtTheWeeksStartGiveOneFigure() throws {
        var seen = Set<Double>()
        for _ in 0..<8 {
            try Support.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
                try Self.push(Self.weekPayload, into: store)
                try Self.push(Self.daysPayload, into: store)
                try Self.push([("2024-05-06 00:00:00", 100), ("2024-05-06 01:00:00", 200)], into: store)
                seen.insert((try Self.total(store, "2024-05-06T00:00:00Z", "2024-05-13T00:00:00Z")).rounded())
            }
        }
        expectEqual(seen, [70000], "week totals seen: \(seen.sorted())")
    }

    /// R8. A week across a month's end (Monday 29 April 2024): Monday and Tuesday sent, the rest lies from 1 May in
    /// May's partition; Monday re-sent grown, then everything again; an export made on 30 April at noon.
    func r8AWeekAcrossAMonthsEnd() throws {
        try Support.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            try Self.push([("2024-04-29 00:00:00", 70000), ("2024-05-06 00:00:00", 35000)], into: store)
            try Self.push([("2024-04-29 00:00:00", 12000), ("2024-04-30 00:00:00", 9000)], into: store)
            #expect(abs(try Self.total(store, "2024-05-01T00:00:00Z", "2024-05-02T00:00:00Z") - 49000.0 / 5) < 1e-6)
            try Self.push([("2024-04-29 00:00:00", 12500)], into: store)
            #expect(abs(try Self.total(store, "2024-04-29T00:00:00Z", "2024-05-06T00:00:00Z") - 70000) < 1e-6)
            let before = try Support.sampleFiles(folder + "/store")
            try Self.push([("2024-04-29 00:00:00", 70000), ("2024-05-06 00:00:00", 35000)], into: store)
            try Self.push([("2024-04-29 00:00:00", 12500)], into: store)
            try Self.push([("2024-04-30 00:00:00", 9000)], into: store)
            try expectEqual(Support.sampleFiles(folder + "/store"), before, "identical re-sends rewrote the store")
            try Self.exportXML([Self.steps(12500, "2024-04-29 08:00:00", "2024-04-29 20:00:00"),
                                Self.steps(3000, "2024-04-30 08:00:00", "2024-04-30 12:00:00")], into: store)
            let week = try Self.total(store, "2024-04-29T00:00:00Z", "2024-05-06T00:00:00Z")
            #expect(abs(week - 70000) < 1e-6, "week got \(week)")
            let files = try Support.sampleFiles(folder + "/store")
            try Self.push([("2024-04-29 00:00:00", 70000), ("2024-05-06 00:00:00", 35000)], into: store)
            try Self.push([("2024-04-30 00:00:00", 9000)], into: store)
            try expectEqual(Support.sampleFiles(folder + "/store"), files, "identical re-sends after the export rewrote the store")
        }
    }

    /// R9. Undo, newest first: week, days, an export at Tuesday noon, Tuesday re-sent grown (10,000); undo the re-send
    /// then the export: 70,000 after each, and Monday and Tuesday HAE's again at the end.
    func r9UndoAfterATrim() throws {
        try Support.withTemporaryDirectory { folder in
            let plain = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            // One recording store per operation (a store's recording gives all its writes one operation id).
            var store: JSONFileStore { JSONFileStore(path: folder + "/store", timeZone: .gmt,
                                                     recording: OperationRecording(kind: .import, source: "hkctl", date: Date())) }
            try Self.push(Self.weekPayload, into: store)
            try Self.push(Self.daysPayload, into: store)
            try Self.exportXML([Self.steps(12000, "2024-05-06 08:00:00", "2024-05-06 20:00:00"),
                                Self.steps(3000, "2024-05-07 08:00:00", "2024-05-07 12:00:00")], into: store)
            try Self.push([("2024-05-07 00:00:00", 10000)], into: store)
            var week = try Self.total(store, "2024-05-06T00:00:00Z", "2024-05-13T00:00:00Z")
            #expect(abs(week - 70000) < 1e-6, "after the re-send: week got \(week)")
            _ = try plain.undo(source: "hkctl", now: Date())
            week = try Self.total(store, "2024-05-06T00:00:00Z", "2024-05-13T00:00:00Z")
            #expect(abs(week - 70000) < 1e-6, "after undoing the re-send: week got \(week)")
            let tuesday = try Self.total(store, "2024-05-07T00:00:00Z", "2024-05-08T00:00:00Z")
            #expect(abs(tuesday - 9000) < 1e-6, "after undoing the re-send: Tuesday got \(tuesday)")
            _ = try plain.undo(source: "hkctl", now: Date())
            week = try Self.total(store, "2024-05-06T00:00:00Z", "2024-05-13T00:00:00Z")
            #expect(abs(week - 70000) < 1e-6, "after undoing the export: week got \(week)")
            let monday = try Self.total(store, "2024-05-06T00:00:00Z", "2024-05-07T00:00:00Z")
            #expect(abs(monday - 12000) < 1e-6, "after undoing the export: Monday got \(monday)")
        }
    }

    /// R10. Dry run against the real thing: R1's store, the second import with --dry-run counts what the real one
    /// supersedes, and writes nothing.
    func r10DryRunAgreesWithTheRealSecondImport() throws {
        try Support.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            try Self.push([("2024-05-06 00:00:00", 10000)], into: store)
            let morning = Self.steps(4000, "2024-05-06 08:00:00", "2024-05-06 12:00:00")
            try Self.exportXML([morning], into: store)
            let second = Support.export([morning, Self.steps(5000, "2024-05-06 13:00:00", "2024-05-06 20:00:00")].joined(separator: "\n"))
            let before = try Support.sampleFiles(folder + "/store")
            let dry = try Support.importXML(second, into: store, dryRun: true)
            try expectEqual(Support.sampleFiles(folder + "/store"), before)
            let real = try Support.importXML(second, into: store)
            expectEqual(dry.supersededHealthAutoExport, real.supersededHealthAutoExport,
                        "dry \(dry.supersededHealthAutoExport) real \(real.supersededHealthAutoExport)")
        }
    }

    /// R11. Undo of a push (through a token, source "phone") after an export (the owner's) trimmed its rest: week and
    /// days pushed by "phone", an export at Tuesday noon, then "phone"'s days push undone. Expected: the week as HAE
    /// sent it less the export, 70,000 in all.
    func r11UndoOfAPushAfterTheExportTrimmedIt() throws {
        try Support.withTemporaryDirectory { folder in
            func store(_ source: String) -> JSONFileStore {
                JSONFileStore(path: folder + "/store", timeZone: .gmt, recording: OperationRecording(kind: .import, source: source, date: Date()))
            }
            try Self.push(Self.weekPayload, into: store("phone"))
            try Self.push(Self.daysPayload, into: store("phone"))
            try Self.exportXML([Self.steps(12000, "2024-05-06 08:00:00", "2024-05-06 20:00:00"),
                                Self.steps(3000, "2024-05-07 08:00:00", "2024-05-07 12:00:00")], into: store("hkctl"))
            let plain = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            #expect(abs(try Self.total(plain, "2024-05-06T00:00:00Z", "2024-05-13T00:00:00Z") - 70000) < 1e-6)
            _ = try plain.undo(source: "phone", now: Date())
            let week = try Self.total(plain, "2024-05-06T00:00:00Z", "2024-05-13T00:00:00Z")
            #expect(abs(week - 70000) < 1e-6, "after undoing the days push: week got \(week)")
        }
    }

    /// R12. A day pushed (12,000), then pushed grown (13,000, replacing it), then an export that holds all of that day
    /// (and goes on past it): undoing the grown push brings back no 12,000 beside the export's 13,000, since the export
    /// holds the day whole; the undo says so (back already, nothing restored).
    func r12UndoOfAGrownPushAfterAnExportHoldingTheDayRestoresNothing() throws {
        try Support.withTemporaryDirectory { folder in
            func store(_ source: String) -> JSONFileStore {
                JSONFileStore(path: folder + "/store", timeZone: .gmt, recording: OperationRecording(kind: .import, source: source, date: Date()))
            }
            try Self.push([("2024-05-06 00:00:00", 12000)], into: store("phone"))
            try Self.push([("2024-05-06 00:00:00", 13000)], into: store("phone"))
            try Self.exportXML([Self.steps(13000, "2024-05-06 08:00:00", "2024-05-06 20:00:00"),
                                Self.steps(500, "2024-05-07 08:00:00", "2024-05-07 09:00:00")], into: store("hkctl"))
            let plain = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            #expect(abs(try Self.total(plain, "2024-05-06T00:00:00Z", "2024-05-07T00:00:00Z") - 13000) < 1e-6)
            let shown = try #require(try plain.undoPlan(source: "phone"))
            let done = try plain.undo(source: "phone", now: Date())
            #expect(shown.restored == done.restored && shown.alreadyPresent == done.alreadyPresent)
            #expect(done.restored == 0 && done.alreadyPresent == 1, "restored \(done.restored), back already \(done.alreadyPresent)")
            let monday = try Self.total(plain, "2024-05-06T00:00:00Z", "2024-05-07T00:00:00Z")
            #expect(abs(monday - 13000) < 1e-6, "after the undo: Monday got \(monday)")
        }
    }
}

/// The checks ``HAEExportAndChainTests/checks(_:)`` runs.
private let hAEExportAndChainTestsChecks: [Check<HAEExportAndChainTests>] = [
    Check("r1ALaterImportDoesNotTakeTheExportsMorningOffTheRestAgain",
          HAEExportAndChainTests.r1ALaterImportDoesNotTakeTheExportsMorningOffTheRestAgain),
    Check("r1bASecondExportTheSameDayKeepsTheDaysTotal",
          HAEExportAndChainTests.r1bASecondExportTheSameDayKeepsTheDaysTotal),
    Check("r2ASecondExportAfterTheWeeksDaysKeepsTheWeeksTotal",
          HAEExportAndChainTests.r2ASecondExportAfterTheWeeksDaysKeepsTheWeeksTotal),
    Check("r3AWeekSentAfterADaysExportRemainderCountsOnce",
          HAEExportAndChainTests.r3AWeekSentAfterADaysExportRemainderCountsOnce),
    Check("r4HoursInsideADayInsideAWeekCountOnce", HAEExportAndChainTests.r4HoursInsideADayInsideAWeekCountOnce),
    Check("r4bHoursInsideAMiddleDayInsideAWeekCountOnce",
          HAEExportAndChainTests.r4bHoursInsideAMiddleDayInsideAWeekCountOnce),
    Check("r5TheSameThreeSettingsAgainWriteNothing", HAEExportAndChainTests.r5TheSameThreeSettingsAgainWriteNothing),
    Check("r6HoursAtTheWeeksStartGiveOneFigure", HAEExportAndChainTests.r6HoursAtTheWeeksStartGiveOneFigure),
    Check("r8AWeekAcrossAMonthsEnd", HAEExportAndChainTests.r8AWeekAcrossAMonthsEnd),
    Check("r9UndoAfterATrim", HAEExportAndChainTests.r9UndoAfterATrim),
    Check("r10DryRunAgreesWithTheRealSecondImport", HAEExportAndChainTests.r10DryRunAgreesWithTheRealSecondImport),
    Check("r11UndoOfAPushAfterTheExportTrimmedIt", HAEExportAndChainTests.r11UndoOfAPushAfterTheExportTrimmedIt),
    Check("r12UndoOfAGrownPushAfterAnExportHoldingTheDayRestoresNothing",
          HAEExportAndChainTests.r12UndoOfAGrownPushAfterAnExportHoldingTheDayRestoresNothing),
]
