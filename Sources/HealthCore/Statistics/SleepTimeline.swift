/// One stage per moment of the night, with sources merged: wherever several sleep samples (asleep stages or
/// awake) overlap, one of them wins.
///
/// The winner is the sample of the highest-priority source; within one source, the most specific value wins:
/// awake, then deep, REM, core, then unspecified asleep (so `awake` inside a long `asleep` sample is awake time,
/// and stage samples inside an unspecified one give their stage). `inBed` samples are not part of the timeline.
struct SleepTimeline {
    /// A stretch where one sample wins.
    struct Segment {
        var span: TimeSpan
        /// Index into the samples given.
        var winner: Int
    }

    /// Disjoint, sorted.
    private(set) var segments: [Segment] = []
    /// Per sample: the stretches where another sample won, with the winner's index.
    private(set) var losses: [[(span: TimeSpan, winner: Int)]]
    /// The samples' times, values and ranks, in the order given.
    let entries: [SleepEntry]

    /// Builds the timeline of the samples `entries` stand for (``SleepEntry/entries(_:ranks:)``: sleep samples of any
    /// value; only asleep and awake ones take part), each winner named by its index there.
    init(entries: [SleepEntry]) {
        self.entries = entries
        losses = Array(repeating: [], count: entries.count)
        var events: [(time: Date, index: Int, isStart: Bool)] = []
        for (index, entry) in entries.enumerated() where entry.end > entry.start {
            guard SleepTimeline.specificity(of: entry.raw) != nil else { continue }
            events.append((entry.start, index, true))
            events.append((entry.end, index, false))
        }
        events.sort { $0.time < $1.time }
        func key(_ index: Int) -> (Int, Int, Int) {
            let entry = entries[index]
            return (entry.rank, -(SleepTimeline.specificity(of: entry.raw) ?? 0), index)
        }
        var active: [Int] = []
        var position = 0
        while position < events.count {
            let time = events[position].time
            while position < events.count && events[position].time == time {
                let event = events[position]
                if event.isStart { active.append(event.index) } else { active.removeAll { $0 == event.index } }
                position += 1
            }
            guard position < events.count, !active.isEmpty else { continue }
            let span = TimeSpan(start: time, end: events[position].time)
            let winner = active.min { key($0) < key($1) }!
            if let last = segments.last, last.winner == winner, last.span.end == span.start {
                segments[segments.count - 1].span.end = span.end
            } else {
                segments.append(Segment(span: span, winner: winner))
            }
            for loser in active where loser != winner {
                if let last = losses[loser].last, last.winner == winner, last.span.end == span.start {
                    losses[loser][losses[loser].count - 1].span.end = span.end
                } else {
                    losses[loser].append((span, winner))
                }
            }
        }
    }

    /// How specific a raw value is (higher wins within a source): awake 5, deep 4, REM 3, core 2, unspecified 1;
    /// nil for a value that takes no part (in bed, or none).
    static func specificity(of raw: Int) -> Int? {
        switch raw {
        case 2: return 5
        case 4: return 4
        case 5: return 3
        case 3: return 2
        case 1: return 1
        default: return nil
        }
    }

    /// Seconds of `[from, to)` where the winning value is one of `raws`.
    func seconds(of raws: Set<Int>, from: Date, to: Date) -> TimeInterval {
        var total: TimeInterval = 0
        var low = 0, high = segments.count
        while low < high {
            let middle = (low + high) / 2
            if segments[middle].span.end <= from { low = middle + 1 } else { high = middle }
        }
        var index = low
        while index < segments.count && segments[index].span.start < to {
            if raws.contains(entries[segments[index].winner].raw) {
                total += segments[index].span.overlap(from, to)
            }
            index += 1
        }
        return total
    }

    /// Seconds of `[from, to)` where `index` is the winner.
    func secondsWon(by index: Int, from: Date, to: Date) -> TimeInterval {
        let entry = entries[index]
        let inside = entry.span.overlap(from, to)
        let lost = losses[index].reduce(0) { $0 + $1.span.overlap(from, to) }
        guard SleepTimeline.specificity(of: entry.raw) != nil else { return 0 }
        return max(0, inside - lost)
    }

    /// The asleep raw values (unspecified, core, deep, REM), as the catalogue marks them.
    static let asleepValues = Set(CategoryValue.sleepAnalysis.filter(\.countsAsAsleep).map(\.rawValue))
    /// The awake raw value.
    static let awakeValue = 2
    /// The in-bed raw value.
    static let inBedValue = 0
}
