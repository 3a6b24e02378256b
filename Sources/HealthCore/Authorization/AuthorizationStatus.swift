/// Whether a source may write (share) a type, with HealthKit's names and raw values (`HKAuthorizationStatus`).
public enum AuthorizationStatus: Int, Codable, Sendable, CaseIterable {
    /// The owner has not decided yet.
    case notDetermined = 0
    /// The owner said no.
    case sharingDenied = 1
    /// The owner said yes.
    case sharingAuthorized = 2

    /// HealthKit's case name.
    public var name: String {
        switch self {
        case .notDetermined: return "notDetermined"
        case .sharingDenied: return "sharingDenied"
        case .sharingAuthorized: return "sharingAuthorized"
        }
    }
}

/// Whether asking again would show the owner anything new (`HKAuthorizationRequestStatus`).
public enum AuthorizationRequestStatus: Int, Codable, Sendable {
    case unknown = 0
    /// At least one type has never been decided.
    case shouldRequest = 1
    /// Every type asked about has been decided.
    case unnecessary = 2

    public var name: String {
        switch self {
        case .unknown: return "unknown"
        case .shouldRequest: return "shouldRequest"
        case .unnecessary: return "unnecessary"
        }
    }
}
