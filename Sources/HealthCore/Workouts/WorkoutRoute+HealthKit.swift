/// HealthKit's `HKSeriesType`: the type of a series sample. HealthCore has one, the workout route's
/// (`SeriesType.workoutRoute()`), whose samples are ``WorkoutRoute``s.
public final class SeriesType: SampleType, @unchecked Sendable {}

extension SampleType {
    /// The type of workout routes, as `HKSeriesType.workoutRoute()`; its identifier is HealthKit's
    /// `HKWorkoutRouteTypeIdentifier`. Routes are kept inside their workouts: a query of this type finds the route of
    /// every workout that has one.
    public static func workoutRouteType() -> SeriesType { WorkoutRoute.sampleType }
    /// ``workoutRouteType()`` under `HKSeriesType`'s spelling.
    public static func workoutRoute() -> SeriesType { WorkoutRoute.sampleType }
}

extension WorkoutRoute {
    /// HealthKit's workout route type identifier.
    public static let typeIdentifier = "HKWorkoutRouteTypeIdentifier"
    /// The route type; like the workout type it is not in the catalogue.
    static let sampleType = SeriesType(identifier: typeIdentifier, name: "workout-route", title: "Workout route",
                                       kind: .category, aggregation: nil, canonicalUnit: nil, displayUnit: nil,
                                       examples: [], categoryValues: [], maximumDuration: nil, validRange: nil)

    /// The uuid a query gives the route of the workout `workout`: the same every time.
    static func uuid(ofWorkout workout: UUID) -> UUID {
        var key = Array("workout route of".utf8)
        withUnsafeBytes(of: workout.uuid) { key.append(contentsOf: $0) }
        return key.withUnsafeBytes { RecordIdentity.uuid(ofKey: $0) }
    }

    /// The route of a stored workout as a query hands it out, or nil when the workout has none.
    static func record(of workout: Sample) -> Sample? {
        guard let locations = workout.detail?.workout?.route?.locations, !locations.isEmpty else { return nil }
        return Sample(uuid: uuid(ofWorkout: workout.uuid), typeIdentifier: typeIdentifier, start: locations[0].timestamp,
                      end: locations[locations.count - 1].timestamp, value: .category(0), source: workout.source,
                      created: workout.created, sourceVersion: workout.sourceVersion, device: workout.device,
                      detail: .route(locations))
    }
}

extension WorkoutRoute {
    /// The changes of a query of routes, made from the changes of workouts: a workout added with a route adds its
    /// route, a workout deleted deletes its route (the uuid ``uuid(ofWorkout:)`` gives; a workout that had none
    /// reports a deletion of a route that never was, which a client ignores as HealthKit's clients ignore unknown
    /// uuids). `keepingWorkouts`: the query asks for workouts too, so theirs are kept.
    static func changes(_ set: ChangeSet, keepingWorkouts: Bool) -> (added: [Sample], deleted: [Tombstone]) {
        var added: [Sample] = []
        for sample in set.added {
            if sample.typeIdentifier != Workout.typeIdentifier || keepingWorkouts { added.append(sample) }
            if sample.typeIdentifier == Workout.typeIdentifier, let route = record(of: sample) { added.append(route) }
        }
        var deleted: [Tombstone] = []
        for tombstone in set.deleted {
            if tombstone.typeIdentifier != Workout.typeIdentifier || keepingWorkouts { deleted.append(tombstone) }
            if tombstone.typeIdentifier == Workout.typeIdentifier {
                deleted.append(Tombstone(uuid: uuid(ofWorkout: tombstone.uuid), typeIdentifier: typeIdentifier,
                                         deletedAt: tombstone.deletedAt, sequence: tombstone.sequence, source: tombstone.source))
            }
        }
        return (added, deleted)
    }
}

extension HealthStore {
    /// Calls `body` with the route of each workout that has one and whose route overlaps `interval` (routes are kept
    /// inside their workouts; a source that may read workouts may read their routes).
    func forEachRoute(overlapping interval: DateInterval, _ body: (Sample) throws -> Void) throws {
        try forEachSample(ofType: Workout.typeIdentifier, overlapping: interval) { workout in
            guard let route = WorkoutRoute.record(of: workout), route.overlaps(interval) else { return }
            try body(route)
        }
    }
}

/// HealthKit's `HKWorkoutRouteQuery`: the locations of a route, handed to `dataHandler` in batches, the last with
/// `done` true. (HealthCore hands them out in one batch.) See ``Query`` for running and stopping.
public final class WorkoutRouteQuery: Query, @unchecked Sendable {
    /// The handler's signature: the query, a batch of locations (nil on an error), whether it is the last, the error.
    public typealias DataHandler = @Sendable (WorkoutRouteQuery, [WorkoutRoute.Location]?, Bool, Error?) -> Void

    private let route: WorkoutRoute
    private let dataHandler: DataHandler

    /// Creates a query of `route`'s locations, as `HKWorkoutRouteQuery(route:dataHandler:)`.
    public init(route: WorkoutRoute, dataHandler: @escaping DataHandler) {
        self.route = route
        self.dataHandler = dataHandler
        super.init(sampleType: WorkoutRoute.sampleType, predicate: nil)
    }

    override func run(on store: HealthStore) {
        deliver { dataHandler(self, route.locations, true, nil) }
        stop()
    }
}
