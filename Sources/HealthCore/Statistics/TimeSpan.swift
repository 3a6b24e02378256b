/// A half-open stretch of time `[start, end)`; `start == end` marks an instant.
struct TimeSpan: Hashable, Sendable {
    var start: Date
    var end: Date

    var seconds: TimeInterval { end.timeIntervalSince(start) }
    var isInstant: Bool { start == end }

    /// Seconds shared with `[from, to)`.
    func overlap(_ from: Date, _ to: Date) -> TimeInterval {
        max(0, min(end, to).timeIntervalSince(max(start, from)))
    }

    /// Whether an instant lies in `[from, to)`.
    static func contains(_ date: Date, _ from: Date, _ to: Date) -> Bool { date >= from && date < to }

    /// Disjoint, sorted spans covering `spans` (instants and empty spans left out).
    static func union(_ spans: [TimeSpan]) -> [TimeSpan] {
        var merged: [TimeSpan] = []
        for span in spans.sorted(by: { $0.start < $1.start }) where span.end > span.start {
            if let last = merged.last, span.start <= last.end {
                merged[merged.count - 1].end = max(last.end, span.end)
            } else {
                merged.append(span)
            }
        }
        return merged
    }

    /// Seconds of disjoint sorted `spans` inside `[from, to)`.
    static func covered(_ spans: [TimeSpan], from: Date, to: Date) -> TimeInterval {
        var total: TimeInterval = 0
        var index = firstIndex(endingAfter: from, in: spans)
        while index < spans.count && spans[index].start < to {
            total += spans[index].overlap(from, to)
            index += 1
        }
        return total
    }

    /// The first index of disjoint sorted `spans` whose end is after `date` (binary search).
    static func firstIndex(endingAfter date: Date, in spans: [TimeSpan]) -> Int {
        var low = 0, high = spans.count
        while low < high {
            let middle = (low + high) / 2
            if spans[middle].end <= date { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// The index of the bucket containing `date`, by binary search over sorted bucket starts.
func bucketIndex(of date: Date, in buckets: [Statistics]) -> Int? {
    guard let first = buckets.first, let last = buckets.last, date >= first.start, date < last.end else { return nil }
    var low = 0, high = buckets.count - 1
    while low < high {
        let middle = (low + high + 1) / 2
        if buckets[middle].start <= date { low = middle } else { high = middle - 1 }
    }
    return low
}

/// The indices of the buckets that `[start, end)` overlaps (an instant: the bucket containing it).
func bucketRange(from start: Date, to end: Date, in buckets: [Statistics]) -> Range<Int> {
    guard let first = buckets.first, let last = buckets.last else { return 0..<0 }
    if start == end {
        guard let index = bucketIndex(of: start, in: buckets) else { return 0..<0 }
        return index..<(index + 1)
    }
    guard end > first.start, start < last.end else { return 0..<0 }
    let lower = bucketIndex(of: max(start, first.start), in: buckets) ?? 0
    var upper = lower
    while upper < buckets.count && buckets[upper].start < end { upper += 1 }
    return lower..<upper
}
