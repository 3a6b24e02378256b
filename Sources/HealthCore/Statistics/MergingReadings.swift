/// The readings of a cumulative type gathered for merging sources, when a streaming statistics read meets a
/// second source: each reading's times, uuid, value in the output unit, source and period mark, without building a
/// ``Sample``. ``mergedSamples(names:priority:)`` hands them to the merger exactly as the general path would, or gives up
/// where the answer could differ.
struct MergingReadings: QuantityReadingConsumer {
    /// One reading, in ``ChronologicallyOrdered`` order by start, end and uuid.
    struct Entry: ChronologicallyOrdered {
        var start: Date
        var end: Date
        var uuid: UUIDKey
        var value: Double
        var source: Int
        var isPeriodTotal: Bool
        /// The place in store order.
        var position: Int

        static func < (a: Entry, b: Entry) -> Bool {
            if a.start != b.start { return a.start < b.start }
            if a.end != b.end { return a.end < b.end }
            if a.uuid != b.uuid { return a.uuid < b.uuid }
            return a.position < b.position
        }

        static func == (a: Entry, b: Entry) -> Bool { a.position == b.position }
    }

    var converter: UnitConverter
    private(set) var entries: [Entry] = []
    /// Per source (by index in the read's names): the store position of its first reading, -1 when none came.
    private var firstPositions: [Int] = []

    init(unit: HealthUnit) { converter = UnitConverter(unit: unit) }

    /// Every line is read: merging needs each sample and its period mark, which summaries and stored readings
    /// do not keep.
    var readPlan: ReadPlan { ReadPlan() }

    mutating func expect(_ count: Int) {
        let needed = entries.count + count
        if needed > entries.capacity { entries.reserveCapacity(max(needed, 2 * entries.capacity)) }
    }

    mutating func consume(_ reading: QuantityReading, names: ReadingNames) throws {
        let value = try converter.value(of: reading, names: names)
        while firstPositions.count <= reading.source { firstPositions.append(-1) }
        if firstPositions[reading.source] < 0 { firstPositions[reading.source] = entries.count }
        entries.append(Entry(start: reading.start, end: reading.end, uuid: reading.uuidKey(), value: value,
                             source: reading.source, isPeriodTotal: reading.isPeriodTotal, position: entries.count))
    }

    /// A sample without a quantity is one the general path counts among the sources: it answers.
    mutating func consumeOther(_ sample: Sample, names: ReadingNames) throws { throw StreamingStatistics.GiveUp() }

    /// The sources that gave a reading, in index order.
    var sources: [Int] { firstPositions.indices.filter { firstPositions[$0] >= 0 } }

    /// The readings in time order as the merger's samples (named by `names`), and the sources ranked by
    /// `priority`, as the general path builds them from the decoded samples.
    ///
    /// A source is ranked by the device of its first sample in time order; the read names each source's device
    /// from its first sample in store order. Where the two differ and the device could decide the rank (a source
    /// neither listed nor known by its name), the general path answers; so it does where two sources' names are one
    /// to Swift (``ReadingNames/holdsEquivalentSources(_:)``).
    ///
    /// - Throws: ``StreamingStatistics/GiveUp``.
    mutating func mergedSamples(names: ReadingNames, priority: SourcePriority)
        throws -> (samples: [MergedSample], order: [String]) {
        if names.holdsEquivalentSources(sources) { throw StreamingStatistics.GiveUp() }
        if !entries.indices.dropFirst().allSatisfy({ !(entries[$0] < entries[$0 - 1]) }) {
            entries.sortNearlySorted()
            var checked = [Bool](repeating: false, count: firstPositions.count)
            for entry in entries where !checked[entry.source] {
                checked[entry.source] = true
                if entry.position != firstPositions[entry.source] && priority.needsDevice(of: names.sources[entry.source]) {
                    throw StreamingStatistics.GiveUp()
                }
            }
        }
        let order = priority.ranked(sources.map { (name: names.sources[$0], device: names.devices[$0]) })
        var samples: [MergedSample] = []
        samples.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() {
            samples.append(MergedSample(index: index, start: entry.start, end: entry.end, source: names.sources[entry.source],
                                        value: entry.value, isPeriodTotal: entry.isPeriodTotal))
        }
        return (samples, order)
    }
}
