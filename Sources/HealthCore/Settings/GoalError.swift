/// Errors from setting a daily goal (`hkctl goal`).
public enum GoalError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The type has no daily total to aim for (weight, heart rate, mindful sessions).
    case notApplicable(type: String)
    /// The goal is zero, negative or not finite.
    case notPositive(String)

    public var description: String {
        switch self {
        case let .notApplicable(type):
            return "A goal is a daily total: '\(type)' has none; set goals for water, steps, another cumulative type or sleep."
        case let .notPositive(text):
            return "The goal '\(text)' must be more than zero."
        }
    }

    public var errorDescription: String? { description }
}
