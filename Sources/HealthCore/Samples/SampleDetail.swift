/// What a composite sample holds beyond its dates and value: a workout's totals, events and statistics, or the
/// members of a correlation.
///
/// A workout or a correlation is stored as a ``Sample`` of its own type (`HKWorkoutTypeIdentifier`,
/// `HKCorrelationTypeIdentifierBloodPressure`, ...) with this detail, so that the store's batches, change numbers,
/// tombstones and compaction treat it like any other sample. In a store line it is one extra key, `"workout"` or
/// `"correlation"`; quantity and category lines never carry either.
public indirect enum SampleDetail: Hashable, Sendable {
    /// A workout's duration, totals, events and statistics.
    case workout(WorkoutDetail)
    /// A correlation's member samples.
    case correlation(CorrelationDetail)
    /// A workout route's locations, in time order, as a query of ``SampleType/workoutRouteType()`` hands the route out
    /// (a ``WorkoutRoute``'s record; routes are stored inside their workouts, never on a line of their own).
    case route([WorkoutRoute.Location])
    /// A state of mind's valence, labels and associations.
    case stateOfMind(StateOfMindDetail)

    /// The workout detail, if this is one.
    public var workout: WorkoutDetail? {
        if case let .workout(detail) = self { return detail }
        return nil
    }

    /// The correlation detail, if this is one.
    public var correlation: CorrelationDetail? {
        if case let .correlation(detail) = self { return detail }
        return nil
    }

    /// Correlations have no value of their own; their lines carry no `value` key.
    var omitsValue: Bool { correlation != nil }

    /// The line's extra key and value, with a leading comma.
    func lineField(timeZone: ZoneRules) -> String {
        switch self {
        case let .workout(detail): return ",\"workout\":" + detail.json(timeZone: timeZone)
        case let .correlation(detail): return ",\"correlation\":" + detail.json()
        case let .route(locations): return ",\"route\":" + WorkoutRoute.json(locations, timeZone: timeZone)
        case let .stateOfMind(detail): return ",\"stateOfMind\":" + detail.json()
        }
    }

    /// Reads the value of the `workout` or `correlation` key of a line.
    static func decodeField(_ key: SampleLineCodec.Key, from scanner: inout JSONLineScanner) throws -> SampleDetail? {
        switch key {
        case .workout: return .workout(try WorkoutDetail(scanning: &scanner))
        case .correlation: return .correlation(try CorrelationDetail(scanning: &scanner))
        case .stateOfMind: return .stateOfMind(try StateOfMindDetail(scanning: &scanner))
        default:
            try scanner.skipValue()
            return nil
        }
    }
}
