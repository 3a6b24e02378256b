import Foundation
import Testing
@testable import HealthCore
import TestKit

/// Sleep by night: attribution to the morning, the cut-off, naps, overlapping phone and watch, DST nights.
struct NightTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: nightTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit
    private static let watch = "Jane’s Apple Watch", phone = "Jane’s iPhone"

    private func nights(_ samples: [Sample], from: Date, to: Date, zone: String = "UTC", cutoff: NightCutoff = .noon,
                        priority: SourcePriority = .automatic, merging: Bool = true) throws -> [SleepNight] {
        let calendar = GregorianCalendar(timeZone: Kit.zone(zone))
        return try SleepNightsQuery(interval: DateInterval(start: from, end: to), cutoff: cutoff, priority: priority,
                                    mergesSources: merging).run(on: InMemorySampleStore(samples), calendar: calendar)
    }

    private func at(_ day: Int, _ hour: Int, _ minute: Int = 0) -> Date { Kit.utc(2024, 5, day, hour, minute) }

    /// Phone: in bed 22:45–07:10 and asleep (unspecified) 23:00–07:00 on the night of 05-31 → 06-01... expressed in
    /// May days 31/32 so 32 = June 1. Watch: core 23:30–01:00, deep 01:00–02:00, awake 02:00–02:15, REM 02:15–06:30.
    private var phoneAndWatchNight: [Sample] {
        [Kit.sleep(0, at(31, 22, 45), at(32, 7, 10), source: Self.phone),
         Kit.sleep(1, at(31, 23), at(32, 7), source: Self.phone),
         Kit.sleep(3, at(31, 23, 30), at(32, 1), source: Self.watch),
         Kit.sleep(4, at(32, 1), at(32, 2), source: Self.watch),
         Kit.sleep(2, at(32, 2), at(32, 2, 15), source: Self.watch),
         Kit.sleep(5, at(32, 2, 15), at(32, 6, 30), source: Self.watch)]
    }

    func nightAcrossMidnightBelongsToTheMorning() throws {
        let samples = [Kit.sleep(1, at(31, 23, 10), at(32, 7, 5))]
        let result = try nights(samples, from: at(31, 0), to: at(33, 0))
        expectEqual(result.map(\.date), [at(31, 0), at(32, 0)])
        #expect(result[0].asleep == 0 && result[0].sampleCount == 0 && result[0].efficiency == nil)
        expectEqual(result[1].asleep, 7 * 3600 + 55 * 60)  // 23:10–07:05
        #expect(result[1].start == at(31, 12) && result[1].end == at(32, 12))
        #expect(result[1].sleepStart == at(31, 23, 10) && result[1].sleepEnd == at(32, 7, 5))
        // No inBed sample: time in bed is unknown, not zero, and so is efficiency.
        #expect(result[1].inBed == nil && result[1].efficiency == nil)
    }

    func overlappingPhoneAndWatchAreNotDoubleCounted() throws {
        // The watch (higher priority) wins 23:30–06:30; the phone's unspecified sleep fills 23:00–23:30 and
        // 06:30–07:00. Asleep = 30 + 90 (core) + 60 (deep) + 255 (REM) + 30 = 465 min; awake 15 min.
        let night = try #require(try nights(phoneAndWatchNight, from: at(32, 0), to: at(33, 0)).first)
        expectEqual(night.asleep, 465 * 60)
        expectEqual(night.asleepUnspecified, 60 * 60)
        expectEqual(night.asleepCore, 90 * 60)
        expectEqual(night.asleepDeep, 60 * 60)
        expectEqual(night.asleepREM, 255 * 60)
        expectEqual(night.awake, 15 * 60)
        expectEqual(night.inBed, Double(505 * 60))  // 22:45–07:10
        // Efficiency: 465 asleep of 505 in bed.
        #expect(Kit.isClose(night.efficiency!, 465.0 / 505.0))
        expectEqual(night.sampleCount, 6)
    }

    func withoutMergingAsleepIsTheUnionOfEverySource() throws {
        // The union of asleep samples: 23:00–07:00 = 480 min (the watch's 15 awake minutes are inside the phone's
        // asleep sample and do not subtract).
        let night = try #require(try nights(phoneAndWatchNight, from: at(32, 0), to: at(33, 0), merging: false).first)
        expectEqual(night.asleep, 480 * 60)
    }

    func phoneFirstMakesTheWholeNightUnspecified() throws {
        let night = try #require(try nights(phoneAndWatchNight, from: at(32, 0), to: at(33, 0),
                                            priority: try SourcePriority([Self.phone])).first)
        expectEqual(night.asleep, 480 * 60)
        expectEqual(night.asleepUnspecified, 480 * 60)
        #expect(night.awake == 0 && night.asleepREM == 0)
    }

    func awakeInsideAsleepFromOneSourceIsAwake() throws {
        // Typed by hand: asleep 23:00–07:00 and awake 03:00–03:30. Asleep 7.5 h, awake 30 min.
        let samples = [Kit.sleep(1, at(31, 23), at(32, 7)), Kit.sleep(2, at(32, 3), at(32, 3, 30))]
        let night = try #require(try nights(samples, from: at(32, 0), to: at(33, 0)).first)
        expectEqual(night.asleep, 7.5 * 3600)
        expectEqual(night.awake, 1800)
        // The calendar-day statistics read the same timeline.
        let day = try StatisticsRequest(type: .sleep, interval: DateInterval(start: at(32, 0), end: at(33, 0)))
            .run(on: InMemorySampleStore(samples), calendar: GregorianCalendar(timeZone: .gmt))
        expectEqual(day.total.asleep, 6.5 * 3600)  // 00:00–07:00 minus 30 awake minutes
    }

    func napAfterTheCutoffBelongsToTheNextNight() throws {
        // Nap 14:00–14:40 on 06-01. With the noon cut-off it is part of the night ending 06-02; with an 18:00
        // cut-off it stays on 06-01.
        let samples = [Kit.sleep(1, at(31, 23), at(32, 7)), Kit.sleep(1, at(32, 14), at(32, 14, 40))]
        let noon = try nights(samples, from: at(32, 0), to: at(34, 0))
        let noonExpected: [TimeInterval] = [8 * 3600, 40 * 60]
        expectEqual(noon.map(\.asleep), noonExpected)
        let evening = try nights(samples, from: at(32, 0), to: at(34, 0), cutoff: try NightCutoff(hour: 18))
        let eveningExpected: [TimeInterval] = [8 * 3600 + 40 * 60, 0]
        expectEqual(evening.map(\.asleep), eveningExpected)
        #expect(evening[0].start == at(31, 18) && evening[0].end == at(32, 18))
    }

    func sleepPastTheCutoffIsCutThere() throws {
        // A late morning 03:00–13:00: 9 h on the night ending that morning, 1 h on the next.
        let samples = [Kit.sleep(1, at(32, 3), at(32, 13))]
        let expected: [TimeInterval] = [9 * 3600, 3600]
        try expectEqual(nights(samples, from: at(32, 0), to: at(34, 0)).map(\.asleep), expected)
    }

    @Test(arguments: [
        // Paris spring forward: 23:00 CET → 07:00 CEST is 7 real hours; the night window is 23 h.
        ("Europe/Paris", [2024, 3, 30], [2024, 3, 31], 7.0, 23.0),
        // Paris fall back: 23:00 CEST → 07:00 CET is 9 real hours; the window is 25 h.
        ("Europe/Paris", [2024, 10, 26], [2024, 10, 27], 9.0, 25.0),
        ("America/New_York", [2024, 3, 9], [2024, 3, 10], 7.0, 23.0),
        ("America/New_York", [2024, 11, 2], [2024, 11, 3], 9.0, 25.0),
    ])
    func nightsAcrossDSTAreMeasuredInRealHours(zone: String, evening: [Int], morning: [Int], hours: Double, window: Double) throws {
        let start = Kit.date(evening[0], evening[1], evening[2], 23, zone: zone)
        let end = Kit.date(morning[0], morning[1], morning[2], 7, zone: zone)
        let day = Kit.date(morning[0], morning[1], morning[2], zone: zone)
        let result = try nights([Kit.sleep(3, start, end)], from: day, to: day.addingTimeInterval(3600), zone: zone)
        let night = try #require(result.first)
        expectEqual(result.count, 1)
        expectEqual(night.date, day)
        expectEqual(night.asleep, hours * 3600)
        expectEqual(night.asleepCore, hours * 3600)
        expectEqual(night.end.timeIntervalSince(night.start), window * 3600)
    }

    func aWeekListsSevenNightsEmptyOnesIncluded() throws {
        let start = Kit.utc(2024, 5, 26), end = Kit.utc(2024, 6, 2)
        let result = try nights([Kit.sleep(1, at(28, 23), at(29, 6))], from: start, to: end)
        expectEqual(result.count, 7)
        let expected: [TimeInterval] = [0, 0, 0, 7 * 3600, 0, 0, 0]
        expectEqual(result.map(\.asleep), expected)
    }

    func explainShowsWhichSourceWonEachStretch() throws {
        let query = StatisticsRequest(type: .sleep, interval: DateInterval(start: at(31, 12), end: at(32, 12)), explains: true)
        let result = try query.run(on: InMemorySampleStore(phoneAndWatchNight), calendar: GregorianCalendar(timeZone: .gmt))
        let phoneAsleep = try #require(result.total.contributions.first { $0.sample.source == Self.phone && $0.stage == "asleepUnspecified" })
        // 8 h in the interval, 1 h counted; the watch won 90 + 60 + 15 + 255 = 420 min.
        expectEqual(phoneAsleep.secondsInInterval, 8 * 3600)
        expectEqual(phoneAsleep.secondsCounted, 3600)
        expectEqual(phoneAsleep.overrides.map(\.seconds).sum, 420 * 60)
        expectEqual(phoneAsleep.overrides.map(\.stage), ["asleepCore", "asleepDeep", "awake", "asleepREM"])
        expectEqual(phoneAsleep.outcome, .cut)
        expectEqual(result.total.asleep, 465.0 * 60)
    }

    func theNightOfAnInstantRunsFromCutOffToCutOff() throws {
        let calendar = GregorianCalendar(timeZone: Kit.zone("Europe/Paris"))
        // 03:00 Paris on 06-01 (01:00 UTC) is in the night 05-31 12:00 → 06-01 12:00 Paris.
        let night = NightCutoff.noon.night(containing: Kit.utc(2024, 6, 1, 1), calendar: calendar)
        expectEqual(night, DateInterval(start: Kit.utc(2024, 5, 31, 10), end: Kit.utc(2024, 6, 1, 10)))
        // An instant at the cut-off starts the next night; 23:00 is in the night ending the next morning.
        expectEqual(NightCutoff.noon.night(containing: Kit.utc(2024, 6, 1, 10), calendar: calendar).start, Kit.utc(2024, 6, 1, 10))
        expectEqual(NightCutoff.noon.night(containing: Kit.utc(2024, 6, 1, 21), calendar: calendar).end, Kit.utc(2024, 6, 2, 10))
        // Across the spring DST change in Paris the night is 23 hours long.
        let spring = NightCutoff.noon.night(containing: Kit.utc(2024, 3, 31, 1), calendar: calendar)
        expectEqual(spring.duration, 23 * 3600)
    }
}

