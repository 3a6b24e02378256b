extension Query {
    /// The samples associated with `workout` (by ``HealthStore/add(_:to:)-([HealthSample],_)``), and its route
    /// (``WorkoutRoute``, with a query of ``SampleType/workoutRouteType()``), as HealthKit's
    /// `predicateForObjects(from: HKWorkout)`. The associations are read when the query runs, so a `workout` value
    /// read before samples were added finds them too.
    public static func predicateForObjects(from workout: Workout) -> SamplePredicate {
        var predicate = SamplePredicate()
        predicate.workoutUUID = workout.uuid
        predicate.workoutInterval = DateInterval(start: workout.start, end: workout.end)
        return predicate
    }
}

extension SamplePredicate {
    /// The predicate with ``workoutUUID`` replaced by the uuids of what is associated with that workout in `store`
    /// (its samples and route; none when the workout is not there, or this source cannot read it).
    func resolvingWorkout(in store: HealthStore) throws -> SamplePredicate {
        guard let uuid = workoutUUID else { return self }
        var resolved = self
        resolved.workoutUUID = nil
        resolved.workoutInterval = nil
        let around = workoutInterval.map {
            DateInterval(start: $0.start.addingTimeInterval(-0.001), end: $0.end.addingTimeInterval(0.001))
        } ?? DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
        var associated = Set<UUID>()
        try store.forEachSample(ofType: Workout.typeIdentifier, overlapping: around) { sample in
            guard sample.uuid == uuid, let detail = sample.detail?.workout else { return }
            associated = Set(detail.associatedUUIDs)
            if detail.route != nil { associated.insert(WorkoutRoute.uuid(ofWorkout: uuid)) }
        }
        resolved.uuids = resolved.uuids.map { $0.intersection(associated) } ?? associated
        return resolved
    }
}

extension SampleTypePredicate {
    /// The predicate with a workout's associations read from `store` (see ``SamplePredicate/resolvingWorkout(in:)``).
    func resolvingWorkout(in store: HealthStore) throws -> SampleTypePredicate {
        guard let predicate, predicate.workoutUUID != nil else { return self }
        return SampleTypePredicate(sampleType: sampleType, predicate: try predicate.resolvingWorkout(in: store))
    }
}
