/// What an import did: per type, how many records were added, already present, kept generically or rejected, and
/// the first problems with their line numbers.
public struct ImportReceipt: Equatable, Sendable {
    /// The counts for one type (a HealthKit identifier such as `HKQuantityTypeIdentifierStepCount`).
    public struct Counts: Equatable, Sendable {
        /// New typed samples.
        public var added = 0
        /// Records whose identity was already in the store (or earlier in the same file), and records with a sync
        /// identifier whose version is not greater than the stored sample's or another record's of the same type,
        /// source and identifier (HealthKit's rule: nothing changes).
        public var alreadyPresent = 0
        /// New samples kept as written because the type, or its value, is not typed yet.
        public var keptGenerically = 0
        /// Records left out; see ``ImportReceipt/problems``.
        public var rejected = 0
        /// Records that replaced a stored sample (counted here, not in ``added``): a Health Auto Export re-send with
        /// a changed value of the same point, or a record whose sync identifier the store holds with a smaller
        /// sync version. The old sample is deleted and the new one written, in one write.
        public var replaced = 0
        /// Of ``alreadyPresent``: Health Auto Export points not stored because samples of the type from elsewhere
        /// (an Apple Health export) already cover their time.
        public var covered = 0
        /// Of ``alreadyPresent``: Health Auto Export points that a later point of the same input (a file, or a
        /// folder's files) sends again: each is stored as its last sending.
        public var sentAgain = 0

        /// Every record of the type that was read.
        public var total: Int { added + alreadyPresent + keptGenerically + rejected + replaced }

        /// Zero counts.
        public init() {}
    }

    /// One record or piece of markup left out.
    public struct Problem: Equatable, Sendable {
        /// The 1-based line in the input.
        public var line: Int
        /// The type or element concerned, if known.
        public var type: String?
        /// Why, as a sentence fragment.
        public var reason: String
    }

    /// What was read.
    public enum InputKind: String, Sendable {
        /// An `export.xml` (or `-` with XML).
        case healthXML = "xml"
        /// An `export.zip` holding the XML.
        case zip
        /// the store's own jsonl export (``ExportFormat/jsonl``).
        case jsonl
        /// A Health Auto Export JSON payload (a file, a folder of them, or a pushed body).
        case healthAutoExport = "hae"
    }

    /// How many problems are kept with their line numbers; the rest are only counted.
    public static let problemLimit = 20

    /// The input's kind.
    public var inputKind: InputKind
    /// The zip member that held the export, for a zip.
    public var archiveMember: String?
    /// `ExportDate` of the export, if it had one.
    public var exportDate: Date?
    /// `locale` of the export, if it had one.
    public var locale: String?
    /// Whether this was a dry run: the import was read and counted, and nothing was written.
    public var dryRun: Bool
    /// Counts per type identifier.
    public var counts: [String: Counts] = [:]
    /// The first ``problemLimit`` problems, in the order met.
    public var problems: [Problem] = []
    /// All problems: rejected records plus malformed markup not tied to a record.
    public var problemCount = 0
    /// Elements skipped because they are not part of the export format the importer knows, by name.
    public var skippedElements: [String: Int] = [:]
    /// Attributes skipped, by `Element@attribute`.
    public var skippedAttributes: [String: Int] = [:]
    /// Workouts whose `WorkoutRoute` names a GPX file the import could not read (an `export.xml` imported without the
    /// `workout-routes` folder beside it, or from standard input): kept without their route. The paths as the export
    /// names them, the first ``missingRouteFilesShown`` of them, and how many there were.
    public var missingRouteFiles: [String] = []
    public var missingRouteFileCount = 0
    /// How many paths ``missingRouteFiles`` keeps.
    public static let missingRouteFilesShown = 5
    /// The characteristics the export's `Me` element set (key as ``Characteristics`` names it, value), empty if none.
    public var characteristics: [String: String] = [:]
    /// What the import did with each characteristic of the export against the store's: added, kept (the store's
    /// value differs and stays), replaced or unchanged. Empty when the export has none, or the store is not a
    /// ``JSONFileStore``.
    public var characteristicResults: [CharacteristicsMerge.Entry] = []
    /// `Me` attributes that the store does not type, with their values.
    public var unknownCharacteristics: [String: String] = [:]
    /// Samples read earlier from Health Auto Export that this import's samples cover, deleted so that nothing counts
    /// twice (see docs/IMPORT.md, "One truth with bulk imports").
    public var supersededHealthAutoExport = 0
    /// A folder import that read nothing: its files, which its last import found as they are now, into a store that
    /// has not changed since (``HealthImporter/rereadsUnchangedFiles``).
    public var unreadFiles = 0
    /// Whether the input ended properly (`</HealthData>` seen, or the end of a jsonl file).
    public var complete = true

    /// Creates an empty receipt.
    public init(inputKind: InputKind, dryRun: Bool) {
        self.inputKind = inputKind
        self.dryRun = dryRun
    }

    /// Sums over all types.
    public var totals: Counts {
        counts.values.reduce(into: Counts()) { sum, counts in
            sum.added += counts.added
            sum.alreadyPresent += counts.alreadyPresent
            sum.keptGenerically += counts.keptGenerically
            sum.rejected += counts.rejected
            sum.replaced += counts.replaced
            sum.covered += counts.covered
            sum.sentAgain += counts.sentAgain
        }
    }

    /// Whether anything was left out.
    public var hasProblems: Bool { problemCount > 0 }

    mutating func record(_ problem: Problem) {
        problemCount += 1
        if problems.count < ImportReceipt.problemLimit { problems.append(problem) }
    }
}
