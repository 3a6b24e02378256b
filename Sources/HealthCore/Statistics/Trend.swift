/// The answer to a ``TrendQuery``: a value per local day, its moving average, the change over the period and
/// figures per weekday.
public struct Trend: Equatable, Sendable {
    /// One local day.
    public struct Day: Equatable, Sendable {
        /// Local midnight.
        public var date: Date
        /// 1 = Sunday … 7 = Saturday.
        public var weekday: Int
        /// The day's value (sum, average, or sleep of the night ending that morning); nil when nothing was recorded.
        public var value: Double?
        /// The mean of the values recorded in the ``Trend/window`` days ending with this one; nil when none were.
        public var movingAverage: Double?
    }

    /// The change between the first and the last recorded day.
    public struct Change: Equatable, Sendable {
        /// The first day with a value.
        public var firstDate: Date
        /// Its value.
        public var first: Double
        /// The last day with a value.
        public var lastDate: Date
        /// Its value.
        public var last: Double
        /// `last − first`.
        public var absolute: Double
        /// `(last − first) / first`; nil when `first` is 0.
        public var relative: Double?
        /// The moving average on the last day minus the moving average on the first day.
        public var movingAverageChange: Double
    }

    /// Figures for one weekday across the period.
    public struct Weekday: Equatable, Sendable {
        /// 1 = Sunday … 7 = Saturday, as `Calendar` numbers weekdays.
        public var weekday: Int
        /// The weekday's English name, lower-case (`monday`).
        public var name: String { Weekday.names[weekday - 1] }
        /// English weekday names, Sunday first.
        public static let names = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        /// The mean value of the recorded days falling on this weekday; nil when none.
        public var average: Double?
        /// How many recorded days that is.
        public var days: Int
        /// The mean change from the day before (both recorded) to this weekday; nil when no such pair.
        public var averageChange: Double?
        /// How many day-to-day pairs that is.
        public var changes: Int
    }

    /// The type.
    public var type: SampleType
    /// The unit of values (nil for sleep, whose values are seconds asleep).
    public var unit: HealthUnit?
    /// What a day's value is: `sum`, `average`, `asleep` or `duration`.
    public var measure: String
    /// The moving-average window in days.
    public var window: Int
    /// Every local day of the range, in order.
    public var days: [Day]
    /// The mean of the recorded days; nil when none.
    public var average: Double?
    /// Change over the period; nil with fewer than one recorded day.
    public var change: Change?
    /// Seven entries, from the calendar's first weekday.
    public var weekdays: [Weekday]
}
