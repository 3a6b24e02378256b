/// Why a workout's route could not be written as GPX.
public enum GPXError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The workout has no route (no locations were recorded or imported); payload: its UUID.
    case noRoute(String)
    /// The UUID names a sample that is not a workout; payload: the UUID.
    case notAWorkout(String)

    public var description: String {
        switch self {
        case let .noRoute(uuid):
            return "The workout \(uuid) has no route (no locations were recorded or imported with it); choose a workout "
                + "that has one."
        case let .notAWorkout(uuid):
            return "The sample \(uuid) is not a workout; a route belongs to a workout: give a workout's uuid."
        }
    }
}
