import Foundation

/// A calendar unit that statistics can be grouped by. Buckets follow the calendar: a day across a DST
/// change lasts 23 or 25 hours and is still one bucket.
public enum BucketUnit: String, CaseIterable, Sendable {
    case hour, day, week, month, year

    var component: Calendar.Component {
        switch self {
        case .hour: return .hour
        case .day: return .day
        case .week: return .weekOfYear
        case .month: return .month
        case .year: return .year
        }
    }

    /// The bucket boundaries covering `interval`: the calendar units that intersect it, clipped to it.
    ///
    /// - Returns: `count + 1` increasing instants; bucket `i` is `[result[i], result[i + 1])`.
    public func boundaries(covering interval: DateInterval, calendar: Calendar) -> [Date] {
        guard let first = calendar.dateInterval(of: component, for: interval.start)?.start else {
            return [interval.start, interval.end]
        }
        var boundaries = [interval.start]
        var index = 1
        while true {
            guard let next = calendar.date(byAdding: component, value: index, to: first), next > first else { break }
            if next >= interval.end { break }
            if next > interval.start { boundaries.append(next) }
            index += 1
        }
        boundaries.append(interval.end)
        return boundaries
    }
}
