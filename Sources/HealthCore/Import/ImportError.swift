#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why an import could not run, or why it finished with records left out.
public enum ImportError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The file cannot be opened; payload: the path and the system's reason.
    case cannotOpen(String, reason: String)
    /// Reading failed part-way; payload: the path and the system's reason.
    case readFailed(String, reason: String)
    /// The input is neither an Apple Health export nor an hkctl jsonl export; payload: the path and what it looks like.
    case notAnExport(String, found: String)
    /// A zip archive without an Apple Health `export.xml`; payload: the path and the members looked at.
    case noExportInArchive(String, members: [String])
    /// The zip archive is damaged; payload: the path and what is wrong.
    case corruptArchive(String, reason: String)
    /// A zip member compressed with a method other than stored or deflate; payload: member name and method number.
    case unsupportedCompression(String, method: Int)
    /// A zip read from standard input whose members cannot be streamed; payload: the member name.
    case cannotStreamArchive(String)
    /// The import finished but some records were left out; payload: how many, and whether it was a dry run
    /// (nothing was written).
    case recordsRejected(Int, dryRun: Bool = false)

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason):
            return "Cannot open '\(path)': \(reason); check the path."
        case let .readFailed(path, reason):
            return "Reading '\(path)' failed: \(reason); check the disk and run the import again (it skips what is already stored)."
        case let .notAnExport(path, found):
            return "'\(path)' is not an Apple Health export (export.zip or export.xml) nor an hkctl jsonl export: \(found)."
        case let .noExportInArchive(path, members):
            let shown = members.prefix(5).map { "'\($0)'" }.joined(separator: ", ")
            let more = members.count > 5 ? ", ..." : ""
            return "The archive '\(path)' holds no Apple Health export.xml (members: \(shown.isEmpty ? "none" : shown)\(more)); "
                + "export again from the Health app."
        case let .corruptArchive(path, reason):
            return "The archive '\(path)' is damaged: \(reason); export again from the Health app or unzip it and import export.xml."
        case let .unsupportedCompression(member, method):
            return "The archive member '\(member)' uses compression method \(method); only stored and deflate are supported, "
                + "so unzip it and import export.xml."
        case let .cannotStreamArchive(member):
            return "The archive member '\(member)' cannot be read from standard input; pass the zip file's path instead of '-'."
        case let .recordsRejected(count, dryRun):
            return "\(count) record\(count == 1 ? " was" : "s were") rejected; "
                + (dryRun ? "the rest would be imported (dry run: nothing was written)" : "the rest was imported")
                + " (see the reasons above)."
        }
    }

    public var errorDescription: String? { description }

    /// The text of the current `errno`.
    static func systemReason() -> String { String(cString: strerror(errno)) }
}
