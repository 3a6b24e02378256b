import Foundation
import Testing
import TestKit
@testable import HealthCore

/// A point that later files of the same folder take away whole (an hour, then its day; a day, then its week; a day sent
/// again at another offset; a day cut to nothing by a day of another offset) gives way to them when the folder is
/// imported again: the folder leaves what importing its files one by one leaves, and an import of it again changes
/// nothing (``HAEGivingWay``).
struct HAEGivingWayTests {
    @Test(arguments: hAEGivingWayTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static let berlin = ZoneRules(secondsFromGMT: 2 * 3600)

    private static func point(_ date: String, _ quantity: Double, _ source: String?) -> String {
        "{\"date\":\"\(date)\",\"qty\":\(quantity)" + (source.map { ",\"source\":\"\($0)\"" } ?? "") + "}"
    }

    private static func steps(_ points: [String], heart: [String] = []) -> String {
        "{\"data\":{\"metrics\":[{\"name\":\"step_count\",\"units\":\"count\",\"data\":[" + points.joined(separator: ",") + "]}"
            + (heart.isEmpty ? "" : ",{\"name\":\"heart_rate\",\"units\":\"count/min\",\"data\":[" + heart.joined(separator: ",") + "]}")
            + "]}}"
    }

    /// `texts` imported one file at a time, in order, into a new file store (with `before` saved first): its steps.
    private static func oneByOne(_ texts: [String], before: [Sample] = [], zone: ZoneRules = berlin) throws -> [String] {
        try ImportTestSupport.withTemporaryDirectory { directory in
            let store = JSONFileStore(path: directory + "/store", lockTimeout: 2)
            if !before.isEmpty { try store.saveImported(before) }
            for (number, text) in texts.enumerated() {
                let path = directory + "/\(number).json"
                try Data(text.utf8).write(to: URL(fileURLWithPath: path))
                _ = try HealthImporter(store: store, zoneRules: zone).importFile(atPath: path)
            }
            return try ImportTestSupport.stepLines(store)
        }
    }

    /// The review's minimal case: an hourly file's hour of steps (with a heart-rate hour, so the file is hourly), then a
    /// daily file's day holding it, from a related source. The day deletes the hour at the first import, and the second
    /// finds both files unchanged.
    func anHourThenItsDayFromARelatedSourceSettleInOneImport() throws {
        let hourly = Self.steps([Self.point("2024-10-27 00:00:00 -0500", 782, "Watch")],
                                heart: ["{\"date\":\"2024-03-31 09:00:00 +0100\",\"source\":\"Watch|iPhone\",\"Avg\":68}"])
        let daily = Self.steps([Self.point("2024-10-27 00:00:00 -0500", 3792, "Watch|iPhone|Scale")])
        let berlin = try #require(ZoneDatabase.system(environment: [:]).zone(named: "Europe/Berlin"))
        let (first, second) = try ImportTestSupport.stepsImportedTwice([hourly, daily], zone: berlin)
        expectEqual(first, second, "a second import of the same files changed the store")
        expectEqual(first, ["1730005200.0 1730091600.0 quantity(3792 count) Watch|iPhone|Scale"])
        expectEqual(try Self.oneByOne([hourly, daily], zone: berlin), first, "one file at a time")
    }

    /// A day, then a weekly file's week holding it (two Sundays make the file weekly): the week alone, at once and
    /// again.
    func aDayThenItsWeek() throws {
        let daily = Self.steps([Self.point("2024-03-31 00:00:00 +0200", 3758, "Watch|iPhone")])
        let weekly = Self.steps([Self.point("2024-10-27 00:00:00 +0200", 4863, "Watch"), Self.point("2024-03-31 00:00:00 +0200", 9119, "Watch")])
        let (first, second) = try ImportTestSupport.stepsImportedTwice([daily, weekly], zone: Self.berlin)
        expectEqual(first, second, "a second import of the same files changed the store")
        expectEqual(first.count, 2, "\(first)")
        #expect(first.allSatisfy { $0.hasSuffix(" Watch") }, "the day stayed beside its week: \(first)")
        expectEqual(try Self.oneByOne([daily, weekly]), first, "one file at a time")
    }

    /// Where the later day is held by an export's samples (of a source related to the day's, reaching its end), the
    /// day is not written and does not take the hour with it: the hour of a source the export does not hold stays, as
    /// one file at a time leaves it.
    func anHourWhoseDayAnExportHoldsStays() throws {
        let hourly = Self.steps([Self.point("2024-05-10 09:00:00 +0200", 700, "Watch"), Self.point("2024-05-10 10:00:00 +0200", 300, "Watch")])
        let daily = Self.steps([Self.point("2024-05-10 00:00:00 +0200", 5000, "Watch|iPhone")])
        let count = try HealthUnit(parsing: "count")
        let exported = (0..<24).map { hour in
            Sample(typeIdentifier: "HKQuantityTypeIdentifierStepCount", start: Date(timeIntervalSince1970: 1_715_292_000 + Double(hour) * 3600),
                   end: Date(timeIntervalSince1970: 1_715_292_000 + Double(hour) * 3600 + 1800), value: .quantity(Quantity(200, count)),
                   source: "iPhone", created: Date(timeIntervalSince1970: 1_715_400_000))
        }
        let reference = try Self.oneByOne([hourly, daily], before: exported)
        #expect(reference.contains { $0.hasSuffix("quantity(700 count) Watch") }, "one file at a time lost the hour: \(reference)")
        let folder = try ImportTestSupport.withTemporaryDirectory { directory in
            let store = JSONFileStore(path: directory + "/store", lockTimeout: 2)
            try store.saveImported(exported)
            let folder = try ImportTestSupport.writeFolder([hourly, daily], in: directory)
            _ = try HealthImporter(store: store, zoneRules: Self.berlin).importFile(atPath: folder)
            let first = try ImportTestSupport.stepLines(store)
            _ = try HealthImporter(store: store, zoneRules: Self.berlin, rereadsUnchangedFiles: true).importFile(atPath: folder)
            expectEqual(try ImportTestSupport.stepLines(store), first, "a second import changed the store")
            return first
        }
        expectEqual(folder, reference, "the folder left other steps than one file at a time")
    }

    /// A point that gives way still replaces its earlier sending: an hour from `iPhone`, sent again from
    /// `Watch|iPhone` (the same point, its sources grown) in a later hourly file, then a day from `Watch` (related to
    /// the second sending, not to the first): the day alone, as one file at a time leaves it.
    func aPointGivingWayStillReplacesItsEarlierSending() throws {
        let first = Self.steps([Self.point("2024-05-10 09:00:00 +0200", 700, "iPhone"), Self.point("2024-05-10 10:00:00 +0200", 5, "Garmin")])
        let second = Self.steps([Self.point("2024-05-10 09:00:00 +0200", 650, "Watch|iPhone"), Self.point("2024-05-10 10:00:00 +0200", 5, "Garmin")])
        let daily = Self.steps([Self.point("2024-05-10 00:00:00 +0200", 5000, "Watch")])
        let (once, twice) = try ImportTestSupport.stepsImportedTwice([first, second, daily], zone: Self.berlin)
        expectEqual(once, twice, "a second import of the same files changed the store")
        expectEqual(once, try Self.oneByOne([first, second, daily]), "one file at a time")
        expectEqual(once.filter { $0.contains("Garmin") == false }, ["1715292000.0 1715378400.0 quantity(5000 count) Watch"])
    }

    /// The same day at two offsets in two files (a review's random case, minimal): a day at +05:30 from `Watch`, then
    /// the day before at +01:00 and that day again at +00:00 from `Watch|iPhone`. The +05:30 day gives way to its
    /// re-send, so it never cuts the day before (it used to at the second import: 864.6 steps lost).
    func theSameDayAtTwoOffsetsInTwoFilesLosesNoSteps() throws {
        let first = Self.steps([Self.point("2024-05-11 00:00:00 +0530", 3773, "Watch")])
        let second = Self.steps([Self.point("2024-05-10 00:00:00 +0100", 5806, "Watch|iPhone"),
                                 Self.point("2024-05-11 00:00:00 +0000", 6841, "Watch|iPhone")])
        let (once, twice) = try ImportTestSupport.stepsImportedTwice([first, second], zone: Self.berlin)
        expectEqual(once, twice, "a second import of the same files changed the store")
        expectEqual(once, try Self.oneByOne([first, second]), "one file at a time")
        expectEqual(once.count, 2, "\(once)")
        expectEqual(Self.total(once), 5806 + 6841, "steps lost or counted twice: \(once)")
    }

    /// A day that a later file's day of another offset cuts to nothing (Garmin's 563 steps of 05-10 at +01:00, then
    /// 7,675 of 05-09 at -05:00 sharing six hours with it, 1,918.75 of them): it gives way from the first import, and
    /// does not come back at the second.
    func aDayCutToNothingByALaterFileStaysCut() throws {
        let first = Self.steps([Self.point("2024-05-10 00:00:00 +0100", 563, "Garmin")])
        let second = Self.steps([Self.point("2024-05-09 00:00:00 -0500", 7675, "Garmin")])
        let (once, twice) = try ImportTestSupport.stepsImportedTwice([first, second], zone: Self.berlin)
        expectEqual(once, twice, "a second import of the same files changed the store")
        expectEqual(once, try Self.oneByOne([first, second]), "one file at a time")
        expectEqual(once, ["1715230800.0 1715317200.0 quantity(7675 count) Garmin"])
    }

    /// Random folders of one to three files of days at offsets from -05:00 to +05:30 (a day now and then sent again at
    /// another offset, with other figures), from related and unrelated sources: the folder leaves what one file at a
    /// time leaves, and an import of it again changes nothing.
    func randomDaysAtSeveralOffsetsSettleInOneImport() throws {
        var random = IndependentTestKit.SeededGenerator(seed: 330)
        let offsets = ["-0500", "+0000", "+0100", "+0200", "+0530"]
        let sources = ["Watch", "Watch|iPhone", "Garmin"]
        var sameAsOneByOne = 0
        for round in 0..<40 {
            let texts = (0..<Int.random(in: 1...3, using: &random)).map { _ in
                Self.steps((0..<Int.random(in: 1...5, using: &random)).map { _ in
                    Self.point(String(format: "2024-05-%02d 00:00:00 %@", Int.random(in: 8...11, using: &random), offsets.randomElement(using: &random)!),
                               Double(Int.random(in: 1...9_000, using: &random)), sources.randomElement(using: &random)!)
                })
            }
            let (first, second) = try ImportTestSupport.stepsImportedTwice(texts, zone: Self.berlin)
            expectEqual(second, first, "round \(round): the second import changed the store: \(texts)")
            if try Self.oneByOne(texts) == first { sameAsOneByOne += 1 }
        }
        expectEqual(sameAsOneByOne, 40, "rounds as one file at a time")
    }

    /// The cases a review's fuzz of the first version of these rules found (each lost or doubled steps at the second
    /// import, or came back after the point that took it away): a day cut by the same later day sent twice (weighed
    /// once); a week that a day deleted, the day then re-sent at another offset (it keeps deleting the week); an hour
    /// held by a day whose last sending came from another source than its first (`Watch`, `Watch|iPhone`, `iPhone`:
    /// the store keeps the last); an hour, its day, then the week that took the day; a minute, its hour, then hours of
    /// another zone that cut the hour to nothing; a day re-sent from three related sources; yesterday re-sent, grown,
    /// beside today at a new offset that cuts it to nothing; a day that an hour inside it and a day of another offset
    /// take together; a day that later hours inside it outweigh. Each: as one file at a time, and unchanged when
    /// imported again.
    func theReviewsCasesSettleAsOneFileAtATime() throws {
        let berlin = try #require(ZoneDatabase.system(environment: [:]).zone(named: "Europe/Berlin"))
        let utc = ZoneRules(secondsFromGMT: 0), kolkata = ZoneRules(secondsFromGMT: 19_800)
        let newYork = try #require(ZoneDatabase.system(environment: [:]).zone(named: "America/New_York"))
        let p = { (date: String, quantity: Double, source: String) in Self.point(date, quantity, source) }
        let cases: [(name: String, zone: ZoneRules, files: [[String]])] = [
            ("a day cut by a later day sent twice", berlin,
             [[p("2024-05-09 00:00:00 -0500", 1000, "Watch")], [p("2024-05-10 00:00:00 +0100", 2500, "Watch")],
              [p("2024-05-10 00:00:00 +0100", 2600, "Watch")]]),
            ("a week a day deleted, the day re-sent at another offset", berlin,
             [[p("2024-04-29 00:00:00 -0500", 30000, "Watch"), p("2024-05-06 00:00:00 -0500", 6343, "Watch")],
              [p("2024-05-06 00:00:00 -0500", 4409, "Watch"), p("2024-05-07 00:00:00 -0500", 2148, "Watch")],
              [p("2024-05-06 00:00:00 +0900", 1396, "Watch")]]),
            ("an hour whose day's sources changed twice", utc,
             [[p("2024-05-07 04:00:00 +0100", 138, "Watch|iPhone")], [p("2024-05-09 00:00:00 +0100", 2673, "iPhone")],
              [p("2024-05-07 00:00:00 +0000", 3873, "Watch"), p("2024-05-07 00:00:00 +0000", 1709, "Watch|iPhone"),
               p("2024-05-07 00:00:00 +0000", 2738, "iPhone")]]),
            ("an hour, its day, then the week", berlin,
             [[p("2024-05-06 22:00:00 +0200", 759, "Watch")], [p("2024-05-06 00:00:00 +0200", 3620, "Watch")],
              [p("2024-04-29 00:00:00 +0200", 30000, "Watch"), p("2024-05-06 00:00:00 +0200", 15055, "Watch")]]),
            ("a minute, its hour, then hours of another zone", berlin,
             [[p("2024-05-07 16:40:00 +0530", 310, "Watch")], [p("2024-05-07 16:00:00 +0530", 1000, "Watch")],
              [p("2024-05-07 03:00:00 -0700", 600, "Watch"), p("2024-05-07 04:00:00 -0700", 1461, "Watch")]]),
            ("a day re-sent from three related sources", utc,
             [[p("2024-05-07 00:00:00 +0000", 2908, "iPhone")], [p("2024-05-08 00:00:00 +0900", 3783, "iPhone")],
              [p("2024-05-08 00:00:00 +0900", 3016, "Watch"), p("2024-05-08 00:00:00 +0900", 2528, "Watch|iPhone"),
               p("2024-05-08 00:00:00 +0900", 3783, "iPhone")]]),
            ("a day, an hour inside it, then a day of another offset", utc,
             [[p("2024-05-07 00:00:00 +0100", 578, "Watch")], [p("2024-05-07 20:00:00 +0100", 487, "Watch|iPhone")],
              [p("2024-05-08 00:00:00 +0200", 5603, "Watch|iPhone")]]),
            ("a day, then hours inside it worth more", berlin,
             [[p("2024-05-07 00:00:00 +0200", 100, "Watch")],
              [p("2024-05-07 09:00:00 +0200", 80, "Watch"), p("2024-05-07 10:00:00 +0200", 70, "Watch")]]),
            // Hours that a day held already (so it wrote nothing), that day re-sent at another offset that holds only
            // some of them: those it does not hold stay (1,562 steps were lost at the second import).
            ("hours a day held, the day re-sent at another offset", newYork,
             [[p("2024-05-07 01:00:00 +0530", 711, "Watch"), p("2024-05-07 03:00:00 +0530", 442, "Watch"),
               p("2024-05-07 04:00:00 +0530", 409, "Watch"), p("2024-05-07 14:00:00 +0530", 792, "Watch"),
               p("2024-05-07 18:00:00 +0530", 226, "Watch"), p("2024-05-07 20:00:00 +0530", 642, "Watch"),
               p("2024-05-07 21:00:00 +0530", 730, "Watch"), p("2024-05-08 11:00:00 +0530", 1198, "Watch")],
              [p("2024-05-07 00:00:00 +0530", 3952, "Watch")], [p("2024-05-07 00:00:00 -0700", 3499, "Watch")]]),
            ("yesterday re-sent beside today at a new offset", kolkata,
             [[p("2024-05-06 00:00:00 -0400", 239, "Watch|iPhone")],
              [p("2024-05-06 00:00:00 -0400", 439, "Watch|iPhone"), p("2024-05-07 00:00:00 +0530", 2712, "Watch|iPhone")]]),
        ]
        for (name, zone, files) in cases {
            let texts = files.map { Self.steps($0) }
            let (first, second) = try ImportTestSupport.stepsImportedTwice(texts, zone: zone)
            expectEqual(second, first, "\(name): the second import changed the store")
            expectEqual(first, try Self.oneByOne(texts, zone: zone), "\(name): one file at a time")
            // The week a day deleted: that day, re-sent later at another offset, does not give way (one file at a time,
            // deleting the week is its doing), so the second import replays it and its re-send: the same samples.
            guard !name.hasPrefix("a week a day deleted") else { continue }
            let again = try Self.secondReceipt(texts, zone: zone)
            expectEqual(again.added + again.replaced, 0, "\(name): the second import wrote something: \(again)")
        }
        // A day sent by `Watch`, `Watch|iPhone` and then `iPhone` in three files, beside a day at another offset (two
        // alignments): the store keeps `iPhone`'s, and the earlier sendings give way to it when imported again.
        let chain = [Self.steps([p("2024-05-09 00:00:00 +0200", 100, "Watch"), p("2024-05-10 00:00:00 -0500", 50, "Garmin")]),
                     Self.steps([p("2024-05-09 00:00:00 +0200", 200, "Watch|iPhone")]),
                     Self.steps([p("2024-05-09 00:00:00 +0200", 300, "iPhone")])]
        let again = try Self.secondReceipt(chain, zone: berlin)
        expectEqual(again.added + again.replaced, 0, "a chain of related sources: the second import wrote something: \(again)")
    }

    /// The counts of the second of two imports of `texts` as a folder into a new store (added, replaced, in all types).
    private static func secondReceipt(_ texts: [String], zone: ZoneRules) throws -> (added: Int, replaced: Int) {
        try ImportTestSupport.withTemporaryDirectory { directory in
            let folder = try ImportTestSupport.writeFolder(texts, in: directory)
            let store = JSONFileStore(path: directory + "/store", lockTimeout: 2)
            _ = try HealthImporter(store: store, zoneRules: zone).importFile(atPath: folder)
            let receipt = try HealthImporter(store: store, zoneRules: zone, rereadsUnchangedFiles: true).importFile(atPath: folder)
            return (receipt.counts.values.reduce(0) { $0 + $1.added }, receipt.counts.values.reduce(0) { $0 + $1.replaced })
        }
    }

    private static func total(_ lines: [String]) -> Double {
        lines.reduce(0) { $0 + (Double($1.split(separator: " ")[2].dropFirst("quantity(".count)) ?? .nan) }
    }

    /// Which points give way: only to a later payload's point of a coarser form, of a related source, holding it from
    /// its start to its end, in a payload that does not also hold the finer form.
    func onlyALaterCoarserRelatedPointHoldingItWhole() throws {
        let hour = { (time: String, source: String) in Self.point("2024-05-10 \(time):00 +0200", 10, source) }
        let day = { (date: String, source: String) in Self.point("2024-05-\(date) 00:00:00 +0200", 1000, source) }
        let cases: [(texts: [String], marked: Int, why: String)] = [
            ([Self.steps([hour("09:00", "Watch"), hour("10:00", "Watch")]), Self.steps([day("10", "Watch|iPhone")])], 2, "hours, then their day"),
            ([Self.steps([day("10", "Watch|iPhone")]), Self.steps([hour("09:00", "Watch"), hour("10:00", "Watch")])], 0, "the day first"),
            ([Self.steps([hour("09:00", "Watch"), hour("10:00", "Garmin")]), Self.steps([day("10", "Watch")])], 1, "an unrelated source"),
            ([Self.steps([hour("09:00", "Watch"), hour("10:00", "Watch")]), Self.steps([day("09", "Watch")])], 0, "another day"),
            ([Self.steps([hour("09:00", "Watch"), hour("10:00", "Watch")]),
              Self.steps([day("10", "Watch"), hour("11:00", "Watch")])], 0, "a later file of hours and a day (one form each, side by side)"),
            ([Self.steps([hour("23:00", "Watch"), hour("10:00", "Watch")]), Self.steps([day("10", "Watch")])], 2, "the last hour of the day"),
        ]
        for (texts, marked, why) in cases {
            let payloads = try texts.enumerated().map { try HealthAutoExportPayload(bytes: Array($0.element.utf8), name: "\($0.offset).json") }
            let builders = payloads.map { payload in
                HAESampleBuilder(catalogue: .standard, defaultSource: payload.defaultSource, zone: TimeZone(secondsFromGMT: 7200)!,
                                 rules: Self.berlin, level: payload.level, offsets: payload.offsets, dayStarts: payload.dayStarts,
                                 created: Date(timeIntervalSince1970: 1_716_000_000), receivedThrough: nil)
            }
            expectEqual(HAEGivingWay(payloads, builders: builders, cumulative: { _ in true }).count, marked, "\(why)")
        }
    }

    /// Random folders of hourly and daily files over three days, from related and unrelated sources, some points sent
    /// again with other figures: the folder leaves what one file at a time leaves, and an import of it again changes
    /// nothing.
    func randomHoursAndDaysSettleInOneImport() throws {
        var random = IndependentTestKit.SeededGenerator(seed: 33)
        let sources = ["Watch", "Watch|iPhone", "iPhone", "Garmin"]
        for round in 0..<30 {
            var texts: [String] = []
            for _ in 0..<Int.random(in: 2...4, using: &random) {
                var points: [String] = []
                if Bool.random(using: &random) {
                    for _ in 0..<Int.random(in: 2...6, using: &random) {
                        points.append(Self.point(String(format: "2024-05-%02d %02d:00:00 +0200", Int.random(in: 9...11, using: &random),
                                                        Int.random(in: 1...23, using: &random)),
                                                 Double(Int.random(in: 1...900, using: &random)), sources.randomElement(using: &random)!))
                    }
                } else {
                    for _ in 0..<Int.random(in: 1...3, using: &random) {
                        points.append(Self.point(String(format: "2024-05-%02d 00:00:00 +0200", Int.random(in: 9...11, using: &random)),
                                                 Double(Int.random(in: 1...9_000, using: &random)), sources.randomElement(using: &random)!))
                    }
                }
                texts.append(Self.steps(points))
            }
            let (first, second) = try ImportTestSupport.stepsImportedTwice(texts, zone: Self.berlin)
            expectEqual(second, first, "round \(round): the second import changed the store: \(texts)")
            expectEqual(first, try Self.oneByOne(texts), "round \(round): one file at a time: \(texts)")
        }
    }
}

/// The checks ``HAEGivingWayTests/checks(_:)`` runs.
private let hAEGivingWayTestsChecks: [Check<HAEGivingWayTests>] = [
    Check("anHourThenItsDayFromARelatedSourceSettleInOneImport", HAEGivingWayTests.anHourThenItsDayFromARelatedSourceSettleInOneImport),
    Check("aDayThenItsWeek", HAEGivingWayTests.aDayThenItsWeek),
    Check("anHourWhoseDayAnExportHoldsStays", HAEGivingWayTests.anHourWhoseDayAnExportHoldsStays),
    Check("aPointGivingWayStillReplacesItsEarlierSending", HAEGivingWayTests.aPointGivingWayStillReplacesItsEarlierSending),
    Check("theSameDayAtTwoOffsetsInTwoFilesLosesNoSteps", HAEGivingWayTests.theSameDayAtTwoOffsetsInTwoFilesLosesNoSteps),
    Check("aDayCutToNothingByALaterFileStaysCut", HAEGivingWayTests.aDayCutToNothingByALaterFileStaysCut),
    Check("randomDaysAtSeveralOffsetsSettleInOneImport", HAEGivingWayTests.randomDaysAtSeveralOffsetsSettleInOneImport),
    Check("theReviewsCasesSettleAsOneFileAtATime", HAEGivingWayTests.theReviewsCasesSettleAsOneFileAtATime),
    Check("onlyALaterCoarserRelatedPointHoldingItWhole", HAEGivingWayTests.onlyALaterCoarserRelatedPointHoldingItWhole),
    Check("randomHoursAndDaysSettleInOneImport", HAEGivingWayTests.randomHoursAndDaysSettleInOneImport),
]
