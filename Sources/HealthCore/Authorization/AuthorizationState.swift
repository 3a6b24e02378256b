/// Who may write and read which types: the owner's decisions per source, and an audit log of every change.
///
/// Stored as `authorization.json` in the store. The owner (source ``ownerSource``, the person at the terminal)
/// may do everything. Every other source starts at ``AuthorizationStatus/notDetermined`` for every type.
public struct AuthorizationState: Codable, Equatable, Sendable {
    /// The built-in source of the person at the terminal.
    public static let ownerSource = "hkctl"

    /// One source's permissions.
    public struct Permissions: Codable, Equatable, Sendable {
        /// Share (write) status per type identifier; missing means not determined.
        public var share: [String: AuthorizationStatus] = [:]
        /// Read decision per type identifier; missing means not decided.
        public var read: [String: Bool] = [:]
        /// Types the source has asked about (shown as not determined until the owner decides).
        public var requested: [String] = []
        /// Optional identity details the source gave.
        public var bundleIdentifier: String?
        public var version: String?
        public var device: String?

        /// Permissions with nothing decided.
        public init() {}
    }

    /// One change, for the audit log.
    public struct Event: Codable, Equatable, Sendable {
        public var at: Date
        /// Who made the change (the owner, or the source that asked).
        public var actor: String
        public var source: String
        /// `request`, `grant`, `deny` or `revoke`.
        public var action: String
        public var share: [String]
        public var read: [String]
    }

    public var sources: [String: Permissions] = [:]
    public var log: [Event] = []

    /// Creates an empty state.
    public init() {}

    /// The share status of `type` for `source`.
    public func shareStatus(source: String, type: String) -> AuthorizationStatus {
        if source == AuthorizationState.ownerSource { return .sharingAuthorized }
        return sources[source]?.share[type] ?? .notDetermined
    }

    /// Whether `source` may read other sources' samples of `type` (never revealed to the source itself).
    public func mayRead(source: String, type: String) -> Bool {
        source == AuthorizationState.ownerSource || sources[source]?.read[type] == true
    }

    /// Whether asking for these types would show the owner anything new.
    public func requestStatus(source: String, share: [String], read: [String]) -> AuthorizationRequestStatus {
        if source == AuthorizationState.ownerSource { return .unnecessary }
        let permissions = sources[source] ?? Permissions()
        let undecided = share.contains { (permissions.share[$0] ?? .notDetermined) == .notDetermined }
            || read.contains { permissions.read[$0] == nil }
        return undecided ? .shouldRequest : .unnecessary
    }

    /// Throws unless `source` may write `type`.
    ///
    /// - Throws: ``AuthorizationError/notDetermined(source:type:)`` or ``AuthorizationError/denied(source:type:)``.
    public func checkShare(source: String, type: ObjectType) throws {
        switch shareStatus(source: source, type: type.identifier) {
        case .sharingAuthorized: return
        case .notDetermined: throw AuthorizationError.notDetermined(source: source, type: type.name)
        case .sharingDenied: throw AuthorizationError.denied(source: source, type: type.name)
        }
    }

    /// Whether no source may ever write `type`: a characteristic (``CharacteristicType``, the person's own value, set
    /// by the owner), a correlation type (as in HealthKit, a source asks for its members' types, which saving a
    /// correlation needs), or one of the ``unshareableTypes`` Apple computes.
    public static func isUnshareable(_ type: ObjectType) -> Bool {
        type.kind == .characteristic || type.kind == .correlation || unshareableTypes.contains(type.identifier)
    }

    /// Types Apple computes itself, which HealthKit never lets an app write.
    public static let unshareableTypes: Set<String> = [
        "HKQuantityTypeIdentifierAppleExerciseTime", "HKQuantityTypeIdentifierAppleStandTime",
        "HKQuantityTypeIdentifierAppleMoveTime", "HKQuantityTypeIdentifierWalkingHeartRateAverage",
        "HKQuantityTypeIdentifierAppleSleepingWristTemperature", "HKCategoryTypeIdentifierAppleStandHour",
    ]

