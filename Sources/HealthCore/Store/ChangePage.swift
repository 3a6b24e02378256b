/// The changes one call of ``JSONFileStore/changes(since:types:limit:)`` gathers while it reads the store: all of them,
/// or, with a limit, the `limit` with the lowest change numbers, kept in a heap of that size. So a page holds no more
/// changes than it returns, whatever the store holds.
struct ChangePage {
    /// A sample added, or a tombstone.
    enum Change {
        case added(Sample)
        case deleted(Tombstone)
    }

    /// At most this many changes (nil: all).
    let limit: Int?
    /// With a limit, a heap with the highest change number first; else in the order offered.
    private var kept: [(sequence: UInt64, change: Change)] = []
    /// Whether a change was left out for the limit.
    private(set) var isCut = false
    /// The most changes held at once.
    private(set) var mostHeld = 0

    init(limit: Int?) {
        self.limit = limit
        if let limit { kept.reserveCapacity(min(limit, 1 << 16)) }
    }

    /// Whether a change numbered `sequence` would be kept now, so a reader can skip what would not; one that would
    /// not is left out for the limit (the page is cut).
    mutating func admits(_ sequence: UInt64) -> Bool {
        guard let limit, kept.count >= limit, sequence > kept[0].sequence else { return true }
        isCut = true
        return false
    }

    /// Offers a change; with a limit it is kept when it is among the `limit` lowest numbers offered so far.
    mutating func offer(_ change: Change, sequence: UInt64) {
        guard let limit else {
            kept.append((sequence, change))
            mostHeld = kept.count
            return
        }
        if kept.count < limit {
            kept.append((sequence, change))
            siftUp(kept.count - 1)
            mostHeld = max(mostHeld, kept.count)
            return
        }
        isCut = true
        guard sequence < kept[0].sequence else { return }
        kept[0] = (sequence, change)
        siftDown(0)
    }

    /// The changes kept, in change order.
    func inChangeOrder() -> [(sequence: UInt64, change: Change)] {
        kept.sorted { $0.sequence < $1.sequence }
    }

    private mutating func siftUp(_ index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard kept[parent].sequence < kept[child].sequence else { return }
            kept.swapAt(parent, child)
            child = parent
        }
    }

    private mutating func siftDown(_ index: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1, right = left + 1
            var largest = parent
            if left < kept.count && kept[left].sequence > kept[largest].sequence { largest = left }
            if right < kept.count && kept[right].sequence > kept[largest].sequence { largest = right }
            guard largest != parent else { return }
            kept.swapAt(parent, largest)
            parent = largest
        }
    }
}
