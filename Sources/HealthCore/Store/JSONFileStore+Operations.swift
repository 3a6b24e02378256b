#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The record of operations, `operations.jsonl`: one ``OperationRecord`` line per recorded write, appended in the
/// same write as the lines it describes and under the same exclusive lock, so that a record never names lines that
/// were not written (see docs/STORE.md, "Operations and undo").
extension JSONFileStore {
    /// The record of operations, relative to the store.
    static let operationsFile = "operations.jsonl"

    /// Makes the record line of a write from its change numbers and the types of its lines.
    typealias RecordMaker = (ClosedRange<UInt64>, [String]) -> String?

    /// Each type identifier once, in the order first met.
    static func types(of identifiers: [String]) -> [String] {
        var seen = Set<String>()
        return identifiers.filter { seen.insert($0).inserted }
    }

    /// Prepares `operations.jsonl` for a write that records itself: a torn final line (a crash) moves aside, and its
    /// length is noted so that a failed write is taken back.
    func prepareOperationLog(undo: inout WriteUndo) throws {
        try repairTail(of: JSONFileStore.operationsFile) { OperationRecord.decode($0) != nil }
        undo.files.append((JSONFileStore.operationsFile, POSIXFile.size(try storeFile(JSONFileStore.operationsFile))))
    }

    /// The record of a write of `changes` lines of `types` under ``recording`` (a ``RecordMaker``); nil when nothing is
    /// recorded. The
    /// first recorded write of an operation gives it its id (``committedRecord(_:)`` keeps it for the next ones).
    func recordLine(changes: ClosedRange<UInt64>, types: [String]) -> String? {
        guard let recording else { return nil }
        return OperationRecord(kind: recording.kind, operation: recording.identity.value ?? changes.lowerBound,
                               source: recording.source, date: recording.date, changes: changes, types: types)
            .line(zone: codec.timeZone)
    }

    /// ``recordLine(changes:types:)`` while ``recording`` is set; nil (the write is not recorded) otherwise.
    var recordMaker: RecordMaker? {
        recording == nil ? nil : { [self] changes, types in recordLine(changes: changes, types: types) }
    }

    /// Notes a recorded write that succeeded: the later writes of the operation share its id.
    func committedRecord(_ changes: ClosedRange<UInt64>) {
        recording?.identity.claim(changes.lowerBound)
    }

    /// Appends a write's lines (one line with one `write`, more through the journal) and, when `record` is given, the
    /// write's record in the same write: in the journal beside the lines, or after the single line is durable. Call
    /// inside ``takingBackOnFailure(_:)`` with every file prepared (``prepareOperationLog(undo:)`` for a record).
    func appendRecorded(_ batches: [LineGroup], record: String?, undo: WriteUndo) throws {
        let total = batches.reduce(0) { $0 + $1.lines }
        guard let record, total > 1 else {
            if total == 1 {
                try batches[0].bytes.withUnsafeBytes { try appendBytes($0, to: batches[0].partition, lines: 1) }
            } else {
                try applyThroughJournal(batches)
            }
            if let record { try appendRecord(record, afterLineIn: batches[0].partition, undo: undo) }
            return
        }
        var log = LineGroup(partition: JSONFileStore.operationsFile)
        log.append(record)
        try applyThroughJournal(batches + [log])
    }

    /// Appends the record of a one-line write after that line is durable. The record is not synced: a power cut may
    /// lose it (the write then cannot be undone), but never keep it without its line. When the record cannot be
    /// written, the line is cut off again, so the write fails whole.
    func appendRecord(_ record: String, afterLineIn partition: String, undo: WriteUndo) throws {
        let bytes = Array((record + "\n").utf8)
        do {
            let pending = try bytes.withUnsafeBytes { try startAppend($0, to: JSONFileStore.operationsFile, lines: nil) }
            close(pending.fd)
        } catch {
            let length = undo.files.first { $0.path == partition }.map { $0.length ?? 0 } ?? 0
            _ = cutBack([partition], to: [length])
            validated[partition] = nil
            throw error
        }
    }

    /// Appends a record on its own (an undo that had nothing left to write), synced.
    func appendRecordAlone(_ record: OperationRecord) throws {
        try takingBackOnFailure { undo in
            try prepareOperationLog(undo: &undo)
            try append([record.line(zone: codec.timeZone)], to: JSONFileStore.operationsFile)
        }
    }

    /// The records of `operations.jsonl`, oldest first; `limit` is its length before an interrupted batch (see the
    /// journal). A final line without a newline, or one that does not decode, is a torn write and is skipped.
    ///
    /// - Throws: ``StoreError/corrupt(_:line:reason:)`` for a damaged line followed by others.
    func operationRecords(limit: Int? = nil) throws -> [OperationRecord] {
        let file = try storeFile(JSONFileStore.operationsFile)
        guard let bytes = try POSIXFile.readFile(file, limit: limit) else { return [] }
        var records: [OperationRecord] = []
        var damaged: Int?
        try bytes.withUnsafeBufferPointer { buffer in
            try StoreLineReader.forEachLine(in: buffer) { line in
                let text = UnsafeBufferPointer(rebasing: buffer[line.range])
                guard line.terminated, !StoreLineReader.isBlank(text) else { return }
                if let damaged {
                    throw StoreError.corrupt(file, line: damaged, reason: "not an operation record")
                }
                if let record = OperationRecord.decode(text) { records.append(record) } else { damaged = line.number }
            }
        }
        return records
    }

    /// The operations of `source` that can still be undone, newest first: every add, import and delete it made that
    /// no undo has taken back, each with its records (an import has one per batch). An operation counts as made
    /// when its last record was written.
    func undoableOperations(source: String, in records: [OperationRecord]) -> [[OperationRecord]] {
        var undone = Set<UInt64>()
        for record in records where record.kind == .undo { undone.insert(record.operation) }
        var groups: [UInt64: [OperationRecord]] = [:]
        var lastPosition: [UInt64: Int] = [:]
        for (position, record) in records.enumerated()
        where record.kind != .undo && record.source == source && !undone.contains(record.operation) {
            groups[record.operation, default: []].append(record)
            lastPosition[record.operation] = position
        }
        return lastPosition.sorted { $0.value > $1.value }.map { groups[$0.key]! }
    }
}
