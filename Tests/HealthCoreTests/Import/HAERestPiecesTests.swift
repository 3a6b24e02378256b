import Foundation
import Testing
@testable import HealthCore
import TestKit

/// Issue 30, bug 6: a coarser Health Auto Export point's rest lies over the gaps between the finer points inside its
/// period (``HAEPieces``), so a day sent on its own in the middle of a week counts its own figure by day, and the
/// week's rest lies over the other days only. Totals, re-sends, exports and undo treat the pieces as one point.
struct HAERestPiecesTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: hAERestPiecesTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Support = ImportTestSupport
    private static let week: [(date: String, steps: Double)] = [("2024-05-06 00:00:00", 70000), ("2024-05-13 00:00:00", 35000)]

    private static func push(_ points: [(date: String, steps: Double)], into store: JSONFileStore) throws {
        try Support.pushHAE(Support.haeSteps(points), into: store)
    }

    /// The steps of each day from `first` (UTC), for `count` days.
    private static func days(_ store: JSONFileStore, from first: String, count: Int) throws -> [Double] {
        let start = ISO8601DateFormatter().date(from: first + "T00:00:00Z")!
        return try (0..<count).map { day in
            try Support.proRataSteps(store, in: DateInterval(start: start.addingTimeInterval(Double(day) * 86_400), duration: 86_400))
        }
    }

    private static func close(_ got: [Double], _ want: [Double]) -> Bool {
        got.count == want.count && zip(got, want).allSatisfy { abs($0 - $1) < 1e-6 }
    }

    /// The week, then Tuesday alone (9,000): Tuesday 9,000 and the six other days 61,000 / 6 each; the same two payloads
    /// again write nothing; Tuesday grown (9,600) gives Tuesday 9,600 and the others 60,400 / 6.
    func aDayInTheMiddleOfAWeekCountsItsOwnFigure() throws {
        try Support.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            try Self.push(Self.week, into: store)
            try Self.push([("2024-05-07 00:00:00", 9000)], into: store)
            let other = 61000.0 / 6
            var got = try Self.days(store, from: "2024-05-06", count: 7)
            #expect(Self.close(got, [other, 9000, other, other, other, other, other]), "\(got)")
            let before = try Support.sampleFiles(folder + "/store")
            try Self.push(Self.week, into: store)
            try Self.push([("2024-05-07 00:00:00", 9000)], into: store)
            try expectEqual(Support.sampleFiles(folder + "/store"), before, "identical re-sends rewrote the store")
            try Self.push([("2024-05-07 00:00:00", 9600)], into: store)
            got = try Self.days(store, from: "2024-05-06", count: 7)
            let rest = 60400.0 / 6
            #expect(Self.close(got, [rest, 9600, rest, rest, rest, rest, rest]), "\(got)")
        }
    }

    /// Tuesday and Thursday (in two pushes), then Sunday, whose push reads around Sunday only: the week's rest lies over
    /// Monday, Wednesday, Friday and Saturday, and the week still adds up to 70,000 (the piece over Monday, outside
    /// the last push's window, is replaced with the others, not kept beside them).
    func daysSentOneByOneLeaveTheRestOverTheOthers() throws {
        try Support.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            try Self.push(Self.week, into: store)
            try Self.push([("2024-05-07 00:00:00", 9000)], into: store)
            try Self.push([("2024-05-09 00:00:00", 11000)], into: store)
            try Self.push([("2024-05-12 00:00:00", 6000)], into: store)
            let got = try Self.days(store, from: "2024-05-06", count: 7)
            let rest = (70000.0 - 9000 - 11000 - 6000) / 4
            #expect(Self.close(got, [rest, 9000, rest, 11000, rest, rest, 6000]), "\(got)")
            #expect(abs(got.sum - 70000) < 1e-6)
        }
    }

    /// The week with Tuesday alone, then an export made on Tuesday at noon (Monday 12,000; Tuesday 3,000 from 08:00):
    /// Monday 12,000, Tuesday 9,000, the week 70,000; the week's rest lies from Wednesday on; undoing the export
    /// gives the pieces back (Tuesday 9,000, the others 61,000 / 6).
    func anExportAndItsUndoAfterAMiddleDay() throws {
        try Support.withTemporaryDirectory { folder in
            var store: JSONFileStore {
                JSONFileStore(path: folder + "/store", timeZone: .gmt, recording: OperationRecording(kind: .import, source: "hkctl", date: Date()))
            }
            try Self.push(Self.week, into: store)
            try Self.push([("2024-05-07 00:00:00", 9000)], into: store)
            let records = [Support.record(value: "12000", source: "Jane’s iPhone", start: "2024-05-06 08:00:00 +0000", end: "2024-05-06 20:00:00 +0000"),
                           Support.record(value: "3000", source: "Jane’s iPhone", start: "2024-05-07 08:00:00 +0000", end: "2024-05-07 12:00:00 +0000")]
            _ = try Support.importXML(Support.export(records.joined(separator: "\n")), into: store)
            var got = try Self.days(store, from: "2024-05-06", count: 7)
            #expect(Self.close(Array(got[0...1]), [12000, 9000]), "\(got)")
            #expect(abs(got.sum - 70000) < 1e-6, "\(got)")
            #expect(Self.close(Array(got[2...]), Array(repeating: 49000.0 / 5, count: 5)), "\(got)")
            _ = try JSONFileStore(path: folder + "/store", timeZone: .gmt).undo(source: "hkctl", now: Date())
            got = try Self.days(store, from: "2024-05-06", count: 7)
            let other = 61000.0 / 6
            #expect(Self.close(got, [other, 9000, other, other, other, other, other]), "\(got)")
        }
    }

    /// The week with Tuesday alone, exported as Health XML and imported into another store: every piece comes back (no
    /// two share a sync identifier, as HealthKit requires of a source's samples of a type), so the days match; the
    /// export into the store it came from adds nothing.
    func piecesSurviveAnExportAndImportBack() throws {
        try Support.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store", timeZone: .gmt)
            try Self.push(Self.week, into: store)
            try Self.push([("2024-05-07 00:00:00", 9000)], into: store)
            let identifiers = try store.samples(ofType: "HKQuantityTypeIdentifierStepCount", overlapping: DateInterval(
                start: ISO8601DateFormatter().date(from: "2024-05-06T00:00:00Z")!, duration: 7 * 86_400))
                .compactMap { $0.metadata[MetadataKeySyncIdentifier] }
            #expect(identifiers.count == 3 && Set(identifiers).count == 3, "\(identifiers)")
            let path = folder + "/export.xml"
            _ = try SampleExporter(store: store, timeZone: .gmt)
                .export(types: nil, interval: DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd), format: .healthxml,
                        exportDate: Date(), to: FileDestination(path: path))
            let copy = JSONFileStore(path: folder + "/copy", timeZone: .gmt)
            _ = try HealthImporter(store: copy, timeZone: .gmt).importFile(atPath: path)
            #expect(Self.close(try Self.days(copy, from: "2024-05-06", count: 14), try Self.days(store, from: "2024-05-06", count: 14)))
            let again = try HealthImporter(store: store, timeZone: .gmt).importFile(atPath: path)
            expectEqual(again.totals.added, 0)
            #expect(Self.close(try Self.days(store, from: "2024-05-06", count: 14), try Self.days(copy, from: "2024-05-06", count: 14)))
        }
    }

    /// Unit: a rest split around two finer spans: a piece per gap, shares by length, the sum exact, each piece naming
    /// its period where it does not start or end with it, the first keeping the rest's uuid.
    func splitLaysTheRestOverTheGaps() {
        let start = Date(timeIntervalSince1970: 1_715_000_000)
        let day: TimeInterval = 86_400
        var rest = Sample(typeIdentifier: "HKQuantityTypeIdentifierStepCount", start: start, end: start.addingTimeInterval(7 * day),
                          value: .quantity(Quantity(1000, HealthUnit.count())), source: "Jane’s iPhone", created: start)
        rest.metadata[HAESampleBuilder.aggregationKey] = .string("week")
        let spans = [(start.addingTimeInterval(day), start.addingTimeInterval(2 * day)),
                     (start.addingTimeInterval(6 * day), start.addingTimeInterval(7 * day))]
        let pieces = HAEPieces.split(rest, from: start, period: (start, start.addingTimeInterval(7 * day)), avoiding: spans)
        expectEqual(pieces.map(\.start), [start, start.addingTimeInterval(2 * day)])
        expectEqual(pieces.map(\.end), [start.addingTimeInterval(day), start.addingTimeInterval(6 * day)])
        expectEqual(pieces.map { $0.value.quantity!.value }, [200, 800])
        #expect(pieces[0].uuid == rest.uuid && pieces[1].uuid != rest.uuid)
        expectNil(pieces[0].metadata[HAEWritePlan.periodStartKey])
        expectEqual(pieces[0].metadata[HAEWritePlan.periodEndKey], .number(start.addingTimeInterval(7 * day).timeIntervalSince1970))
        expectEqual(pieces[1].metadata[HAEWritePlan.periodStartKey], .number(start.timeIntervalSince1970))
        let joined = HAEPieces.joined(pieces)
        #expect(joined.value.quantity!.value == 1000 && HAEWritePlan.overItsPeriod(joined).end == start.addingTimeInterval(7 * day))
    }
}

/// The checks ``HAERestPiecesTests/checks(_:)`` runs.
private let hAERestPiecesTestsChecks: [Check<HAERestPiecesTests>] = [
    Check("aDayInTheMiddleOfAWeekCountsItsOwnFigure", HAERestPiecesTests.aDayInTheMiddleOfAWeekCountsItsOwnFigure),
    Check("daysSentOneByOneLeaveTheRestOverTheOthers", HAERestPiecesTests.daysSentOneByOneLeaveTheRestOverTheOthers),
    Check("anExportAndItsUndoAfterAMiddleDay", HAERestPiecesTests.anExportAndItsUndoAfterAMiddleDay),
    Check("piecesSurviveAnExportAndImportBack", HAERestPiecesTests.piecesSurviveAnExportAndImportBack),
    Check("splitLaysTheRestOverTheGaps", HAERestPiecesTests.splitLaysTheRestOverTheGaps),
]
