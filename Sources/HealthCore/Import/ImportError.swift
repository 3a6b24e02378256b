#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TextSupport

/// Why an import could not run, or why it finished with records left out.
public enum ImportError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The file cannot be opened; payload: the path and the system's reason.
    case cannotOpen(String, reason: String)
    /// Reading failed part-way; payload: the path and the system's reason.
    case readFailed(String, reason: String)
    /// The input is neither an Apple Health export nor a jsonl export (``ExportFormat/jsonl``); payload: the path and what it looks like.
    case notAnExport(String, found: String)
    /// A zip archive without an Apple Health `export.xml`; payload: the path and the members looked at.
    case noExportInArchive(String, members: [String])
    /// The zip archive is damaged; payload: the path and what is wrong.
    case corruptArchive(String, reason: String)
    /// A zip member compressed with a method other than stored or deflate; payload: member name and method number.
    case unsupportedCompression(String, method: Int)
    /// A zip read from standard input whose members cannot be streamed; payload: the member name.
    case cannotStreamArchive(String)
    /// The export's declared (or detected) character encoding is not one the importer reads; payload: the path and the
    /// encoding.
    case unsupportedEncoding(String, encoding: String)
    /// The export starts with a UTF-8 byte order mark but its XML declaration names another encoding; payload: the
    /// path and the declared encoding.
    case byteOrderMarkContradicts(String, declared: String)
    /// Elements nested deeper than an export ever nests them; payload: the path, the line, the limit.
    case nestingTooDeep(String, line: Int, limit: Int)
    /// One element holds more child elements than an export ever writes in one; payload: the path, the line of
    /// the element, the limit.
    case tooManyChildren(String, line: Int, limit: Int)
    /// A jsonl line longer than any sample's; payload: the path, the line number, its byte offset, the limit in
    /// bytes.
    case lineTooLong(String, line: Int, offset: Int, limit: Int)
    /// A Health Auto Export payload (or a file that starts like one) is not valid JSON, or not shaped as HAE writes
    /// it; payload: its name, the line and column, and what is wrong. Nothing of it was stored.
    case invalidHealthAutoExport(String, line: Int, column: Int, reason: String)
    /// A folder given to import holds no `*.json` file; payload: the path.
    case noHealthAutoExportFiles(String)
    /// The import finished but some records were left out; payload: how many problems, whether it was a dry run
    /// (nothing was written), and how many of the problems are records rejected (nil: all of them; the others are
    /// parts of the file not read, such as its end cut off).
    case recordsRejected(Int, dryRun: Bool = false, records: Int? = nil)
    /// A batch of an import could not be written (a full disk): it was taken back, the batches before it stay
    /// stored; payload: the file and the system's reason.
    case batchNotSaved(String, reason: String)

    public var description: String {
        switch self {
        case let .cannotOpen(path, reason):
            return "Cannot open '\(path)': \(reason); check the path."
        case let .readFailed(path, reason):
            return "Reading '\(path)' failed: \(reason); check the disk and run the import again (it skips what is already stored)."
        case let .notAnExport(path, found):
            return "'\(path)' is not an Apple Health export (export.zip or export.xml), a JSON Lines export (ExportFormat.jsonl) nor a Health Auto Export JSON file: \(found)."
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
        case let .unsupportedEncoding(path, encoding):
            return "'\(path)' is encoded in \(encoding), which the importer does not read (it reads UTF-8, ISO-8859-1 and Windows-1252); "
                + "convert it first, e.g. iconv -f \(encoding) -t UTF-8 export.xml > export-utf8.xml, and import that."
        case let .byteOrderMarkContradicts(path, declared):
            return "'\(path)' starts with a UTF-8 byte order mark but its XML declaration says encoding=\"\(declared)\"; the two "
                + "contradict each other, so it was not read. If the text is UTF-8, change the declaration to encoding=\"UTF-8\"; "
                + "if it is \(declared), remove the first three bytes (tail -c +4 export.xml > fixed.xml) and import that."
        case let .nestingTooDeep(path, line, limit):
            return "'\(path)' nests elements more than \(limit) deep at line \(line); an Apple Health export never does, "
                + "so it is damaged or not an export. Nothing after that line was read; export again from the Health app."
        case let .tooManyChildren(path, line, limit):
            return "The element at line \(line) of '\(path)' holds more than \(limit) child elements; an Apple Health export "
                + "never does, so it is damaged or not an export. Nothing after it was read; export again from the Health app."
        case let .lineTooLong(path, line, offset, limit):
            return "Line \(line) of '\(path)' (from byte \(offset)) is longer than \(limit >> 20) MiB; a JSON Lines export (ExportFormat.jsonl) holds "
                + "one sample a line, so this is not one (or it is damaged). Nothing from that line on was read."
        case let .invalidHealthAutoExport(name, line, column, reason):
            return "'\(name)' is not a usable Health Auto Export payload: \(reason) (line \(line), column \(column)); "
                + "nothing of it was stored. Export it again from the app (JSON format), or fix the JSON."
        case let .noHealthAutoExportFiles(path):
            return "The folder '\(path)' holds no .json file; give a folder of Health Auto Export JSON files, or a file."
        case let .batchNotSaved(path, reason):
            return "Cannot write '\(path)': \(reason); the import stopped there: its last batch was taken back, any batches "
                + "before it stay stored. Run the same import again once the cause is fixed: it adds only what is missing."
        case let .recordsRejected(count, dryRun, records):
            let what: String
            if let records, records != count {
                what = "\(count) problem\(count == 1 ? " was" : "s were") found (\(records) record\(records == 1 ? "" : "s") rejected)"
            } else {
                what = "\(count) record\(count == 1 ? " was" : "s were") rejected"
            }
            return what + "; "
                + (dryRun ? "the rest would be imported (dry run: nothing was written)" : "the rest was imported")
                + " (see the reasons above)."
        }
    }

    public var errorDescription: String? { description }

    /// The text of the current `errno`.
    static func systemReason() -> String { String(cString: strerror(errno)) }
}
