import TextSupport

/// One line of the store's `operations.jsonl`: a write the store made for a source (an add, an import batch or a
/// delete), or an undo of one, so that the source's last one can be taken back. See docs/STORE.md, "Operations and
/// undo".
///
/// ```
/// {"op":"add","id":120,"source":"hkctl","at":"2024-06-01T12:00:00+00:00","first":120,"last":120,"types":["…"]}
/// {"op":"undo","undoes":120,"source":"hkctl","at":"…","first":121,"last":121,"types":["…"]}
/// ```
public struct OperationRecord: Equatable, Sendable {
    /// What the write was.
    public enum Kind: String, Sendable, CaseIterable {
        /// An add: one sample, or a workout or correlation with its members.
        case add
        /// One batch of an import; an import writes a line per batch, all with the same ``operation``.
        case `import`
        /// A delete: tombstones.
        case delete
        /// A replacement (a save whose samples replace stored ones by their sync identifier, or an edit): in one
        /// write, tombstones for the replaced samples (the first ``OperationRecord/replaced`` numbers of its range),
        /// then the new samples (none, when the write only took samples out in favour of others the operation wrote).
        case replace
        /// An undo: takes back the operation ``operation`` names.
        case undo
    }

    public var kind: Kind
    /// For an add, import or delete: the operation's id, the first change number of its first write. For an undo: the
    /// id of the operation it took back.
    public var operation: UInt64
    /// The source that made the write (the acting source, `hkctl` for the owner).
    public var source: String
    /// When the write was made.
    public var date: Date
    /// The change numbers this write's lines carry, all its own (a write reserves them under the store's lock); nil
    /// for an undo that had nothing left to write.
    public var changes: ClosedRange<UInt64>?
    /// The type identifiers of the lines written.
    public var types: [String]
    /// A replace: how many of the first numbers of ``changes`` are tombstones (the rest are the new samples); 0 for
    /// every other kind.
    public var replaced: Int

    /// Creates a record.
    public init(kind: Kind, operation: UInt64, source: String, date: Date, changes: ClosedRange<UInt64>?, types: [String],
                replaced: Int = 0) {
        self.kind = kind
        self.operation = operation
        self.source = source
        self.date = date
        self.changes = changes
        self.types = types
        self.replaced = replaced
    }

    /// A replace's change numbers that are tombstones (nil for another kind).
    var tombstoneNumbers: ClosedRange<UInt64>? {
        guard kind == .replace, let changes, replaced > 0 else { return nil }
        return changes.lowerBound...changes.lowerBound + UInt64(replaced - 1)
    }

    /// The change numbers that are sample lines: all of an add's or import's, those after a replace's tombstones.
    var sampleNumbers: ClosedRange<UInt64>? {
        guard let changes, kind != .delete else { return nil }
        guard kind == .replace else { return changes }
        let first = changes.lowerBound + UInt64(replaced)
        return first <= changes.upperBound ? first...changes.upperBound : nil
    }

    /// The record as one line of compact JSON, keys in a fixed order, dates with the offset of `zone`.
    func line(zone: ZoneRules) -> String {
        var text = "{\"op\":\"\(kind.rawValue)\",\"\(kind == .undo ? "undoes" : "id")\":\(operation),"
            + "\"source\":\(JSONText.quoted(source)),\"at\":\"\(ISODate.format(date, in: zone))\""
        if let changes { text += ",\"first\":\(changes.lowerBound),\"last\":\(changes.upperBound)" }
        if kind == .replace { text += ",\"replaced\":\(replaced)" }
        return text + ",\"types\":[" + types.map(JSONText.quoted).joined(separator: ",") + "]}"
    }

    /// Reads a line written by ``line(zone:)``; nil when it is not a valid record (unknown keys are skipped).
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> OperationRecord? {
        var scanner = JSONLineScanner(bytes)
        var kind: Kind?, operation: UInt64?, undoes: UInt64?, source: String?, date: Date?
        var first: UInt64?, last: UInt64?, replaced: UInt64?
        var types: [String] = []
        do {
            try scanner.readObject { scanner, key in
                switch key {
                case "op": kind = Kind(rawValue: try scanner.readString())
                case "id": operation = ChangeNumbers.exact(try scanner.readNumber())
                case "undoes": undoes = ChangeNumbers.exact(try scanner.readNumber())
                case "source": source = try scanner.readString()
                case "at": date = ISODate.parse(try scanner.readString())
                case "first": first = ChangeNumbers.exact(try scanner.readNumber())
                case "last": last = ChangeNumbers.exact(try scanner.readNumber())
                case "replaced": replaced = ChangeNumbers.exact(try scanner.readNumber())
                case "types":
                    try scanner.expect(UInt8(ascii: "["))
                    while scanner.peek() == UInt8(ascii: "\"") {
                        types.append(try scanner.readString())
                        if scanner.peek() == UInt8(ascii: ",") { scanner.index += 1 }
                    }
                    try scanner.expect(UInt8(ascii: "]"))
                default: try scanner.skipValue()
                }
            }
        } catch {
            return nil
        }
        guard let kind, let source, !source.isEmpty, let date, (first == nil) == (last == nil) else { return nil }
        var changes: ClosedRange<UInt64>?
        if let first, let last {
            guard first >= 1, first <= last else { return nil }
            changes = first...last
        }
        if kind == .undo {
            guard let undoes, operation == nil else { return nil }
            return OperationRecord(kind: kind, operation: undoes, source: source, date: date, changes: changes, types: types)
        }
        // An add, import or delete always wrote lines, and its id is the first number of its first write.
        guard let operation, undoes == nil, let changes, operation <= changes.lowerBound else { return nil }
        // A replace names how many of its numbers are tombstones (at least one, at most all: the write that takes
        // another source's samples out in favour of an import's, as an export's import does with the Health Auto
        // Export points its samples cover, writes only tombstones); no other kind does.
        var count = 0
        if kind == .replace {
            guard let replaced, replaced >= 1, replaced <= changes.upperBound - changes.lowerBound + 1 else { return nil }
            count = Int(replaced)
        } else if replaced != nil {
            return nil
        }
        return OperationRecord(kind: kind, operation: operation, source: source, date: date, changes: changes, types: types,
                               replaced: count)
    }
}
