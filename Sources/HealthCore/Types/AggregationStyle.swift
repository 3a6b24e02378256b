/// How the values of a quantity type combine over time, with HealthKit's raw values.
public enum AggregationStyle: Int, Sendable, CaseIterable {
    /// Values add up over time (steps, water, energy): statistics give a sum.
    case cumulative = 0
    /// Independent readings (weight): statistics give average, minimum, maximum and most recent.
    case discreteArithmetic = 1
    /// Readings that hold a level over time (heart rate): the average is weighted by time.
    case discreteTemporallyWeighted = 2
    /// Sound levels: the average is the energy-equivalent level.
    case discreteEquivalentContinuousLevel = 3

    /// Whether the values add up (only ``cumulative``).
    public var isCumulative: Bool { self == .cumulative }

    /// The name used in JSON output and type listings.
    public var name: String {
        switch self {
        case .cumulative: return "cumulative"
        case .discreteArithmetic: return "discreteArithmetic"
        case .discreteTemporallyWeighted: return "discreteTemporallyWeighted"
        case .discreteEquivalentContinuousLevel: return "discreteEquivalentContinuousLevel"
        }
    }
}
