import HealthCore

/// The answer to a ``TrendQuery``: a value per local day, its moving average, the change over the period and
/// figures per weekday.
package struct Trend: Equatable, Sendable {
    /// One local day.
    package struct Day: Equatable, Sendable {
        /// Local midnight.
        package var date: Date
        /// 1 = Sunday … 7 = Saturday.
        package var weekday: Int
        /// The day's value (sum, average, or sleep of the night ending that morning); nil when nothing was recorded.
        package var value: Double?
        /// The mean of the values recorded in the ``Trend/window`` days ending with this one; nil when none were.
        package var movingAverage: Double?
    }

    /// The change between the first and the last recorded day.
    package struct Change: Equatable, Sendable {
        /// The first day with a value.
        package var firstDate: Date
        /// Its value.
        package var first: Double
        /// The last day with a value.
        package var lastDate: Date
        /// Its value.
        package var last: Double
        /// `last − first`.
        package var absolute: Double
        /// `(last − first) / first`; nil when `first` is 0.
        package var relative: Double?
        /// The moving average on the last day minus the moving average on the first day.
        package var movingAverageChange: Double
    }

    /// Figures for one weekday across the period.
    package struct Weekday: Equatable, Sendable {
        /// 1 = Sunday … 7 = Saturday, as `Calendar` numbers weekdays.
        package var weekday: Int
        /// The weekday's English name, lower-case (`monday`).
        package var name: String { Weekday.names[weekday - 1] }
        /// English weekday names, Sunday first.
        package static let names = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        /// The mean value of the recorded days falling on this weekday; nil when none.
        package var average: Double?
        /// How many recorded days that is.
        package var days: Int
        /// The mean change from the day before (both recorded) to this weekday; nil when no such pair.
        package var averageChange: Double?
        /// How many day-to-day pairs that is.
        package var changes: Int
    }

    /// The type.
    package var type: SampleType
    /// The unit of values (nil for sleep, whose values are seconds asleep).
    package var unit: HealthUnit?
    /// What a day's value is: `sum`, `average`, `asleep` or `duration`.
    package var measure: String
    /// The moving-average window in days.
    package var window: Int
    /// Every local day of the range, in order.
    package var days: [Day]
    /// The mean of the recorded days; nil when none.
    package var average: Double?
    /// Change over the period; nil with fewer than one recorded day.
    package var change: Change?
    /// Seven entries, from the calendar's first weekday.
    package var weekdays: [Weekday]
}
