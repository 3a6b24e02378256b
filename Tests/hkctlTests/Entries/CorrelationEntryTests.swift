import Foundation
import Testing
import TestKit
@testable import HKCtlCommands
@testable import HealthCore
@testable import HKCtlSupport

/// Blood-pressure and food entries, their store lines, queries, cascading deletion and permissions.
struct CorrelationEntryTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: correlationEntryTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    let context = TestSupport.context()

    @Test(arguments: [("120/80", 120.0, 80.0), ("120/80mmHg", 120, 80), ("120 / 80 mmHg", 120, 80), ("16/10.7kPa", 120.01, 80.26)])
    func bloodPressureReadsMmHgAndKilopascals(text: String, systolic: Double, diastolic: Double) throws {
        let samples = try BloodPressureEntry(reading: text).samples(source: "hkctl", context: context)
        expectEqual(samples.count, 3)
        let mmHg = try HealthUnit(parsing: "mmHg")
        let values = try samples.prefix(2).map { try #require($0.value.quantity).value(in: mmHg) }
        expectEqual(values.map { ($0 * 100).rounded() / 100 }, [systolic, diastolic])
        expectEqual(samples.map(\.typeIdentifier), [CorrelationType.systolic, CorrelationType.diastolic, CorrelationType.bloodPressure.identifier])
        expectEqual(samples[2].detail?.correlation?.members.map(\.uuid), samples.prefix(2).map(\.uuid))
    }

    @Test(arguments: ["120/", "/80", "120", "abc/80", "120/80/70", "120/xx"])
    func malformedReadingsAreRefused(text: String) {
        #expect(throws: CorrelationError.badBloodPressure(text)) { try BloodPressureEntry(reading: text).samples(source: "hkctl", context: context) }
    }

    func diastolicAboveSystolicIsAnError() {
        #expect(throws: CorrelationError.diastolicAboveSystolic(systolic: "80 mmHg", diastolic: "120 mmHg")) {
            try BloodPressureEntry(reading: "80/120").samples(source: "hkctl", context: context)
        }
    }

    func implausibleAndWrongUnitReadingsAreRefused() {
        #expect(throws: SampleError.self) { try BloodPressureEntry(reading: "400/80").samples(source: "hkctl", context: context) }
        #expect(throws: UnitError.self) { try BloodPressureEntry(reading: "120/80kg").samples(source: "hkctl", context: context) }
    }

    func foodBecomesDietarySamplesWithTheNameInMetadata() throws {
        let samples = try FoodEntry(name: "Oatmeal", amounts: [("dietary-energy", "350kcal"), ("protein", "12g"), ("caffeine", "0mg")])
            .samples(source: "hkctl", context: context)
        expectEqual(samples.count, 4)
        #expect(samples.allSatisfy { $0.metadata["HKFoodType"] == .string("Oatmeal") })
        expectEqual(samples[0].typeIdentifier, "HKQuantityTypeIdentifierDietaryEnergyConsumed")
        expectEqual(samples[3].typeIdentifier, CorrelationType.food.identifier)
        #expect(throws: CorrelationError.emptyFood("Toast")) { try FoodEntry(name: "Toast", amounts: []).samples(source: "hkctl", context: context) }
        #expect(throws: CorrelationError.notANutrient("weight")) {
            try FoodEntry(name: "Toast", amounts: [("weight", "1kg")]).samples(source: "hkctl", context: context)
        }
        #expect(throws: UnitError.self) { try FoodEntry(name: "Toast", amounts: [("protein", "5mL")]).samples(source: "hkctl", context: context) }
    }

    func correlationLineHasMembersAndNoValue() throws {
        let samples = try BloodPressureEntry(reading: "120/80").samples(source: "hkctl", context: context)
        var codec = SampleLineCodec(catalogue: .standard, timeZone: .gmt)
        let line = codec.encode(samples[2], sequence: 3)
        #expect(!line.contains("\"value\""))
        #expect(line.contains("\"correlation\":{\"members\":[{\"uuid\":\"\(samples[0].uuid.uuidString.lowercased())\""))
        let decoded = try Array(line.utf8).withUnsafeBufferPointer { try codec.decode($0) }
        expectEqual(decoded, samples[2])
    }

    func queryAttachesMembersAndStatisticsOfMembersCountOnce() throws {
        let store = InMemorySampleStore()
        try store.save(try BloodPressureEntry(reading: "120/80").samples(source: "hkctl", context: context))
        try store.save(try BloodPressureEntry(reading: "140/90", at: TimeExpression(date: context.now.addingTimeInterval(-3600), isDateOnly: false))
            .samples(source: "hkctl", context: context))
        let day = DateInterval(start: TestSupport.date("2024-06-01T00:00:00Z"), duration: 86_400)
        let found = try CorrelationQuery(type: .bloodPressure, interval: day).run(on: store)
        expectEqual(found.count, 2)
        #expect(found.allSatisfy { $0.members.count == 2 })
        let summary = try BloodPressureSummary(store: store, interval: day, calendar: context.calendar)
        expectEqual(summary.total.count, 2)
        expectEqual(summary.total.systolic, .init([120, 140]))
        expectEqual(summary.total.diastolic.maximum, 90)
        let systolic = try SampleTypeCatalogue.standard.type(named: "systolic")
        try expectEqual(store.samples(ofType: systolic.identifier, overlapping: day).count, 2)
    }

    func deletingACorrelationDeletesItsMembersInOneBatch() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store")
            let reading = try BloodPressureEntry(reading: "120/80").samples(source: "hkctl", context: context)
            let other = try BloodPressureEntry(reading: "130/85").samples(source: "hkctl", context: context)
            try store.save(reading)
            try store.save(other)
            let tombstones = try store.delete(uuids: [reading[2].uuid], now: context.now)
            expectEqual(Set(tombstones.map(\.uuid)), Set(reading.map(\.uuid)))
            let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
            try expectEqual(store.samples(ofType: CorrelationType.systolic, overlapping: everything).map(\.uuid), [other[0].uuid])
            try expectEqual(CorrelationQuery(type: .bloodPressure, interval: everything).run(on: store).map(\.sample.uuid), [other[2].uuid])
            let changes = try store.changes(since: .beginning)
            expectEqual(changes.deleted.count, 3)
            // Compaction keeps the remaining correlation readable with its members.
            _ = try store.compact(now: context.now)
            try expectEqual(CorrelationQuery(type: .bloodPressure, interval: everything).run(on: store).first?.members.count, 2)
        }
    }

    func aSourceNeedsPermissionForTheMemberTypesNotTheCorrelation() throws {
        try TestSupport.withTemporaryDirectory { folder in
            let storage = JSONFileStore(path: folder + "/store")
            let catalogue = SampleTypeCatalogue.standard
            let samples = try BloodPressureEntry(reading: "120/80").samples(source: "cuff", context: context)
            #expect(throws: AuthorizationError.notDetermined(source: "cuff", type: "systolic")) {
                try HealthStore(storage: storage, source: "cuff").save(samples)
            }
            try HealthStore(storage: storage, source: AuthorizationState.ownerSource).decideAuthorization(
                for: "cuff", allow: true, share: [try catalogue.type(named: "systolic"), try catalogue.type(named: "diastolic")], read: [])
            try HealthStore(storage: storage, source: "cuff").save(samples)
            let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
            try expectEqual(CorrelationQuery(type: .bloodPressure, interval: everything).run(on: storage).count, 1)
            // A workout needs the workout type.
            let workout = try WorkoutEntry(activity: "running", duration: "10min").workout(source: "cuff", context: context)
            #expect(throws: AuthorizationError.notDetermined(source: "cuff", type: "workout")) {
                try HealthStore(storage: storage, source: "cuff").save([workout.sample])
            }
        }
    }
}

