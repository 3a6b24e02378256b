/// Errors in dates and times written as text (``ISODate/components(_:)``, ``GregorianCalendar/date(from:text:)``).
public enum TimeInputError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// Not a date or time that can be read.
    case malformed(String)
    /// Well-formed but does not exist (`2024-02-30`, `25:00`, a time skipped when clocks go forward).
    case impossible(String, reason: String)

    public var description: String {
        switch self {
        case let .malformed(text):
            return "The time '\(text)' is not understood; write it as an ISO 8601 date or time, like '2024-06-01', "
                + "'2024-06-01T08:30' or '2024-06-01T08:30:00+02:00'."
        case let .impossible(text, reason):
            return "The time '\(text)' does not exist: \(reason)."
        }
    }

    public var errorDescription: String? { description }
}
