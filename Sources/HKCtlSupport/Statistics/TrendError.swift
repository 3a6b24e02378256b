import HealthCore

/// Errors from computing a ``Trend``.
package enum TrendError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// A moving-average window outside 1…365 days; payload: the number given.
    case invalidWindow(Int)

    package var description: String {
        switch self {
        case let .invalidWindow(days):
            return "The moving-average window of \(days) days is out of range; use 1 to 365 days."
        }
    }

    package var errorDescription: String? { description }
}
