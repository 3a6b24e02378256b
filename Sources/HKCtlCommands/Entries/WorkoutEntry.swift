import HealthCore
import HKCtlSupport

/// A workout as a person types it (an activity name, amounts as text such as `45min`, `420kcal` and `7.2km`), before
/// it becomes a ``Workout``.
///
/// Times: `from`/`to` give the workout's span (the duration, if also given, is the active time within it and may be
/// shorter because of pauses); otherwise the duration is required and the workout starts at `at`, or ends now.
struct WorkoutEntry: Sendable {
    /// The activity: a case name, short form, export name or raw value.
    var activity: String
    /// The duration as typed (`45min`), if any.
    var duration: String?
    /// When the workout started.
    var at: TimeExpression?
    var from: TimeExpression?
    var to: TimeExpression?
    /// Energy burned as typed (`420kcal`).
    var energy: String?
    /// Distance as typed (`7.2km`).
    var distance: String?
    /// Sets `HKIndoorWorkout` to 1.
    var indoor: Bool
    /// Further metadata.
    var metadata: [String: MetadataValue]

    /// Creates an entry.
    init(activity: String, duration: String? = nil, at: TimeExpression? = nil, from: TimeExpression? = nil,
                to: TimeExpression? = nil, energy: String? = nil, distance: String? = nil, indoor: Bool = false,
                metadata: [String: MetadataValue] = [:]) {
        self.activity = activity
        self.duration = duration
        self.at = at
        self.from = from
        self.to = to
        self.energy = energy
        self.distance = distance
        self.indoor = indoor
        self.metadata = metadata
    }

    /// Builds and validates the workout.
    ///
    /// - Parameters:
    ///   - source: The source name to record.
    ///   - context: Now and the zone.
    ///   - catalogue: The types whose units energy (`active-energy`) and distance (`distance`) are checked against.
    ///   - uuid: The new workout's identity.
    /// - Throws: ``WorkoutError``, ``UnitError``, ``SampleError`` naming what is wrong.
    func workout(source: String, context: TimeContext, catalogue: SampleTypeCatalogue = .standard,
                        uuid: UUID = UUID()) throws -> Workout {
        let activity = try WorkoutActivityType.named(self.activity)
        let seconds = try duration.map(WorkoutDuration.parse)
        let start: Date, end: Date
        if let from, let to {
            start = from.date
            end = to.isDateOnly ? context.startOfNextDay(after: to.date) : to.date
            guard end >= start else {
                throw SampleError.endBeforeStart(start: ISODate.format(start, in: context.timeZone),
                                                 end: ISODate.format(end, in: context.timeZone))
            }
        } else {
            guard let seconds else { throw WorkoutError.badDuration("") }
            if let at {
                start = at.date
                end = start.addingTimeInterval(seconds)
            } else {
                end = context.now
                start = end.addingTimeInterval(-seconds)
            }
        }
        var metadata = self.metadata
        if indoor { metadata["HKIndoorWorkout"] = .number(1) }
        let energyType = try catalogue.type(named: "HKQuantityTypeIdentifierActiveEnergyBurned")
        let distanceType = try catalogue.type(named: "HKQuantityTypeIdentifierDistanceWalkingRunning")
        let detail = WorkoutDetail(
            duration: seconds ?? end.timeIntervalSince(start),
            totalEnergyBurned: try energy.map { try QuantityInput.parse($0, for: energyType) },
            totalDistance: try distance.map { try QuantityInput.parse($0, for: distanceType) })
        let workout = Workout(uuid: uuid, activity: activity, start: start, end: end, detail: detail, source: source,
                              created: context.now, metadata: metadata)
        return try workout.validated(now: context.now, timeZone: context.timeZone)
    }
}
