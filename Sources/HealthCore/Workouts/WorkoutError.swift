import TextSupport

/// Errors about a workout: one typed by a person, or samples associated with one.
public enum WorkoutError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// No activity type has this name; payload: the name and the nearest known name.
    case unknownActivity(String, suggestion: String?)
    /// The duration is not like `45min`, `1h30m` or `1.5h`.
    case badDuration(String)
    /// The duration is zero or longer than allowed.
    case durationOutOfRange(String, maximumHours: Int)
    /// A duration was given together with a start and an end, and they disagree.
    case durationMismatch(duration: String, interval: String)
    /// Samples were to be associated with a workout the store does not hold (never saved, or deleted); payload: its
    /// uuid.
    case workoutNotSaved(UUID)
    /// A sample to associate with a workout looks saved (it has a source) but the store does not hold it (deleted
    /// since); payload: its uuid.
    case associatedSampleNotFound(UUID)
    /// A workout cannot be associated with a workout (itself or another); payload: its uuid.
    case workoutAssociatedWithWorkout(UUID)

    public var description: String {
        switch self {
        case let .unknownActivity(text, suggestion):
            return "Unknown workout activity '\(text)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ";")
                + " WorkoutActivityType lists every activity."
        case let .badDuration(text):
            return "The duration '\(text)' is not a duration; write it like '45min', '1h30m', '1.5h' or '90m'."
        case let .durationOutOfRange(text, maximumHours):
            return "The duration '\(text)' must be above zero and at most \(maximumHours) hours."
        case let .durationMismatch(duration, interval):
            return "The duration \(duration) is longer than the time from the start to the end (\(interval)); give one of them, or a duration that fits (pauses make it shorter)."
        case let .workoutNotSaved(uuid):
            return "The workout \(uuid.lowercasedText) is not in the store (never saved, or deleted); save the workout before adding samples to it."
        case let .associatedSampleNotFound(uuid):
            return "The sample \(uuid.lowercasedText) is not in the store any more (deleted); add samples that are stored, or new ones."
        case let .workoutAssociatedWithWorkout(uuid):
            return "The workout \(uuid.lowercasedText) cannot be added to a workout; add quantity, category or other samples."
        }
    }

    public var errorDescription: String? { description }
}
