import HealthCore

/// Errors from setting a daily goal (``Goals/set(_:to:catalogue:)``).
package enum GoalError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The type has no daily total to aim for (weight, heart rate, mindful sessions).
    case notApplicable(type: String)
    /// The goal is zero, negative or not finite.
    case notPositive(String)
    /// The goal is more than a day can hold; payload: the text and the largest goal, with its unit.
    case tooLarge(String, maximum: String)

    package var description: String {
        switch self {
        case let .notApplicable(type):
            return "A goal is a daily total: '\(type)' has none; set goals for water, steps, another cumulative type or sleep."
        case let .notPositive(text):
            return "The goal '\(text)' must be more than zero."
        case let .tooLarge(text, maximum):
            return "The goal '\(text)' is more than a day can hold; give at most \(maximum)."
        }
    }

    package var errorDescription: String? { description }
}
