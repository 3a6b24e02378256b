import Foundation
import Testing
import TestKit
@testable import HealthCore

/// ISO 8601 formatting and parsing, and Apple export timestamps.
struct ISODateTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: iSODateTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit

    /// 2024-06-01T12:00:00Z = 19 875 days × 86 400 s + 12 h = 1 717 200 000 + 43 200.
    private static let noon = Date(timeIntervalSince1970: 1_717_243_200)

    // MARK: Formatting

    /// A local day's text is the first ten characters of the local text, for random instants from before year 0 to
    /// after 9999 (rounded to the millisecond as the text is, so 23:59:59.9996 is the next day), in zones with
    /// daylight time, half and quarter hours, local mean time with seconds, and an offset beyond a day.
    func localDayTextIsTheLocalTextsDate() throws {
        let zones = try ["America/Los_Angeles", "Asia/Kolkata", "Asia/Kathmandu", "Europe/Paris", "Pacific/Kiritimati"].map {
            try #require(ZoneDatabase.system(environment: [:]).zone(named: $0), "no \($0): install the tzdata package")
        } + [.gmt, ZoneRules(secondsFromGMT: -(13 * 3600 + 45 * 60)), ZoneRules(identifier: "x", fixedOffset: 101 * 3600)]
        var generator = SystemRandomNumberGenerator()
        var instants: [Date] = [Date(timeIntervalSince1970: 86_400 - 0.0004), Date(timeIntervalSince1970: -0.0004),
                                Date(timeIntervalSince1970: 253_402_300_799.9996), Date(timeIntervalSince1970: -62_167_219_200.5)]
        for _ in 0..<3_000 {
            instants.append(Date(timeIntervalSince1970: Double.random(in: -70_000_000_000...260_000_000_000, using: &generator)))
            instants.append(Date(timeIntervalSince1970: Double(Int.random(in: -3_000_000...3_000_000, using: &generator)) * 3600 - 0.0004))
        }
        for zone in zones {
            for instant in instants {
                let expected = String(decoding: ISODate.localText(instant, in: zone).utf8.prefix(10), as: UTF8.self)
                guard ISODate.localDayText(instant, in: zone) == expected else {
                    Issue.record("\(instant.timeIntervalSince1970) in \(zone): \(ISODate.localDayText(instant, in: zone)), expected \(expected)")
                    return
                }
            }
        }
    }

    func formatsUTCAndZoneOffsets() {
        expectEqual(ISODate.format(ISODateTests.noon, in: .gmt), "2024-06-01T12:00:00+00:00")
        // Paris is UTC+2 in summer (CEST) and UTC+1 in winter (CET).
        expectEqual(ISODate.format(ISODateTests.noon, in: Kit.zone("Europe/Paris")), "2024-06-01T14:00:00+02:00")
        expectEqual(ISODate.format(Kit.utc(2024, 1, 15, 12), in: Kit.zone("Europe/Paris")), "2024-01-15T13:00:00+01:00")
        // New York is UTC−4 in summer: 12:00Z is 08:00.
        expectEqual(ISODate.format(ISODateTests.noon, in: Kit.zone("America/New_York")), "2024-06-01T08:00:00-04:00")
    }

    @Test(arguments: [
        (-8 * 3600, "2024-06-01T04:00:00-08:00"),
        (-(9 * 3600 + 30 * 60), "2024-06-01T02:30:00-09:30"),   // Marquesas: 12:00 − 9:30
        (5 * 3600 + 45 * 60, "2024-06-01T17:45:00+05:45"),      // Nepal: 12:00 + 5:45
        (14 * 3600, "2024-06-02T02:00:00+14:00"),               // Kiribati: the next calendar day
        (-12 * 3600, "2024-06-01T00:00:00-12:00"),
        (0, "2024-06-01T12:00:00+00:00"),
    ])
    func formatsFixedOffsets(offset: Int, expected: String) {
        expectEqual(ISODate.format(ISODateTests.noon, offsetSeconds: offset), expected)
    }

    func millisecondsAppearOnlyWhenNeeded() {
        let base = ISODateTests.noon.timeIntervalSince1970
        expectEqual(ISODate.format(Date(timeIntervalSince1970: base + 0.123), in: .gmt), "2024-06-01T12:00:00.123+00:00")
        expectEqual(ISODate.format(Date(timeIntervalSince1970: base + 0.5), in: .gmt), "2024-06-01T12:00:00.500+00:00")
        expectEqual(ISODate.format(Date(timeIntervalSince1970: base + 0.007), in: .gmt), "2024-06-01T12:00:00.007+00:00")
        expectEqual(ISODate.format(Date(timeIntervalSince1970: base + 59.999), in: .gmt), "2024-06-01T12:00:59.999+00:00")
        // 0.9996 s rounds to the next whole second.
        expectEqual(ISODate.format(Date(timeIntervalSince1970: base + 0.9996), in: .gmt), "2024-06-01T12:00:01+00:00")
    }

    func formatsDatesBefore1970() {
        expectEqual(ISODate.format(Date(timeIntervalSince1970: -1), in: .gmt), "1969-12-31T23:59:59+00:00")
        // −0.5 s is half a second before midnight, not half a second after.
        expectEqual(ISODate.format(Date(timeIntervalSince1970: -0.5), in: .gmt), "1969-12-31T23:59:59.500+00:00")
        // 1900-01-01 is 25 567 days before 1970-01-01: −2 208 988 800 s.
        expectEqual(ISODate.format(Date(timeIntervalSince1970: -2_208_988_800), in: .gmt), "1900-01-01T00:00:00+00:00")
        expectEqual(ISODate.format(DateRange.distantStart, in: .gmt), "1900-01-01T00:00:00+00:00")
        expectEqual(ISODate.format(DateRange.distantEnd, in: .gmt), "3000-01-01T00:00:00+00:00")
    }

    /// Local mean time's offsets have seconds (Paris +00:09:21 until 1911): the text, whose offset is whole minutes,
    /// still names the exact instant (a review: 1900-01-01T00:09:21+00:09 named an instant 21 s late), and so does a
    /// line the store writes, read back.
    func anOffsetWithSecondsStillNamesTheInstant() throws {
        let paris = Kit.zone("Europe/Paris")
        for date in [DateRange.distantStart, Date(timeIntervalSince1970: -2_051_222_961.5)] {
            let text = ISODate.format(date, in: paris)
            #expect(text.hasSuffix("+00:09"), "\(text)")
            expectEqual(ISODate.parse(text)?.timeIntervalSince1970, date.timeIntervalSince1970, "\(text)")
        }
        // Labels and tables read the local clock itself (a review: the day of 1905-01-01 00:00:10 read 1904-12-31).
        expectEqual(ISODate.localText(Date(timeIntervalSince1970: -2_051_222_961 + 10), in: paris), "1905-01-01T00:00:10")
        expectEqual(ISODate.localText(ISODateTests.noon, in: paris), "2024-06-01T14:00:00")
        let sample = Sample(typeIdentifier: SampleType.water.identifier, start: Date(timeIntervalSince1970: -2_051_222_961),
                            end: Date(timeIntervalSince1970: -2_051_222_961), value: .quantity(Quantity(1, .liter())), source: "hkctl",
                            created: Date(timeIntervalSince1970: -2_051_222_961))
        var codec = SampleLineCodec(catalogue: .standard, timeZone: paris)
        let line = Array(codec.encode(sample).utf8)
        let decoded = try line.withUnsafeBufferPointer { try codec.decode($0) }
        expectEqual(decoded.start, sample.start, "\(String(decoding: line, as: UTF8.self))")
    }

    // MARK: Parsing

    @Test(arguments: [
        "2024-06-01T12:00:00Z", "2024-06-01T12:00:00z", "2024-06-01t12:00:00Z", "2024-06-01T12:00Z",
        "2024-06-01T12:00:00+00:00", "2024-06-01T14:00:00+02:00", "2024-06-01T14:00:00+0200",
        "2024-06-01T04:00:00-08:00", "2024-06-01T04:00:00-0800", "2024-06-01 04:00:00 -0800",
        "2024-06-01T02:30:00-09:30", "2024-06-01T12:00:00.000Z", "2024-06-02T02:00:00+14:00",
        "2024-06-01T13:00:00+01",
    ])
    func parsesEveryOffsetSpelling(text: String) {
        expectEqual(ISODate.parse(text), ISODateTests.noon, "\(text)")
    }

    func parsesAppleExportTimestamps() {
        // 2024-03-10 01:59:00 −08:00 = 09:59:00Z; 2024-03-10 is 19 792 days after 1970-01-01 (83 days before 06-01),
        // so 19 792 × 86 400 + 9 × 3600 + 59 × 60 = 1 710 064 740.
        expectEqual(ISODate.parse("2024-03-10 01:59:00 -0800"), Date(timeIntervalSince1970: 1_710_064_740))
        expectEqual(ISODate.parse("2019-01-01 08:00:00 -0800"), Kit.utc(2019, 1, 1, 16))
        expectEqual(ISODate.parse("2024-05-30 23:45:10 +0200"), Kit.utc(2024, 5, 30, 21, 45, 10))
    }

    func parsesFractionsOfASecond() {
        let base = ISODateTests.noon.timeIntervalSince1970
        expectEqual(ISODate.parse("2024-06-01T12:00:00.5Z")?.timeIntervalSince1970, base + 0.5)
        expectEqual(ISODate.parse("2024-06-01T12:00:00,25Z")?.timeIntervalSince1970, base + 0.25)
        let micro = ISODate.parse("2024-06-01T12:00:00.123456Z")?.timeIntervalSince1970 ?? 0
        #expect(Kit.isClose(micro, base + 0.123, absolute: 1e-6))  // kept to the millisecond
    }

    @Test(arguments: [
        Date(timeIntervalSince1970: 1_717_243_200),
        Date(timeIntervalSince1970: 1_717_243_200.123),
        Date(timeIntervalSince1970: 1_709_164_800.999),  // 2024-02-29T00:00:00.999Z
        Date(timeIntervalSince1970: 0),
        Date(timeIntervalSince1970: -0.25),
        Date(timeIntervalSince1970: -1_000_000_000.5),
        Date(timeIntervalSince1970: 4_102_444_799.001),  // 2099-12-31T23:59:59.001Z
    ])
    func roundTripsThroughEveryOffset(date: Date) throws {
        for offset in [0, 3600, 7200, -8 * 3600, -(3 * 3600 + 30 * 60), 5 * 3600 + 45 * 60, 14 * 3600, -12 * 3600] {
            let text = ISODate.format(date, offsetSeconds: offset)
            let parsed = try #require(ISODate.parse(text), "\(text)")
            #expect(Kit.isClose(parsed.timeIntervalSince1970, date.timeIntervalSince1970, absolute: 1e-6), "\(text)")
            expectEqual(ISODate.format(parsed, offsetSeconds: offset), text)
        }
        for zone in ["Europe/Paris", "America/New_York", "Asia/Kolkata", "Australia/Adelaide", "UTC"] {
            let text = ISODate.format(date, in: Kit.zone(zone))
            let parsed = try #require(ISODate.parse(text), "\(text)")
            #expect(Kit.isClose(parsed.timeIntervalSince1970, date.timeIntervalSince1970, absolute: 1e-6), "\(text)")
        }
    }

    func leapDaysExistOnlyInLeapYears() {
        // 2024 is a leap year; 2000 too (divisible by 400); 1900 and 2100 are not (divisible by 100 only).
        expectEqual(ISODate.parse("2024-02-29T12:00:00Z"), Kit.utc(2024, 2, 29, 12))
        expectEqual(ISODate.parse("2000-02-29T00:00:00Z"), Kit.utc(2000, 2, 29))
        expectNil(ISODate.parse("2023-02-29T00:00:00Z"))
        expectNil(ISODate.parse("1900-02-29T00:00:00Z"))
        expectNil(ISODate.parse("2100-02-29T00:00:00Z"))
        expectEqual(ISODate.daysInMonth(year: 2024, month: 2), 29)
        expectEqual(ISODate.daysInMonth(year: 2023, month: 2), 28)
        expectEqual(ISODate.daysInMonth(year: 2000, month: 2), 29)
        expectEqual(ISODate.daysInMonth(year: 1900, month: 2), 28)
        expectEqual(ISODate.daysInMonth(year: 2024, month: 4), 30)
        expectEqual(ISODate.daysInMonth(year: 2024, month: 12), 31)
    }

    @Test(arguments: [
        "2023-02-29T00:00:00Z",  // not a leap year
        "2024-02-30T00:00:00Z",
        "2024-04-31T00:00:00Z",  // April has 30 days
        "2024-13-01T00:00:00Z",  // no month 13
        "2024-00-10T00:00:00Z",  // no month 0
        "2024-06-00T00:00:00Z",  // no day 0
        "2024-06-01T24:00:00Z",  // 24:00 is not a time of day here
        "2024-06-01T12:60:00Z",
        "2024-06-01T12:00:60Z",
        "2024-06-01T12:00:00+19:00",  // offsets stop at ±18:00
        "2024-06-01T12:00:00+05:60",
        "1898-12-31T23:59:59Z",  // before any year a store line holds (1899 west of Greenwich: StorableValues)
        "2023-02-29",
        "2024-13-01",
    ])
    func impossibleDatesThrow(text: String) {
        expectNil(ISODate.parse(text))
        let error = #expect(throws: TimeInputError.self) { try ISODate.components(text) }
        guard case let .impossible(payload, _)? = error else {
            Issue.record("'\(text)' gave \(String(describing: error)), expected .impossible")
            return
        }
        expectEqual(payload, text)
    }

    @Test(arguments: [
        "", "2024", "2024-6-01", "2024/06/01", "24-06-01", "2024-06-01T12", "2024-06-01T1200",
        "2024-06-01T12:00:00+2", "2024-06-01T12:00:00+02:0", "2024-06-01T12:00:00.Z",
        "2024-06-01T12:00:00X", "2024-06-01T12:00:00Z extra", "2024-06-01X", "yesterday",
    ])
    func malformedTextThrows(text: String) {
        expectNil(ISODate.parse(text))
        #expect(throws: TimeInputError.malformed(text)) { try ISODate.components(text) }
    }

    func componentsWithoutOffsetAreLocalAndParseRefusesThem() throws {
        let dateOnly = try ISODate.components("2024-06-01")
        expectEqual(dateOnly, ISODate.Components(year: 2024, month: 6, day: 1))
        #expect(!dateOnly.hasTime)
        expectNil(dateOnly.offsetSeconds)
        expectNil(ISODate.parse("2024-06-01"))

        let local = try ISODate.components("2024-06-01T08:30:15.250")
        #expect(local.hasTime)
        let fields: [Int] = [local.hour, local.minute, local.second, local.millisecond]
        expectEqual(fields, [8, 30, 15, 250])
        expectNil(local.offsetSeconds)
        expectNil(ISODate.parse("2024-06-01T08:30:15"))

        try expectEqual(ISODate.components("2024-06-01T08:30:00-09:30").offsetSeconds, -34_200)  // −(9 × 3600 + 30 × 60)
    }

    /// The store's byte-level fast path must agree with the general parser on every input, valid or not.
    @Test(arguments: [
        "2024-06-01T12:00:00+00:00", "2024-06-01T12:00:00.123+02:00", "2024-06-01T12:00:00-09:30",
        "2024-02-29T23:59:59.999-08:00", "1900-01-01T00:00:00+00:00", "2099-12-31T23:59:59+14:00",
        "1899-12-31T23:59:59+00:00", "1898-12-31T23:59:59+00:00",  // 1899: the first instants kept, west of Greenwich
        "2023-02-29T00:00:00+00:00", "2024-04-31T00:00:00+00:00", "2024-13-01T00:00:00+00:00",
        "2024-06-01T24:00:00+00:00", "2024-06-01T12:60:00+00:00", "2024-06-01T12:00:60+00:00",
        "2024-06-01T12:00:00+19:00", "2024-06-01T12:00:00+05:60", "2024-06-01t12:00:00+00:00",
        "2024-06-01T12:00:00.5+00:00", "2024-06-01T12:00:00Z", "2024-06-01 12:00:00 -0800",
        "2024-06-01T12:00:00*00:00", "2024-06-01T12:00:00.12x+00:00", "abcd-ef-ghTij:kl:mn+op:qr",
    ])
    func bytesFastPathAgreesWithTheParser(text: String) {
        let fast = Array(text.utf8).withUnsafeBufferPointer { ISODate.parse(bytes: $0) }
        expectEqual(fast, ISODate.parse(text), "\(text)")
    }

    func civilDayArithmeticMatchesFoundation() {
        // Every first of the month from 1900 to 2100 against Foundation's Gregorian calendar.
        for year in stride(from: 1900, through: 2100, by: 7) {
            for month in 1...12 {
                let expected = Int(Kit.utc(year, month, 1).timeIntervalSince1970 / 86_400)
                expectEqual(ISODate.daysFromCivil(year, month, 1), expected)
                let civil = ISODate.civil(fromDays: expected)
                #expect(civil.year == year && civil.month == month && civil.day == 1)
            }
        }
        expectEqual(ISODate.daysFromCivil(1970, 1, 1), 0)
        expectEqual(ISODate.daysFromCivil(1969, 12, 31), -1)
        expectEqual(ISODate.daysFromCivil(2024, 6, 1), 19_875)  // 1 717 200 000 / 86 400
    }
}

