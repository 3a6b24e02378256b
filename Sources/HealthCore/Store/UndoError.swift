/// Why ``JSONFileStore/undo(source:expecting:now:)`` undid nothing.
public enum UndoError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// The source has no add, import, delete or replacement left that is not undone; payload: the source.
    case nothingToUndo(source: String)
    /// The source has no operation left that is not undone and wrote samples of the type; payload: the source and the
    /// type's name.
    case nothingOfTypeToUndo(source: String, type: String)
    /// Another process undid or wrote something of this source between showing the plan and undoing it; payload: the
    /// operation shown.
    case changedMeanwhile(shown: UInt64)
    /// The newest operation that wrote the type asked for would bring back samples that a newer operation of the
    /// source replaced or deleted since (a food entry two corrections rewrote): undoing it alone would leave both
    /// versions half in place. Payload: the type's name and the types the two operations share.
    case newerChangeInTheWay(type: String, shared: [String])

    public var description: String {
        switch self {
        case let .nothingToUndo(source):
            return "Nothing to undo: source '\(source)' has no add, import, delete or replacement left that is not undone yet "
                + "(an undo takes back only what this source did, newest first)."
        case let .nothingOfTypeToUndo(source, type):
            return "Nothing to undo for \(type): source '\(source)' has no add, import, delete or replacement of \(type) left that is not "
                + "undone yet (an undo without a type takes back the source's newest operation of any type)."
        case .changedMeanwhile:
            return "The store changed between showing the undo and doing it (another process undid or wrote something); "
                + "nothing was undone: ask again what the undo would take back now."
        case let .newerChangeInTheWay(type, shared):
            return "Nothing was undone: the newest change of \(type) would bring back \(shared.joined(separator: ", ")) samples "
                + "that a newer replacement or delete of this source changed since; undo the newer operations first "
                + "(an undo without a type takes back the newest)."
        }
    }

    public var errorDescription: String? { description }
}
