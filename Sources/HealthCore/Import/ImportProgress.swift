/// How far an import has got, for a progress display.
public struct ImportProgress: Sendable {
    /// Bytes of the input read so far, never more than ``totalBytes``: of the file, or for a zip read through its
    /// central directory, of the export inside it, uncompressed.
    public var bytesRead: Int
    /// The size of what ``bytesRead`` counts, when known: the file's, or the export's uncompressed size that the
    /// zip's central directory gives (zip64 too). Unknown for standard input.
    public var totalBytes: Int?
    /// Records read so far.
    public var records: Int
    /// Whether this is the last report.
    public var finished: Bool

    /// How much of the input is read, from 0 to 1 (1 in the last report of a complete import); nil when the total
    /// is not known.
    public var fraction: Double? {
        guard let totalBytes, totalBytes > 0 else { return nil }
        return min(1, max(0, Double(bytesRead) / Double(totalBytes)))
    }
}
