#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import TextSupport

/// Reads every file of a store, reports what is damaged (errors, with file and line) and what is
/// well-formed but implausible (warnings, with sample uuids), and on request repairs what can be repaired
/// without losing anything: bad lines go to `quarantine.jsonl` (never deleted), derived files are rebuilt.
///
/// A store with a newer or unknown format version, or one the store refuses for safety (``StoreError/unsafe(_:reason:)``), is refused: the error is
/// thrown and nothing is written.
public struct StoreDoctor: Sendable {
    public let store: JSONFileStore
    public var rules = PlausibilityRules()
    /// How many threads check the types' folders (nil: one per processor, at most 4); for tests.
    var threads: Int?

    /// The quarantine file, relative to the store.
    public static let quarantineFile = "quarantine.jsonl"

    public init(store: JSONFileStore) { self.store = store }

    /// The bad lines of one file, found by ``check(now:)``, for ``repair(now:)``.
    struct BadLines {
        var file: String
        var lines: [(number: Int, reason: String)]
    }

    /// Checks the whole store under its shared lock.
    ///
    /// - Throws: ``StoreError`` when the store cannot be opened at all (newer version, unsafe folder, busy).
    public func check(now: Date) throws -> DoctorReport {
        var report = DoctorReport()
        guard try store.isExistingStore() else {
            report.storeExists = false
            return report
        }
        let refused = Set(checkAccess(into: &report).map(\.file))
        // Not withReadAccess: that refuses an unreadable journal, which is one of the things to report.
        var lock: StoreLock?
        do {
            // A lock file of another user is reported above; doctor reads on without it (it only reads).
            if POSIXFile.exists(store.lockPath), !refused.contains(".lock") {
                lock = try StoreLock.acquire(path: store.lockPath, exclusive: false, timeout: store.lockTimeout, storePath: store.path)
            }
        } catch let error as StoreError {
            // A lock file that is not a file (a FIFO planted there) stops every other command: report it, and read on
            // without the lock (doctor only reads).
            guard case .notAFile = error else { throw error }
            report.findings.append(DoctorFinding(.error, file: ".lock", message: "\(error)"))
        }
        try withExtendedLifetime(lock) {
            _ = try scan(now: now, highestRecorded: lock?.highestChangeNumber(), skipping: refused, into: &report)
        }
        return report
    }

    /// Checks the store under its exclusive lock, repairs it, and checks it again.
    ///
    /// A store with a file or folder that the store refuses (another user's, or a folder others can write to) is not
    /// repaired: that is for its owner to look at first, and nothing of the store may go into a file another user
    /// made.
    ///
    /// - Returns: The report of the final check, with ``DoctorReport/repairs`` saying what was done.
    /// - Throws: The error the store refuses such an entry with (``StoreError/foreignOwner(_:owner:storeOwner:)``,
    ///   ``StoreError/unsafe(_:reason:)``), before anything is changed; ``StoreError``.
    public func repair(now: Date) throws -> DoctorReport {
        guard try store.isExistingStore() else {
            var report = DoctorReport()
            report.storeExists = false
            return report
        }
        // Once every folder of the store is the owner's and closed to others, nobody else can add an entry: one look
        // before the lock is enough.
        var access = DoctorReport()
        if let first = checkAccess(into: &access).first { throw first.error }
        var repairs: [String] = []
        try store.withExclusiveLock {
            var first = DoctorReport()
            let journal = try? store.readJournal()
            if POSIXFile.exists(store.journalPath) {
                if let journal {
                    try store.recoverJournal()
                    repairs.append(journal.recovery == .undo ? "undid the interrupted import batch in journal.jsonl"
                        : "finished the interrupted batch in journal.jsonl")
                } else {
                    try quarantineWholeFile("journal.jsonl", reason: "unreadable journal", now: now)
                    repairs.append("moved the unreadable journal.jsonl into \(StoreDoctor.quarantineFile)")
                }
            }
            let bad = try scan(now: now, highestRecorded: store.writeLock?.highestChangeNumber(), skipping: [], into: &first)
            for file in bad {
                try quarantine(file, now: now)
                let count = file.lines.count
                repairs.append("moved \(count) bad line\(count == 1 ? "" : "s") of \(file.file) "
                    + "(line\(count == 1 ? "" : "s") \(file.lines.map { String($0.number) }.joined(separator: ", "))) into \(StoreDoctor.quarantineFile)")
            }
            if let rebuilt = try rebuildSequence() { repairs.append(rebuilt) }
        }
        var report = try check(now: now)
        report.repairs = repairs
        return report
    }

