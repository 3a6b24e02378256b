/// Errors of authorization, with HealthKit's distinctions (`errorAuthorizationNotDetermined` = 5,
/// `errorAuthorizationDenied` = 4).
public enum AuthorizationError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The source was never granted or denied writing this type.
    case notDetermined(source: String, type: String)
    /// The owner denied the source writing this type.
    case denied(source: String, type: String)
    /// The type can never be written by a source (characteristics, types Apple computes).
    case cannotShare(String)
    /// A request named no type at all.
    case emptyRequest
    /// Only the owner may do what was asked; payload: the acting source, and what it asked to do, as a phrase that
    /// follows "Only the owner may" ("change permissions", "export the store").
    case ownerOnly(source: String, action: String = "change permissions")
    /// The request was recorded; the owner must answer it. Payload: the source and the type names asked for
    /// writing and for reading.
    case pendingApproval(source: String, share: [String], read: [String])
    /// A sample claims another source than the one saving it.
    case wrongSource(sample: String, saving: String)
    /// A client asked for the permissions file as a plain document; payload: its name.
    case privateDocument(String)
    /// A source tried to delete a sample another source saved; payload: the sample's uuid and source, the deleter.
    case notOwnSample(uuid: String, sampleSource: String, source: String)

    /// HealthKit's error code for this case, where it has one.
    public var healthKitCode: Int? {
        switch self {
        case .notDetermined, .pendingApproval: return 5
        case .denied: return 4
        case .cannotShare, .emptyRequest, .wrongSource: return 3
        case .ownerOnly, .privateDocument, .notOwnSample: return 4
        }
    }

    public var description: String {
        switch self {
        case let .notDetermined(source, type):
            return "Source '\(source)' may not write \(type) yet (authorization not determined); the owner can allow it with HealthStore.decideAuthorization."
        case let .denied(source, type):
            return "Source '\(source)' was denied writing \(type) (authorization denied); only the owner can change that, with HealthStore.decideAuthorization."
        case let .cannotShare(type):
            return "\(type) cannot be written by a source: it is a characteristic or a value Apple computes; ask to read it instead."
        case .emptyRequest:
            return "Name at least one type to share or to read."
        case let .ownerOnly(source, action):
            return "Only the owner may \(action), not source '\(source)'; act as the owner (a HealthStore opened with the owner's source)."
        case let .pendingApproval(source, share, read):
            var names: [String] = []
            for name in share + read where !names.contains(name) { names.append(name) }
            return "Source '\(source)' asked to use \(names.joined(separator: ", ")); the owner must answer with HealthStore.decideAuthorization."
        case let .wrongSource(sample, saving):
            return "A sample from source '\(sample)' cannot be saved by source '\(saving)'."
        case let .notOwnSample(uuid, sampleSource, deleter):
            return "Source '\(deleter)' cannot delete sample \(uuid): source '\(sampleSource)' saved it, and a source "
                + "deletes only its own samples; the owner can delete it."
        case let .privateDocument(name):
            return "'\(name)' holds the owner's permission decisions and is not a plain document; use HealthStore's "
                + "authorization API (requestAuthorization, authorizationStatus, and for the owner decideAuthorization)."
        }
    }

    public var errorDescription: String? { description }
}
