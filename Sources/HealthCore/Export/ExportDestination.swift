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

    /// Appends UTF-8 bytes (valid UTF-8, pieces of whole lines): how the JSON formats hand over their lines, without
    /// building a String per line. A destination that keeps bytes should take them as they are; the default makes a
    /// String of them and calls ``write(_:)``.
    ///
    /// - Throws: As ``write(_:)``.
    func write(utf8 bytes: UnsafeRawBufferPointer) throws

    /// Writes whatever is still buffered and makes the output final; called once, after the last ``write(_:)``.
    ///
    /// - Throws: What the destination reports; the export then counts as failed.
    func finish() throws
}

extension ExportDestination {
    public func write(utf8 bytes: UnsafeRawBufferPointer) throws {
        try write(String(decoding: bytes, as: UTF8.self))
    }
}
