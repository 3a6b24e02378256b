/// Which partitions a streaming read needs, and whether it may take their summaries instead of their lines.
struct ReadPlan {
    /// Whether a summary can stand in for a partition's lines in this read; nil: read every partition's lines.
    var accepts: (@Sendable (PartitionSummary) -> Bool)?
    /// Whether a summary stands in only with its sequence (see ``PartitionSummary/Sequence``).
    var needsSequences = false
    /// Whether partitions' stored readings (``StoredReadings``) may stand in for their lines (a read that takes
    /// every reading one by one, as a discrete statistic does).
    var takesReadings = false
    /// Whether a read that takes stored readings keeps new ones for the partitions it reads in full without them
    /// (false: it takes those that exist and leaves the store's derived files as they are).
    var keepsReadings = true
    /// Read only these partitions (full paths) of those the read's interval needs; nil: all of them.
    var only: Set<String>?
    /// Take only the samples overlapping this part of the read's interval (the partitions are still those of the
    /// whole interval); nil: the whole interval.
    var window: DateInterval?

    /// Every reading one by one, the stored readings a statistic kept taken where they exist and none kept for this
    /// read alone (a listing or a workout's heart rate would grow the store by 44 bytes a sample for itself).
    static var takingStoredReadingsKeepingNone: ReadPlan {
        var plan = ReadPlan()
        plan.takesReadings = true
        plan.keepsReadings = false
        return plan
    }
}
