import Foundation
import Testing
import TestKit
@testable import HealthCore

/// `Sample.validated(as:now:)`: the invariants every stored sample keeps.
struct SampleValidationTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: sampleValidationTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit

    private static let sleepNames = ["inBed", "asleepUnspecified", "awake", "asleepCore", "asleepDeep", "asleepREM"]
    private static let noon = Kit.utc(2024, 6, 1, 12)

    private func water(_ value: Double, _ unit: String = "mL", start: Date = SampleValidationTests.noon, end: Date? = nil) -> Sample {
        Kit.quantity(.water, value, unit, start, end)
    }

    /// A temperature type of our own, to check that degrees below zero are not "negative amounts".
    private static let temperature = SampleType.quantity(
        "HKQuantityTypeIdentifierBodyTemperature", name: "temperature", title: "Temperature",
        aggregation: .discreteArithmetic, unit: "degC", examples: ["36.6degC"])

    func validSamplesPassUnchanged() throws {
        let sample = water(500)
        try expectEqual(sample.validated(as: .water), sample)
        try expectEqual(sample.validated(as: .water, now: SampleValidationTests.noon), sample)  // ending exactly now is fine
        let night = Kit.sleep(3, Kit.utc(2024, 5, 31, 23), Kit.utc(2024, 6, 1, 7))
        try expectEqual(night.validated(as: .sleep), night)
        try expectEqual(Kit.quantity(.water, 0, "mL", SampleValidationTests.noon).validated(as: .water).value.quantity?.value, 0)
    }

    @Test(arguments: [-1.0, -0.001, -500.0])
    func negativeAmountsAreRefused(value: Double) {
        #expect(throws: SampleError.negative(value, type: "water")) { try water(value).validated(as: .water) }
    }

    func negativeStepsAreRefused() {
        let sample = Kit.steps(-10, SampleValidationTests.noon)
        #expect(throws: SampleError.negative(-10, type: "steps")) { try sample.validated(as: .steps) }
    }

    @Test(arguments: [Double.nan, Double.infinity, -Double.infinity])
    func nonFiniteAmountsAreRefused(value: Double) {
        #expect(throws: SampleError.notFinite(type: "water")) { try water(value).validated(as: .water) }
    }

    func endBeforeStartIsRefusedShowingBothTimes() {
        let sample = water(500, start: Kit.utc(2024, 6, 1, 10), end: Kit.utc(2024, 6, 1, 9))
        #expect(throws: SampleError.endBeforeStart(start: "2024-06-01T10:00:00+00:00", end: "2024-06-01T09:00:00+00:00")) {
            try sample.validated(as: .water)
        }
        // Times in the message follow the zone asked for: 10:00Z is 12:00 in Paris in June.
        #expect(throws: SampleError.endBeforeStart(start: "2024-06-01T12:00:00+02:00", end: "2024-06-01T11:00:00+02:00")) {
            try sample.validated(as: .water, timeZone: Kit.zone("Europe/Paris"))
        }
    }

    func sleepUpToTwentyFourHoursIsAllowed() throws {
        let day = Kit.sleep(1, Kit.utc(2024, 5, 31, 12), Kit.utc(2024, 6, 1, 12))  // exactly 24 h
        try expectEqual(day.validated(as: .sleep), day)
    }

    func sleepLongerThanTwentyFourHoursIsRefused() {
        // 2024-05-31T11:00Z → 2024-06-01T12:00Z = 25 h.
        let sample = Kit.sleep(1, Kit.utc(2024, 5, 31, 11), Kit.utc(2024, 6, 1, 12))
        #expect(throws: SampleError.tooLong(type: "sleep", hours: 25, maximumHours: 24)) {
            try sample.validated(as: .sleep)
        }
        // One second over is already too long: 86 401 s = 24.000277… h.
        let barely = Kit.sleep(1, Kit.utc(2024, 5, 31, 12), Kit.utc(2024, 6, 1, 12, 0, 1))
        #expect(throws: SampleError.tooLong(type: "sleep", hours: 86_401.0 / 3600, maximumHours: 24)) {
            try barely.validated(as: .sleep)
        }
    }

    func weightOutsideThePlausibleRangeIsRefused() {
        let noon = SampleValidationTests.noon
        #expect(throws: SampleError.outOfRange(800, unit: "kg", type: "weight", range: 0.5...700)) {
            try Kit.quantity(.weight, 800, "kg", noon).validated(as: .weight)
        }
        #expect(throws: SampleError.outOfRange(0.4, unit: "kg", type: "weight", range: 0.5...700)) {
            try Kit.quantity(.weight, 0.4, "kg", noon).validated(as: .weight)
        }
        // The range is checked in the canonical unit (2000 lb = 907.18474 kg) and told in the unit typed: 0.5 kg =
        // 1.102 lb, 700 kg = 1543 lb (to four significant digits).
        #expect(throws: SampleError.outOfRange(2000, unit: "lb", type: "weight", range: 1.102...1543)) {
            try Kit.quantity(.weight, 2000, "lb", noon).validated(as: .weight)
        }
        // 300 g = 0.3 kg; the range in grams.
        #expect(throws: SampleError.outOfRange(300, unit: "g", type: "weight", range: 500...700_000)) {
            try Kit.quantity(.weight, 300, "g", noon).validated(as: .weight)
        }
    }

    func weightAtTheRangeEdgesIsAccepted() throws {
        let noon = SampleValidationTests.noon
        _ = try Kit.quantity(.weight, 0.5, "kg", noon).validated(as: .weight)
        _ = try Kit.quantity(.weight, 700, "kg", noon).validated(as: .weight)
        // 1500 lb = 680.388555 kg, inside.
        _ = try Kit.quantity(.weight, 1500, "lb", noon).validated(as: .weight)
    }

    func waterAboveTwentyLitresIsRefusedInTheUnitTyped() {
        // 21 L = 21 000 mL > 20 000 mL, told in litres as typed.
        #expect(throws: SampleError.outOfRange(21, unit: "L", type: "water", range: 0...20)) {
            try water(21, "L").validated(as: .water)
        }
    }

    @Test(arguments: [6, 7, 99, -1])
    func unknownCategoryRawValueIsRefused(raw: Int) {
        let sample = Kit.sleep(raw, Kit.utc(2024, 5, 31, 23), Kit.utc(2024, 6, 1, 7))
        #expect(throws: SampleError.unknownCategoryValue(String(raw), type: "sleep", choices: SampleValidationTests.sleepNames)) {
            try sample.validated(as: .sleep)
        }
    }

    @Test(arguments: 0...5)
    func everySleepRawValueIsAccepted(raw: Int) throws {
        let sample = Kit.sleep(raw, Kit.utc(2024, 5, 31, 23), Kit.utc(2024, 6, 1, 7))
        try expectEqual(sample.validated(as: .sleep).value, .category(raw))
    }

    func futureSampleIsRefusedWhenNowIsGiven() throws {
        let now = SampleValidationTests.noon
        let later = water(500, start: now.addingTimeInterval(60))
        #expect(throws: SampleError.inFuture(end: "2024-06-01T12:01:00+00:00", now: "2024-06-01T12:00:00+00:00")) {
            try later.validated(as: .water, now: now)
        }
        // A sample that started before now but ends after it is in the future too.
        let running = water(500, start: now.addingTimeInterval(-60), end: now.addingTimeInterval(1))
        #expect(throws: SampleError.inFuture(end: "2024-06-01T12:00:01+00:00", now: "2024-06-01T12:00:00+00:00")) {
            try running.validated(as: .water, now: now)
        }
        // Without `now` (imports, the store) the future is not checked.
        try expectEqual(later.validated(as: .water), later)
    }

    func valueKindMustMatchTheType() {
        let noon = SampleValidationTests.noon
        let categoryForSteps = Sample(typeIdentifier: SampleType.steps.identifier, start: noon, end: noon,
                                      value: .category(1), source: "hkctl", created: noon)
        #expect(throws: SampleError.wrongKind(type: "steps", expected: "an amount such as 8000")) {
            try categoryForSteps.validated(as: .steps)
        }
        let quantityForSleep = Sample(typeIdentifier: SampleType.sleep.identifier, start: noon, end: noon,
                                      value: .quantity(Quantity(1, .count())), source: "hkctl", created: noon)
        #expect(throws: SampleError.self) { try quantityForSleep.validated(as: .sleep) }
    }

    func unitMustMeasureTheType() {
        #expect(throws: UnitError.wrongUnitForType(unit: "kg", type: "water", expected: ["500mL", "0.5L", "16.9fl_oz_us"])) {
            try Kit.quantity(.water, 1, "kg", SampleValidationTests.noon).validated(as: .water)
        }
    }

    func degreesBelowZeroAreNotNegativeAmounts() throws {
        let type = SampleValidationTests.temperature
        let cold = Kit.quantity(type, -5, "degC", SampleValidationTests.noon)
        try expectEqual(cold.validated(as: type), cold)
        // Kelvin has no offset, so −5 K is a negative amount.
        #expect(throws: SampleError.negative(-5, type: "temperature")) {
            try Kit.quantity(type, -5, "K", SampleValidationTests.noon).validated(as: type)
        }
    }

    func datesAreKeptToTheMillisecond() {
        // 12:00:00.1234 rounds to .123; 12:00:00.9996 rounds up to the next second.
        let base = SampleValidationTests.noon.timeIntervalSince1970
        let sample = Sample(typeIdentifier: SampleType.water.identifier, start: Date(timeIntervalSince1970: base + 0.1234),
                            end: Date(timeIntervalSince1970: base + 0.9996), value: .quantity(Quantity(1, .count())),
                            source: "hkctl", created: Date(timeIntervalSince1970: base + 0.0004))
        #expect(Kit.isClose(sample.start.timeIntervalSince1970, base + 0.123, absolute: 1e-6))
        expectEqual(sample.end.timeIntervalSince1970, base + 1)
        expectEqual(sample.created.timeIntervalSince1970, base)
        #expect(Kit.isClose(sample.duration, 0.877, absolute: 1e-6))
    }

    func errorMessagesNameTheProblem() {
        #expect(SampleError.negative(-5, type: "water").description.contains("-5"))
        #expect(SampleError.tooLong(type: "sleep", hours: 25, maximumHours: 24).description.contains("24"))
        #expect(SampleError.outOfRange(800, unit: "kg", type: "weight", range: 0.5...700).description.contains("0.5–700 kg"))
    }
}

