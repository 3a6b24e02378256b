import Foundation
import Testing
import TestKit
@testable import HKCtlCommands
@testable import HealthCore
@testable import HKCtlSupport

/// The rules of `hkctl add`: what a person types becomes one validated sample.
struct SampleEntryTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: sampleEntryTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = EntryTestKit

    private static let sleepChoices = ["inbed", "asleep", "awake", "core", "deep", "rem"]

    private func context(_ zone: String = "UTC", now: Date = EntryTestKit.referenceNow) -> TimeContext {
        TimeContext(now: now, timeZone: Kit.zone(zone))
    }

    private func time(_ text: String, _ context: TimeContext) throws -> TimeExpression {
        try TimeExpression.parse(text, in: context)
    }

    // MARK: Sleep as a clock range

    func sleepRangeEndsThisMorningWhenThatHasPassed() throws {
        // now = 2024-06-01T12:00Z; 07:05 today has passed, so the night is 05-31 23:10 → 06-01 07:05.
        let sample = try SampleEntry(type: .sleep, value: "23:10-07:05").sample(source: "hkctl", context: context())
        expectEqual(sample.start, Kit.utc(2024, 5, 31, 23, 10))
        expectEqual(sample.end, Kit.utc(2024, 6, 1, 7, 5))
        expectEqual(sample.duration, 7 * 3600 + 55 * 60)  // 23:10 → 07:05 = 7 h 55 min
        expectEqual(sample.value, .category(1))           // asleepUnspecified by default
        expectEqual(sample.typeIdentifier, "HKCategoryTypeIdentifierSleepAnalysis")
        expectEqual(sample.created, EntryTestKit.referenceNow)
        expectEqual(sample.source, "hkctl")
    }

    func sleepRangeStillGoingOnIsRefusedNotMovedADayBack() throws {
        // now = 06:00Z: 23:10-07:05 began last night and ends ahead; it used to become the night ending 2024-05-31
        // (issue 31). It is refused; naming the day gives that night.
        let early = context(now: Kit.utc(2024, 6, 1, 6))
        #expect(throws: TypedTimeError.self) {
            try SampleEntry(type: .sleep, value: "23:10-07:05").sample(source: "hkctl", context: early)
        }
        let named = try SampleEntry(type: .sleep, value: "23:10-07:05", endDay: Kit.utc(2024, 5, 31))
            .sample(source: "hkctl", context: early)
        expectEqual(named.start, Kit.utc(2024, 5, 30, 23, 10))
        expectEqual(named.end, Kit.utc(2024, 5, 31, 7, 5))
    }

    func sleepRangeEndingExactlyNowIsToday() throws {
        let atEnd = context(now: Kit.utc(2024, 6, 1, 7, 5))
        let sample = try SampleEntry(type: .sleep, value: "23:10-07:05").sample(source: "hkctl", context: atEnd)
        expectEqual(sample.end, Kit.utc(2024, 6, 1, 7, 5))
    }

    func sleepRangeWithinOneDay() throws {
        // 21:00 today is after now (12:00), so "20:00-21:00" is yesterday evening.
        let sample = try SampleEntry(type: .sleep, value: "20:00-21:00").sample(source: "hkctl", context: context())
        expectEqual(sample.start, Kit.utc(2024, 5, 31, 20))
        expectEqual(sample.end, Kit.utc(2024, 5, 31, 21))
        // A nap that already ended today.
        let nap = try SampleEntry(type: .sleep, value: "09:15-10:45").sample(source: "hkctl", context: context())
        expectEqual(nap.start, Kit.utc(2024, 6, 1, 9, 15))
        expectEqual(nap.end, Kit.utc(2024, 6, 1, 10, 45))
    }

    func sleepRangeOfEqualTimesIsAWholeDay() throws {
        // Start equal to end moves the start back a day: exactly 24 h, the longest allowed.
        let sample = try SampleEntry(type: .sleep, value: "07:00-07:00").sample(source: "hkctl", context: context())
        expectEqual(sample.start, Kit.utc(2024, 5, 31, 7))
        expectEqual(sample.end, Kit.utc(2024, 6, 1, 7))
    }

    func sleepRangeIsReadInTheContextZone() throws {
        // Paris is UTC+2 in June: 07:05 local = 05:05Z, 23:10 local the day before = 21:10Z.
        let sample = try SampleEntry(type: .sleep, value: "23:10-07:05").sample(source: "hkctl", context: context("Europe/Paris"))
        expectEqual(sample.start, Kit.utc(2024, 5, 31, 21, 10))
        expectEqual(sample.end, Kit.utc(2024, 6, 1, 5, 5))
    }

    func sleepRangeOnAGivenEndDayAcrossTheSpringForwardNight() throws {
        // Night of 2024-03-30 → 31 in Paris: 23:00+01:00 = 22:00Z, 07:00+02:00 = 05:00Z: 7 h, not 8.
        let paris = context("Europe/Paris", now: Kit.utc(2024, 4, 1, 12))
        let endDay = Kit.date(2024, 3, 31, zone: "Europe/Paris")
        let sample = try SampleEntry(type: .sleep, value: "23:00-07:00", endDay: endDay).sample(source: "hkctl", context: paris)
        expectEqual(sample.start, Kit.utc(2024, 3, 30, 22))
        expectEqual(sample.end, Kit.utc(2024, 3, 31, 5))
        expectEqual(sample.duration, 7 * 3600)
    }

    func sleepRangeOnAFutureEndDayIsInTheFuture() {
        let endDay = Kit.utc(2024, 6, 2)
        #expect(throws: SampleError.inFuture(end: "2024-06-02T07:05:00+00:00", now: "2024-06-01T12:00:00+00:00")) {
            try SampleEntry(type: .sleep, value: "23:10-07:05", endDay: endDay).sample(source: "hkctl", context: context())
        }
    }

    @Test(arguments: ["25:00-07:00", "23:10-07:60", "23:xx-07:00"])
    func impossibleClockRangesThrowTimeErrors(text: String) {
        #expect(throws: TimeInputError.self) {
            try SampleEntry(type: .sleep, value: text).sample(source: "hkctl", context: context())
        }
    }

    func clockRangeShape() {
        #expect(ClockRange.looksLikeRange("23:10-07:05"))
        #expect(!ClockRange.looksLikeRange("deep"))
        #expect(!ClockRange.looksLikeRange("23:10"))
        #expect(!ClockRange.looksLikeRange("2024-05-31"))
        #expect(!ClockRange.looksLikeRange("23:10-07:05-08:00"))
    }

    // MARK: Sleep stages

    @Test(arguments: [
        ("deep", 4), ("rem", 5), ("core", 3), ("light", 3), ("inBed", 0), ("inbed", 0), ("awake", 2), ("asleep", 1),
        ("asleepREM", 5), ("HKCategoryValueSleepAnalysisAsleepCore", 3), ("HKCategoryValueSleepAnalysisAsleep", 1),
        ("3", 3),
    ])
    func stageNamesMapToHealthKitRawValues(name: String, raw: Int) throws {
        let sample = try SampleEntry(type: .sleep, value: "23:10-07:05", categoryValue: name)
            .sample(source: "hkctl", context: context())
        expectEqual(sample.value, .category(raw))
    }

    func stageAsValueWithExplicitTimes() throws {
        let ctx = context()
        let sample = try SampleEntry(type: .sleep, value: "deep", from: time("2024-06-01T01:00", ctx),
                                     to: time("2024-06-01T02:30", ctx)).sample(source: "hkctl", context: ctx)
        expectEqual(sample.value, .category(4))
        expectEqual(sample.start, Kit.utc(2024, 6, 1, 1))
        expectEqual(sample.end, Kit.utc(2024, 6, 1, 2, 30))
    }

    func unknownStageListsTheChoices() {
        #expect(throws: SampleError.unknownCategoryValue("nap", type: "sleep", choices: SampleEntryTests.sleepChoices)) {
            try SampleEntry(type: .sleep, value: "23:10-07:05", categoryValue: "nap").sample(source: "hkctl", context: context())
        }
    }

    func stageGivenTwiceIsRefused() {
        #expect(throws: SampleError.self) {
            try SampleEntry(type: .sleep, value: "deep", categoryValue: "rem").sample(source: "hkctl", context: context())
        }
    }

    // MARK: --from / --to

    func dateOnlyToMeansTheEndOfThatDay() throws {
        let ctx = context()
        let sample = try SampleEntry(type: .steps, value: "8000", from: time("2024-05-30", ctx), to: time("2024-05-31", ctx))
            .sample(source: "hkctl", context: ctx)
        // to = 2024-05-31 means through the end of 05-31, i.e. 2024-06-01T00:00Z.
        expectEqual(sample.start, Kit.utc(2024, 5, 30))
        expectEqual(sample.end, Kit.utc(2024, 6, 1))
        expectEqual(sample.value, .quantity(Quantity(8000, .count())))
    }

    func dateOnlyToFollowsTheLocalCalendar() throws {
        // In Paris (UTC+2) the day 2024-05-31 ends at 2024-05-31T22:00Z.
        let ctx = context("Europe/Paris")
        let sample = try SampleEntry(type: .steps, value: "8000", from: time("2024-05-30", ctx), to: time("2024-05-31", ctx))
            .sample(source: "hkctl", context: ctx)
        expectEqual(sample.start, Kit.utc(2024, 5, 29, 22))
        expectEqual(sample.end, Kit.utc(2024, 5, 31, 22))
    }

    func dateOnlyToAcrossSpringForwardIsA23HourDay() throws {
        // to = 2024-03-31 in Paris ends at 2024-04-01T00:00+02:00 = 2024-03-31T22:00Z;
        // from = 2024-03-31 starts at 00:00+01:00 = 2024-03-30T23:00Z: 23 h.
        let ctx = context("Europe/Paris", now: Kit.utc(2024, 4, 2))
        let sample = try SampleEntry(type: .steps, value: "100", from: time("2024-03-31", ctx), to: time("2024-03-31", ctx))
            .sample(source: "hkctl", context: ctx)
        expectEqual(sample.start, Kit.utc(2024, 3, 30, 23))
        expectEqual(sample.end, Kit.utc(2024, 3, 31, 22))
        expectEqual(sample.duration, 23 * 3600)
    }

    func fromAndToWithTimesAreTakenAsGiven() throws {
        let ctx = context()
        let sample = try SampleEntry(type: .sleep, from: time("2024-05-31T23:00", ctx), to: time("2024-06-01T07:00", ctx))
            .sample(source: "hkctl", context: ctx)
        expectEqual(sample.start, Kit.utc(2024, 5, 31, 23))
        expectEqual(sample.end, Kit.utc(2024, 6, 1, 7))
        expectEqual(sample.value, .category(1))
    }

    func toBeforeFromIsRefused() {
        let ctx = context()
        #expect(throws: SampleError.endBeforeStart(start: "2024-06-01T10:00:00+00:00", end: "2024-06-01T09:00:00+00:00")) {
            try SampleEntry(type: .steps, value: "10", from: time("10:00", ctx), to: time("09:00", ctx))
                .sample(source: "hkctl", context: ctx)
        }
    }

    // MARK: Instantaneous samples

    func amountAtATimeIsInstantaneous() throws {
        let ctx = context()
        let uuid = UUID(uuidString: "00000000-0000-0000-0000-000000000042")!
        let sample = try SampleEntry(type: .water, value: "500mL", at: time("08:30", ctx), metadata: ["note": .string("tea")])
            .sample(source: "tester", context: ctx, uuid: uuid)
        expectEqual(sample.uuid, uuid)
        expectEqual(sample.start, Kit.utc(2024, 6, 1, 8, 30))
        expectEqual(sample.end, sample.start)
        let millilitres = try HealthUnit(parsing: "mL")
        expectEqual(sample.value, .quantity(Quantity(500, millilitres)))
        expectEqual(sample.source, "tester")
        expectEqual(sample.created, EntryTestKit.referenceNow)
        expectEqual(sample.metadata, ["note": .string("tea")])
    }

    func amountWithoutATimeIsAtNow() throws {
        let sample = try SampleEntry(type: .weight, value: "72.4kg").sample(source: "hkctl", context: context())
        expectEqual(sample.start, EntryTestKit.referenceNow)
        expectEqual(sample.end, EntryTestKit.referenceNow)
    }

    func amountInTheFutureIsRefused() {
        let ctx = context()
        #expect(throws: SampleError.inFuture(end: "2024-06-01T13:00:00+00:00", now: "2024-06-01T12:00:00+00:00")) {
            try SampleEntry(type: .water, value: "500mL", at: time("13:00", ctx)).sample(source: "hkctl", context: ctx)
        }
    }

    func quantityTypeNeedsAnAmount() {
        #expect(throws: UnitError.missingUnit("", type: "water", examples: ["500mL", "0.5L", "16.9fl_oz_us"])) {
            try SampleEntry(type: .water).sample(source: "hkctl", context: context())
        }
    }

    func entryAmountsAreValidated() {
        #expect(throws: SampleError.negative(-5, type: "water")) {
            try SampleEntry(type: .water, value: "-5mL").sample(source: "hkctl", context: context())
        }
        #expect(throws: SampleError.outOfRange(800, unit: "kg", type: "weight", range: 0.5...700)) {
            try SampleEntry(type: .weight, value: "800kg").sample(source: "hkctl", context: context())
        }
        #expect(throws: UnitError.ambiguous("cup", type: "water", choices: ["cup_us", "cup_imp"])) {
            try SampleEntry(type: .water, value: "1cup").sample(source: "hkctl", context: context())
        }
    }
}

