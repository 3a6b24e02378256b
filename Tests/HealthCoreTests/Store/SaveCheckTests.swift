import Foundation
import Testing
import TestKit
@testable import HealthCore
import TextSupport

/// `JSONFileStore.save` checks every sample, for every type in the catalogue: a bad sample is refused with the store
/// byte-for-byte unchanged, and whatever it accepts can be read back and summarised. (A sample dated after the
/// store's clock is not bad: HealthKit stores planned meals; see `HealthKitSignatureTests`.)
struct SaveCheckTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: saveCheckTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private typealias Kit = IndependentTestKit
    private static let now = Kit.utc(2025, 3, 10, 12)
    private static let types = SampleTypeCatalogue.standard.types

    private static func withStore(_ body: (JSONFileStore, String) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("save-check-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try body(JSONFileStore(path: folder, clock: { now }), folder)
    }

    /// Every file of the store with its bytes.
    private static func snapshot(_ folder: String) -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for entry in Kit.walk(folder) where !entry.isFolder { files[entry.path] = Kit.bytes(entry.path) }
        return files
    }

    private static func sample(_ type: SampleType, _ value: SampleValue, start: Date = Kit.utc(2025, 3, 9, 8),
                                end: Date? = nil) -> Sample {
        Sample(typeIdentifier: type.identifier, start: start, end: end ?? start.addingTimeInterval(60), value: value,
               source: "library", created: start)
    }

    /// A value the type accepts: its first example, or its first category value.
    private static func validValue(_ type: SampleType) throws -> SampleValue {
        if type.kind == .category { return .category(type.categoryValues.first?.rawValue ?? 0) }
        return .quantity(try TestSupport.quantity(example: try #require(type.examples.first), for: type))
    }

    /// Samples each rule refuses, for this type.
    private static func badSamples(_ type: SampleType) throws -> [(rule: String, sample: Sample)] {
        var bad: [(String, Sample)] = []
        let good = try validValue(type)
        bad.append(("end before start", sample(type, good, start: Kit.utc(2025, 3, 9, 8), end: Kit.utc(2025, 3, 9, 7))))
        switch type.kind {
        case .characteristic, .workout, .correlation:
            Issue.record("the catalogue of sample types holds the \(type.kind) type \(type.name)")
        case .category:
            bad.append(("unknown category value", sample(type, .category(9_999))))
            bad.append(("a quantity for a category", sample(type, .quantity(Quantity(1, .count())))))
        case .quantity:
            let canonical = try #require(type.canonicalUnit)
            let foreign = try ["kg", "L", "count", "s", "m", "degC"].map { try HealthUnit(parsing: $0) }
                .first { !$0.isCompatible(with: canonical) }
            bad.append(("wrong unit", sample(type, .quantity(Quantity(1, try #require(foreign))))))
            bad.append(("not a number", sample(type, .quantity(Quantity(.nan, canonical)))))
            bad.append(("infinite", sample(type, .quantity(Quantity(.infinity, canonical)))))
            if canonical.offset == 0 { bad.append(("negative", sample(type, .quantity(Quantity(-1, canonical))))) }
            if let range = type.validRange {
                bad.append(("above the plausible range", sample(type, .quantity(Quantity(range.upperBound * 2 + 1, canonical)))))
            }
            bad.append(("a category value for a quantity", sample(type, .category(0))))
        }
        if let maximum = type.maximumDuration {
            let start = Kit.utc(2025, 3, 1)
            bad.append(("too long", sample(type, good, start: start, end: start.addingTimeInterval(maximum + 60))))
        }
        return bad
    }

    func everyTypeRefusesEveryBrokenRuleAndKeepsTheStoreUnchanged() throws {
        try Self.withStore { store, folder in
            // Something in the store first, so "unchanged" covers existing files.
            try store.save([Self.sample(.water, .quantity(Quantity(0.5, try HealthUnit(parsing: "L"))))])
            let before = Self.snapshot(folder)
            var refused = 0
            for type in Self.types {
                for (rule, bad) in try Self.badSamples(type) {
                    // Alone, and after a valid sample in the same save: all or nothing.
                    for batch in [[bad], [Self.sample(type, try Self.validValue(type), start: Kit.utc(2025, 3, 8)), bad]] {
                        #expect(throws: (any Error).self, "\(type.name): \(rule)") { try store.save(batch) }
                        refused += 1
                    }
                }
            }
            #expect(refused > Self.types.count * 8)
            expectEqual(Self.snapshot(folder), before, "a refused save changed the store")
        }
    }

    func everyTypeReadsBackAndSummarisesWhatSaveAccepted() throws {
        try Self.withStore { store, _ in
            let calendar = GregorianCalendar(timeZone: .gmt)
            let day = DateInterval(start: Kit.utc(2025, 3, 9), end: Kit.utc(2025, 3, 10))
            for type in Self.types {
                let sample = Self.sample(type, try Self.validValue(type))
                try store.save([sample])
                try expectEqual(store.samples(ofType: type.identifier, overlapping: day).map(\.uuid), [sample.uuid], "\(type.name)")
                if type.aggregation != nil {
                    let result = try StatisticsRequest(type: type, interval: day, bucketUnit: .day).run(on: store, calendar: calendar)
                    #expect(!result.buckets.isEmpty, "\(type.name)")
                }
            }
        }
    }

    func theWaterThatBrokeReadsIsRefused() throws {
        try Self.withStore { store, folder in
            let fiveKilograms = Self.sample(.water, .quantity(Quantity(5, try HealthUnit(parsing: "kg"))))
            #expect(throws: UnitError.self) { try store.save([fiveKilograms]) }
            #expect(Self.snapshot(folder).isEmpty)
        }
    }

    func aTypeTheCatalogueDoesNotKnowIsKeptOnlyAsWritten() throws {
        try Self.withStore { store, _ in
            let unknown = SampleType.category("HKQuantityTypeIdentifierSomethingNewer", name: "newer", title: "", values: [],
                                              examples: [])
            #expect(throws: SampleError.unknownTypeIdentifier("HKQuantityTypeIdentifierSomethingNewer")) {
                try store.save([Self.sample(unknown, .quantity(Quantity(3, .count())))])
            }
            let kept = Self.sample(unknown, .generic(value: "3", unit: "count"))
            try store.save([kept])
            let all = DateInterval(start: Kit.utc(2025, 1, 1), end: Kit.utc(2025, 4, 1))
            try expectEqual(store.samples(ofType: unknown.identifier, overlapping: all).map(\.uuid), [kept.uuid])
        }
    }

    func twoSamplesWithOneUUIDInOneSaveAreRefused() throws {
        try Self.withStore { store, folder in
            let first = Self.sample(.water, .quantity(Quantity(0.5, try HealthUnit(parsing: "L"))))
            var second = Self.sample(.water, .quantity(Quantity(0.3, try HealthUnit(parsing: "L"))))
            second.uuid = first.uuid
            #expect(throws: SampleError.duplicateUUID(first.uuid.lowercasedText)) { try store.save([first, second]) }
            #expect(Self.snapshot(folder).isEmpty)
        }
    }

    func aWorkoutWithImplausibleTotalsIsRefused() throws {
        try Self.withStore { store, _ in
            let start = Kit.utc(2025, 3, 9, 7)
            let detail = WorkoutDetail(duration: 1800, totalEnergyBurned: Quantity(90_000, try HealthUnit(parsing: "kcal")))
            let workout = Workout(activity: try WorkoutActivityType.named("running"), start: start, end: start.addingTimeInterval(1800), detail: detail,
                                  source: "library", created: start)
            #expect(throws: SampleError.self) { try store.save([workout.sample]) }
            let fine = workout.replacing(detail: WorkoutDetail(duration: 1800, totalEnergyBurned: Quantity(300, try HealthUnit(parsing: "kcal"))))
            try store.save([fine.sample])
        }
    }

    func aCorrelationNeedsItsMembersOfTheRightTypes() throws {
        try Self.withStore { store, folder in
            let catalogue = SampleTypeCatalogue.standard
            let systolic = try catalogue.type(named: "systolic"), diastolic = try catalogue.type(named: "diastolic")
            let at = Kit.utc(2025, 3, 9, 8)
            let mmHg = try HealthUnit(parsing: "mmHg")
            let high = Self.sample(systolic, .quantity(Quantity(120, mmHg)), start: at, end: at)
            let low = Self.sample(diastolic, .quantity(Quantity(80, mmHg)), start: at, end: at)
            func pressure(_ members: [Sample]) -> Sample {
                Sample(typeIdentifier: CorrelationType.bloodPressure.identifier, start: at, end: at, value: .category(0),
                       source: "library", created: at,
                       detail: .correlation(CorrelationDetail(members: members.map {
                           CorrelationDetail.Member(uuid: $0.uuid, typeIdentifier: $0.typeIdentifier) })))
            }
            // A member neither saved with it nor stored; only one of the two required members; a member of a type a
            // blood pressure cannot hold.
            #expect(throws: SampleError.self) { try store.save([pressure([high, low]), high]) }
            #expect(throws: SampleError.self) { try store.save([pressure([high]), high]) }
            let water = Self.sample(.water, .quantity(Quantity(0.5, try HealthUnit(parsing: "L"))), start: at, end: at)
            #expect(throws: SampleError.self) { try store.save([pressure([high, water]), high, water]) }
            #expect(Self.snapshot(folder).isEmpty)
            try store.save([high, low, pressure([high, low])])
            // Members already stored count too.
            try store.save([pressure([high, low])].map { var again = $0; again.uuid = UUID(); return again })
        }
    }
}

/// The checks ``SaveCheckTests/checks(_:)`` runs.
private let saveCheckTestsChecks: [Check<SaveCheckTests>] = [
    Check("everyTypeRefusesEveryBrokenRuleAndKeepsTheStoreUnchanged",
          SaveCheckTests.everyTypeRefusesEveryBrokenRuleAndKeepsTheStoreUnchanged),
    Check("everyTypeReadsBackAndSummarisesWhatSaveAccepted",
          SaveCheckTests.everyTypeReadsBackAndSummarisesWhatSaveAccepted),
    Check("theWaterThatBrokeReadsIsRefused", SaveCheckTests.theWaterThatBrokeReadsIsRefused),
    Check("aTypeTheCatalogueDoesNotKnowIsKeptOnlyAsWritten",
          SaveCheckTests.aTypeTheCatalogueDoesNotKnowIsKeptOnlyAsWritten),
    Check("twoSamplesWithOneUUIDInOneSaveAreRefused", SaveCheckTests.twoSamplesWithOneUUIDInOneSaveAreRefused),
    Check("aWorkoutWithImplausibleTotalsIsRefused", SaveCheckTests.aWorkoutWithImplausibleTotalsIsRefused),
    Check("aCorrelationNeedsItsMembersOfTheRightTypes", SaveCheckTests.aCorrelationNeedsItsMembersOfTheRightTypes),
]