    // MARK: - Checking

    /// Reads every file; returns the bad lines per file (for repair).
    ///
    /// - Parameters:
    ///   - highestRecorded: The highest change number writers recorded in the lock file.
    ///   - refused: Files and folders (relative) that ``checkAccess(into:)`` reported as refused by the store: not read.
    private func scan(now: Date, highestRecorded: UInt64?, skipping refused: Set<String>,
                      into report: inout DoctorReport) throws -> [BadLines] {
        var bad: [BadLines] = []
        var largestSequence: UInt64 = 0
        if !refused.contains("sequence") { checkSequence(into: &report) }
        if !refused.contains("journal.jsonl") { checkJournal(into: &report) }
        for check in StoreDoctor.documentChecks where !refused.contains(check.name) { checkDocument(check, into: &report) }
        if !refused.contains(JSONFileStore.operationsFile), let lines = checkOperationLog(into: &report), !lines.isEmpty {
            bad.append(BadLines(file: JSONFileStore.operationsFile, lines: lines))
        }
        let typeFolders = refused.contains("samples") ? [] : try store.folderEntries("samples").sorted()
        for scanned in try scanTypes(typeFolders, skipping: refused, now: now) {
            report.findings += scanned.report.findings
            report.filesChecked += scanned.report.filesChecked
            report.linesChecked += scanned.report.linesChecked
            bad += scanned.bad
            largestSequence = max(largestSequence, scanned.largestSequence)
        }
        if let counter = try? store.currentSequence(), counter < largestSequence {
            report.findings.append(DoctorFinding(.error, file: "sequence", line: 1,
                message: "the change counter \(counter) is behind the largest change number in use, \(largestSequence); "
                    + "the doctor's repair rebuilds it"))
        } else if let counter = try? store.currentSequence(), let highestRecorded, counter < highestRecorded {
            report.findings.append(DoctorFinding(.error, file: "sequence", line: 1,
                message: "the change counter \(counter) is behind the highest number writers handed out, \(highestRecorded) "
                    + "(recorded in .lock); the doctor's repair rebuilds it"))
        }
        let recovered = (try? store.folderEntries("recovered")) ?? []
        if !recovered.isEmpty {
            report.findings.append(DoctorFinding(.warning, file: "recovered",
                message: "\(recovered.count) torn write\(recovered.count == 1 ? "" : "s") left by crashes \(recovered.count == 1 ? "was" : "were") moved here; they were never acknowledged"))
        }
        if let stopped = try? store.unfinishedImports(), !stopped.marks.isEmpty {
            let count = stopped.marks.count
            report.findings.append(DoctorFinding(.warning, file: ImportMark.folder,
                message: "\(count) import\(count == 1 ? "" : "s") of an Apple Health export stopped before \(count == 1 ? "its" : "their") end (killed or failed); "
                    + "run the import again (it settles the food entries the stopped one left undecided) or take it back with hkctl undo"))
        }
        return bad
    }

    /// What the check of one type's folder found.
    private struct TypeScan: Sendable {
        var report = DoctorReport()
        var bad: [BadLines] = []
        var largestSequence: UInt64 = 0
    }

