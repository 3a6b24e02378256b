/// Why an export could not be written.
public enum ExportError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The output file cannot be created; payload: the path and the system's reason.
    case cannotCreate(String, reason: String)
    /// Writing failed part-way; payload: the path and the system's reason.
    case writeFailed(String, reason: String)
    /// The reader of standard output went away (`hkctl export | head`).
    case outputClosed

    public var description: String {
        switch self {
        case let .cannotCreate(path, reason):
            return "Cannot create '\(path)': \(reason); check that its folder exists and is writable."
        case let .writeFailed(path, reason):
            return "Writing '\(path)' failed: \(reason); free some space and export again."
        case .outputClosed:
            return "Standard output was closed before the export finished; nothing is wrong with the store."
        }
    }

    public var errorDescription: String? { description }
}