/// The checks ``SampleValidationTests/checks(_:)`` runs.
private let sampleValidationTestsChecks: [Check<SampleValidationTests>] = [
    Check("validSamplesPassUnchanged", SampleValidationTests.validSamplesPassUnchanged),
    Check("negativeStepsAreRefused", SampleValidationTests.negativeStepsAreRefused),
    Check("endBeforeStartIsRefusedShowingBothTimes", SampleValidationTests.endBeforeStartIsRefusedShowingBothTimes),
    Check("sleepUpToTwentyFourHoursIsAllowed", SampleValidationTests.sleepUpToTwentyFourHoursIsAllowed),
    Check("sleepLongerThanTwentyFourHoursIsRefused", SampleValidationTests.sleepLongerThanTwentyFourHoursIsRefused),
    Check("weightOutsideThePlausibleRangeIsRefused", SampleValidationTests.weightOutsideThePlausibleRangeIsRefused),
    Check("weightAtTheRangeEdgesIsAccepted", SampleValidationTests.weightAtTheRangeEdgesIsAccepted),
    Check("waterAboveTwentyLitresIsRefusedInTheUnitTyped",
          SampleValidationTests.waterAboveTwentyLitresIsRefusedInTheUnitTyped),
    Check("futureSampleIsRefusedWhenNowIsGiven", SampleValidationTests.futureSampleIsRefusedWhenNowIsGiven),
    Check("valueKindMustMatchTheType", SampleValidationTests.valueKindMustMatchTheType),
    Check("unitMustMeasureTheType", SampleValidationTests.unitMustMeasureTheType),
    Check("degreesBelowZeroAreNotNegativeAmounts", SampleValidationTests.degreesBelowZeroAreNotNegativeAmounts),
    Check("datesAreKeptToTheMillisecond", SampleValidationTests.datesAreKeptToTheMillisecond),
    Check("errorMessagesNameTheProblem", SampleValidationTests.errorMessagesNameTheProblem),
]