/// Issue 31: a range of two times of day that is still going on is refused, never moved to the night before.
struct ClockRangeStillGoingOnTests {
    private let context = TimeContext(now: IndependentEntryDate.at(2024, 6, 1, 7, 30), timeZone: .gmt)

    @Test func aRangeBegunButNotEndedIsRefused() throws {
        #expect(throws: TypedTimeError.rangeNotOver("00:10-07:40", end: "2024-06-01T07:40:00+00:00", now: "2024-06-01T07:30:00+00:00")) {
            try ClockRange.parse("00:10-07:40", in: context)
        }
        // Ended: this morning's. Not begun today: last evening's. Given its day: that day's.
        try expectEqual(ClockRange.parse("00:10-07:20", in: context).end, IndependentEntryDate.at(2024, 6, 1, 7, 20))
        try expectEqual(ClockRange.parse("21:00-23:00", in: context).start, IndependentEntryDate.at(2024, 5, 31, 21, 0))
        let earlier = try ClockRange.parse("00:10-07:40", endDay: IndependentEntryDate.at(2024, 5, 31, 0, 0), in: context)
        expectEqual(earlier.end, IndependentEntryDate.at(2024, 5, 31, 7, 40))
    }
}

private enum IndependentEntryDate {
    static func at(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
    }
}

