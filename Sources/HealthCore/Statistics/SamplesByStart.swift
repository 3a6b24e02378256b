
/// Samples sorted by start, found by the windows they touch: two binary searches bound the candidates, instead of
/// reading every sample for every window (ten years of nights against ten years of sleep samples read 285 M).
///
/// A sample touches `[from, to)` when it starts before `to` and ends after `from`, or starts at `from` (a sample
/// of no length at a window's start belongs to it).
struct SamplesByStart {
    /// The samples' starts and ends, in ``Sample/chronological(_:_:)`` order.
    private let starts: [Date]
    private let ends: [Date]
    /// `latestReach[i]`: the latest start or end of the first `i + 1` samples (a long sample can end after later
    /// ones; a line edited by hand can end before it starts, and still touches a window that starts at its start).
    private let latestReach: [Date]

    /// Indexes `samples`, which must be in start order (``Sample/chronological(_:_:)`` sorts so).
    init(sorted samples: [Sample]) {
        self.init(starts: samples.map(\.start), ends: samples.map(\.end))
    }

    /// Indexes the samples `entries` stand for, which must be in start order.
    init(sorted entries: [SleepEntry]) {
        self.init(starts: entries.map(\.start), ends: entries.map(\.end))
    }

    /// Indexes samples by their starts and ends, which must be in start order.
    init(starts: [Date], ends: [Date]) {
        self.starts = starts
        self.ends = ends
        var latest = Date.distantPast
        latestReach = zip(starts, ends).map { start, end in
            latest = max(latest, start, end)
            return latest
        }
    }

    /// Calls `body` with the index of each sample that touches `[from, to)`, in order.
    func forEachTouching(from: Date, to: Date, _ body: (Int) -> Void) {
        // Every sample before `low` starts and ends before `from`; every one from `high` on starts at or after `to`.
        // A sample that touches the window ends after `from` or starts at it, so it lies in between.
        for index in candidates(from: from, to: to) where ends[index] > from || starts[index] == from { body(index) }
    }

    /// The indices between which lies every sample that starts before `to` and starts or ends at or after `from`:
    /// every sample that touches `[from, to)` or overlaps it by ``Sample/overlaps(_:)``.
    func candidates(from: Date, to: Date) -> Range<Int> {
        let low = firstIndex { latestReach[$0] >= from }
        let high = firstIndex { starts[$0] >= to }
        return low..<max(low, high)
    }

    /// Whether any sample touches `[from, to)`.
    func anyTouches(from: Date, to: Date) -> Bool {
        var found = false
        forEachTouching(from: from, to: to) { _ in found = true }
        return found
    }

    /// The first index whose `holds` is true, for a condition false up to some index and true from it on.
    private func firstIndex(where holds: (Int) -> Bool) -> Int {
        var low = 0, high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if holds(middle) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