    /// Checks the folders of `folderNames` (in `samples/`), on as many threads as there are processors (at most 4):
    /// each type's files are checked on their own (a copy of a sample is a copy within its type), and what they found
    /// is returned in the order of `folderNames`. The first error in that order is thrown.
    private func scanTypes(_ folderNames: [String], skipping refused: Set<String>, now: Date) throws -> [TypeScan] {
        let threads = min(folderNames.count, self.threads ?? PartitionReadings.processorThreads)
        guard threads > 1 else {
            return try folderNames.map { try scanType($0, skipping: refused, now: now) }
        }
        let results = Locked<[Result<TypeScan, Error>?]>(Array(repeating: nil, count: folderNames.count))
        let next = Locked(0)
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            while true {
                let index = next.withLock { next in
                    defer { next += 1 }
                    return next
                }
                guard index < folderNames.count else { return }
                let result = Result { try scanType(folderNames[index], skipping: refused, now: now) }
                results.withLock { $0[index] = result }
            }
        }
        return try results.withLock { $0 }.map { try $0!.get() }
    }

    /// Checks the files of one type's folder, `samples/<folderName>`.
    private func scanType(_ folderName: String, skipping refused: Set<String>, now: Date) throws -> TypeScan {
        var scanned = TypeScan()
        let folder = "samples/" + folderName
        guard !refused.contains(folder), checkIsFolder(folder, into: &scanned.report) else { return scanned }
        let identifier = PercentDecoding.decoded(folderName) ?? folderName
        var seen = SeenSamples(deleted: JSONFileStore.Deletions(readableTombstones(ofType: identifier)))
        for name in try store.folderEntries(folder).sorted() {
            let file = folder + "/" + name
            if refused.contains(file) { continue }
            guard name.hasSuffix(".jsonl"), checkIsRegularFile(file, into: &scanned.report) else {
                if !name.hasSuffix(".jsonl") {
                    scanned.report.findings.append(DoctorFinding(.warning, file: file, message: "not a file the store writes; it is ignored"))
                }
                continue
            }
            let lines = try checkLines(of: file, typeIdentifier: identifier, tombstones: name == "tombstones.jsonl",
                                       now: now, largestSequence: &scanned.largestSequence, seen: &seen,
                                       into: &scanned.report)
            if !lines.isEmpty { scanned.bad.append(BadLines(file: file, lines: lines)) }
        }
        return scanned
    }

    /// The tombstones of a type that decode, skipping damaged lines (reported on their own): a copy of a sample is
    /// judged by every deletion that can be read, so a damaged tombstone file never makes a deleted and re-imported
    /// sample look like a copy.
    private func readableTombstones(ofType identifier: String) -> [Tombstone] {
        guard let file = try? store.storeFile(JSONFileStore.tombstonePath(identifier)),
              let bytes = try? POSIXFile.readFile(file) else { return [] }
        var tombstones: [Tombstone] = []
        bytes.withUnsafeBufferPointer { buffer in
            StoreLineReader.forEachLine(in: buffer) { line in
                guard line.terminated,
                      let tombstone = JSONFileStore.decodeTombstone(UnsafeBufferPointer(rebasing: buffer[line.range])) else { return }
                tombstones.append(tombstone)
            }
        }
        return tombstones
    }

    private func checkSequence(into report: inout DoctorReport) {
        report.filesChecked += 1
        do { _ = try store.currentSequence() } catch {
            report.findings.append(DoctorFinding(.error, file: "sequence", line: 1, message: "\(error)"))
        }
    }

    private func checkJournal(into report: inout DoctorReport) {
        guard POSIXFile.exists(store.journalPath) else { return }
        report.filesChecked += 1
        do {
            if let journal = try store.readJournal() {
                let message = journal.recovery == .undo
                    ? "an import batch interrupted by a crash waits here; the next write (or the doctor's repair) removes its "
                        + "lines (import the file again to finish)"
                    : "a batch interrupted by a crash waits here; the next write (or the doctor's repair) finishes it"
                report.findings.append(DoctorFinding(.warning, file: "journal.jsonl", message: message))
            }
        } catch {
            report.findings.append(DoctorFinding(.error, file: "journal.jsonl", line: 1, message: "\(error)"))
        }
    }

    /// Why a torn final line is quarantined.
    private static let tornReason = "torn final line"

    /// A store file's bytes, counted as checked; nil (reported as an error) when it cannot be read.
    private func readLines(of relative: String, into report: inout DoctorReport) -> [UInt8]? {
        do {
            let bytes = try POSIXFile.readFile(try store.storeFile(relative)) ?? []
            report.filesChecked += 1
            return bytes
        } catch {
            report.findings.append(DoctorFinding(.error, file: relative, message: "\(error)"))
            return nil
        }
    }

    /// The non-blank lines of `buffer` that end with a newline, and the number of a final line without one (a torn
    /// write), all counted as checked.
    private func completeLines(in buffer: UnsafeBufferPointer<UInt8>,
                               into report: inout DoctorReport) -> (lines: [StoreLineReader.Line], torn: Int?) {
        var lines: [StoreLineReader.Line] = []
        var torn: Int?
        StoreLineReader.forEachLine(in: buffer) { line in
            if StoreLineReader.isBlank(UnsafeBufferPointer(rebasing: buffer[line.range])) { return }
            if line.terminated { lines.append(line) } else { torn = line.number }
        }
        report.linesChecked += lines.count + (torn == nil ? 0 : 1)
        return (lines, torn)
    }

    /// Reports a torn final line (a warning: it was never acknowledged) and marks it for quarantine.
    private func noteTorn(_ torn: Int?, in file: String, bad: inout [(number: Int, reason: String)],
                          into report: inout DoctorReport) {
        guard let torn else { return }
        report.findings.append(DoctorFinding(.warning, file: file, line: torn,
            message: "a torn final line (a write a crash interrupted, never acknowledged); readers skip it, the doctor's repair moves it aside"))
        bad.append((torn, StoreDoctor.tornReason))
    }

    /// Checks each line of `operations.jsonl` (the record undo works from); returns its bad lines, or nil when
    /// there is no such file.
    private func checkOperationLog(into report: inout DoctorReport) -> [(number: Int, reason: String)]? {
        let name = JSONFileStore.operationsFile
        guard checkIsRegularFile(name, into: &report), let bytes = readLines(of: name, into: &report) else { return nil }
        var bad: [(number: Int, reason: String)] = []
        bytes.withUnsafeBufferPointer { buffer in
            let (lines, torn) = completeLines(in: buffer, into: &report)
            for line in lines where OperationRecord.decode(UnsafeBufferPointer(rebasing: buffer[line.range])) == nil {
                report.findings.append(DoctorFinding(.error, file: name, line: line.number,
                    message: "not an operation record; an undo fails until it is repaired (the doctor's repair "
                        + "quarantines the line; the operation it described can then no longer be undone)"))
                bad.append((line.number, "not an operation record"))
            }
            noteTorn(torn, in: name, bad: &bad, into: &report)
        }
        return bad
    }

    private func checkIsFolder(_ relative: String, into report: inout DoctorReport) -> Bool {
        var info = stat()
        guard lstat(store.path + "/" + relative, &info) == 0 else { return false }
        if (info.st_mode & S_IFMT) == S_IFDIR { return true }
        report.findings.append(DoctorFinding(.error, file: relative,
            message: (info.st_mode & S_IFMT) == S_IFLNK ? "a symbolic link where a folder belongs; the store never writes through one"
                : "a file where a type's folder belongs"))
        return false
    }

    private func checkIsRegularFile(_ relative: String, into report: inout DoctorReport) -> Bool {
        var info = stat()
        guard lstat(store.path + "/" + relative, &info) == 0 else { return false }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            report.findings.append(DoctorFinding(.error, file: relative,
                message: (info.st_mode & S_IFMT) == S_IFLNK ? "a symbolic link where a data file belongs; the store never follows one"
                    : "\(POSIXFile.kindName(info.st_mode)) where a data file belongs; every read of it fails "
                        + "until it is moved away"))
            return false
        }
        return true
    }

    /// Checks each line of a partition or tombstone file; returns its bad lines.
    private func checkLines(of relative: String, typeIdentifier: String, tombstones: Bool, now: Date,
                            largestSequence: inout UInt64, seen: inout SeenSamples,
                            into report: inout DoctorReport) throws -> [(number: Int, reason: String)] {
        guard let bytes = readLines(of: relative, into: &report) else { return [] }
        var codec = store.codec
        let type = store.catalogue.type(identifier: typeIdentifier)
        let name = PathText.lastComponent(of: relative)
        var bad: [(number: Int, reason: String)] = []
        var namer = JSONFileStore.PartitionNamer()
        bytes.withUnsafeBufferPointer { buffer in
            let (lines, torn) = completeLines(in: buffer, into: &report)
            for line in lines {
                let text = UnsafeBufferPointer(rebasing: buffer[line.range])
                if tombstones {
                    if let reason = StoreLineReader.checkTombstoneLine(text) {
                        bad.append((line.number, reason))
                    } else if let tombstone = JSONFileStore.decodeTombstone(text) {
                        largestSequence = max(largestSequence, tombstone.sequence)
                    }
                    continue
                }
                let checked = StoreLineReader.checkSampleLine(text, codec: &codec)
                guard let sample = checked.sample else {
                    bad.append((line.number, checked.failure ?? "unreadable"))
                    continue
                }
                largestSequence = max(largestSequence, checked.sequence)
                // A uuid stored twice (and not deleted in between) is counted twice by statistics: the first copy is
                // the sample, later ones are damage, whatever their change numbers.
                if let first = seen.firstCopy(of: sample, sequence: checked.sequence, at: name, line: line.number) {
                    bad.append((line.number, "a second copy of the sample at \(first) (the same uuid)"))
                    continue
                }
                if sample.typeIdentifier != typeIdentifier {
                    bad.append((line.number, "a \(sample.typeIdentifier) sample in the folder of \(typeIdentifier)"))
                    continue
                }
                let expected = namer.fileName(start: sample.start, long: sample.duration > JSONFileStore.longSampleThreshold)
                if expected != name {
                    report.findings.append(DoctorFinding(.warning, file: relative, line: line.number, uuid: sample.uuid,
                        message: "this sample belongs in \(expected); queries of its dates may miss it"))
                }
                for problem in rules.rangeErrors(with: sample, type: type) {
                    report.findings.append(DoctorFinding(.error, file: relative, line: line.number, uuid: sample.uuid,
                                                         message: "out of range: \(problem)"))
                }
                for problem in rules.problems(with: sample, type: type, now: now) {
                    report.findings.append(DoctorFinding(.warning, file: relative, line: line.number, uuid: sample.uuid,
                                                         message: "implausible: \(problem)"))
                }
            }
            noteTorn(torn, in: relative, bad: &bad, into: &report)
        }
        for entry in bad where entry.reason != StoreDoctor.tornReason {
            report.findings.append(DoctorFinding(.error, file: relative, line: entry.number,
                message: "\(entry.reason); reads of this file fail until it is repaired (the doctor's repair quarantines the line)"))
        }
        return bad
    }

    // MARK: - Repairing

    /// Appends the bad lines to the quarantine file (synced), then rewrites the file without them atomically;
    /// a crash in between leaves a line in both places, never in neither.
    private func quarantine(_ bad: BadLines, now: Date) throws {
        let file = try store.storeFile(bad.file)
        guard let bytes = try POSIXFile.readFile(file) else { return }
        let numbers = Dictionary(bad.lines.map { ($0.number, $0.reason) }, uniquingKeysWith: { first, _ in first })
        var kept: [UInt8] = []
        var records: [String] = []
        bytes.withUnsafeBufferPointer { buffer in
            StoreLineReader.forEachLine(in: buffer) { line in
                let text = Array(buffer[line.range])
                if let reason = numbers[line.number] {
                    records.append(quarantineRecord(file: bad.file, line: line.number, reason: reason, bytes: text, now: now))
                } else {
                    kept += text
                    kept.append(0x0A)
                }
            }
        }
        try appendToQuarantine(records)
        try POSIXFile.writeAtomically(kept, to: file)
    }

    private func quarantineWholeFile(_ relative: String, reason: String, now: Date) throws {
        let file = try store.storeFile(relative)
        guard let bytes = try POSIXFile.readFile(file) else { return }
        try appendToQuarantine([quarantineRecord(file: relative, line: nil, reason: reason, bytes: bytes, now: now)])
        if unlink(file) != 0 { throw StoreError.writeFailed(file, reason: POSIXFile.errorText()) }
        POSIXFile.syncDirectory(store.path)
    }

    private func quarantineRecord(file: String, line: Int?, reason: String, bytes: [UInt8], now: Date) -> String {
        var record = "{\"quarantined\":\"\(ISODate.format(now, in: .gmt))\",\"file\":\(JSONText.quoted(file))"
        if let line { record += ",\"line\":\(line)" }
        record += ",\"reason\":\(JSONText.quoted(reason))"
        let valid = bytes.withUnsafeBufferPointer { StoreLineReader.utf8Failure($0) == nil }
        if valid {
            record += ",\"text\":" + JSONText.quoted(String(decoding: bytes, as: UTF8.self))
        } else {
            record += ",\"base64\":\"" + Data(bytes).base64EncodedString() + "\""
        }
        return record + "}"
    }

    private func appendToQuarantine(_ records: [String]) throws {
        guard !records.isEmpty else { return }
        try store.append(records, to: StoreDoctor.quarantineFile)
    }

    /// Rewrites the change counter when it is unreadable or behind the numbers in use (or the highest number writers
    /// recorded in the lock file); it never goes down.
    private func rebuildSequence() throws -> String? {
        let stored = try? store.currentSequence()
        var largest: UInt64 = store.writeLock?.highestChangeNumber() ?? 0
        let everything = DateInterval(start: DateRange.distantStart, end: DateRange.distantEnd)
        for identifier in try store.typeIdentifiersOnDisk() {
            for partition in try store.partitions(ofType: identifier, overlapping: everything) {
                try store.readPartitionWithSequence(partition) { _, sequence in largest = max(largest, sequence) }
            }
            for tombstone in try store.tombstones(ofType: identifier) { largest = max(largest, tombstone.sequence) }
        }
        if let stored, stored >= largest { return nil }
        try store.writeSequence(largest)
        return "rebuilt the change counter in sequence: \(stored.map(String.init) ?? "unreadable") → \(largest)"
    }
}
