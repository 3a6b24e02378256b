/// Takes the ``QuantityReading``s of a read, one at a time.
protocol QuantityReadingConsumer {
    /// Whether ``consume(_:names:)`` uses a reading's uuid (``QuantityReading/uuidKey()``); when not, readings
    /// read on other threads leave it out.
    var needsUUIDs: Bool { get }

    /// One visible sample; `names` resolves its unit and source.
    mutating func consume(_ reading: QuantityReading, names: ReadingNames) throws

    /// About `count` more readings are coming (a partition's worth): room for them can be made at once.
    mutating func expect(_ count: Int)

    /// Which partitions the read needs and whether it may take summaries instead of their lines.
    var readPlan: ReadPlan { get }

    /// A partition's samples as its summary (only for a summary ``readPlan`` accepts), with its sequence when the
    /// plan asks for sequences.
    mutating func consume(_ summary: PartitionSummary, sequence: PartitionSummary.Sequence?, names: ReadingNames) throws

    /// The readings (or the summary) of the partition at `file` come next.
    mutating func begin(partition file: String)

    /// A visible sample of the type that overlaps the read's window but holds no quantity (a generic record), in its
    /// place among the readings. Statistics count it in no figure (but rank its source); a consumer that counts every
    /// sample takes it here. `names` is the read's, to which its source can be added.
    mutating func consumeOther(_ sample: Sample, names: ReadingNames) throws
}

extension QuantityReadingConsumer {
    var needsUUIDs: Bool { true }
    mutating func expect(_ count: Int) {}
    var readPlan: ReadPlan { ReadPlan() }
    mutating func begin(partition file: String) {}
    mutating func consumeOther(_ sample: Sample, names: ReadingNames) throws {}
    mutating func consume(_ summary: PartitionSummary, sequence: PartitionSummary.Sequence?, names: ReadingNames) throws {
        preconditionFailure("a consumer whose read plan takes no summaries was given one")
    }
}

/// A store that can hand over quantity samples as light ``QuantityReading``s, for streaming statistics.
protocol QuantityReadingSource {
    /// Hands every visible quantity sample of the type that overlaps `interval` to `consumer`, in store order.
    /// Samples that are not quantities (generic records) are left out.
    ///
    /// - Returns: The units and sources the readings referred to.
    func forEachQuantityReading<Consumer: QuantityReadingConsumer>(
        ofType identifier: String, overlapping interval: DateInterval, into consumer: inout Consumer) throws -> ReadingNames
}

extension JSONFileStore: QuantityReadingSource {
    func forEachQuantityReading<Consumer: QuantityReadingConsumer>(
        ofType identifier: String, overlapping interval: DateInterval, into consumer: inout Consumer
    ) throws -> ReadingNames {
        try forEachQuantityReading(ofType: identifier, overlapping: interval, threads: nil, into: &consumer)
    }

