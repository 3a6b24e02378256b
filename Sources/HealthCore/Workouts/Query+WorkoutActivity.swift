extension Query {
    /// Workouts of `workoutActivityType`, as HealthKit's `HKQuery.predicateForWorkouts(with:)`: any other sample,
    /// and a workout of another activity type, does not match. Combine it with others through
    /// ``SamplePredicate/and(_:)`` or `SamplePredicate(andPredicateWithSubpredicates:)`.
    public static func predicateForWorkouts(with workoutActivityType: WorkoutActivityType) -> SamplePredicate {
        var predicate = SamplePredicate()
        predicate.workoutActivityRawValues = [workoutActivityType.rawValue]
        return predicate
    }
}