/// The checks ``NightTests/checks(_:)`` runs.
private let nightTestsChecks: [Check<NightTests>] = [
    Check("nightAcrossMidnightBelongsToTheMorning", NightTests.nightAcrossMidnightBelongsToTheMorning),
    Check("overlappingPhoneAndWatchAreNotDoubleCounted", NightTests.overlappingPhoneAndWatchAreNotDoubleCounted),
    Check("withoutMergingAsleepIsTheUnionOfEverySource", NightTests.withoutMergingAsleepIsTheUnionOfEverySource),
    Check("phoneFirstMakesTheWholeNightUnspecified", NightTests.phoneFirstMakesTheWholeNightUnspecified),
    Check("awakeInsideAsleepFromOneSourceIsAwake", NightTests.awakeInsideAsleepFromOneSourceIsAwake),
    Check("napAfterTheCutoffBelongsToTheNextNight", NightTests.napAfterTheCutoffBelongsToTheNextNight),
    Check("sleepPastTheCutoffIsCutThere", NightTests.sleepPastTheCutoffIsCutThere),
    Check("aWeekListsSevenNightsEmptyOnesIncluded", NightTests.aWeekListsSevenNightsEmptyOnesIncluded),
    Check("explainShowsWhichSourceWonEachStretch", NightTests.explainShowsWhichSourceWonEachStretch),
    Check("theNightOfAnInstantRunsFromCutOffToCutOff", NightTests.theNightOfAnInstantRunsFromCutOffToCutOff),
]
