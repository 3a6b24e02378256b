/// Where ``SampleExporter`` writes an export: pieces of text in order, then ``finish()`` once.
///
/// The program supplies it: a file, standard output, a buffer in memory. An exporter writes many short pieces
/// (a line per sample), so a destination that makes system calls should buffer them.
public protocol ExportDestination: AnyObject {
    /// Appends `text` to the output.
    ///
    /// - Parameter text: The next piece of the export.
    /// - Throws: What the destination reports, such as ``ExportError/writeFailed(_:reason:)``; the export stops.
    func write(_ text: String) throws

    /// Writes whatever is still buffered and makes the output final; called once, after the last ``write(_:)``.
    ///
    /// - Throws: What the destination reports; the export then counts as failed.
    func finish() throws
}