/// The byte parser (eight bytes at a time, with a cached day) gives exactly what the text parser gives, for
/// valid dates and for every one-byte corruption of them.
struct ISODateByteParserTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: iSODateByteParserTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private func viaBytes(_ bytes: [UInt8], cache: inout ISODate.DayCache) -> Date? {
        bytes.withUnsafeBufferPointer { ISODate.parse(bytes: $0, days: &cache) }
    }

    func agreesWithTheTextParserOnCorruptedDates() {
        var generator = SystemRandomNumberGenerator()
        let seeds = ["2024-06-01T08:30:59+02:00", "1999-12-31T23:59:59-12:45", "2024-02-29T00:00:00.250+14:00",
                     "2032-12-28T20:13:39-08:00", "2024-03-10T01:59:00.999-08:00"]
        let interesting: [UInt8] = Array("0123456789:+-.TZtz /".utf8) + [0x00, 0x2F, 0x3A, 0x3B, 0x40, 0x7F, 0x80, 0xB9, 0xFF]
        var cache = ISODate.DayCache()
        for seed in seeds {
            let original = Array(seed.utf8)
            expectEqual(viaBytes(original, cache: &cache), ISODate.parse(seed), "\(seed)")
            for position in original.indices {
                for replacement in interesting + [UInt8.random(in: 0...255, using: &generator)] {
                    var bytes = original
                    bytes[position] = replacement
                    let text = String(decoding: bytes, as: UTF8.self)
                    let expected = bytes.allSatisfy { $0 < 0x80 } ? ISODate.parse(text) : nil
                    expectEqual(viaBytes(bytes, cache: &cache), expected, "\(text)")
                }
            }
        }
    }

    /// The byte-by-byte formatter against Foundation's calendar arithmetic and `String(format:)`, over random instants,
    /// offsets and milliseconds from 1583 (Foundation counts earlier years in the Julian calendar) to 9999.
    func formattingMatchesFoundationEverywhere() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var generator = IndependentTestKit.SeededGenerator(seed: 11)
        for round in 0..<5_000 {
            let seconds = Double(Int64.random(in: -12_212_553_600 + 86_400 ... 253_402_214_400 - 86_400, using: &generator))
            let millis = round % 3 == 0 ? 0 : Int.random(in: 0..<1000, using: &generator)
            let offset = [0, 3600, -28_800, 19_800, -12_600, 50_400, -43_200][round % 7] + (round % 11 == 0 ? 45 * 60 : 0)
            let date = Date(timeIntervalSince1970: seconds + Double(millis) / 1000)
            let shifted = Date(timeIntervalSince1970: seconds + Double(offset))
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: shifted)
            var expected = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.year!, parts.month!, parts.day!,
                                  parts.hour!, parts.minute!, parts.second!)
            if millis != 0 { expected += String(format: ".%03d", millis) }
            expected += String(format: "%@%02d:%02d", offset < 0 ? "-" : "+", abs(offset) / 3600, abs(offset) / 60 % 60)
            expectEqual(ISODate.format(date, offsetSeconds: offset), expected, "\(seconds) \(millis) \(offset)")
        }
        // Beyond four-digit years the general path writes the digits there are.
        expectEqual(ISODate.format(Date(timeIntervalSince1970: 253_402_300_800), offsetSeconds: 0), "10000-01-01T00:00:00+00:00")
    }
}

