/// What a ``JSONFileStore``'s writes are recorded as in `operations.jsonl` (``JSONFileStore/recording``), so that
/// ``JSONFileStore/undo(source:expecting:now:)`` can take them back: the kind of operation, the source it is made for
/// and when. Every save and delete made while it is set belongs to one operation, also across store instances that
/// share it (an import's batches, a ``HealthStore``'s fresh instances): its copies share the operation's id.
public struct OperationRecording: Sendable {
    /// An add, an import or a delete (undo records itself).
    public var kind: OperationRecord.Kind
    /// The acting source (`hkctl` for the owner), whose undo takes it back.
    public var source: String
    /// When the operation was made (the writer's "now").
    public var date: Date
    /// The operation's id once its first write has given it one (the first change number of that write).
    let identity = Identity()

    /// Creates a recording of a new operation; `kind` must not be ``OperationRecord/Kind/undo``.
    public init(kind: OperationRecord.Kind, source: String, date: Date) {
        precondition(kind != .undo, "an undo records itself")
        self.kind = kind
        self.source = source
        self.date = date
    }

    /// The id the first recorded write gives the operation, shared by every copy of the recording.
    final class Identity: @unchecked Sendable {
        private let lock = Lock()
        private var id: UInt64?

        /// The id, if a write has given one.
        var value: UInt64? {
            lock.lock()
            defer { lock.unlock() }
            return id
        }

        /// Gives the operation `id` unless a write gave it one already.
        func claim(_ candidate: UInt64) {
            lock.lock()
            if id == nil { id = candidate }
            lock.unlock()
        }
    }
}
