import Foundation
import TestKit
@testable import HealthCore

/// What the suites on undo and the samples' holders share (``UndoHolderTests``, ``UndoHolderChainTests``): a food
/// entry's records, heart rates, workouts associated with samples, and the uuids stored workouts name that are not
/// stored.
enum UndoHolderKit {
    private typealias Ops = OperationTestKit
    private typealias Kit = IndependentTestKit
    static let foodType = CorrelationTypeIdentifier.food.rawValue
    static let energyType = QuantityTypeIdentifier.dietaryEnergyConsumed.rawValue
    static let proteinType = QuantityTypeIdentifier.dietaryProtein.rawValue
    static let heartRateType = QuantityTypeIdentifier.heartRate.rawValue

    /// Energy eaten at `OperationTestKit.madeAt`, by hkctl.
    static func energy(_ kcal: Double) throws -> Sample {
        Sample(typeIdentifier: energyType, start: Ops.madeAt, end: Ops.madeAt,
               value: .quantity(Quantity(kcal, try HealthUnit(parsing: "kcal"))), source: "hkctl", created: Ops.madeAt)
    }

    /// Protein eaten at `OperationTestKit.madeAt`, by hkctl.
    static func protein(_ grams: Double) throws -> Sample {
        Sample(typeIdentifier: proteinType, start: Ops.madeAt, end: Ops.madeAt,
               value: .quantity(Quantity(grams, try HealthUnit(parsing: "g"))), source: "hkctl", created: Ops.madeAt)
    }

    /// A food entry at `OperationTestKit.madeAt` holding `members`.
    static func entry(_ members: [Sample], source: String = "hkctl") -> Sample {
        Correlation.sample(of: .food, members: members, start: Ops.madeAt, end: Ops.madeAt, source: source, created: Ops.madeAt)
    }

    /// A heart rate at 2024-06-01 07:`minute` UTC, by hkctl.
    static func beat(_ bpm: Double, minute: Int) throws -> Sample {
        let at = Kit.utc(2024, 6, 1, 7, minute)
        return Sample(typeIdentifier: heartRateType, start: at, end: at,
                      value: .quantity(Quantity(bpm, try HealthUnit(parsing: "count/min"))), source: "hkctl", created: Ops.madeAt)
    }

    /// A run of `source` (2024-06-01 07:00-13:00 UTC) associated with `uuids`.
    static func workout(naming uuids: [UUID], source: String = "hkctl") -> Sample {
        var sample = Workout(activityType: .running, start: Kit.utc(2024, 6, 1, 7), end: Kit.utc(2024, 6, 1, 13)).sample
        sample.source = source
        if case .workout(var detail)? = sample.detail {
            detail.associatedUUIDs = uuids
            sample.detail = .workout(detail)
        }
        return sample
    }

    /// The stored workouts.
    static func workouts(_ store: SampleStore) throws -> [Sample] {
        try store.samples(ofType: Workout.typeIdentifier, overlapping: Ops.everything)
    }

    /// Every uuid a stored workout names that is not a stored (visible) sample of `types`.
    static func dangling(_ store: SampleStore, types: [String]) throws -> [UUID] {
        var visible = Set<UUID>()
        for type in types { visible.formUnion(try store.samples(ofType: type, overlapping: Ops.everything).map(\.uuid)) }
        return try workouts(store).flatMap { $0.detail?.workout?.associatedUUIDs ?? [] }.filter { !visible.contains($0) }
    }
}