    /// Who a source says it is: a bundle-like identifier, a version and a device, each optional.
    public struct Identity: Equatable, Sendable {
        public var bundleIdentifier: String?
        public var version: String?
        public var device: String?

        /// Creates an identity.
        public init(bundleIdentifier: String? = nil, version: String? = nil, device: String? = nil) {
            self.bundleIdentifier = bundleIdentifier
            self.version = version
            self.device = device
        }
    }

    /// The identity a source registered with its last request.
    public func identity(of source: String) -> Identity {
        let permissions = sources[source]
        return Identity(bundleIdentifier: permissions?.bundleIdentifier, version: permissions?.version,
                        device: permissions?.device)
    }

    /// Records a request; nothing is granted by it.
    ///
    /// - Parameter identity: Details the source gives about itself; fields left nil keep what was known.
    /// - Throws: ``AuthorizationError/cannotShare(_:)`` for unshareable types, ``AuthorizationError/emptyRequest``,
    ///   ``TextError/sourceName(_:)`` for a source name ``TextRules`` refuses.
    public mutating func request(source: String, share: [ObjectType], read: [ObjectType], identity: Identity = Identity(),
                                 at date: Date) throws {
        try TextRules.checkSourceName(source)
        guard !share.isEmpty || !read.isEmpty else { throw AuthorizationError.emptyRequest }
        if let bad = share.first(where: AuthorizationState.isUnshareable) {
            throw AuthorizationError.cannotShare(bad.name)
        }
        var permissions = sources[source] ?? Permissions()
        permissions.bundleIdentifier = identity.bundleIdentifier ?? permissions.bundleIdentifier
        permissions.version = identity.version ?? permissions.version
        permissions.device = identity.device ?? permissions.device
        for identifier in (share + read).map(\.identifier) where !permissions.requested.contains(identifier) {
            permissions.requested.append(identifier)
        }
        sources[source] = permissions
        log.append(Event(at: date, actor: source, source: source, action: "request",
                         share: share.map(\.identifier), read: read.map(\.identifier)))
    }

    /// The owner's answer: allow (`true`) or deny (`false`) writing `share` and reading `read`.
    ///
    /// - Throws: ``AuthorizationError``, or ``TextError/sourceName(_:)`` for a source name ``TextRules`` refuses.
    public mutating func decide(source: String, allow: Bool, share: [ObjectType], read: [ObjectType], at date: Date) throws {
        try TextRules.checkSourceName(source)
        guard !share.isEmpty || !read.isEmpty else { throw AuthorizationError.emptyRequest }
        if allow, let bad = share.first(where: AuthorizationState.isUnshareable) {
            throw AuthorizationError.cannotShare(bad.name)
        }
        var permissions = sources[source] ?? Permissions()
        for type in share { permissions.share[type.identifier] = allow ? .sharingAuthorized : .sharingDenied }
        for type in read { permissions.read[type.identifier] = allow }
        sources[source] = permissions
        log.append(Event(at: date, actor: AuthorizationState.ownerSource, source: source, action: allow ? "grant" : "deny",
                         share: share.map(\.identifier), read: read.map(\.identifier)))
    }

    /// Forgets the owner's decisions for `types` (all when nil): back to not determined.
    public mutating func revoke(source: String, types: [ObjectType]?, at date: Date) {
        var permissions = sources[source] ?? Permissions()
        let identifiers = types.map { $0.map(\.identifier) } ?? Array(Set(permissions.share.keys).union(permissions.read.keys)).sorted()
        for identifier in identifiers {
            permissions.share[identifier] = nil
            permissions.read[identifier] = nil
        }
        permissions.requested.removeAll { identifiers.contains($0) }
        sources[source] = permissions
        log.append(Event(at: date, actor: AuthorizationState.ownerSource, source: source, action: "revoke",
                         share: identifiers, read: identifiers))
    }
}
