import TextSupport

/// A workout, HealthKit's `HKWorkout`: an activity between two instants, with its duration (pauses excluded),
/// total energy and distance, events, per-type statistics, metadata (`HKIndoorWorkout`, weather...) and source.
///
/// It is stored as a ``Sample`` of type ``typeIdentifier`` whose value is the activity's raw value
/// (`.category(37)` for running) and whose ``SampleDetail/workout(_:)`` holds the rest; ``HealthObject/sample`` and
/// ``init(sample:)`` convert. A workout is a ``HealthSample``, so a query of any type hands one out as a `Workout`.
/// Invariants (checked by ``validated(now:)``): `end >= start`, `0 <= duration <= end − start`, energy in an energy
/// unit, distance in a length unit, both non-negative.
public final class Workout: HealthSample, @unchecked Sendable {
    /// HealthKit's workout type identifier.
    public static let typeIdentifier = "HKWorkoutTypeIdentifier"
    /// The workout type, a ``WorkoutType`` named `workout`; it is not in the catalogue, whose types are quantities and
    /// categories.
    public static var sampleType: WorkoutType { WorkoutType.shared }

    /// The kind of activity.
    public let activity: WorkoutActivityType
    /// Its duration, totals, events, parts and statistics.
    public let detail: WorkoutDetail

    /// When it started.
    public var start: Date { sample.start }
    /// When it ended.
    public var end: Date { sample.end }
    /// The name of the source that saved it.
    public var source: String { sample.source }
    /// When it was saved.
    public var created: Date { sample.created }
    /// The version of the source that saved it, if known.
    public var sourceVersion: String? { sample.sourceVersion }

    /// Creates a workout. Its metadata (`HKIndoorWorkout` (1 or 0), `HKWeatherTemperature` (`54 degF`), keys
    /// case-sensitive) and device (as `key:value` text) are kept in its record, ``HealthObject/sample``.
    public init(uuid: UUID = UUID(), activity: WorkoutActivityType, start: Date, end: Date, detail: WorkoutDetail,
                source: String, created: Date, metadata: [String: MetadataValue] = [:], sourceVersion: String? = nil,
                device: String? = nil) {
        self.activity = activity
        self.detail = detail
        super.init(record: Sample(uuid: uuid, typeIdentifier: Workout.typeIdentifier, start: start, end: end,
                                  value: .category(activity.rawValue), source: source, created: created,
                                  metadata: metadata, sourceVersion: sourceVersion, device: device,
                                  detail: .workout(detail)))
    }

    private init(record: Sample, activity: WorkoutActivityType, detail: WorkoutDetail) {
        self.activity = activity
        self.detail = detail
        super.init(record: record)
    }

    /// The workout a stored sample holds, or nil when the sample is not a typed workout.
    public convenience init?(sample: Sample) {
        guard sample.typeIdentifier == Workout.typeIdentifier, let detail = sample.detail?.workout,
              case let .category(raw) = sample.value else { return nil }
        self.init(record: sample, activity: .raw(raw), detail: detail)
    }

    /// This workout with another detail (a workout is immutable, as HealthKit's).
    func replacing(detail: WorkoutDetail) -> Workout {
        Workout(uuid: uuid, activity: activity, start: start, end: end, detail: detail, source: source, created: created,
                metadata: sample.metadata, sourceVersion: sourceVersion, device: sample.device)
    }

    /// Seconds of activity, pauses excluded.
    public var duration: TimeInterval { detail.duration }

    /// Whether `HKIndoorWorkout` says the workout was indoors (nil when it does not say).
    public var isIndoor: Bool? {
        switch sample.metadata["HKIndoorWorkout"] {
        case let .number(value)?: return value != 0
        case let .string(text)?: return ["1", "true", "yes"].contains(text.lowercased())
        case nil: return nil
        }
    }

    /// The energy burned in kilocalories: the total, else the sum of the active-energy statistic.
    public var energyKilocalories: Double? {
        if let energy = detail.totalEnergyBurned, let value = try? energy.value(in: Workout.kilocalorie) { return value }
        return statisticSum("HKQuantityTypeIdentifierActiveEnergyBurned", in: Workout.kilocalorie)
    }

    /// The distance in metres: the total, else the sum of its distance statistics (a swim, a ride and a run of a
    /// multisport workout added up).
    public var distanceMeters: Double? {
        if let distance = detail.totalDistance, let value = try? distance.value(in: Workout.meter), value > 0 { return value }
        var total: Double?
        for identifier in Set(totalStatistics.map(\.typeIdentifier)) where identifier.hasPrefix("HKQuantityTypeIdentifierDistance") {
            if let value = statisticSum(identifier, in: Workout.meter) { total = (total ?? 0) + value }
        }
        return total ?? detail.totalDistance.flatMap { try? $0.value(in: Workout.meter) }
    }

