/// Samples associated with a workout (HealthKit's `add(_:to:)`), kept in the workout's own line
/// (``WorkoutDetail``'s `associated` uuids).
///
/// Associating rewrites the workout's line under the same uuid in one write with any new samples (a tombstone, then
/// the new lines: anchored queries see the workout deleted and added again), recorded as a replacement so that an undo
/// takes it back whole: the new samples go, and the workout comes back as it was, under its own uuid. Deleting the
/// workout deletes its associations with it (the samples stay); undoing that deletion restores them, pointing at the
/// restored copies of any associated samples deleted in the same operation.
extension JSONFileStore {
    /// Associates `samples` with the stored workout `workout`, all or nothing, under the exclusive lock. A sample the
    /// store holds is associated as it is; one it does not hold is saved in the same write when it is in `unsaved`
    /// (made in code: checked as ``save(_:)`` checks it, and refused when its uuid was deleted), and refused otherwise.
    ///
    /// - Parameters:
    ///   - unsaved: The uuids of the samples the caller has not seen saved (a value saved in code keeps that look in
    ///     the caller's copy, so the store decides by what it holds).
    ///   - source: Only a workout from this source may be changed; nil (the owner) for any.
    ///   - now: The deletion time of the workout's old line.
    /// - Returns: How many samples were newly associated (one already associated is not counted again).
    /// - Throws: ``WorkoutError/workoutNotSaved(_:)``, ``WorkoutError/associatedSampleNotFound(_:)``,
    ///   ``WorkoutError/workoutAssociatedWithWorkout(_:)``, ``AuthorizationError/notOwnSample(uuid:sampleSource:source:)``,
    ///   the errors of ``save(_:)``.
    @discardableResult
    func associate(_ samples: [Sample], unsaved: Set<UUID>, with workout: Workout, source: String?, now: Date) throws -> Int {
        if let nested = samples.first(where: { $0.typeIdentifier == Workout.typeIdentifier }) {
            throw WorkoutError.workoutAssociatedWithWorkout(nested.uuid)
        }
        let check = SaveCheck(catalogue: catalogue, timeZone: codec.timeZone)
        try check.check(samples.filter { unsaved.contains($0.uuid) }) { member, correlation in
            var found = false
            let around = DateInterval(start: correlation.start.addingTimeInterval(-0.001),
                                      end: correlation.end.addingTimeInterval(0.001))
            try forEachSample(ofType: member.typeIdentifier, overlapping: around) { if $0.uuid == member.uuid { found = true } }
            return found
        }
        guard try isExistingStore() else { throw WorkoutError.workoutNotSaved(workout.uuid) }
        return try withWriteAccess {
            guard let stored = try visibleSample(workout.uuid, ofType: Workout.typeIdentifier,
                                                 around: DateInterval(start: workout.start, end: workout.end)),
                  var detail = stored.detail?.workout else { throw WorkoutError.workoutNotSaved(workout.uuid) }
            if let source, stored.source != source {
                throw AuthorizationError.notOwnSample(uuid: stored.uuid.lowercasedText, sampleSource: stored.source, source: source)
            }
            var fresh: [Sample] = []
            for sample in samples {
                if try visibleSample(sample.uuid, ofType: sample.typeIdentifier,
                                     around: DateInterval(start: sample.start, end: sample.end)) != nil { continue }
                guard unsaved.contains(sample.uuid) else { throw WorkoutError.associatedSampleNotFound(sample.uuid) }
                fresh.append(sample)
            }
            if !fresh.isEmpty { try refuseStoredUUIDs(fresh) }
            var known = Set(detail.associatedUUIDs)
            var added = 0
            for sample in samples where known.insert(sample.uuid).inserted {
                detail.associatedUUIDs.append(sample.uuid)
                added += 1
            }
            guard added > 0 || !fresh.isEmpty else { return 0 }
            var updated = stored
            updated.detail = .workout(detail)
            _ = try writeChanges(deleting: [(stored.uuid, Workout.typeIdentifier, stored.source)], adding: fresh + [updated],
                                 now: now, record: replaceRecordMaker(replacing: 1))
            return added
        }
    }

    /// The stored, not deleted sample with `uuid` of type `identifier` whose dates overlap `interval` (widened by a
    /// millisecond each side, so instants at its ends count), or nil. Reads only the partitions of that interval; call
    /// with the lock held.
    func visibleSample(_ uuid: UUID, ofType identifier: String, around interval: DateInterval) throws -> Sample? {
        let widened = DateInterval(start: interval.start.addingTimeInterval(-0.001), end: interval.end.addingTimeInterval(0.001))
        let deleted = try deletedUUIDs(ofType: identifier)
        var found: Sample?
        for partition in try partitions(ofType: identifier, overlapping: widened) {
            try readPartitionWithSequence(partition) { sample, sequence in
                if sample.uuid == uuid, !deleted.hides(sample, sequence: sequence) { found = sample }
            }
        }
        return found
    }
}
