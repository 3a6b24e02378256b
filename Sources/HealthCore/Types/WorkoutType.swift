/// The type of workouts: HealthKit's `HKWorkoutType`, `ObjectType.workoutType()`. It is not in the catalogue, whose
/// types are quantities and categories.
public final class WorkoutType: SampleType, @unchecked Sendable {
    /// The one workout type.
    static let shared = WorkoutType(
        identifier: Workout.typeIdentifier, name: "workout", title: "Workout", kind: .workout, aggregation: nil,
        canonicalUnit: nil, displayUnit: nil, examples: ["running 45min"], categoryValues: [], maximumDuration: nil,
        validRange: nil)
}
