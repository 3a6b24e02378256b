/// What a store instance's reads did, counted for tests: that a read decodes each tombstone once however many
/// partitions it reads, and that a page of changes holds no more samples than the page. Counted once per file or
/// query, never per line, so the count costs nothing measurable.
struct ReadCounts: Equatable {
    /// Tombstone lines decoded, over all reads of this instance.
    var tombstoneLinesDecoded = 0
    /// The most changes (samples and tombstones) the last ``JSONFileStore/changes(since:types:limit:)`` held at once.
    var changesHeldAtOnce = 0
    /// Partitions read whole to look for Health Auto Export samples (``JSONFileStore/healthAutoExportSamples(ofType:limits:)``).
    var partitionsSearchedForHAE = 0
    /// Lines decoded by the last search for samples by uuid (``JSONFileStore/samples(withUUIDs:)``): only those whose
    /// start may hold one (``UUIDLineFilter``).
    var linesDecodedForUUIDs = 0
    /// Sample lines decoded by the last ``JSONFileStore/changes(since:types:limit:)``: with a limit, only those after the
    /// anchor that the page would keep (``LineChangeNumber``).
    var linesDecodedForChanges = 0
}
