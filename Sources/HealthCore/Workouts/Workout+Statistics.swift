/// HealthKit's `HKWorkout` accessors for the figures, events and parts of a workout.
extension Workout {
    /// The workout's figures for `quantityType`, as `HKWorkout.statistics(for:)`: the sum of a cumulative type, the
    /// average, minimum and maximum of a discrete one, in the unit the figures were recorded in; nil when the workout
    /// has none for that type.
    ///
    /// The workout's own figures when it has them; else those of its parts (``workoutActivities``) combined: sums
    /// added, the smallest minimum and largest maximum, averages weighted by each part's length.
    public func statistics(for quantityType: QuantityType) -> Statistics? {
        WorkoutStatistic.combined(detail.statistics, identifier: quantityType.identifier)
            ?? WorkoutStatistic.combined(detail.activities.flatMap(\.statistics), identifier: quantityType.identifier)
    }

    /// Every quantity type the workout has figures for, with them, as `HKWorkout.allStatistics`.
    public var allStatistics: [QuantityType: Statistics] {
        var result: [QuantityType: Statistics] = [:]
        for identifier in Set(workoutStatistics.map(\.typeIdentifier)) {
            guard let type = SampleType.lookUp(identifier) as? QuantityType else { continue }
            if let statistics = statistics(for: type) { result[type] = statistics }
        }
        return result
    }

    /// Pauses, resumes, laps, markers and segments, in time order, as `HKWorkout.workoutEvents` (never nil here; an
    /// optional as in HealthKit, so `workout.workoutEvents ?? []` reads as it does there).
    public var workoutEvents: [WorkoutEvent]? { detail.events }

    /// The parts of a multi-activity workout (iOS 16's `HKWorkout.workoutActivities`), in time order; empty for a
    /// workout recorded as one activity without parts.
    public var workoutActivities: [WorkoutActivity] { detail.activities.sorted { $0.start < $1.start } }
}

/// HealthKit's `HKWorkoutActivity` accessors.
extension WorkoutActivity {
    /// When the part started, as `startDate`.
    public var startDate: Date { start }
    /// When it ended, as `endDate`; nil while a live workout's part is still running (an export always has one).
    public var endDate: Date? { end }
    /// The part's own events, as `workoutEvents`.
    public var workoutEvents: [WorkoutEvent] { events }

    /// The part's figures for `quantityType`, as `HKWorkoutActivity.statistics(for:)`; nil when it has none.
    public func statistics(for quantityType: QuantityType) -> Statistics? {
        WorkoutStatistic.combined(statistics, identifier: quantityType.identifier)
    }

    /// Every quantity type the part has figures for, as `HKWorkoutActivity.allStatistics`.
    public var allStatistics: [QuantityType: Statistics] {
        var result: [QuantityType: Statistics] = [:]
        for identifier in Set(statistics.map(\.typeIdentifier)) {
            guard let type = SampleType.lookUp(identifier) as? QuantityType else { continue }
            if let figures = statistics(for: type) { result[type] = figures }
        }
        return result
    }
}

/// HealthKit's `HKWorkoutEventType`: what a ``WorkoutEvent`` records.
public typealias WorkoutEventType = WorkoutEvent.Kind

/// HealthKit's `HKWorkoutEvent` accessors.
extension WorkoutEvent {
    /// What happened, as `HKWorkoutEvent.type`.
    public var type: WorkoutEventType { kind }
    /// When it happened and for how long (0 for a pause or a marker), as `HKWorkoutEvent.dateInterval`.
    public var dateInterval: DateInterval { DateInterval(start: date, duration: max(0, duration)) }

    /// An event over `dateInterval`, as `HKWorkoutEvent(type:dateInterval:metadata:)` without metadata (an event's
    /// metadata is not kept).
    public init(type: WorkoutEventType, dateInterval: DateInterval) {
        self.init(kind: type, date: dateInterval.start, duration: dateInterval.duration)
    }
}

extension WorkoutStatistic {
    /// The figures of `identifier` among `statistics`, combined into one ``Statistics``, or nil when there are none
    /// (or none in a unit this library reads).
    static func combined(_ statistics: [WorkoutStatistic], identifier: String) -> Statistics? {
        var parts: [(statistic: WorkoutStatistic, unit: HealthUnit)] = []
        for statistic in statistics where statistic.typeIdentifier == identifier {
            guard let text = statistic.unit, let unit = try? HealthUnit(parsing: text) else { continue }
            if let first = parts.first?.unit, !first.isCompatible(with: unit) { continue }
            parts.append((statistic, unit))
        }
        guard let unit = parts.first?.unit else { return nil }
        func converted(_ value: Double?, from source: HealthUnit) -> Double? {
            value.flatMap { try? source.convert($0, to: unit) }
        }
        var figures = Statistics(start: parts.map(\.statistic.start).min()!, end: parts.map(\.statistic.end).max()!)
        figures.unit = unit
        figures.sampleCount = parts.count
        var weightedSum = 0.0, weights = 0.0
        for (statistic, source) in parts {
            if let sum = converted(statistic.sum, from: source) { figures.sum = (figures.sum ?? 0) + sum }
            if let minimum = converted(statistic.minimum, from: source) { figures.minimum = min(figures.minimum ?? minimum, minimum) }
            if let maximum = converted(statistic.maximum, from: source) { figures.maximum = max(figures.maximum ?? maximum, maximum) }
            if let average = converted(statistic.average, from: source) {
                let weight = max(statistic.end.timeIntervalSince(statistic.start), 0.001)
                weightedSum += average * weight
                weights += weight
            }
        }
        if weights > 0 { figures.average = parts.count == 1 ? converted(parts[0].statistic.average, from: parts[0].unit) : weightedSum / weights }
        return figures
    }
}
