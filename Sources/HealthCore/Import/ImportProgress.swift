/// How far an import has got, for a progress display.
public struct ImportProgress: Sendable {
    /// Bytes of the input file read so far (compressed bytes for a zip).
    public var bytesRead: Int
    /// The input file's size, when known (not for standard input).
    public var totalBytes: Int?
    /// Records read so far.
    public var records: Int
    /// Whether this is the last report.
    public var finished: Bool
}
