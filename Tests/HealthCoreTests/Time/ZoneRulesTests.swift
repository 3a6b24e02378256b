import Foundation
import Testing
import TestKit
@testable import HealthCore

private typealias Kit = IndependentTestKit

/// hkctl's own zones and calendar against Foundation's (ICU's), which the tests still link.
@Suite struct ZoneRulesTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: zoneRulesTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    static let zones = [
        "America/Los_Angeles", "Europe/Berlin", "Europe/London", "Europe/Dublin", "Australia/Lord_Howe",
        "Asia/Kolkata", "America/Sao_Paulo", "Pacific/Apia", "Asia/Tehran", "America/St_Johns", "Pacific/Chatham",
        "Africa/Casablanca", "America/Santiago", "Antarctica/Troll", "Pacific/Kiritimati", "UTC", "Etc/GMT+5",
        "Asia/Tokyo", "America/New_York", "Australia/Sydney",
    ]

    static let database = ZoneDatabase.system(environment: [:])

    /// The tz database must be installed for these tests (it is on every machine hkctl supports).
    static func zone(_ name: String) throws -> ZoneRules {
        try #require(database.zone(named: name), "no \(name) in /usr/share/zoneinfo: install the tzdata package")
    }

    /// Instants every `step` (31 h 13 min unless told) from 1971 to 2045, plus instants one second and half an hour
    /// either side of each of Foundation's transitions.
    static func instants(in zone: TimeZone, step: TimeInterval = 31 * 3600 + 13 * 60) -> [Date] {
        var result: [Date] = []
        var t = Date(timeIntervalSince1970: 365 * 86_400)
        let end = Date(timeIntervalSince1970: 75 * 365.25 * 86_400)
        while t < end {
            result.append(t)
            t += step
        }
        var probe = Date(timeIntervalSince1970: 365 * 86_400)
        while let next = zone.nextDaylightSavingTimeTransition(after: probe), next < end {
            result += [next - 1800, next - 1, next, next + 1, next + 1800]
            probe = next
        }
        return result
    }

    @Test(arguments: zones)
    func offsetsMatchFoundation(name: String) throws {
        let ours = try Self.zone(name)
        let theirs = try #require(TimeZone(identifier: name))
        for date in Self.instants(in: theirs) {
            expectEqual(ours.secondsFromGMT(for: date), theirs.secondsFromGMT(for: date), "\(name) at \(date)")
        }
        expectEqual(ours.identifier, theirs.identifier)
    }

    @Test(arguments: zones)
    func calendarMatchesFoundation(name: String) throws {
        let ours = GregorianCalendar(timeZone: try Self.zone(name), firstWeekday: 2)
        var theirs = Calendar(identifier: .gregorian)
        theirs.timeZone = try #require(TimeZone(identifier: name))
        theirs.firstWeekday = 2
        var mismatches: [String] = []
        // Every 199 h 13 min (7 h 13 min later in the day each time, and one weekday on): each instant asks
        // Foundation's calendar fifteen questions, which at every 31 h 13 min took this test 100 s of the suite and at
        // every 79 h 13 min still 22 s; the instants around each transition, where the rules differ, are all kept.
        for date in Self.instants(in: theirs.timeZone, step: 199 * 3600 + 13 * 60) {
            let parts = theirs.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
            let local = ours.localTime(of: date)
            if [local.year, local.month, local.day, local.hour, local.minute, local.second, local.weekday]
                != [parts.year, parts.month, parts.day, parts.hour, parts.minute, parts.second, parts.weekday] {
                mismatches.append("local time of \(date)")
            }
            if ours.startOfDay(for: date) != theirs.startOfDay(for: date) { mismatches.append("start of day \(date)") }
            for (period, component) in [(GregorianCalendar.Period.week, Calendar.Component.weekOfYear), (.month, .month), (.year, .year)]
            where ours.start(of: period, for: date) != theirs.dateInterval(of: component, for: date)?.start {
                mismatches.append("start of \(period) \(date)")
            }
            for (step, component) in [(GregorianCalendar.Step.days, Calendar.Component.day), (.months, .month), (.years, .year)] {
                for value in [-1, 1, 7] where ours.adding(value, step, to: date) != theirs.date(byAdding: component, value: value, to: date) {
                    mismatches.append("\(value) \(step) from \(date)")
                }
            }
            let wall = DateComponents(year: parts.year, month: parts.month, day: parts.day, hour: parts.hour, minute: 30)
            if ours.date(year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: 30)
                != theirs.date(from: wall) {
                mismatches.append("date from \(wall)")
            }
        }
        #expect(mismatches.isEmpty, "\(name): \(mismatches.count) mismatches, first \(mismatches.prefix(5))")
    }

    func skippedAndRepeatedWallTimesAreReadAsFoundationReadsThem() throws {
        let calendar = GregorianCalendar(timeZone: try Self.zone("America/Los_Angeles"))
        // 2024-03-10 02:30 does not exist (clocks go from 02:00 to 03:00): it is read with PST, shown as 03:30 PDT.
        expectEqual(calendar.date(year: 2024, month: 3, day: 10, hour: 2, minute: 30), Kit.utc(2024, 3, 10, 10, 30))
        // 2024-11-03 01:30 happens twice: the first, in PDT.
        expectEqual(calendar.date(year: 2024, month: 11, day: 3, hour: 1, minute: 30), Kit.utc(2024, 11, 3, 8, 30))
        // Out-of-range parts carry over.
        expectEqual(calendar.date(year: 2024, month: 13, day: 1), calendar.date(year: 2025, month: 1, day: 1))
        expectEqual(calendar.date(year: 2024, month: 3, day: 0), calendar.date(year: 2024, month: 2, day: 29))
    }

    func fractionsOfSecondsSurviveCalendarSteps() throws {
        let calendar = GregorianCalendar(timeZone: try Self.zone("Europe/Berlin"))
        let date = Kit.utc(2024, 3, 30, 12, 0, 5) + 0.25
        expectEqual(calendar.adding(1, .days, to: date), Kit.utc(2024, 3, 31, 11, 0, 5) + 0.25)
        expectEqual(calendar.localTime(of: date).second, 5)
    }

    @Test(arguments: ["America/Los_Angeles", "Europe/Berlin", "Australia/Sydney", "America/Santiago", "Asia/Tehran"])
    func yearsAfterTheTableFollowTheFooterRule(name: String) throws {
        // 2040-2100 lie past the 2037 end of a fat TZif table: only the POSIX rule answers there.
        let ours = try Self.zone(name)
        let theirs = try #require(TimeZone(identifier: name))
        var t = Date(timeIntervalSince1970: 2_200_000_000)
        while t.timeIntervalSince1970 < 4_100_000_000 {
            expectEqual(ours.secondsFromGMT(for: t), theirs.secondsFromGMT(for: t), "\(name) at \(t)")
            t += 5 * 86_400 + 3 * 3600 + 17
        }
    }

    @Test(arguments: [
        ("PST8PDT,M3.2.0,M11.1.0", Kit.utc(2030, 7, 1), -7 * 3600), ("PST8PDT,M3.2.0,M11.1.0", Kit.utc(2030, 1, 1), -8 * 3600),
        ("<+0330>-3:30", Kit.utc(2030, 7, 1), 12_600), ("AEST-10AEDT,M10.1.0,M4.1.0/3", Kit.utc(2030, 1, 1), 11 * 3600),
        ("AEST-10AEDT,M10.1.0,M4.1.0/3", Kit.utc(2030, 7, 1), 10 * 3600), ("EST5EDT4,0/0,J365/25", Kit.utc(2030, 7, 1), -4 * 3600),
        ("EST5EDT4,0/0,J365/25", Kit.utc(2030, 12, 31, 12), -4 * 3600), ("JST-9", Kit.utc(2030, 7, 1), 9 * 3600),
        ("<-03>3<-02>,M3.5.0/-2,M10.5.0/-1", Kit.utc(2030, 7, 1), -2 * 3600),
    ])
    func posixRules(text: String, date: Date, offset: Int) throws {
        let rule = try #require(PosixZoneRule(text))
        expectEqual(rule.offset(at: Int64(date.timeIntervalSince1970)), offset)
    }

    @Test(arguments: ["", "P", "PST", "PST8PDT,M3.2.0", "PST8PDT,M13.2.0,M11.1.0", "PST8PDT,M3.6.0,M11.1.0", "PST99", "<+03"])
    func malformedPosixRulesAreRefused(text: String) {
        expectNil(PosixZoneRule(text))
    }

    func posixRuleChangesComeInOrder() throws {
        let rule = try #require(PosixZoneRule("CET-1CEST,M3.5.0,M10.5.0/3"))
        // 2030-03-31 01:00 UTC and 2030-10-27 01:00 UTC.
        let start = Int64(Kit.utc(2030, 3, 31, 1).timeIntervalSince1970), end = Int64(Kit.utc(2030, 10, 27, 1).timeIntervalSince1970)
        expectEqual(rule.nextTransition(after: start - 100), start)
        expectEqual(rule.nextTransition(after: start), end)
        #expect(rule.offset(at: start - 1) == 3600 && rule.offset(at: start) == 7200 && rule.offset(at: end) == 3600)
    }

    @Test(arguments: [
        ("GMT", 0, "GMT"), ("UTC", 0, "GMT"), ("GMT+2", 7200, "GMT+0200"), ("UTC-05", -18_000, "GMT-0500"),
        ("GMT+0530", 19_800, "GMT+0530"), ("GMT+05:45", 20_700, "GMT+0545"), ("GMT-0930", -34_200, "GMT-0930"),
    ])
    func fixedOffsetNames(name: String, offset: Int, identifier: String) throws {
        let zone = try #require(ZoneDatabase.fixedZone(name))
        expectEqual(zone.secondsFromGMT(for: Date()), offset)
        expectEqual(zone.identifier, identifier)
        #expect(zone.isFixed)
        // Foundation names them alike.
        expectEqual(TimeZone(secondsFromGMT: offset)?.identifier, (offset == 0 ? "GMT" : identifier))
    }

    @Test(arguments: ["GMT+", "GMT+123456", "GMT+19", "GMT+0560", "GMTX", "UTC+ab", "../etc/passwd", "/etc/localtime",
                      "Europe/../Europe/Paris", "Nowhere/City", "", "Europe/", "Europe//Paris", "zone.tab"])
    func unknownOrUnsafeNamesGiveNoZone(name: String) {
        expectNil(Self.database.zone(named: name))
    }

    @Test(arguments: ["PST", "CST", "JST", "IST", "AET", "ECT", "EST", "MST", "HST", "UTC", "GMT", "EST5EDT", "CET"])
    func shortNamesAreReadAsFoundationReadsThem(name: String) throws {
        let ours = try Self.zone(name)
        let theirs = try #require(TimeZone(identifier: name))
        expectEqual(ours.identifier, theirs.identifier)
        var t = Date(timeIntervalSince1970: 1_000_000_000)
        while t.timeIntervalSince1970 < 2_000_000_000 {
            expectEqual(ours.secondsFromGMT(for: t), theirs.secondsFromGMT(for: t), "\(name) at \(t)")
            t += 9 * 86_400 + 3 * 3600
        }
    }

    func currentZoneFollowsTZThenLocaltime() throws {
        let files: [String: [UInt8]] = try [
            "/zones/Europe/Paris": Self.tzif("Europe/Paris"), "/zones/Asia/Tokyo": Self.tzif("Asia/Tokyo"),
            "/etc/localtime": Self.tzif("Asia/Tokyo"),
        ]
        let links = ["/etc/localtime": "../usr/share/zoneinfo/Asia/Tokyo"]
        let database = ZoneDatabase(directory: "/zones", readFile: { files[$0] }, readLink: { links[$0] })
        expectEqual(database.current(environment: ["TZ": "Europe/Paris"]).identifier, "Europe/Paris")
        expectEqual(database.current(environment: ["TZ": ":Europe/Paris"]).identifier, "Europe/Paris")
        expectEqual(database.current(environment: ["TZ": "/zones/Europe/Paris"]).identifier, "Europe/Paris")
        expectEqual(database.current(environment: ["TZ": ""]), .gmt)
        let posix = database.current(environment: ["TZ": "EST5EDT,M3.2.0,M11.1.0"])
        expectEqual(posix.secondsFromGMT(for: Kit.utc(2024, 7, 1)), -4 * 3600)
        expectEqual(database.current(environment: ["TZ": "Mars/Olympus"]), .gmt)
        // In `$TZ`, `GMT+2` is a POSIX rule, as the C library reads it: two hours west of UTC (a review: it was read
        // as +02:00, what `--tz GMT+2` means, four hours from every other program's times).
        for (tz, offset) in [("GMT+2", -2 * 3600), ("UTC-3", 3 * 3600), ("UTC+05:30", -(5 * 3600 + 1800)), ("<+0330>-3:30", 12_600)] {
            expectEqual(database.current(environment: ["TZ": tz]).secondsFromGMT(for: Kit.utc(2024, 7, 1)), offset, "\(tz)")
        }
        expectEqual(database.zone(named: "GMT+2")?.secondsFromGMT(for: Kit.utc(2024, 7, 1)), 2 * 3600)
        expectNil(database.zone(named: "GMT+2", offsets: false))
        expectEqual(database.current(environment: ["TZ": "UTC"]), .gmt)
        expectEqual(database.current(environment: ["TZ": "GMT+0"]).secondsFromGMT(for: Kit.utc(2024, 7, 1)), 0)
        expectEqual(database.current(environment: [:]).identifier, "Asia/Tokyo")
        expectEqual(database.current(environment: [:]).secondsFromGMT(for: Kit.utc(2024, 7, 1)), 9 * 3600)
        let bare = ZoneDatabase(directory: "/zones", readFile: { _ in nil }, readLink: { _ in nil })
        expectEqual(bare.current(environment: [:]), .gmt)
    }

    /// The names offered to people (completions): `zone1970.tab`'s zones, else `zone.tab`'s, with `UTC` first.
    func listedNamesComeFromTheZoneTables() {
        let tab = "# a comment\nFR\t+4852+00220\tEurope/Paris\nUS\t+404251-0740023\tAmerica/New_York\tEastern (most areas)\n"
            + "CH,DE,LI\t+4723+00832\tEurope/Zurich\nXX\t+0\t../etc/passwd\n"
        let files = ["/zones/zone1970.tab": Array(tab.utf8)]
        let database = ZoneDatabase(directory: "/zones", readFile: { files[$0] }, readLink: { _ in nil })
        expectEqual(database.listedNames(), ["UTC", "America/New_York", "Europe/Paris", "Europe/Zurich"])
        let older = ZoneDatabase(directory: "/zones", readFile: { $0 == "/zones/zone.tab" ? Array("JP\t+3541+13946\tAsia/Tokyo\n".utf8) : nil },
                                 readLink: { _ in nil })
        expectEqual(older.listedNames(), ["UTC", "Asia/Tokyo"])
        expectEqual(ZoneDatabase(directory: "/zones", readFile: { _ in nil }, readLink: { _ in nil }).listedNames(), ["UTC"])
    }

    func damagedFilesAreRefused() throws {
        let good = try Self.tzif("Europe/Paris")
        #expect(TZifParser.rules(identifier: "x", bytes: good) != nil)
        for cut in [0, 10, 44, 100, good.count / 2, good.count - 2] {
            expectNil(TZifParser.rules(identifier: "x", bytes: Array(good.prefix(cut))), "cut at \(cut)")
        }
        var badMagic = good
        badMagic[0] = UInt8(ascii: "X")
        expectNil(TZifParser.rules(identifier: "x", bytes: badMagic))
        expectNil(TZifParser.rules(identifier: "x", bytes: Array("not a zone file at all, just some text".utf8)))
    }

    func versionOneFilesAreRead() throws {
        // A version 1 file: the 32-bit block only. Built from the 64-bit block's first three transitions.
        func be32(_ value: Int32) -> [UInt8] { withUnsafeBytes(of: value.bigEndian, Array.init) }
        var bytes = Array("TZif".utf8) + [0] + Array(repeating: 0, count: 15)
        bytes += [0, 0, 0, 2, 2, 0].flatMap { be32($0) }  // ut/local, standard/wall, leap, time, type, character counts
        bytes += be32(1_000_000) + be32(2_000_000) + [1, 0]
        bytes += be32(3600) + [0, 0] + be32(7200) + [1, 0]
        let zone = try #require(TZifParser.rules(identifier: "v1", bytes: bytes))
        #expect(zone.offset(at: 0) == 3600 && zone.offset(at: 1_000_000) == 7200 && zone.offset(at: 2_000_000) == 3600)
        #expect(zone.nextTransition(after: 1_000_000) == 2_000_000 && zone.nextTransition(after: 2_000_000) == nil)
    }

    static func tzif(_ name: String) throws -> [UInt8] {
        let data = try Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/" + name))
        return [UInt8](data)
    }
}

/// The checks ``ZoneRulesTests/checks(_:)`` runs.
private let zoneRulesTestsChecks: [Check<ZoneRulesTests>] = [
    Check("skippedAndRepeatedWallTimesAreReadAsFoundationReadsThem",
          ZoneRulesTests.skippedAndRepeatedWallTimesAreReadAsFoundationReadsThem),
    Check("fractionsOfSecondsSurviveCalendarSteps", ZoneRulesTests.fractionsOfSecondsSurviveCalendarSteps),
    Check("posixRuleChangesComeInOrder", ZoneRulesTests.posixRuleChangesComeInOrder),
    Check("currentZoneFollowsTZThenLocaltime", ZoneRulesTests.currentZoneFollowsTZThenLocaltime),
    Check("listedNamesComeFromTheZoneTables", ZoneRulesTests.listedNamesComeFromTheZoneTables),
    Check("damagedFilesAreRefused", ZoneRulesTests.damagedFilesAreRefused),
    Check("versionOneFilesAreRead", ZoneRulesTests.versionOneFilesAreRead),
]
