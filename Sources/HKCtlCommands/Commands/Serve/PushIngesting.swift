/// What the server does with a push once its request is whole: the store behind `hkctl serve`, a fake in tests.
protocol PushIngesting: Sendable {
    /// The source name a push token stands for, or nil when it matches none.
    func source(forToken token: String) throws -> String?
    /// Parses a Health Auto Export body and stores its samples as arriving through `source`.
    ///
    /// - Throws: ``PushRefusal`` for a body that is not a payload or a source without permission (nothing stored);
    ///   store errors otherwise.
    func store(_ body: [UInt8], through source: String) throws -> PushReceipt
}

/// What a stored push reports: the import receipt as JSON, and the counts for the log line.
struct PushReceipt: Sendable, Equatable {
    /// The receipt, one JSON object.
    var json: String
    /// Samples added.
    var added: Int
    /// Samples that replaced a stored one (a re-send with a changed value).
    var replaced: Int
    /// Points refused one by one (a value that cannot be read, a type Apple computes); the receipt says why.
    var refused: Int = 0
}

/// Why a push was refused before anything was stored.
enum PushRefusal: Error, Equatable {
    /// The body is not a Health Auto Export payload (or not JSON); payload: why.
    case badPayload(String)
    /// The source may not write some of the payload's types; payload: the message naming the grant command.
    case notPermitted(String)
}
