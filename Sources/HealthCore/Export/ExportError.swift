/// Why an export (or another output file a program opens through ``ExportDestination``) could not be written.
public enum ExportError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The output file cannot be created; payload: the path and the system's reason.
    case cannotCreate(String, reason: String)
    /// The path is a symbolic link to nothing; payload: the path and what the link holds. The library writes through a
    /// link only to a file that exists, so a mistyped link never creates a file somewhere unexpected.
    case danglingLink(String, target: String)
    /// The path is a symbolic link that leads back to itself; payload: the path.
    case linkLoop(String)
    /// The path is a folder (or a link to one); payload: the path.
    case isFolder(String)
    /// Writing failed part-way; payload: the path and the system's reason.
    case writeFailed(String, reason: String)
    /// The reader of the output went away before the export finished (a pipe closed early).
    case outputClosed
    /// The path is inside the store being read (a store file, a new file in a store folder, the store folder itself,
    /// however spelled); writing there would replace the store's own files. Payload: the path and the store folder.
    case insideStore(String, store: String)
    /// The path names one of the process's own descriptors (`/dev/stdout`, `/dev/fd/3`) that cannot be written to;
    /// payload: the path, the descriptor, and why (not open, open for reading only).
    case unusableDescriptor(String, descriptor: Int32, reason: String)

    public var description: String {
        switch self {
        case let .cannotCreate(path, reason):
            return "Cannot create '\(path)': \(reason); check that its folder exists and is writable."
        case let .danglingLink(path, target):
            return "'\(path)' is a symbolic link to '\(target)', which does not exist; the exporter writes through a link only "
                + "to an existing file: create the target first, remove the link, or name another file."
        case let .linkLoop(path):
            return "'\(path)' is a symbolic link that loops (it leads back to itself); fix or remove the link, or name "
                + "another file."
        case let .isFolder(path):
            return "'\(path)' is a folder; name a file inside it instead."
        case let .writeFailed(path, reason):
            return "Writing '\(path)' failed: \(reason); free some space and try again."
        case .outputClosed:
            return "Standard output was closed before the export finished; nothing is wrong with the store."
        case let .insideStore(path, store):
            return "'\(path)' is inside the store '\(store)' being read; writing there would replace the store's own "
                + "files. Name a file outside the store (nothing was written)."
        case let .unusableDescriptor(path, descriptor, reason):
            return "'\(path)' names descriptor \(descriptor) of this command, which is \(reason); open it for writing in "
                + "the shell (for example \(descriptor)> file) or name a file (nothing was written)."
        }
    }

    public var errorDescription: String? { description }
}
