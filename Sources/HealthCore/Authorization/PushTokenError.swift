/// Why a push token could not be made or revoked.
public enum PushTokenError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The source already has a token; payload: its name.
    case exists(String)
    /// The source has no token; payload: its name.
    case notFound(String)
    /// The owner's name was given: the owner writes directly and needs no token.
    case ownerName(String)

    public var description: String {
        switch self {
        case let .exists(name):
            return "'\(name)' already has a push token; revoke it first, then make a new one."
        case let .notFound(name):
            return "'\(name)' has no push token; the token list shows the names that have one."
        case let .ownerName(name):
            return "'\(name)' is the owner's own name; a pushing program needs a name of its own (such as 'iphone')."
        }
    }

    public var errorDescription: String? { description }
}
