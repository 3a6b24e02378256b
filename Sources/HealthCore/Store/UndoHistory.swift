/// What an undo needs to know of the operations before it (`operations.jsonl`): which were undone, and which other
/// source's replacements wrote samples in place of the acting source's.
struct UndoHistory {
    /// The operations undone so far.
    let undone: Set<UInt64>
    /// The deletes and replaces undone so far, in order: the copies their undos restored stand in for the samples they
    /// had deleted.
    let undoneDeletes: [UInt64]
    /// The replaces of sources other than the acting one that are not undone, by their change numbers.
    private let othersReplaces: [OperationRecord]
    /// The sample lines of adds, imports and replaces undone so far.
    private let undoneWrites: [ClosedRange<UInt64>]
    /// The tombstone numbers of the deletes and replaces undone so far, each with its operation.
    private let undoneTombstones: [(numbers: ClosedRange<UInt64>, operation: UInt64)]

    init(records: [OperationRecord], source: String) {
        let undone = Set(records.filter { $0.kind == .undo }.map(\.operation))
        self.undone = undone
        undoneDeletes = Set(records.filter { ($0.kind == .delete || $0.kind == .replace) && undone.contains($0.operation) }
            .map(\.operation)).sorted()
        othersReplaces = records.filter { $0.kind == .replace && $0.source != source && !undone.contains($0.operation) }
        undoneWrites = records.filter { $0.kind != .undo && $0.kind != .delete && undone.contains($0.operation) }
            .compactMap(\.sampleNumbers)
        undoneTombstones = records.filter { ($0.kind == .delete || $0.kind == .replace) && undone.contains($0.operation) }
            .compactMap { record in (record.kind == .delete ? record.changes : record.tombstoneNumbers).map { ($0, record.operation) } }
    }

    /// The undone delete or replace that wrote the tombstone with change number `sequence`, whose undo restored a copy
    /// of the sample it deleted (``JSONFileStore/restoredUUID(_:undoingDelete:)``); nil when it is not one.
    func undoneDelete(ofTombstone sequence: UInt64) -> UInt64? {
        undoneTombstones.first { $0.numbers.contains(sequence) }?.operation
    }

    /// Whether a replace was undone (its undo may have restored a line under its own uuid).
    var hasUndoneReplaces: Bool { !undoneDeletes.isEmpty }
    /// Whether another source replaced anything that is still in place.
    var hasReplacesByOthers: Bool { !othersReplaces.isEmpty }

    /// The sample lines of the other source's replace whose tombstone has change number `sequence`, when it is one:
    /// the samples that write put in place of the ones it deleted (a remainder keeps the sync identifier and source of
    /// the point it is the rest of).
    func successorWrite(ofTombstone sequence: UInt64) -> ClosedRange<UInt64>? {
        guard let record = othersReplaces.first(where: { $0.tombstoneNumbers?.contains(sequence) ?? false }) else { return nil }
        return record.sampleNumbers
    }

    /// Whether the sample line with change number `sequence` was written by an add, import or replace undone since.
    func wasUndone(line sequence: UInt64) -> Bool {
        undoneWrites.contains { $0.contains(sequence) }
    }
}
