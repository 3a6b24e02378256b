import TextSupport

/// The length of one bucket of a statistics collection, like the `intervalComponents` of HealthKit's
/// `HKStatisticsCollectionQuery`: a whole number of minutes, hours, days, weeks, months or years.
///
/// Minutes and hours are elapsed time, so every hour bucket lasts 3600 s even on a DST day (which then has 23 or
/// 25 of them). Days, weeks, months and years are calendar steps, so a day bucket across a DST change lasts 23 or
/// 25 hours and is still one bucket.
///
/// Invariant: ``count`` is at least 1.
public struct BucketInterval: Hashable, Sendable, CustomStringConvertible {
    /// The unit of a bucket length.
    public enum Unit: String, CaseIterable, Sendable {
        /// Minutes and hours are elapsed time (60 s, 3600 s).
        case minute, hour
        /// Days, weeks, months and years are calendar steps in the calendar's zone.
        case day, week, month, year

        /// The suffix in the short form (`15m`, `2w`, `3mo`).
        var suffix: String {
            switch self {
            case .minute: return "m"
            case .hour: return "h"
            case .day: return "d"
            case .week: return "w"
            case .month: return "mo"
            case .year: return "y"
            }
        }

        /// Seconds in one unit, for minute and hour; nil for calendar units.
        var elapsedSeconds: TimeInterval? {
            switch self {
            case .minute: return 60
            case .hour: return 3600
            default: return nil
            }
        }

        /// The calendar step one unit adds; nil for minutes and hours, which are elapsed time.
        var calendarStep: GregorianCalendar.Step? {
            switch self {
            case .minute, .hour: return nil
            case .day: return .days
            case .week: return .weeks
            case .month: return .months
            case .year: return .years
            }
        }

        /// The shortest a unit can last in any zone (a day across spring-forward is 23 h), for estimates.
        /// The average length of one unit in the Gregorian calendar (a month is 30.436875 days, a year 365.2425).
        var averageSeconds: TimeInterval {
            switch self {
            case .minute: return 60
            case .hour: return 3600
            case .day: return 86_400
            case .week: return 7 * 86_400
            case .month: return 2_629_746
            case .year: return 31_556_952
            }
        }

        var shortestSeconds: TimeInterval {
            switch self {
            case .minute: return 60
            case .hour: return 3600
            case .day: return 23 * 3600
            case .week: return 167 * 3600
            case .month: return 28 * 86_400 - 3600
            case .year: return 365 * 86_400 - 3600
            }
        }
    }

    /// How many units one bucket lasts (at least 1).
    public let count: Int
    /// The unit.
    public let unit: Unit

    /// Creates a bucket length.
    ///
    /// - Precondition: `count >= 1`.
    public init(_ count: Int, _ unit: Unit) {
        precondition(count >= 1, "a bucket lasts at least one unit")
        self.count = count
        self.unit = unit
    }

    /// One calendar period of `unit` (``BucketUnit/day`` is one day).
    public init(_ unit: BucketUnit) {
        switch unit {
        case .hour: self.init(1, .hour)
        case .day: self.init(1, .day)
        case .week: self.init(1, .week)
        case .month: self.init(1, .month)
        case .year: self.init(1, .year)
        }
    }

    /// Parses `15m`, `6h`, `1d`, `2w`, `3mo`, `1y` (also `min`, `hr`, `day`, `week`, `month`, `year` and plurals).
    ///
    /// - Throws: ``StatisticsError/invalidBucketInterval(_:)`` for anything else, or a count of 0.
    public init(parsing text: String) throws {
        let trimmed = text.trimmingSpaces().lowercased()
        let digits = trimmed.prefix { $0.isASCII && $0.isNumber }
        let suffix = trimmed.dropFirst(digits.count).trimmingSpaces()
        let units: [String: Unit] = [
            "m": .minute, "min": .minute, "mins": .minute, "minute": .minute, "minutes": .minute,
            "h": .hour, "hr": .hour, "hrs": .hour, "hour": .hour, "hours": .hour,
            "d": .day, "day": .day, "days": .day,
            "w": .week, "wk": .week, "week": .week, "weeks": .week,
            "mo": .month, "month": .month, "months": .month,
            "y": .year, "yr": .year, "year": .year, "years": .year,
        ]
        guard digits.count <= 6, let count = Int(digits.isEmpty ? "1" : String(digits)), count >= 1,
              !(digits.isEmpty && suffix.count <= 2), let unit = units[suffix] else {
            throw StatisticsError.invalidBucketInterval(text)
        }
        self.init(count, unit)
    }

    /// The short form: `15m`, `1d`, `3mo`.
    public var description: String { "\(count)\(unit.suffix)" }

    /// The default anchor for a grid covering `date`: local midnight for minutes, hours and days, the start of
    /// the week (the calendar's `firstWeekday`) for weeks, the first of the month for one month, the first of
    /// January for several months (so `3mo` gives calendar quarters) and for years.
    public func defaultAnchor(for date: Date, calendar: GregorianCalendar) -> Date {
        switch unit {
        case .minute, .hour, .day: return calendar.startOfDay(for: date)
        case .week: return calendar.start(of: .week, for: date)
        case .month: return calendar.start(of: count == 1 ? .month : .year, for: date)
        case .year: return calendar.start(of: .year, for: date)
        }
    }

    /// The grid point `anchor + steps × self`: the start of bucket `steps` of a collection anchored at `anchor`
    /// (minutes and hours as elapsed time, other units as calendar steps in `calendar`).
    ///
    /// - Parameters:
    ///   - steps: How many buckets from the anchor (negative: before it).
    ///   - anchor: The grid's origin, such as ``defaultAnchor(for:calendar:)``.
    ///   - calendar: The calendar of calendar steps.
    /// - Returns: The point in time.
    public func point(_ steps: Int, from anchor: Date, calendar: GregorianCalendar) -> Date {
        guard let step = unit.calendarStep else {
            return anchor.addingTimeInterval(Double(steps) * Double(count) * (unit.elapsedSeconds ?? 0))
        }
        return calendar.adding(steps * count, step, to: anchor)
    }
}
