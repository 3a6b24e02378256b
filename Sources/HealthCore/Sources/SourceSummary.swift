/// One source of one type: how many samples it wrote and when, like a row of HealthKit's `HKSourceQuery` with
/// counts.
public struct SourceSummary: Equatable, Sendable {
    /// The type's HealthKit identifier.
    public var typeIdentifier: String
    /// The source name.
    public var source: String
    /// The default-order class of the source.
    public var kind: SourceKind
    /// 1 for the highest priority of the type's sources.
    public var rank: Int
    /// Whether the user placed the source in the type's priority list (otherwise it is in the default order).
    public var isRanked: Bool
    /// How many samples of the type it wrote.
    public var sampleCount: Int
    /// The earliest start of its samples.
    public var first: Date
    /// The latest end of its samples.
    public var last: Date

    /// Every source of `type` in `store`, highest priority first.
    ///
    /// - Parameters:
    ///   - type: The type.
    ///   - store: Where samples live.
    ///   - priority: The type's priority list.
    ///   - interval: Only samples overlapping this interval (default: all).
    /// - Throws: Store errors.
    public static func summaries(
        of type: SampleType, in store: SampleStore, priority: SourcePriority,
        interval: DateInterval = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
    ) throws -> [SourceSummary] {
        var bySource: [String: (count: Int, first: Date, last: Date, device: String?)] = [:]
        try store.forEachSample(ofType: type.identifier, overlapping: interval) { sample in
            if var entry = bySource[sample.source] {
                entry.count += 1
                entry.first = min(entry.first, sample.start)
                entry.last = max(entry.last, sample.end)
                if entry.device == nil { entry.device = sample.device }
                bySource[sample.source] = entry
            } else {
                bySource[sample.source] = (1, sample.start, sample.end, sample.device)
            }
        }
        let order = priority.ranked(bySource.map { (name: $0.key, device: $0.value.device) })
        let listed = Set(priority.order)
        return order.enumerated().map { index, name in
            let entry = bySource[name]!
            return SourceSummary(
                typeIdentifier: type.identifier, source: name, kind: SourceKind.classify(name: name, device: entry.device),
                rank: index + 1, isRanked: listed.contains(name), sampleCount: entry.count, first: entry.first,
                last: entry.last)
        }
    }
}
