/// HealthKit's `HKSeriesType`: the type of a series sample. HealthCore has one, the workout route's
/// (`SeriesType.workoutRoute()`), a ``SampleType``.
public typealias SeriesType = SampleType

extension SampleType {
    /// The type of workout routes, as `HKSeriesType.workoutRoute()`; its identifier is HealthKit's
    /// `HKWorkoutRouteTypeIdentifier`. Routes are kept inside their workouts: a query of this type finds the route of
    /// every workout that has one.
    public static func workoutRouteType() -> SampleType { WorkoutRoute.sampleType }
    /// ``workoutRouteType()`` under `HKSeriesType`'s spelling.
    public static func workoutRoute() -> SampleType { WorkoutRoute.sampleType }
}

extension WorkoutRoute {
    /// HealthKit's workout route type identifier.
    public static let typeIdentifier = "HKWorkoutRouteTypeIdentifier"
    /// The route type; like the workout type it is not in the catalogue.
    static let sampleType = SampleType(identifier: typeIdentifier, name: "workout-route", title: "Workout route",
                                       kind: .category, aggregation: nil, canonicalUnit: nil, displayUnit: nil,
                                       examples: [], categoryValues: [], maximumDuration: nil, validRange: nil)

    /// The route a query handed out, or nil when the record is not a route.
    public init?(_ sample: Sample) {
        guard sample.typeIdentifier == WorkoutRoute.typeIdentifier, case let .route(route)? = sample.detail else { return nil }
        self = route
        record = sample
    }

    /// The route a query of ``SeriesType/workoutRoute()`` handed out as a ``HealthSample``, or nil when it is not a
    /// route. (A route is a value held by its workout, not a ``HealthSample`` subclass: `sample as? WorkoutRoute` does
    /// not work as HealthKit's `as? HKWorkoutRoute` does; this initialiser does.)
    public init?(_ object: HealthSample) { self.init(object.sample) }

    /// The route's uuid (derived from its workout's), as `uuid`.
    public var uuid: UUID { sample.uuid }
    /// The first location's time, as `startDate`.
    public var startDate: Date { sample.start }
    /// The last location's time, as `endDate`.
    public var endDate: Date { sample.end }
    /// The route type, as `sampleType`.
    public var sampleType: SampleType { WorkoutRoute.sampleType }
    /// The source of its workout, as `sourceRevision.source.name`.
    public var sourceName: String { sample.source }

    /// The record of the route: for a route a query handed out, its uuid (derived from its workout's), dates (its
    /// first and last locations), source and device are its workout's; a route made in code has an empty uuid and no
    /// source.
    public var sample: Sample {
        if let record { return record }
        var plain = self
        plain.record = nil
        let start = locations.first?.timestamp ?? Date(timeIntervalSince1970: 0)
        return Sample(uuid: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), typeIdentifier: WorkoutRoute.typeIdentifier,
                      start: start, end: locations.last?.timestamp ?? start, value: .category(0), source: Sample.unsavedSource,
                      created: start, detail: .route(plain))
    }

    /// How many locations the route holds, as `HKWorkoutRoute.count`.
    public var count: Int { locations.count }

    /// The uuid a query gives the route of the workout `workout`: the same every time.
    static func uuid(ofWorkout workout: UUID) -> UUID {
        var key = Array("workout route of".utf8)
        withUnsafeBytes(of: workout.uuid) { key.append(contentsOf: $0) }
        return key.withUnsafeBytes { RecordIdentity.uuid(ofKey: $0) }
    }

    /// The route of a stored workout as a query hands it out, or nil when the workout has none.
    static func record(of workout: Sample) -> Sample? {
        guard var route = workout.detail?.workout?.route, !route.locations.isEmpty else { return nil }
        route.record = nil
        return Sample(uuid: uuid(ofWorkout: workout.uuid), typeIdentifier: typeIdentifier, start: route.locations[0].timestamp,
                      end: route.locations[route.locations.count - 1].timestamp, value: .category(0), source: workout.source,
                      created: workout.created, sourceVersion: workout.sourceVersion, device: workout.device,
                      detail: .route(route))
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
