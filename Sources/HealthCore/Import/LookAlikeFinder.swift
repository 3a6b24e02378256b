/// Samples that look alike: the same type, source, start, end and value (or sync identifier), stored as samples of
/// their own because they differ in creation date, source version, device or metadata, or because the export held
/// the same record more than once (an app that saved a sample twice).
///
/// HealthKit keeps such samples, and so does the import (``RecordIdentity``); this lists them so a person can
/// delete what an app wrote twice (by uuid). Nothing is removed here.
public struct LookAlikeGroup: Sendable {
    /// The samples, in the order the store holds them (at least two).
    public let samples: [Sample]

    public var typeIdentifier: String { samples[0].typeIdentifier }
    public var source: String { samples[0].source }
    public var start: Date { samples[0].start }
    public var end: Date { samples[0].end }
}

/// Finds ``LookAlikeGroup``s in a store, a month of a type at a time, so memory stays bounded by the largest month.
public struct LookAlikeFinder: Sendable {
    private let store: SampleStore
    private let catalogue: SampleTypeCatalogue

    /// Creates a finder over `store`, whose types `catalogue` describes.
    public init(store: SampleStore, catalogue: SampleTypeCatalogue = .standard) {
        self.store = store
        self.catalogue = catalogue
    }

    /// The look-alike groups of `types` (every stored type when nil), by type, then start.
    ///
    /// - Throws: The store's errors.
    public func groups(types: [String]? = nil) throws -> [LookAlikeGroup] {
        var identity = RecordIdentity(catalogue: catalogue)
        var found: [LookAlikeGroup] = []
        for type in try types ?? StoreContents.typeIdentifiers(in: store) {
            let threshold = JSONFileStore.longSampleThreshold
            guard let layout = try StoreContents.months(ofType: type, in: store) else {
                found += try groups(ofType: type, in: DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd),
                                     identity: &identity) { _ in true }
                continue
            }
            var typeGroups: [LookAlikeGroup] = []
            for month in layout.months {
                let interval = DateInterval(start: IdentityIndex.startOfMonth(month), end: IdentityIndex.startOfMonth(month + 1))
                // Each sample once: in the month it starts in, or (longer ones, in long.jsonl) in the pass below.
                typeGroups += try groups(ofType: type, in: interval, identity: &identity) {
                    $0.start >= interval.start && $0.start < interval.end && $0.end.timeIntervalSince($0.start) <= threshold
                }
            }
            if layout.hasLong {
                typeGroups += try groups(ofType: type, in: DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd),
                                         identity: &identity) {
                    $0.end.timeIntervalSince($0.start) > threshold
                }
            }
            found += typeGroups.sorted { $0.start < $1.start }
        }
        return found
    }

    private func groups(ofType type: String, in interval: DateInterval, identity: inout RecordIdentity,
                        where include: (Sample) -> Bool) throws -> [LookAlikeGroup] {
        var byIdentity: [UUID: [Sample]] = [:]
        var order: [UUID] = []
        try store.forEachSample(ofType: type, overlapping: interval) { sample in
            guard include(sample) else { return }
            let key = identity.legacyUUID(for: sample)
            if byIdentity[key] == nil { order.append(key) }
            byIdentity[key, default: []].append(sample)
        }
        return order.compactMap { key in
            let samples = byIdentity[key]!
            return Set(samples.map(\.uuid)).count > 1 ? LookAlikeGroup(samples: samples) : nil
        }
    }
}
