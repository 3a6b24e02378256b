import Foundation
import Testing
import TestKit
@testable import HealthCore

/// `dateOfBirthComponents()` throws `errorNoData` when no date of birth is set, as HealthKit's Swift call, and
/// `CategoryValueSleepAnalysis.asleep` is HealthKit's older name of `asleepUnspecified`.
struct CharacteristicAndSleepSignatureTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: characteristicAndSleepSignatureTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static let now = TestSupport.date("2024-06-10T12:00:00Z")

    func noDateOfBirthThrowsNoData() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store", clock: { Self.now })
            // HealthKit's pattern: `do { let birth = try store.dateOfBirthComponents() } catch HKError.errorNoData { }`.
            var noData = false
            do {
                _ = try store.dateOfBirthComponents()
            } catch HealthError.errorNoData {
                noData = true
            }
            #expect(noData)
            try store.storage.updateDocument("characteristics.json", initial: Characteristics()) { me in
                try me.set("date-of-birth", to: "1988-04-02", now: Self.now)
            }
            let birth = try store.dateOfBirthComponents()
            expectEqual([birth.year, birth.month, birth.day], [1988, 4, 2])
        }
    }

    func asleepIsAsleepUnspecified() async throws {
        expectEqual(CategoryValueSleepAnalysis.asleep, .asleepUnspecified)
        expectEqual(CategoryValueSleepAnalysis.asleep.rawValue, 1)
        #expect(CategoryValueSleepAnalysis.allAsleepValues.contains(.asleep))
        try await TestSupport.withTemporaryDirectory { folder in
            let store = try HealthStore(directory: folder + "/store", clock: { Self.now })
            let start = TestSupport.date("2024-06-09T23:00:00Z"), end = TestSupport.date("2024-06-10T06:00:00Z")
            // Code written before iOS 16 saves `.asleep`; it is read back as `asleepUnspecified`.
            try await store.save(CategorySample(type: CategoryType(.sleepAnalysis), value: CategoryValueSleepAnalysis.asleep.rawValue,
                                                start: start, end: end))
            let night = try await SampleQueryDescriptor(predicates: [.categorySample(type: CategoryType(.sleepAnalysis))]).result(for: store)
            expectEqual(night.map(\.value), [CategoryValueSleepAnalysis.asleepUnspecified.rawValue])
        }
    }
}

/// The checks ``CharacteristicAndSleepSignatureTests/checks(_:)`` runs.
private let characteristicAndSleepSignatureTestsChecks: [Check<CharacteristicAndSleepSignatureTests>] = [
    Check("noDateOfBirthThrowsNoData", CharacteristicAndSleepSignatureTests.noDateOfBirthThrowsNoData),
    Check("asleepIsAsleepUnspecified", CharacteristicAndSleepSignatureTests.asleepIsAsleepUnspecified),
]
