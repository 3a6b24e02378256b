import Foundation
import HealthCore
import Testing
import TestKit

// Seed 000_052a8ab481707778.txt: a water-intake app (request authorization, save, read with HKStatisticsQuery).
// The note's `HealthKitError` and `healthStore` property belong to the app and are not shown; they are set up here.

enum HealthKitError: Error { case failedQuantityType, failedFetchResult }

struct WaterIntakeManager {
    let healthStore: HealthStore

    // Seed 000, lines 11-17.
    //>> requestAuthorization
    func requestAuthorization() async throws {
            guard let waterType = ObjectType.quantityType(forIdentifier: .dietaryWater) else {
                throw HealthKitError.failedQuantityType
            }
            try await healthStore.requestAuthorization(toShare: [waterType], read: [waterType])
        }
    //<<

    // Seed 000, lines 24-33.
    //>> saveWaterIntake
    func saveWaterIntake(amount: Double, date: Date) async throws {
        guard let waterType = ObjectType.quantityType(forIdentifier: .dietaryWater) else {
            throw HealthKitError.failedQuantityType
        }
        let waterQuantity = Quantity(unit: .liter(), doubleValue: amount)
        let waterSample = QuantitySample(type: waterType, quantity: waterQuantity, start: date, end: date)
        try await healthStore.save(waterSample)
    }
    //<<

    // Seed 000, lines 40-65.
    //>> readWaterIntake
    func readWaterIntake(startDate: Date, endDate: Date) async throws -> Double {
        return try await withCheckedThrowingContinuation { continuation in
            guard let waterType = ObjectType.quantityType(forIdentifier: .dietaryWater) else {
                continuation.resume(throwing: HealthKitError.failedQuantityType)
                return
            }
            let predicate = Query.predicateForSamples(withStart: startDate, end: endDate, options: .strictStartDate)
            let query = StatisticsQuery(quantityType: waterType, quantitySamplePredicate: predicate, options: .cumulativeSum) { query, result, error in
                if let error = error {
                    continuation.resume(throwing: error)
                    return
                }
                guard let result = result, let sum = result.sumQuantity() else {
                    continuation.resume(throwing: HealthKitError.failedFetchResult)
                    return
                }
                let totalWater = sum.doubleValue(for: .liter())
                continuation.resume(returning: totalWater)
            }
            healthStore.execute(query)
        }
    }
    //<<
}

struct Seed000WaterIntakeTests {
    /// Runs each of this suite's checks (the list at the end of the file) as a case of one test, which costs the
    /// build a tenth of a `@Test` apiece (README.md, "Development").
    @Test(arguments: seed000WaterIntakeTestsChecks)
    func checks(_ check: Check<Self>) async throws {
        try await check.run(on: Self())
    }

    func requestAuthorization() async throws {
        try await Seed.withStores(app: "org.example.water") { owner, app in
            try await WaterIntakeManager(healthStore: app).requestAuthorization()
            // The request is recorded for the owner (water, once: share and read name the same type) and decides
            // nothing: the app may not write water yet.
            #expect(try Seed.requested(by: "org.example.water", in: owner) == ["HKQuantityTypeIdentifierDietaryWater"])
            #expect(app.authorizationStatus(for: QuantityType(.dietaryWater)) == .notDetermined)
            // For the owner, who needs no permission, the same call does nothing.
            try await WaterIntakeManager(healthStore: owner).requestAuthorization()
            #expect(try owner.authorizationDecisions().sources.keys.sorted() == ["org.example.water"])
        }
    }

    func saveWaterIntake() async throws {
        try await Seed.withStore { store in
            let manager = WaterIntakeManager(healthStore: store)
            try await manager.saveWaterIntake(amount: 0.5, date: Seed.date("2024-06-10T08:00:00Z"))
            try await manager.saveWaterIntake(amount: 0.25, date: Seed.date("2024-06-10T11:00:00Z"))
            let saved = try await SampleQueryDescriptor(predicates: [.quantitySample(type: QuantityType(.dietaryWater))]).result(for: store)
            // Oldest first: 500 mL at 08:00, 250 mL at 11:00, each an instant (start == end).
            #expect(saved.map { $0.quantity.doubleValue(for: .literUnit(with: .milli)) } == [500, 250])
            #expect(saved.map(\.startDate) == [Seed.date("2024-06-10T08:00:00Z"), Seed.date("2024-06-10T11:00:00Z")])
            #expect(saved.allSatisfy { $0.startDate == $0.endDate })
        }
    }

    func readWaterIntake() async throws {
        try await Seed.withStore { store in
            let manager = WaterIntakeManager(healthStore: store)
            try await manager.saveWaterIntake(amount: 1, date: Seed.date("2024-06-09T20:00:00Z"))      // yesterday
            try await manager.saveWaterIntake(amount: 0.5, date: Seed.date("2024-06-10T08:00:00Z"))
            try await manager.saveWaterIntake(amount: 0.25, date: Seed.date("2024-06-10T11:00:00Z"))
            let today = Seed.calendar.startOfDay(for: Seed.now)
            // Today, 00:00 to 12:00 with a strict start: 0.5 L + 0.25 L = 0.75 L (yesterday's litre is outside).
            #expect(try await manager.readWaterIntake(startDate: today, endDate: Seed.now) == 0.75)
            // From yesterday: 1 + 0.5 + 0.25 = 1.75 L.
            #expect(try await manager.readWaterIntake(startDate: today.addingTimeInterval(-86_400), endDate: Seed.now) == 1.75)
            // Nothing in a range: the handler gets HealthKit's errorNoData, which the continuation rethrows.
            await #expect(throws: HealthError.self) {
                _ = try await manager.readWaterIntake(startDate: Seed.date("2024-06-01T00:00:00Z"), endDate: Seed.date("2024-06-02T00:00:00Z"))
            }
            do {
                _ = try await manager.readWaterIntake(startDate: Seed.date("2024-06-01T00:00:00Z"), endDate: Seed.date("2024-06-02T00:00:00Z"))
                Issue.record("no error for an empty range")
            } catch HealthError.errorNoData {
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }
}

/// The checks ``Seed000WaterIntakeTests/checks(_:)`` runs.
private let seed000WaterIntakeTestsChecks: [Check<Seed000WaterIntakeTests>] = [
    Check("requestAuthorization", Seed000WaterIntakeTests.requestAuthorization),
    Check("saveWaterIntake", Seed000WaterIntakeTests.saveWaterIntake),
    Check("readWaterIntake", Seed000WaterIntakeTests.readWaterIntake),
]
