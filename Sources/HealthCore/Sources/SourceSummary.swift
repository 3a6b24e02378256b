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
        var tally = SourceTally()
        if type.kind == .quantity, let readings = store as? QuantityReadingSource {
            // Quantity lines are read by the statistics' reader (and its stored readings): no Sample is built.
            let names = try readings.forEachQuantityReading(ofType: type.identifier, overlapping: interval, into: &tally)
            tally.name(with: names)
        } else {
            try store.forEachSample(ofType: type.identifier, overlapping: interval) { tally.add($0) }
        }
        let bySource = tally.bySource
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

/// Counts the samples of one type by source, with the earliest start, the latest end and a device each source's samples
/// name (its kind is classified by it): for readings the device of the source's first line, the one a statistic over
/// the same range ranks sources by; for samples read in full the first device one names.
private struct SourceTally: QuantityReadingConsumer {
    typealias Entry = (count: Int, first: Date, last: Date, device: String?)

    /// By source name.
    private(set) var bySource: [String: Entry] = [:]
    /// Readings' tallies by their index in the read's ``ReadingNames``, named once the read is done.
    private var byIndex: [Entry?] = []

    var needsUUIDs: Bool { false }

    /// Every reading is counted one by one: a partition's stored readings can stand in for its lines. A listing
    /// keeps none of its own (a month of steps would add 44 bytes a sample to the store for it alone).
    var readPlan: ReadPlan { .takingStoredReadingsKeepingNone }

    mutating func add(_ sample: Sample) {
        add(source: sample.source, start: sample.start, end: sample.end, device: sample.device)
    }

    private mutating func add(source: String, start: Date, end: Date, device: String?) {
        if var entry = bySource[source] {
            entry.count += 1
            entry.first = min(entry.first, start)
            entry.last = max(entry.last, end)
            if entry.device == nil { entry.device = device }
            bySource[source] = entry
        } else {
            bySource[source] = (1, start, end, device)
        }
    }

    mutating func consume(_ reading: QuantityReading, names: ReadingNames) throws {
        let index = reading.source
        if index < byIndex.count, var entry = byIndex[index] {
            entry.count += 1
            if reading.start < entry.first { entry.first = reading.start }
            if reading.end > entry.last { entry.last = reading.end }
            byIndex[index] = entry
        } else {
            while byIndex.count <= index { byIndex.append(nil) }
            byIndex[index] = (1, reading.start, reading.end, names.devices[index])
        }
    }

    mutating func consumeOther(_ sample: Sample, names: ReadingNames) throws { add(sample) }

    /// Folds the readings' tallies into ``bySource`` by their sources' names in `names`.
    mutating func name(with names: ReadingNames) {
        for (index, entry) in byIndex.enumerated() {
            guard let entry else { continue }
            let name = names.sources[index]
            if let other = bySource[name] {
                bySource[name] = (entry.count + other.count, min(entry.first, other.first), max(entry.last, other.last),
                                  entry.device ?? other.device)
            } else {
                bySource[name] = entry
            }
        }
        byIndex = []
    }
}
