import Foundation
import Testing
import TestKit
@testable import HealthCore

/// Identical correlations in one export (two bananas logged for one meal, a blood pressure reading saved twice) each
/// keep a member of their own, paired one for one with the records' top-level copies: a review found both pointing at
/// one member, the second copy orphaned, and deleting either entry emptying the other.
struct TwinCorrelationImportTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: twinCorrelationImportTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    private static let energy = ImportTestSupport.record("HKQuantityTypeIdentifierDietaryEnergyConsumed", value: "105", unit: "kcal",
                                                         source: "MyFitnessPal", start: "2024-03-12 13:00:00 +0100",
                                                         end: "2024-03-12 13:00:00 +0100", created: "2024-03-12 21:05:00 +0100")

    private static let food = """
         <Correlation type="HKCorrelationTypeIdentifierFood" sourceName="MyFitnessPal" creationDate="2024-03-12 21:05:00 +0100" startDate="2024-03-12 13:00:00 +0100" endDate="2024-03-12 13:00:00 +0100">
          <MetadataEntry key="HKFoodType" value="Banana"/>
        \(energy)
         </Correlation>
        """

    private static func pressure(_ type: String, _ value: String) -> String {
        ImportTestSupport.record(type, value: value, unit: "mmHg", source: "Health", start: "2024-03-12 08:00:00 +0100",
                                 end: "2024-03-12 08:00:00 +0100", created: "2024-03-12 08:01:00 +0100")
    }

    private static let reading = """
         <Correlation type="HKCorrelationTypeIdentifierBloodPressure" sourceName="Health" creationDate="2024-03-12 08:01:00 +0100" startDate="2024-03-12 08:00:00 +0100" endDate="2024-03-12 08:00:00 +0100">
        \(pressure("HKQuantityTypeIdentifierBloodPressureSystolic", "128"))
        \(pressure("HKQuantityTypeIdentifierBloodPressureDiastolic", "82"))
         </Correlation>
        """

    private static let everything = DateInterval(start: Date(timeIntervalSince1970: 0), end: Date(timeIntervalSince1970: 4e9))

    /// The correlations of `type` and the stored samples of `memberTypes`: every member is a stored sample, no two
    /// correlations share one, and no stored sample of those types is outside a correlation.
    private static func expectPaired(_ store: JSONFileStore, correlation type: String, members memberTypes: [String],
                                     count: Int, _ how: String) throws {
        let correlations = try store.samples(ofType: type, overlapping: everything)
        expectEqual(correlations.count, count, "\(how): correlations")
        let members = correlations.flatMap { $0.detail?.correlation?.members.map(\.uuid) ?? [] }
        expectEqual(members.count, count * memberTypes.count, "\(how): members")
        expectEqual(Set(members).count, members.count, "\(how): no member shared: \(members)")
        let stored = try memberTypes.flatMap { try store.samples(ofType: $0, overlapping: everything).map(\.uuid) }
        expectEqual(Set(stored), Set(members), "\(how): every stored sample is one correlation's member")
    }

    func identicalFoodEntriesEachKeepTheirOwnMember() throws {
        // The records' top-level copies before, after and between the correlations, as exports order them.
        let orders: [(String, [String])] = [
            ("records first", [Self.energy, Self.energy, Self.food, Self.food]),
            ("correlations first", [Self.food, Self.food, Self.energy, Self.energy]),
            ("interleaved", [Self.energy, Self.food, Self.energy, Self.food]),
            ("three of each", [Self.food, Self.energy, Self.food, Self.energy, Self.energy, Self.food]),
        ]
        for (how, parts) in orders {
            try ImportTestSupport.withTemporaryDirectory { folder in
                let store = JSONFileStore(path: folder + "/store")
                let text = ImportTestSupport.export(parts.joined(separator: "\n"))
                let count = parts.count / 2
                let planned = try ImportTestSupport.importXML(text, into: store, dryRun: true)
                let first = try ImportTestSupport.importXML(text, into: store)
                expectEqual(first.counts["HKQuantityTypeIdentifierDietaryEnergyConsumed"]?.added, count, "\(how)")
                expectEqual(planned.counts["HKQuantityTypeIdentifierDietaryEnergyConsumed"]?.added, count, "\(how): dry run")
                try Self.expectPaired(store, correlation: "HKCorrelationTypeIdentifierFood",
                                      members: ["HKQuantityTypeIdentifierDietaryEnergyConsumed"], count: count, how)
                // Imported again: nothing added.
                let again = try ImportTestSupport.importXML(text, into: store)
                expectEqual(again.counts.values.map(\.added).reduce(0, +), 0, "\(how): again")
                try Self.expectPaired(store, correlation: "HKCorrelationTypeIdentifierFood",
                                      members: ["HKQuantityTypeIdentifierDietaryEnergyConsumed"], count: count, "\(how), again")
                // Deleting one entry deletes its own member: the others keep theirs.
                let entry = try #require(try store.samples(ofType: "HKCorrelationTypeIdentifierFood", overlapping: Self.everything).first)
                try store.delete(uuids: [entry.uuid], now: Date(timeIntervalSince1970: 1_720_000_000))
                try Self.expectPaired(store, correlation: "HKCorrelationTypeIdentifierFood",
                                      members: ["HKQuantityTypeIdentifierDietaryEnergyConsumed"], count: count - 1, "\(how), one deleted")
            }
        }
    }

    func identicalBloodPressureReadingsEachKeepTheirOwnMembers() throws {
        let systolic = Self.pressure("HKQuantityTypeIdentifierBloodPressureSystolic", "128")
        let diastolic = Self.pressure("HKQuantityTypeIdentifierBloodPressureDiastolic", "82")
        try ImportTestSupport.withTemporaryDirectory { folder in
            let store = JSONFileStore(path: folder + "/store")
            let text = ImportTestSupport.export([systolic, diastolic, Self.reading, systolic, diastolic, Self.reading].joined(separator: "\n"))
            _ = try ImportTestSupport.importXML(text, into: store)
            let types = ["HKQuantityTypeIdentifierBloodPressureSystolic", "HKQuantityTypeIdentifierBloodPressureDiastolic"]
            try Self.expectPaired(store, correlation: "HKCorrelationTypeIdentifierBloodPressure", members: types, count: 2, "imported")
            let reading = try #require(try store.samples(ofType: "HKCorrelationTypeIdentifierBloodPressure", overlapping: Self.everything).first)
            try store.delete(uuids: [reading.uuid], now: Date(timeIntervalSince1970: 1_720_000_000))
            try Self.expectPaired(store, correlation: "HKCorrelationTypeIdentifierBloodPressure", members: types, count: 1, "one deleted")
            // The export imported again brings the deleted reading back with members of its own, as any deleted record.
            _ = try ImportTestSupport.importXML(text, into: store)
            try Self.expectPaired(store, correlation: "HKCorrelationTypeIdentifierBloodPressure", members: types, count: 2, "again")
        }
    }
}

/// The checks ``TwinCorrelationImportTests/checks(_:)`` runs.
private let twinCorrelationImportTestsChecks: [Check<TwinCorrelationImportTests>] = [
    Check("identicalFoodEntriesEachKeepTheirOwnMember", TwinCorrelationImportTests.identicalFoodEntriesEachKeepTheirOwnMember),
    Check("identicalBloodPressureReadingsEachKeepTheirOwnMembers",
          TwinCorrelationImportTests.identicalBloodPressureReadingsEachKeepTheirOwnMembers),
]
