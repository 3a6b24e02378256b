/// What a cumulative statistic needs from one month partition, hour by hour, derived from its lines: a cache that
/// lets a long-range sum skip reading whole months (docs/STORE.md, "Derived files").
///
/// A summary is only ever built from a read of every line of the partition in which each line was in the writer's
/// plain shape and accepted (so a query that reads it instead of the lines checks what the lines' read would have
/// checked), for a partition whose samples use one unit, whose values are whole numbers from 0 to 2^53 (so sums of
/// them are exact in any order) and where each source names one device. It holds:
/// - ``slots``: per UTC hour, the samples that lie within it (start and end in the hour, an end exactly on the next
///   hour included; an instantaneous sample where it lies): their sum, count, and which sources gave them;
/// - ``spans``: every other sample (crossing an hour), individually, to be split as the lines' read splits it.
///
/// It names the partition and the file identities it was built from (the partition's and the type's tombstone
/// file's, whose deletions it applied); a summary whose names or identities differ from the files' now is ignored.
struct PartitionSummary: Equatable, Sendable {
    /// One hour's samples.
    struct Slot: Equatable, Sendable {
        /// Hours since 2001-01-01T00:00:00Z (the reference date): the slot is `[hour × 3600, (hour + 1) × 3600)`.
        var hour: Int32
        var count: UInt32
        /// The sum of the values: a whole number, exact.
        var sum: Double
        /// Bit `i` for each ``PartitionSummary/sources`` index `i` that gave a sample here.
        var sources: UInt64
        /// Bit `i` for each source that gave a sample here ending exactly at the end of the hour (such a sample
        /// touches a range that starts there).
        var endingSources: UInt64

        var start: Double { Double(hour) * 3600 }
        var end: Double { Double(hour) * 3600 + 3600 }
    }

    /// A sample that crosses an hour's end.
    struct Span: Equatable, Sendable {
        /// Seconds since the reference date, as `Date` keeps them.
        var start: Double
        var end: Double
        var value: Double
        var source: Int
    }

    /// The partition's path relative to the store.
    var partition: String
    var identity: FileIdentity
    var tombstones: FileIdentity
    /// The unit every sample is stored in.
    var unit: String
    /// The sources, each with the device its samples name (nil: none).
    var sources: [Source]
    /// Hours in increasing order, non-empty ones only.
    var slots: [Slot]
    var spans: [Span]

    /// The partition's samples in line order, each as its hour (its value alone) or its span: what a sum needs to
    /// add them one by one exactly as a read of the lines adds them. Kept in a file of its own beside the summary
    /// (`<month>.sequence`), read only when a bucket must be summed in that order (a sample split at its edge).
    struct Sequence: Equatable, Sendable {
        /// One sample: the hour of its slot and its value, or (``isSpan``) its index in ``PartitionSummary/spans``.
        struct Entry: Equatable, Sendable {
            var isSpan: Bool
            /// The hour (since the reference date) for a slot's sample, the span's index for a span.
            var index: Int32
            /// The value of a slot's sample (a span has its own).
            var value: Double
        }

        var partition: String
        var identity: FileIdentity
        var tombstones: FileIdentity
        var entries: [Entry]

        /// The first bytes of every sequence file, with its format version.
        static let magic = Array("hkctl-sequence 1\n".utf8)
    }

    struct Source: Equatable, Sendable {
        var name: String
        var device: String?
    }

    /// Partitions smaller than this (about fifty lines) get no summary: reading their lines costs about as much as
    /// reading one, and a light user's store stays free of derived files.
    static let minimumPartitionBytes: Int64 = 16_384
    /// At most this many sources (one bit each in a slot).
    static let maximumSources = 64
    /// Values and sums stay below this, so that every partial sum of whole numbers is exact.
    static let exactLimit = 4_503_599_627_370_496.0  // 2^52
    /// The first bytes of every summary file, with its format version.
    static let magic = Array("hkctl-summary 1\n".utf8)
}