/// The checks ``SampleEntryTests/checks(_:)`` runs.
private let sampleEntryTestsChecks: [Check<SampleEntryTests>] = [
    Check("sleepRangeEndsThisMorningWhenThatHasPassed", SampleEntryTests.sleepRangeEndsThisMorningWhenThatHasPassed),
    Check("sleepRangeStillGoingOnIsRefusedNotMovedADayBack",
          SampleEntryTests.sleepRangeStillGoingOnIsRefusedNotMovedADayBack),
    Check("sleepRangeEndingExactlyNowIsToday", SampleEntryTests.sleepRangeEndingExactlyNowIsToday),
    Check("sleepRangeWithinOneDay", SampleEntryTests.sleepRangeWithinOneDay),
    Check("sleepRangeOfEqualTimesIsAWholeDay", SampleEntryTests.sleepRangeOfEqualTimesIsAWholeDay),
    Check("sleepRangeIsReadInTheContextZone", SampleEntryTests.sleepRangeIsReadInTheContextZone),
    Check("sleepRangeOnAGivenEndDayAcrossTheSpringForwardNight",
          SampleEntryTests.sleepRangeOnAGivenEndDayAcrossTheSpringForwardNight),
    Check("sleepRangeOnAFutureEndDayIsInTheFuture", SampleEntryTests.sleepRangeOnAFutureEndDayIsInTheFuture),
    Check("clockRangeShape", SampleEntryTests.clockRangeShape),
    Check("stageAsValueWithExplicitTimes", SampleEntryTests.stageAsValueWithExplicitTimes),
    Check("unknownStageListsTheChoices", SampleEntryTests.unknownStageListsTheChoices),
    Check("stageGivenTwiceIsRefused", SampleEntryTests.stageGivenTwiceIsRefused),
    Check("dateOnlyToMeansTheEndOfThatDay", SampleEntryTests.dateOnlyToMeansTheEndOfThatDay),
    Check("dateOnlyToFollowsTheLocalCalendar", SampleEntryTests.dateOnlyToFollowsTheLocalCalendar),
    Check("dateOnlyToAcrossSpringForwardIsA23HourDay", SampleEntryTests.dateOnlyToAcrossSpringForwardIsA23HourDay),
    Check("fromAndToWithTimesAreTakenAsGiven", SampleEntryTests.fromAndToWithTimesAreTakenAsGiven),
    Check("toBeforeFromIsRefused", SampleEntryTests.toBeforeFromIsRefused),
    Check("amountAtATimeIsInstantaneous", SampleEntryTests.amountAtATimeIsInstantaneous),
    Check("amountWithoutATimeIsAtNow", SampleEntryTests.amountWithoutATimeIsAtNow),
    Check("amountInTheFutureIsRefused", SampleEntryTests.amountInTheFutureIsRefused),
    Check("quantityTypeNeedsAnAmount", SampleEntryTests.quantityTypeNeedsAnAmount),
    Check("entryAmountsAreValidated", SampleEntryTests.entryAmountsAreValidated),
]
