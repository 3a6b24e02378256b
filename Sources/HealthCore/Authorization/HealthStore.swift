/// The store as one source sees it: HealthKit's `HKHealthStore` for a source.
///
/// Every write is checked against the owner's decisions in `authorization.json`; reads of a type the source may
/// not read return only the samples it wrote itself, without saying so. The owner (``AuthorizationState/ownerSource``)
/// is allowed everything. ``JSONFileStore`` itself is the owner-level API: code that holds one directly acts as
/// the owner.
public struct HealthStore: SampleStore {
    /// The storage underneath.
    public let storage: JSONFileStore
    /// The source acting.
    public let source: String
    /// The types, for names in messages.
    public let catalogue: SampleTypeCatalogue
    private let state: AuthorizationState

    /// Opens the store for `source`, reading the current permissions.
    public init(storage: JSONFileStore, source: String, catalogue: SampleTypeCatalogue = .standard) throws {
        self.storage = storage
        self.source = source
        self.catalogue = catalogue
        state = source == AuthorizationState.ownerSource
            ? AuthorizationState() : try storage.document("authorization.json", default: AuthorizationState())
    }

    /// Whether this is the owner.
    public var isOwner: Bool { source == AuthorizationState.ownerSource }

    private func type(_ identifier: String) -> SampleType {
        if identifier == Workout.typeIdentifier { return Workout.sampleType }
        return catalogue.type(identifier: identifier) ?? .quantity(
            identifier, name: identifier, title: identifier, aggregation: .discreteArithmetic, unit: "count", examples: [])
    }

    /// Saves samples written by this source, all or nothing, stamped with the version and device the source
    /// registered with `auth request`.
    ///
    /// - Throws: ``AuthorizationError`` when the source may not write one of the types (nothing is saved).
    public func save(_ samples: [Sample]) throws {
        guard !isOwner else { return try storage.save(samples) }
        let identity = state.identity(of: source)
        var stamped = samples
        for index in stamped.indices {
            let sample = stamped[index]
            guard sample.source == source else { throw AuthorizationError.wrongSource(sample: sample.source, saving: source) }
            // As in HealthKit, a correlation needs permission for its members' types, never for its own.
            for identifier in sample.detail?.correlation?.members.map(\.typeIdentifier) ?? [sample.typeIdentifier] {
                try state.checkShare(source: source, type: type(identifier))
            }
            // Every sample carries the version and device the source registered, unless it has its own.
            stamped[index].sourceVersion = sample.sourceVersion ?? identity.version
            stamped[index].device = sample.device ?? identity.device
        }
        try storage.save(stamped)
    }

    /// Whether this source sees every sample of the type, or only its own.
    public func readsEverything(ofType identifier: String) -> Bool {
        if let correlation = CorrelationType.identified(identifier) {
            return correlation.readTypes.allSatisfy { state.mayRead(source: source, type: $0) }
        }
        return state.mayRead(source: source, type: identifier)
    }

    public func forEachSample(ofType identifier: String, overlapping interval: DateInterval,
                              _ body: (Sample) throws -> Void) throws {
        let everything = readsEverything(ofType: identifier)
        try storage.forEachSample(ofType: identifier, overlapping: interval) { sample in
            if everything || sample.source == source { try body(sample) }
        }
    }

    public func latestSamples(ofType identifier: String, overlapping interval: DateInterval, limit: Int) throws -> [Sample] {
        if readsEverything(ofType: identifier) {
            return try storage.latestSamples(ofType: identifier, overlapping: interval, limit: limit)
        }
        return Array(try samples(ofType: identifier, overlapping: interval).reversed().prefix(limit))
    }

    /// Changes since `anchor` that this source may see.
    public func changes(since anchor: ChangeAnchor, types: [String]? = nil, limit: Int? = nil) throws -> ChangeSet {
        var set = try storage.changes(since: anchor, types: types, limit: limit)
        if !isOwner {
            set.added = set.added.filter { readsEverything(ofType: $0.typeIdentifier) || $0.source == source }
            // A deletion is visible when the source could read the type, or when the sample was its own.
            set.deleted = set.deleted.filter { readsEverything(ofType: $0.typeIdentifier) || $0.source == source }
        }
        return set
    }

    /// The samples with these uuids that this source may delete (its own; the owner's: all).
    public func deletable(_ samples: [Sample]) -> [Sample] {
        isOwner ? samples : samples.filter { $0.source == source }
    }
}
