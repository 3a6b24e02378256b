import HealthCore

/// Errors in ranges, periods and zone names as people type them (beside HealthCore's ``HealthCore/TimeInputError``
/// for a time that cannot be read or does not exist).
package enum TypedTimeError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// A range whose end is not after its start.
    case emptyRange(from: String, to: String)
    /// A zone name the system does not know.
    case unknownTimeZone(String)
    /// Not a period ``PeriodExpression`` reads.
    case unknownPeriod(String)
    /// A range of two times of day (`00:10-07:40`) that began before now and ends after it: still going on.
    case rangeNotOver(String, end: String, now: String)

    package var description: String {
        switch self {
        case let .emptyRange(from, to):
            return "The range from \(from) to \(to) is empty; '--to' must be after '--from'."
        case let .unknownTimeZone(name):
            return "Unknown time zone '\(name)'; use a name such as 'Europe/Paris', 'America/New_York' or 'UTC'."
        case let .unknownPeriod(text):
            return "The period '\(text)' is not understood; write it like '2024', '2024-03', '2024-Q1', '2024-W12', "
                + "'2024-03-18', 'last month', 'this week', 'last 7 days' or 'from 2024-03-01 to 2024-03-15' (see 'hkctl help periods')."
        case let .rangeNotOver(text, end, now):
            return "The range '\(text)' ends at \(end), after now (\(now)): it is still going on. Log it once it is "
                + "over, give the time it really ended, or name its day with --on DATE (or 'yesterday HH:MM-HH:MM')."
        }
    }

    package var errorDescription: String? { description }
}