    /// Seconds per kilometre, for activities that measure distance and have one.
    public var paceSecondsPerKilometer: Double? {
        guard activity.measuresDistance, let meters = distanceMeters, meters > 0, duration > 0 else { return nil }
        return duration / (meters / 1000)
    }

    /// The figures of the workout and of its parts, as written (an export's `WorkoutStatistics` elements): the raw form
    /// of ``allStatistics``.
    public var workoutStatistics: [WorkoutStatistic] { detail.statistics + detail.activities.flatMap(\.statistics) }

    /// The workout's figures, each type's once: its own statistics, and for a type it has none of, those of its parts
    /// (an iOS 16+ export writes a type's figures both for the workout and for each of its activities).
    public var totalStatistics: [WorkoutStatistic] {
        let own = Set(detail.statistics.map(\.typeIdentifier))
        return detail.statistics + detail.activities.flatMap(\.statistics).filter { !own.contains($0.typeIdentifier) }
    }

    private func statisticSum(_ identifier: String, in unit: HealthUnit) -> Double? {
        var total: Double?
        for statistic in totalStatistics where statistic.typeIdentifier == identifier {
            guard let sum = statistic.sum, let unitText = statistic.unit, let from = try? HealthUnit(parsing: unitText),
                  let value = try? from.convert(sum, to: unit) else { continue }
            total = (total ?? 0) + value
        }
        return total
    }

    /// Kilocalories, the unit of ``energyKilocalories``.
    public static let kilocalorie = try! HealthUnit(parsing: "kcal")
    /// Metres, the unit of ``distanceMeters``.
    public static let meter = try! HealthUnit(parsing: "m")

    /// The valid range of a workout's total energy, in kilocalories: a typing mistake beyond it is refused.
    public static let energyRange: ClosedRange<Double> = 0...50_000
    /// The valid range of a workout's total distance, in metres (2,000 km).
    public static let distanceRange: ClosedRange<Double> = 0...2_000_000

    /// Whether the workout's energy and distance are within ``energyRange`` and ``distanceRange``.
    public var hasPlausibleTotals: Bool {
        for (quantity, unit, range) in [(detail.totalEnergyBurned, Workout.kilocalorie, Workout.energyRange),
                                        (detail.totalDistance, Workout.meter, Workout.distanceRange)] {
            guard let quantity else { continue }
            guard let value = try? quantity.value(in: unit), value.isFinite, range.contains(value) else { return false }
        }
        return true
    }

    /// Checks the workout's invariants.
    ///
    /// - Parameter now: If given, a workout ending after it is refused.
    /// - Returns: The workout unchanged.
    /// - Throws: ``SampleError`` or ``UnitError`` naming what is wrong.
    @discardableResult
    public func validated(now: Date? = nil, timeZone: ZoneRules = .gmt) throws -> Workout {
        if end < start {
            throw SampleError.endBeforeStart(start: ISODate.format(start, in: timeZone), end: ISODate.format(end, in: timeZone))
        }
        if let now, end > now {
            throw SampleError.inFuture(end: ISODate.format(end, in: timeZone), now: ISODate.format(now, in: timeZone))
        }
        guard detail.duration.isFinite, detail.duration >= 0, detail.duration <= end.timeIntervalSince(start) + 0.001 else {
            throw WorkoutError.durationMismatch(duration: Workout.durationText(detail.duration),
                                                interval: Workout.durationText(end.timeIntervalSince(start)))
        }
        for (quantity, unit, name, examples, range) in [
            (detail.totalEnergyBurned, Workout.kilocalorie, "workout energy", ["420kcal", "1750kJ"], Workout.energyRange),
            (detail.totalDistance, Workout.meter, "workout distance", ["7.2km", "4.5mi"], Workout.distanceRange),
        ] {
            guard let quantity else { continue }
            guard quantity.unit.isCompatible(with: unit) else {
                throw UnitError.wrongUnitForType(unit: quantity.unit.unitString, type: name, expected: examples)
            }
            guard quantity.value.isFinite else { throw SampleError.notFinite(type: name) }
            guard quantity.value >= 0 else { throw SampleError.negative(quantity.value, type: name) }
            let inUnit = try quantity.value(in: unit)
            guard range.contains(inUnit) else {
                throw SampleError.outOfRange(inUnit, unit: unit.unitString, type: name, range: range)
            }
        }
        return self
    }

    /// `1 h 05 min`, `45 min`, `30 s`.
    static func durationText(_ seconds: TimeInterval) -> String {
        if seconds < 60 { return "\(NumberFormatting.json((seconds * 10).rounded() / 10)) s" }
        let minutes = Int(saturating: (seconds / 60).rounded())
        return minutes >= 60 ? "\(minutes / 60) h \(NumberFormatting.zeroPadded(minutes % 60, width: 2)) min" : "\(minutes) min"
    }
}
