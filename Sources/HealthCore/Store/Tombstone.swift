import TextSupport

/// A deleted sample, like HealthKit's `HKDeletedObject`: what syncing clients learn when a sample goes.
public struct Tombstone: Hashable, Sendable {
    /// The deleted sample's uuid.
    public var uuid: UUID
    /// Its type identifier.
    public var typeIdentifier: String
    /// When it was deleted.
    public var deletedAt: Date
    /// The store's change number for the deletion.
    public var sequence: UInt64
    /// The source of the deleted sample, when known (so a source learns of its own deletions).
    public var source: String?

    /// Creates a tombstone.
    public init(uuid: UUID, typeIdentifier: String, deletedAt: Date, sequence: UInt64, source: String? = nil) {
        self.uuid = uuid
        self.typeIdentifier = typeIdentifier
        self.deletedAt = deletedAt
        self.sequence = sequence
        self.source = source
    }
}

/// An opaque position in the store's history of changes, like HealthKit's `HKQueryAnchor`.
///
/// Written as `v1.<base-36 change number>`. Every add and delete takes the next change number, and compaction keeps
/// them, so an anchor stays valid across restarts, compaction and concurrent writers. Only an anchor older than
/// deletions that compaction dropped is refused (``ChangeError/anchorExpired(_:)``), with one exception: a page of a
/// sync that began after that compaction (its deletions were gone before the sync started) ends below them, and is
/// written `v1.<change number>.<highest dropped>.<compactions>`. Such an anchor is accepted until another compaction
/// drops deletions.
public struct ChangeAnchor: Hashable, Sendable, CustomStringConvertible {
    /// The last change number the holder has seen; 0 means "nothing yet".
    public let sequence: UInt64
    /// For an anchor below the change numbers compaction dropped: the compaction it was taken after.
    let compaction: CompactionMark?

    /// The anchor that precedes every change.
    public static let beginning = ChangeAnchor(sequence: 0)

    /// Creates an anchor at a change number.
    public init(sequence: UInt64) {
        self.sequence = sequence
        compaction = nil
    }

    /// An anchor at a change number below `compaction`'s dropped numbers, taken after it (nil: a plain anchor).
    init(sequence: UInt64, after compaction: CompactionMark?) {
        self.sequence = sequence
        self.compaction = compaction.flatMap { sequence < $0.droppedThrough ? $0 : nil }
    }

    /// Reads an anchor printed by ``description``.
    ///
    /// - Throws: ``ChangeError/badAnchor(_:)`` when the text is not an anchor.
    public init(parsing text: String) throws {
        /// A number written as ``description`` writes it: base 36, lowercase, no leading zeros.
        func number(_ part: Substring) -> UInt64? {
            guard let value = UInt64(part, radix: 36), value <= ChangeNumbers.maximum, String(value, radix: 36) == part else {
                return nil
            }
            return value
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.first == "v1", parts.count == 2 || parts.count == 4, let value = number(parts[1]) else {
            throw ChangeError.badAnchor(text)
        }
        sequence = value
        if parts.count == 4 {
            guard let dropped = number(parts[2]), let generation = number(parts[3]), value < dropped else {
                throw ChangeError.badAnchor(text)
            }
            compaction = CompactionMark(droppedThrough: dropped, generation: generation)
        } else {
            compaction = nil
        }
    }

    public var description: String {
        let text = "v1." + String(sequence, radix: 36)
        guard let compaction else { return text }
        return text + "." + String(compaction.droppedThrough, radix: 36) + "." + String(compaction.generation, radix: 36)
    }
}

/// The answer to "what changed since this anchor?".
public struct ChangeSet: Sendable {
    /// Samples added after the anchor (and not deleted since), oldest change first.
    public var added: [Sample]
    /// Samples deleted after the anchor.
    public var deleted: [Tombstone]
    /// The anchor to pass next time.
    public var anchor: ChangeAnchor
}

/// What ``JSONFileStore/compact(now:retention:)`` did.
public struct CompactionReport: Equatable, Sendable {
    /// Partition files rewritten without deleted samples.
    public var partitionsRewritten = 0
    /// Deleted samples removed from partitions.
    public var samplesRemoved = 0
    /// Tombstones older than the retention that were dropped.
    public var tombstonesDropped = 0
}

/// Errors of deletions and change queries.
public enum ChangeError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// Not an anchor the store gave (``ChangeAnchor/description``).
    case badAnchor(String)
    /// An anchor from a later point than this store has reached (another store's anchor).
    case anchorFromTheFuture(String)
    /// The anchor predates tombstones that compaction has dropped, so deletions since then cannot be listed.
    case anchorExpired(String)
    /// Some uuids name no sample in the store.
    case notFound([UUID])
    /// A replacement (``JSONFileStore/replace(_:with:source:now:)``) names uuids of no sample it may
    /// replace; nothing was changed.
    case notFoundToReplace([UUID])
    /// A source asked to delete the sample of a type it saved last and has saved none
    /// that is still stored; nothing was deleted.
    case nothingOfTypeToDelete(type: String, source: String)
    /// A replacement would move a correlation's member outside the correlation's dates (a blood pressure reading's
    /// systolic sample to another time); nothing was changed.
    case memberLeavesCorrelation(member: UUID, correlation: UUID, type: String)

    public var description: String {
        switch self {
        case let .badAnchor(text):
            return "The anchor '\(text)' is not valid; pass an anchor exactly as the changes gave it, or start over without one."
        case let .anchorFromTheFuture(text):
            return "The anchor '\(text)' is ahead of this store (is it from another store?); start over without an anchor."
        case let .anchorExpired(text):
            return "The anchor '\(text)' is older than the deletions kept after the last compaction; start over without an anchor to sync everything again."
        case let .notFound(uuids):
            return "No sample has the uuid \(uuids.map { $0.lowercasedText }.joined(separator: ", ")); nothing was deleted."
        case let .notFoundToReplace(uuids):
            return "No sample this source may change has the uuid \(uuids.map { $0.lowercasedText }.joined(separator: ", ")); "
                + "nothing was changed (a source changes only its own samples)."
        case let .nothingOfTypeToDelete(type, source):
            return "'\(source)' has no \(type) sample to delete; nothing was deleted."
        case let .memberLeavesCorrelation(member, correlation, type):
            return "The sample \(member.lowercasedText) belongs to the \(CorrelationType.identified(type)?.name ?? type) correlation \(correlation.lowercasedText), and its "
                + "new times would lie outside the correlation's; nothing was changed. Keep its times within the "
                + "correlation's, or delete the correlation and add it again."
        }
    }

    public var errorDescription: String? { description }
}
