/// What the sleep figures read of one sample: its times, its category value and its source's rank, copied out once
/// so that the figures never copy a whole ``Sample`` (its strings and metadata retained and released) or look a
/// source's rank up by its name.
struct SleepEntry {
    var start: Date
    var end: Date
    /// The category raw value; -1 for a sample without one.
    var raw: Int
    /// The rank of the sample's source, 0 highest (`Int.max` for a source the ranks do not hold).
    var rank: Int

    /// The entries of `samples`, in their order; a run of one source's samples looks its rank up once.
    static func entries(_ samples: [Sample], ranks: [String: Int]) -> [SleepEntry] {
        var entries: [SleepEntry] = []
        entries.reserveCapacity(samples.count)
        var previous: (source: String, rank: Int)?
        for sample in samples {
            var entry = SleepEntry(start: sample.start, end: sample.end, raw: sample.value.categoryRawValue ?? -1, rank: 0)
            if let previous, previous.source == sample.source {
                entry.rank = previous.rank
            } else {
                entry.rank = ranks[sample.source] ?? Int.max
                previous = (sample.source, entry.rank)
            }
            entries.append(entry)
        }
        return entries
    }

    var span: TimeSpan { TimeSpan(start: start, end: end) }
}