/// The checks ``ISODateTests/checks(_:)`` runs.
private let iSODateTestsChecks: [Check<ISODateTests>] = [
    Check("formatsUTCAndZoneOffsets", ISODateTests.formatsUTCAndZoneOffsets),
    Check("millisecondsAppearOnlyWhenNeeded", ISODateTests.millisecondsAppearOnlyWhenNeeded),
    Check("formatsDatesBefore1970", ISODateTests.formatsDatesBefore1970),
    Check("anOffsetWithSecondsStillNamesTheInstant", ISODateTests.anOffsetWithSecondsStillNamesTheInstant),
    Check("parsesAppleExportTimestamps", ISODateTests.parsesAppleExportTimestamps),
    Check("parsesFractionsOfASecond", ISODateTests.parsesFractionsOfASecond),
    Check("leapDaysExistOnlyInLeapYears", ISODateTests.leapDaysExistOnlyInLeapYears),
    Check("componentsWithoutOffsetAreLocalAndParseRefusesThem",
          ISODateTests.componentsWithoutOffsetAreLocalAndParseRefusesThem),
    Check("civilDayArithmeticMatchesFoundation", ISODateTests.civilDayArithmeticMatchesFoundation),
    Check("localDayTextIsTheLocalTextsDate", ISODateTests.localDayTextIsTheLocalTextsDate),
]

/// The checks ``ISODateByteParserTests/checks(_:)`` runs.
private let iSODateByteParserTestsChecks: [Check<ISODateByteParserTests>] = [
    Check("agreesWithTheTextParserOnCorruptedDates", ISODateByteParserTests.agreesWithTheTextParserOnCorruptedDates),
    Check("formattingMatchesFoundationEverywhere", ISODateByteParserTests.formattingMatchesFoundationEverywhere),
]
