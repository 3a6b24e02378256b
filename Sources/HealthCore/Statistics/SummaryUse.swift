/// When a streaming sum can take a partition's summary instead of its lines: every hour of the summary that holds
/// samples the read takes lies wholly inside the read's interval and inside one bucket, and its unit is the output
/// unit (so values need no conversion). A summary cut by the range's start or end, or by a bucket's edge (a zone
/// whose offset is not whole hours, a bucket that starts inside an hour), is not taken: the read takes its lines.
struct SummaryUse: Sendable {
    /// The read's interval and the bucket edges (empty without buckets), in seconds since the reference date.
    let start: Double
    let end: Double
    let edges: [Double]
    let unit: HealthUnit

    init(interval: DateInterval, buckets: [Date], unit: HealthUnit) {
        start = interval.start.timeIntervalSinceReferenceDate
        end = interval.end.timeIntervalSinceReferenceDate
        edges = buckets.map(\.timeIntervalSinceReferenceDate)
        self.unit = unit
    }

    /// Whether `summary` can stand in for its partition's lines.
    func accepts(_ summary: PartitionSummary) -> Bool {
        guard !summary.slots.isEmpty || !summary.spans.isEmpty else { return true }
        guard HealthUnit.parse(summary.unit) == unit else { return false }
        var bucket = -1
        for slot in summary.slots {
            let slotStart = slot.start, slotEnd = slot.end
            if slotEnd < start || slotStart >= end { continue }
            // Samples that end where the range starts overlap it (and count in a bucket that starts before it).
            if slotEnd == start {
                if slot.endingSources != 0 { return false }
                continue
            }
            guard slotStart >= start, slotEnd <= end else { return false }
            guard !edges.isEmpty else { continue }
            if bucket < 0 || slotStart >= edges[bucket + 1] {
                guard let found = Self.interval(holding: slotStart, edges: edges) else { return false }
                bucket = found
            }
            guard slotEnd <= edges[bucket + 1] else { return false }
        }
        return true
    }

    /// The index `i` with `edges[i] <= time < edges[i + 1]`, or nil outside the edges.
    static func interval(holding time: Double, edges: [Double]) -> Int? {
        guard edges.count >= 2, time >= edges[0], time < edges[edges.count - 1] else { return nil }
        var low = 0, high = edges.count - 2
        while low < high {
            let middle = (low + high + 1) / 2
            if edges[middle] <= time { low = middle } else { high = middle - 1 }
        }
        return low
    }
}
