/// The samples of a list by their start, to find those that may lie inside or across a period without walking the
/// whole list for every period (``HAEWritePlan``'s settling of wide points, once a filter per point, was quadratic).
struct HAEStartIndex {
    /// Each sample's start and its place in the list, by start.
    private let byStart: [(start: Date, index: Int)]
    /// The longest sample's duration: one that ends after a time starts at most this long before it.
    let longest: TimeInterval

    init(_ samples: [Sample]) {
        byStart = samples.indices.map { (samples[$0].start, $0) }.sorted { $0.start < $1.start }
        longest = samples.reduce(0) { max($0, $1.end.timeIntervalSince($1.start)) }
    }

    /// The places of the samples that start from `low` through `high`, in the list's order.
    func places(startingFrom low: Date, through high: Date) -> [Int] {
        var first = 0, end = byStart.count
        while first < end {
            let middle = (first + end) / 2
            if byStart[middle].start < low { first = middle + 1 } else { end = middle }
        }
        var places: [Int] = []
        var next = first
        while next < byStart.count, byStart[next].start <= high {
            places.append(byStart[next].index)
            next += 1
        }
        return places.sorted()
    }

    /// The places of the samples that may lie inside or across `start..<end` (any that starts before `end` and may
    /// end after `start`), in the list's order; the caller's own test decides.
    func places(meeting start: Date, _ end: Date) -> [Int] {
        places(startingFrom: start.addingTimeInterval(-longest), through: end)
    }
}
