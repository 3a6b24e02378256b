import TextSupport

/// Errors from building or running a statistics, collection, night or trend query.
public enum StatisticsError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// A figure that the type's aggregation style does not allow (the sum of heart rate); payload: the option's
    /// name, the type's name and the options that do apply.
    case optionNotApplicable(String, type: String, allowed: [String])
    /// A bucket length that is not a positive whole number of a known unit; payload: the text given.
    case invalidBucketInterval(String)
    /// The range would be cut into more buckets than the engine computes at once; payload: the estimate and the limit.
    case tooManyBuckets(Int, limit: Int)
    /// A night cut-off that is not a time of day `HH:MM`; payload: the text given.
    case invalidNightCutoff(String)
    /// A metadata filter that is not `KEY` or `KEY=VALUE`; payload: the text given.
    case invalidMetadataFilter(String)
    /// A collection's interval components that are not one positive count of minutes, hours, days, weeks, months
    /// or years; payload: the components as text.
    case badIntervalComponents(String)
    /// No sample of the type matched the predicate, which a ``StatisticsQuery`` reports with nil statistics:
    /// HealthKit's `errorNoData` (code 11). Payload: the type's name.
    case noData(String)

    public var description: String {
        switch self {
        case let .optionNotApplicable(option, type, allowed):
            let choices = allowed.isEmpty ? "it has its own figures and takes none" : "use " + allowed.joined(separator: ", ")
            return "The statistic '\(option)' does not apply to \(type); \(choices)."
        case let .invalidBucketInterval(text):
            return "The bucket length '\(text)' is not understood; write a whole number and a unit, such as 15m, 6h, 1d, 2w, 3mo or 1y."
        case let .tooManyBuckets(count, limit):
            return "The range would make about \(count) buckets, more than \(limit); choose longer buckets or a shorter range."
        case let .invalidNightCutoff(text):
            return "The night cut-off '\(text)' is not a time of day; write it as HH:MM, such as 12:00 or 18:00."
        case let .invalidMetadataFilter(text):
            return "The metadata filter '\(text)' is not understood; write KEY=VALUE (or KEY to require the key)."
        case let .badIntervalComponents(text):
            return "The interval components \(text) are not one calendar step; give one positive count, such as DateComponents(day: 1) or DateComponents(hour: 6)."
        case let .noData(type):
            return "No data available for the specified predicate: no \(type) sample matched."
        }
    }

    public var errorDescription: String? { description }
}
