import Foundation

/// Takes the ``QuantityReading``s of a read, one at a time.
protocol QuantityReadingConsumer {
    /// One visible sample; `names` resolves its unit and source.
    mutating func consume(_ reading: QuantityReading, names: ReadingNames) throws
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
        let names = ReadingNames()
        try withReadAccess { limits in
            let deleted = try deletedUUIDs(ofType: identifier, limits: limits)
            var reader = PartitionLineReader()
            var parser = QuantityLineParser()
            for partition in try partitions(ofType: identifier, overlapping: interval) {
                let file = path + "/" + partition
                var damage: LineDamage?
                try reader.forEachLine(in: file, limit: limits[partition]) { line, lineNumber in
                    if damage == nil {
                        switch parser.parse(line, names: names, window: interval) {
                        case .outsideWindow: return
                        case .unreadable: break
                        case .fields(let fields):
                            let source: Int
                            if let known = fields.sourceIndex { source = known } else {
                                // The first line of a source: decode it whole once, for the source's device.
                                let sample = try? codec.decode(line)
                                source = names.addSource(String(decoding: UnsafeBufferPointer(rebasing: line[fields.source]), as: UTF8.self),
                                                         device: sample?.device)
                            }
                            var reading = QuantityReading(start: fields.start, end: fields.end, value: fields.value,
                                                          unit: fields.unit, source: source, uuid: nil, line: line)
                            if !deleted.isEmpty {
                                let key = reading.uuidKey()
                                reading.uuid = key
                                if deleted.hides(key, source: names.sources[source], sequence: fields.sequence) { return }
                            }
                            try consumer.consume(reading, names: names)
                            return
                        }
                    }
                    guard let sample = try decodeLine(line, number: lineNumber, in: file, damage: &damage),
                          let quantity = sample.value.quantity, sample.overlaps(interval),
                          !deleted.hides(sample, sequence: codec.lastSequence) else { return }
                    let reading = QuantityReading(
                        start: sample.start, end: sample.end, value: quantity.value,
                        unit: names.unit(named: quantity.unit.unitString),
                        source: names.addSource(sample.source, device: sample.device), uuid: UUIDKey(sample.uuid),
                        line: nil)
                    try consumer.consume(reading, names: names)
                }
                try damage?.throwUnlessTorn(file)
            }
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

        mutating func consume(_ reading: QuantityReading, names: ReadingNames) throws {
            if everything || names.sources[reading.source] == source { try inner.consume(reading, names: names) }
        }
    }

    func forEachQuantityReading<Consumer: QuantityReadingConsumer>(
        ofType identifier: String, overlapping interval: DateInterval, into consumer: inout Consumer
    ) throws -> ReadingNames {
        var visible = Visible(inner: consumer, everything: readsEverything(ofType: identifier), source: source)
        defer { consumer = visible.inner }
        return try storage.forEachQuantityReading(ofType: identifier, overlapping: interval, into: &visible)
    }
}
