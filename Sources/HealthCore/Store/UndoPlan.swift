/// What ``JSONFileStore/undo(source:expecting:now:)`` takes back (or took back): a source's newest operation that is
/// not undone yet, and what of it is left to change.
///
/// Undoing an add or an import deletes the samples it saved that still exist (with tombstones, so syncing clients
/// learn of it); undoing a delete restores the samples it deleted, as copies with new uuids.
public struct UndoPlan: Equatable, Sendable {
    /// ``OperationRecord/Kind/add``, ``OperationRecord/Kind/import``, ``OperationRecord/Kind/delete`` or
    /// ``OperationRecord/Kind/replace`` (undone by deleting its new samples and restoring the replaced ones as copies).
    public var kind: OperationRecord.Kind
    /// The operation's id (``OperationRecord/operation``).
    public var operation: UInt64
    /// The source that made it, and undoes it.
    public var source: String
    /// When it was made (its last write).
    public var date: Date
    /// How many samples it saved, or deleted, as recorded.
    public var recorded: Int
    /// The type identifiers of what it saved or deleted, as recorded.
    public var types: [String]
    /// The samples the undo deletes (an add or import) or restores (a delete), per type identifier.
    public var changes: [String: Int] = [:]
    /// An add or import: its samples deleted since, which are left as they are.
    public var alreadyDeleted = 0
    /// A delete or replace: its samples that are back already (an import brought them back, or an undo that was
    /// interrupted restored them), which are not restored twice; and Health Auto Export points that samples of an
    /// Apple Health export imported since hold whole, which are not restored beside them.
    public var alreadyPresent = 0
    /// A delete: its samples compaction (``JSONFileStore/compact(now:retention:)``) has removed from disk since, which can no longer be restored.
    public var compactedAway = 0
    /// A delete or replace: its samples that were saved by an add, import or replace undone since, which stay deleted
    /// (undoing the operation that deleted a taken-back push never brings the push back).
    public var undoneSince = 0
    /// A replace: the samples it wrote itself and replaced later in the same operation (an import that met a greater
    /// version after saving the lower, or took out the records it added for an older version of a correlation), which
    /// an undo leaves deleted: the store did not hold them before it.
    public var replacedWithin = 0
    /// A delete or replace: how many of ``changes`` are restored copies (a replace's undo deletes the others).
    public var restored = 0
    /// A delete or replace: the stored workouts and correlations of the restored samples' source that name a sample
    /// the undo restores as a copy, rewritten in its last write to name the copy, by type identifier (not counted in
    /// ``changes``).
    public var rewritten: [String: Int] = [:]

    /// How many samples the undo changes.
    public var total: Int { changes.values.reduce(0, +) }

    /// Creates a plan that changes nothing yet.
    public init(kind: OperationRecord.Kind, operation: UInt64, source: String, date: Date, recorded: Int, types: [String]) {
        self.kind = kind
        self.operation = operation
        self.source = source
        self.date = date
        self.recorded = recorded
        self.types = types
    }
}
