import Foundation
import Testing
import TestKit
@testable import HealthCore

/// The library stores a sample dated after now, as HealthKit stores a planned meal; refusing one is a rule of entries
/// typed by people, checked with `Sample.validated(as:now:timeZone:)` (hkctl's `add` does, see `BadInputTests`).
struct FutureSampleTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: futureSampleTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static let now = TestSupport.date("2024-06-10T12:00:00Z")

    func aPlannedMealIsSavedAndReadBack() async throws {
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store", clock: { Self.now })
            let dinner = TestSupport.date("2024-06-10T19:00:00Z")
            let planned = QuantitySample(type: QuantityType(.dietaryEnergyConsumed), quantity: Quantity(unit: .kilocalorie(), doubleValue: 650),
                                         start: dinner, end: dinner)
            try await store.save(planned)
            let found = try await SampleQueryDescriptor(predicates: [.quantitySample(type: QuantityType(.dietaryEnergyConsumed))])
                .result(for: store)
            expectEqual(found.map(\.uuid), [planned.uuid])
            expectEqual(found.first?.startDate, dinner)
            // The file store too, a day ahead.
            let tomorrow = TestSupport.quantitySample(.water, 0.5, "L", start: "2024-06-11T08:00:00Z")
            try store.storage.save([tomorrow])
            try expectEqual(store.storage.samples(ofType: SampleType.water.identifier,
                                                  overlapping: DateInterval(start: Self.now, duration: 86_400 * 2)).map(\.uuid), [tomorrow.uuid])
        }
    }

    func anEntryCheckedAgainstNowIsStillRefused() throws {
        let tomorrow = TestSupport.quantitySample(.water, 0.5, "L", start: "2024-06-11T08:00:00Z")
        #expect(throws: SampleError.inFuture(end: "2024-06-11T08:00:00+00:00", now: "2024-06-10T12:00:00+00:00")) {
            try tomorrow.validated(as: .water, now: Self.now)
        }
        #expect(throws: Never.self) { try tomorrow.validated(as: .water) }
    }
}

/// The checks ``FutureSampleTests/checks(_:)`` runs.
private let futureSampleTestsChecks: [Check<FutureSampleTests>] = [
    Check("aPlannedMealIsSavedAndReadBack", FutureSampleTests.aPlannedMealIsSavedAndReadBack),
    Check("anEntryCheckedAgainstNowIsStillRefused", FutureSampleTests.anEntryCheckedAgainstNowIsStillRefused),
]