    /// ``forEachQuantityReading(ofType:overlapping:into:)`` reading partitions on `threads` threads (nil: as many
    /// as ``PartitionReadings/threads(forPartitions:)`` picks). The readings reach `consumer` in store order, the
    /// same however many threads read.
    func forEachQuantityReading<Consumer: QuantityReadingConsumer>(
        ofType identifier: String, overlapping interval: DateInterval, threads: Int?, into consumer: inout Consumer
    ) throws -> ReadingNames {
        let names = ReadingNames()
        let plan = consumer.readPlan
        try withReadAccess { limits in
            let tombstones = (plan.accepts == nil && !plan.takesReadings) || !limits.isEmpty
                ? nil : try tombstoneIdentity(ofType: identifier)
            let deleted = try deletedUUIDs(ofType: identifier, limits: limits)
            let partitions = try partitions(ofType: identifier, overlapping: interval, plan: plan).map {
                (file: try storeFile($0), limit: limits[$0])
            }
            let summaries = try summaryAccess(ofType: identifier, tombstonesBefore: tombstones, plan: plan)
            let threads = threads ?? PartitionReadings.threads(forPartitions: partitions.count)
            let window = plan.window ?? interval
            var built: [(summary: PartitionSummary, sequence: PartitionSummary.Sequence)] = []
            var builtReadings: [StoredReadings] = []
            try PartitionReadings.read(partitions, threads: threads, window: window, deleted: deleted, codec: codec,
                                       keepsUUIDs: consumer.needsUUIDs, summaries: summaries) { part in
                consumer.begin(partition: part.file)
                if let summary = part.built { built.append(summary) }
                if let readings = part.builtReadings { builtReadings.append(readings) }
                if let summary = part.summary {
                    return try consumer.consume(summary, sequence: part.sequence, names: names)
                }
                consumer.expect(part.readings.count)
                // Each partition's own unit and source indices, mapped to the read's on first use, in line order.
                var units = [Int?](repeating: nil, count: part.names.units.count)
                var sources = [Int?](repeating: nil, count: part.names.sources.count)
                var damage: LineDamage?
                var codec = self.codec
                var others = part.others.makeIterator()
                var other = others.next()
                for position in 0...part.readings.count {
                    // The lines the positional reader left, in their place: decoded in full, in order.
                    while let line = other, line.position == position {
                        other = others.next()
                        let sample = try line.bytes.withUnsafeBufferPointer {
                            try decodeLine($0, number: line.number, in: part.file, damage: &damage, codec: &codec)
                        }
                        // Damage followed by another line (even one outside the range) is corruption, as when
                        // every line after it is decoded.
                        if let damage, line.isFollowed {
                            throw StoreError.corrupt(part.file, line: damage.line, reason: damage.reason)
                        }
                        guard let sample, sample.overlaps(window),
                              !deleted.hides(sample, sequence: codec.lastSequence) else { continue }
                        guard let quantity = sample.value.quantity else {
                            try consumer.consumeOther(sample, names: names)
                            continue
                        }
                        let reading = QuantityReading(
                            start: sample.start, end: sample.end, value: quantity.value,
                            unit: names.unit(named: quantity.unit.unitString),
                            source: names.addSource(sample.source, device: sample.device), uuid: UUIDKey(sample.uuid),
                            line: nil, isPeriodTotal: MergedSample.isPeriodTotal(sample))
                        try consumer.consume(reading, names: names)
                    }
                    guard position < part.readings.count else { break }
                    if let damage { throw StoreError.corrupt(part.file, line: damage.line, reason: damage.reason) }
                    var reading = part.readings[position]
                    if let unit = units[reading.unit] { reading.unit = unit } else {
                        let unit = names.unit(named: part.names.units[reading.unit])
                        units[reading.unit] = unit
                        reading.unit = unit
                    }
                    if let source = sources[reading.source] { reading.source = source } else {
                        let source = names.addSource(part.names.sources[reading.source],
                                                     device: part.names.devices[reading.source])
                        sources[reading.source] = source
                        reading.source = source
                    }
                    try consumer.consume(reading, names: names)
                }
                try damage?.throwUnlessTorn(part.file)
            }
            // New summaries and readings are kept only once the whole read succeeded: a read that fails leaves the store as it was.
            for (summary, sequence) in built { summaries?.save(summary, sequence: sequence) }
            for readings in builtReadings { summaries?.save(readings) }
        }
        return names
    }
}

extension HealthStore: QuantityReadingSource {
    /// Passes on only the readings this source may see.
    private struct Visible<Inner: QuantityReadingConsumer>: QuantityReadingConsumer {
        var inner: Inner
        let everything: Bool
        let source: String

        var needsUUIDs: Bool { inner.needsUUIDs }
        mutating func expect(_ count: Int) { inner.expect(count) }
        /// A summary holds every source's samples: only a source that may see them all takes it.
        var readPlan: ReadPlan {
            var plan = inner.readPlan
            if !everything { plan.accepts = nil }
            return plan
        }
        mutating func consume(_ summary: PartitionSummary, sequence: PartitionSummary.Sequence?, names: ReadingNames) throws {
            try inner.consume(summary, sequence: sequence, names: names)
        }
        mutating func begin(partition file: String) { inner.begin(partition: file) }
        mutating func consumeOther(_ sample: Sample, names: ReadingNames) throws {
            if everything || sample.source == source { try inner.consumeOther(sample, names: names) }
        }

        mutating func consume(_ reading: QuantityReading, names: ReadingNames) throws {
            if everything || names.sources[reading.source] == source { try inner.consume(reading, names: names) }
        }
    }

    func forEachQuantityReading<Consumer: QuantityReadingConsumer>(
        ofType identifier: String, overlapping interval: DateInterval, into consumer: inout Consumer
    ) throws -> ReadingNames {
        var visible = Visible(inner: consumer, everything: try readsEverything(ofType: identifier), source: source)
        defer { consumer = visible.inner }
        return try storage.forEachQuantityReading(ofType: identifier, overlapping: interval, into: &visible)
    }
}
