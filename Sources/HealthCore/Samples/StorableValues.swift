/// The dates and numbers a store's lines can hold, checked before anything is written (``TextRules/check(_:)``
/// checks these first; metadata numbers are checked with the rest of the metadata,
/// ``TextRules/metadataProblem(key:value:)``), so that nothing saved can make a later read fail.
///
/// - Dates: instants from 1900-01-01 00:00 UTC up to (not including) 3000-01-01 00:00 UTC, the span every query's
///   "all time" covers. Written in any zone (offsets up to ±18 hours), they read back as dates of years 1899 to
///   3000. A NaN or infinite date is refused.
/// - Numbers: finite. JSON has no NaN or infinity, so such a number would make its line unreadable.
enum StorableValues {
    /// The first instant kept: 1900-01-01 00:00:00 UTC, in seconds since 1970.
    static let earliestUnixSeconds: Int64 = -2_208_988_800
    /// The first instant no longer kept: 3000-01-01 00:00:00 UTC, in seconds since 1970.
    static let endUnixSeconds: Int64 = 32_503_680_000

    /// Whether an instant given in whole seconds since 1970 is kept.
    @inline(__always)
    static func contains(unixSeconds seconds: Int64) -> Bool {
        seconds >= earliestUnixSeconds && seconds < endUnixSeconds
    }

    /// Whether `date` is kept (false for NaN and infinities).
    static func contains(_ date: Date) -> Bool {
        let seconds = date.timeIntervalSince1970
        return seconds >= Double(earliestUnixSeconds) && seconds < Double(endUnixSeconds)
    }

    /// Why `sample` cannot be stored because of a date or a number in it, or nil when it can.
    static func problem(in sample: Sample) -> String? {
        if let problem = dateProblem(sample.start, "start") ?? dateProblem(sample.end, "end") ?? dateProblem(sample.created, "creation date") {
            return problem
        }
        switch sample.detail {
        case let .workout(detail)?: return problem(in: detail)
        case let .route(locations)?: return problem(in: locations)
        default: return nil
        }
    }

    private static func number(_ value: Double?, _ what: String) -> String? {
        guard let value, !value.isFinite else { return nil }
        return "its \(what) is \(value), which JSON cannot hold; give a finite number"
    }

    private static func problem(in detail: WorkoutDetail) -> String? {
        if let problem = number(detail.duration, "duration") ?? number(detail.totalEnergyBurned?.value, "total energy burned")
            ?? number(detail.totalDistance?.value, "total distance") {
            return problem
        }
        for event in detail.events + detail.activities.flatMap(\.events) {
            if let problem = dateProblem(event.date, "workout event's date") ?? number(event.duration, "workout event's duration") {
                return problem
            }
        }
        for statistic in detail.statistics + detail.activities.flatMap(\.statistics) {
            for (value, what) in [(statistic.sum, "sum"), (statistic.average, "average"), (statistic.minimum, "minimum"),
                                  (statistic.maximum, "maximum")] {
                if let problem = number(value, "\(statistic.typeIdentifier) statistic's \(what)") { return problem }
            }
            if let problem = dateProblem(statistic.start, "statistic's start") ?? dateProblem(statistic.end, "statistic's end") {
                return problem
            }
        }
        for activity in detail.activities {
            if let problem = dateProblem(activity.start, "activity's start") ?? activity.end.flatMap({ dateProblem($0, "activity's end") })
                ?? number(activity.duration, "activity's duration") {
                return problem
            }
        }
        return nil
    }

    private static func problem(in locations: [WorkoutRoute.Location]) -> String? {
        for point in locations {
            if let problem = dateProblem(point.timestamp, "route point's time") { return problem }
            for (value, what) in [(point.latitude, "latitude"), (point.longitude, "longitude"), (point.altitude, "altitude"),
                                  (point.speed, "speed"), (point.course, "course"), (point.horizontalAccuracy, "horizontal accuracy"),
                                  (point.verticalAccuracy, "vertical accuracy"), (point.speedAccuracy, "speed accuracy"),
                                  (point.courseAccuracy, "course accuracy")] as [(Double?, String)] {
                if let problem = number(value, "route point's \(what)") { return problem }
            }
        }
        return nil
    }

    private static func dateProblem(_ date: Date, _ what: String) -> String? {
        guard !contains(date) else { return nil }
        let seconds = date.timeIntervalSince1970
        // Years 1 to 9999 are shown; other instants have no date to show.
        let shown = seconds > -62_135_596_800 && seconds < 253_402_300_800 ? ISODate.format(date, in: .gmt) : "\(seconds) s from 1970"
        return "its \(what) (\(shown)) is outside the dates the store keeps, 1900-01-01 to 2999-12-31 UTC; check the year"
    }
}
