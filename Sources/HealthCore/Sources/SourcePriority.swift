/// The order in which sources count for one type, highest first, like the list under Health → a type → Data
/// Sources & Access.
///
/// When several sources cover the same stretch of time, the highest one's samples count there (see
/// docs/STATISTICS.md). Sources named in ``order`` come first, in that order; every other source follows in the
/// default order: by ``SourceKind`` (wearable, phone, app, manual), then by name.
///
/// Invariant: ``order`` has no duplicates and no empty names.
public struct SourcePriority: Hashable, Sendable {
    /// The sources the user ranked, highest first.
    public let order: [String]

    /// No ranking chosen: every source in the default order.
    public static let automatic = SourcePriority(uncheckedOrder: [])

    /// Creates a priority list.
    ///
    /// - Parameter order: Source names, highest priority first.
    /// - Throws: ``SourceError/duplicateSource(_:)``, ``SourceError/emptySourceName``, or ``TextError/sourceName(_:)``
    ///   for a name ``TextRules`` refuses.
    public init(_ order: [String]) throws {
        var seen: Set<String> = []
        for name in order {
            if name.isEmpty { throw SourceError.emptySourceName }
            try TextRules.checkSourceName(name)
            if !seen.insert(name).inserted { throw SourceError.duplicateSource(name) }
        }
        self.order = order
    }

    init(uncheckedOrder order: [String]) { self.order = order }

    /// The sources of `samples`, highest priority first.
    public func ranked(sourcesOf samples: [Sample]) -> [String] {
        var devices: [String: String?] = [:]
        // A run of samples of one source is looked up once: its first sample is the one that can name the device.
        var previous: String?
        for index in samples.indices {
            let source = samples[index].source
            if source == previous { continue }
            previous = source
            if devices[source] == nil { devices[source] = samples[index].device }
        }
        return ranked(devices.map { (name: $0.key, device: $0.value) })
    }

    /// `sources` (with a device description each, if known), highest priority first.
    public func ranked(_ sources: [(name: String, device: String?)]) -> [String] {
        let listed = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        let keyed = sources.map { source in
            (name: source.name, listed: listed[source.name], kind: SourceKind.classify(name: source.name, device: source.device))
        }
        return keyed.sorted { a, b in
            switch (a.listed, b.listed) {
            case let (x?, y?): return x < y
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil):
                if a.kind != b.kind { return a.kind < b.kind }
                let (la, lb) = (a.name.lowercased(), b.name.lowercased())
                return la != lb ? la < lb : a.name < b.name
            }
        }.map(\.name)
    }

    /// Whether the rank of source `name` can depend on its device description: it is not listed, and its name alone
    /// does not tell its ``SourceKind``.
    func needsDevice(of name: String) -> Bool {
        !order.contains(name) && SourceKind.classify(name: name) == .app
    }

    /// A rank per source of `samples` (0 = highest), for merging.
    func ranks(sourcesOf samples: [Sample]) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: ranked(sourcesOf: samples).enumerated().map { ($1, $0) })
    }
}
