import Foundation
import Testing
@testable import HealthCore

/// HealthKit's object model: one class per kind of type, so `is`, `as?` and `switch` over types mean what they mean in
/// HealthKit, and sets of the base classes hold any mix.
struct ObjectModelTests {
    /// What HealthKit code asks of a type it was handed as an `HKObjectType`.
    private static func kindName(_ type: ObjectType) -> String {
        switch type {
        case is QuantityType: "quantity"
        case is CategoryType: "category"
        case is WorkoutType: "workout"
        case is CorrelationType: "correlation"
        case is CharacteristicType: "characteristic"
        default: "other"
        }
    }

    @Test func eachKindOfTypeIsItsOwnClass() {
        let sleep: ObjectType = CategoryType(.sleepAnalysis)
        #expect(!(sleep is QuantityType) && sleep is CategoryType && sleep is SampleType)
        let steps: ObjectType = QuantityType(.stepCount)
        #expect(steps is QuantityType && !(steps is CategoryType))
        let workout: ObjectType = ObjectType.workoutType()
        #expect(workout is WorkoutType && !(workout is CategoryType) && workout.kind == .workout)
        #expect(Workout.sampleType.kind == .workout)
        let pressure: ObjectType = CorrelationType(.bloodPressure)
        #expect(pressure is CorrelationType && pressure is SampleType && pressure.kind == .correlation)
        let blood: ObjectType = CharacteristicType(.bloodType)
        #expect(blood is CharacteristicType && !(blood is SampleType))
        #expect([sleep, steps, workout, pressure, blood].map(Self.kindName)
                == ["category", "quantity", "workout", "correlation", "characteristic"])
    }

    @Test func theCatalogueMakesTheClassOfEachRowsKind() {
        for type in SampleTypeCatalogue.standard.types {
            switch type.kind {
            case .quantity: #expect(type is QuantityType, "\(type.identifier)")
            case .category: #expect(type is CategoryType, "\(type.identifier)")
            default: Issue.record("the catalogue holds the \(type.kind) type \(type.identifier)")
            }
        }
        // A lookup by identifier answers with the class HealthKit's does, or nil for another kind's identifier.
        let heartRate: QuantityType? = ObjectType.quantityType(forIdentifier: .heartRate)
        #expect(heartRate?.identifier == "HKQuantityTypeIdentifierHeartRate")
        #expect(ObjectType.quantityType(forIdentifier: QuantityTypeIdentifier(CategoryTypeIdentifier.sleepAnalysis.rawValue)) == nil)
        #expect(ObjectType.categoryType(forIdentifier: CategoryTypeIdentifier(QuantityTypeIdentifier.stepCount.rawValue)) == nil)
    }

    @Test func setsOfTheBaseClassesHoldAMixAndCompareByIdentifier() {
        let read: Set<ObjectType> = [QuantityType(.stepCount), CategoryType(.sleepAnalysis), ObjectType.workoutType(),
                                     CharacteristicType(.dateOfBirth), CorrelationType(.food),
                                     ObjectType.quantityType(forIdentifier: .stepCount)!]
        #expect(read.count == 5)
        #expect(read.contains(QuantityType(.stepCount)) && read.contains(CharacteristicType(.dateOfBirth)))
        let share: Set<SampleType> = [QuantityType(.dietaryWater), CategoryType(.mindfulSession), WorkoutType.workoutType()]
        #expect(share.count == 3 && share.contains(ObjectType.workoutType()))
        // Two instances of one type are equal and hash alike; types of different identifiers are not.
        #expect(QuantityType(.stepCount) == ObjectType.quantityType(forIdentifier: .stepCount))
        #expect(QuantityType(.stepCount).hashValue == QuantityType(.stepCount).hashValue)
        #expect(QuantityType(.stepCount) != QuantityType(.dietaryWater))
        #expect(Set(read.compactMap { $0 as? SampleType }).count == 4)
    }

    @Test func queriesNameTheirTypeAsObjectType() {
        let type = QuantityType(.heartRate)
        let query = SampleQuery(sampleType: type, predicate: nil, limit: ObjectQueryNoLimit, sortDescriptors: nil) { _, _, _ in }
        #expect(query.objectType == type && query.objectType is QuantityType)
        let statistics = StatisticsQuery(quantityType: type, quantitySamplePredicate: nil, options: .discreteAverage) { _, _, _ in }
        #expect(statistics.objectType as? QuantityType == type)
    }
}
