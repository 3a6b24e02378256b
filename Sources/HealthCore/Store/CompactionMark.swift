/// What `compaction.json` records of the tombstones compaction has dropped: the highest change number dropped (an
/// anchor below it cannot be told of those deletions) and how many compactions have dropped any, so an anchor taken
/// after one compaction is known to be older than the next.
struct CompactionMark: Hashable, Sendable {
    /// The highest change number of a dropped tombstone (0: none dropped).
    var droppedThrough: UInt64 = 0
    /// How many compactions have dropped tombstones (0 in a store compacted only by versions that did not count).
    var generation: UInt64 = 0

    /// The document's text.
    var json: String { "{\"tombstonesDroppedThrough\":\(droppedThrough),\"generation\":\(generation)}\n" }
}
