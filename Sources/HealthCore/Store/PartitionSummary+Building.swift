#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension PartitionSummary {
    /// The summary of a partition and its sequence from what a read of all its lines found, or nil when the
    /// partition cannot be summarised exactly (see ``PartitionSummary``).
    ///
    /// - Parameters:
    ///   - readings: Every visible sample of the partition, in line order, with unit and source indices into `names`.
    ///   - names: The units and sources the readings refer to; each source's device is the one its samples name.
    static func build(partition: String, identity: FileIdentity, tombstones: FileIdentity,
                      readings: [QuantityReading], names: ReadingNames) -> (PartitionSummary, Sequence)? {
        guard names.sources.count <= maximumSources else { return nil }
        var unit: Int?
        var slots: [Slot] = []
        var spans: [Span] = []
        var entries: [Sequence.Entry] = []
        entries.reserveCapacity(readings.count)
        var total = 0.0
        for reading in readings {
            if let unit { guard reading.unit == unit else { return nil } } else { unit = reading.unit }
            let value = reading.value
            guard value >= 0, value < exactLimit, value == value.rounded(.towardZero) else { return nil }
            total += value
            guard total < exactLimit else { return nil }
            let start = reading.start.timeIntervalSinceReferenceDate, end = reading.end.timeIntervalSinceReferenceDate
            guard let hour = hour(containing: start) else { return nil }
            let slotEnd = Double(hour) * 3600 + 3600
            guard start == end || (start < end && end <= slotEnd) else {
                entries.append(Sequence.Entry(isSpan: true, index: Int32(spans.count), value: 0))
                spans.append(Span(start: start, end: end, value: value, source: reading.source))
                continue
            }
            entries.append(Sequence.Entry(isSpan: false, index: hour, value: value))
            let bit: UInt64 = 1 << UInt64(reading.source)
            let ending = start < end && end == slotEnd ? bit : 0
            // Lines are nearly in time order: the slot is almost always the last one or near it.
            var index = slots.count
            while index > 0 && slots[index - 1].hour > hour { index -= 1 }
            if index > 0 && slots[index - 1].hour == hour {
                slots[index - 1].count += 1
                slots[index - 1].sum += value
                slots[index - 1].sources |= bit
                slots[index - 1].endingSources |= ending
            } else {
                slots.insert(Slot(hour: hour, count: 1, sum: value, sources: bit, endingSources: ending), at: index)
            }
        }
        guard names.parsedUnits.indices.contains(unit ?? 0) || unit == nil else { return nil }
        let unitName = unit.map { names.units[$0] } ?? names.units.first ?? ""
        let summary = PartitionSummary(
            partition: partition, identity: identity, tombstones: tombstones, unit: unitName,
            sources: names.sources.indices.map { Source(name: names.sources[$0], device: names.devices[$0]) },
            slots: slots, spans: spans)
        return (summary, Sequence(partition: partition, identity: identity, tombstones: tombstones, entries: entries))
    }

    /// The hour (since the reference date) whose slot holds `time`, or nil outside the hours a slot can name.
    static func hour(containing time: Double) -> Int32? {
        guard time.isFinite else { return nil }
        var hour = (time / 3600).rounded(.down)
        // The division rounds: make sure the hour's slot holds the time.
        if hour * 3600 > time { hour -= 1 }
        if hour * 3600 + 3600 <= time { hour += 1 }
        guard hour >= Double(Int32.min), hour <= Double(Int32.max - 1) else { return nil }
        return Int32(hour)
    }
}
