
/// Samples sorted by start, found by the windows they touch: two binary searches bound the candidates, instead of
/// reading every sample for every window (ten years of nights against ten years of sleep samples read 285 M).
///
/// A sample touches `[from, to)` when it starts before `to` and ends after `from`, or starts at `from` (a sample
/// of no length at a window's start belongs to it).
struct SamplesByStart {
    /// The samples, in ``Sample/chronological(_:_:)`` order.
    let samples: [Sample]
    /// `latestReach[i]`: the latest start or end of `samples[0...i]` (a long sample can end after later ones; a
    /// line edited by hand can end before it starts, and still touches a window that starts at its start).
    private let latestReach: [Date]

    /// Indexes `samples`, which must be in start order (``Sample/chronological(_:_:)`` sorts so).
    init(sorted samples: [Sample]) {
        self.samples = samples
        var latestReach: [Date] = []
        latestReach.reserveCapacity(samples.count)
        var latest = Date.distantPast
        for sample in samples {
            latest = max(latest, sample.start, sample.end)
            latestReach.append(latest)
        }
        self.latestReach = latestReach
    }

    /// Calls `body` with the index of each sample that touches `[from, to)`, in order.
    func forEachTouching(from: Date, to: Date, _ body: (Int) -> Void) {
        // Every sample before `low` starts and ends before `from`; every one from `high` on starts at or after `to`.
        // A sample that touches the window ends after `from` or starts at it, so it lies in between.
        let low = firstIndex { latestReach[$0] >= from }
        let high = firstIndex { samples[$0].start >= to }
        var index = low
        while index < high {
            let sample = samples[index]
            if sample.end > from || sample.start == from { body(index) }
            index += 1
        }
    }

    /// Whether any sample touches `[from, to)`.
    func anyTouches(from: Date, to: Date) -> Bool {
        var found = false
        forEachTouching(from: from, to: to) { _ in found = true }
        return found
    }

    /// The first index whose `holds` is true, for a condition false up to some index and true from it on.
    private func firstIndex(where holds: (Int) -> Bool) -> Int {
        var low = 0, high = samples.count
        while low < high {
            let middle = (low + high) / 2
            if holds(middle) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
