/// Errors in dates and times written as text (``ISODate/components(_:)``, ``GregorianCalendar/date(from:text:)``).
public enum TimeInputError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// Not a date or time that can be read.
    case malformed(String)
    /// Well-formed but does not exist (`2024-02-30`, `25:00`, a time skipped when clocks go forward).
    case impossible(String, reason: String)

    public var description: String {
        switch self {
        case let .malformed(text):
            return "The time '\(text)' is not understood; write it like '2024-06-01', '2024-06-01T08:30', '08:30', "
                + "'yesterday 22:30' or '-2h'."
        case let .impossible(text, reason):
            return "The time '\(text)' does not exist: \(reason)."
        }
    }

    public var errorDescription: String? { description }
}
