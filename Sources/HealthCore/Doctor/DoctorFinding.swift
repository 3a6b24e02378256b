/// One thing ``StoreDoctor`` found: where (a file of the store, relative to it, and a line when it has one),
/// which sample, and what is wrong.
public struct DoctorFinding: Equatable, Sendable {
    /// An error makes reads of the file fail; a warning is well-formed data that looks wrong.
    public enum Severity: String, Sendable {
        case error, warning
    }

    public var severity: Severity
    /// The file, relative to the store folder.
    public var file: String
    /// The 1-based line, when the finding is about one line.
    public var line: Int?
    /// The sample, when the finding is about one sample.
    public var uuid: UUID?
    /// What is wrong, and what to do about it.
    public var message: String

    public init(_ severity: Severity, file: String, line: Int? = nil, uuid: UUID? = nil, message: String) {
        self.severity = severity
        self.file = file
        self.line = line
        self.uuid = uuid
        self.message = message
    }

    /// `file:line`, or the file alone.
    public var location: String { line.map { "\(file):\($0)" } ?? file }
}

/// What a check of the whole store found, and what a repair did.
public struct DoctorReport: Sendable {
    /// Whether the folder holds a store at all.
    public var storeExists = true
    public var findings: [DoctorFinding] = []
    /// Files and lines read.
    public var filesChecked = 0
    public var linesChecked = 0
    /// What a repair did, one sentence each (empty for a check only).
    public var repairs: [String] = []

    public init() {}

    public var errors: [DoctorFinding] { findings.filter { $0.severity == .error } }
    public var warnings: [DoctorFinding] { findings.filter { $0.severity == .warning } }
}
