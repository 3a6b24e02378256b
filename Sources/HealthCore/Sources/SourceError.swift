/// Errors from source priority lists.
public enum SourceError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// A source named twice in one priority list; payload: the name.
    case duplicateSource(String)
    /// An empty source name in a priority list.
    case emptySourceName
    /// A priorities document written by a newer version; payload: its version and the newest this build reads.
    case newerVersion(Int, supported: Int)

    public var description: String {
        switch self {
        case let .duplicateSource(name):
            return "The source '\(name)' is named twice; give each source once, highest priority first."
        case .emptySourceName:
            return "A source name is empty; give each source's name as the store's sources list it."
        case let .newerVersion(version, supported):
            return "The source priorities are version \(version), newer than the version \(supported) this version of HealthCore reads; upgrade HealthCore."
        }
    }

    public var errorDescription: String? { description }
}