/// The checks ``CorrelationEntryTests/checks(_:)`` runs.
private let correlationEntryTestsChecks: [Check<CorrelationEntryTests>] = [
    Check("diastolicAboveSystolicIsAnError", CorrelationEntryTests.diastolicAboveSystolicIsAnError),
    Check("implausibleAndWrongUnitReadingsAreRefused", CorrelationEntryTests.implausibleAndWrongUnitReadingsAreRefused),
    Check("foodBecomesDietarySamplesWithTheNameInMetadata",
          CorrelationEntryTests.foodBecomesDietarySamplesWithTheNameInMetadata),
    Check("correlationLineHasMembersAndNoValue", CorrelationEntryTests.correlationLineHasMembersAndNoValue),
    Check("queryAttachesMembersAndStatisticsOfMembersCountOnce",
          CorrelationEntryTests.queryAttachesMembersAndStatisticsOfMembersCountOnce),
    Check("deletingACorrelationDeletesItsMembersInOneBatch",
          CorrelationEntryTests.deletingACorrelationDeletesItsMembersInOneBatch),
    Check("aSourceNeedsPermissionForTheMemberTypesNotTheCorrelation",
          CorrelationEntryTests.aSourceNeedsPermissionForTheMemberTypesNotTheCorrelation),
]
