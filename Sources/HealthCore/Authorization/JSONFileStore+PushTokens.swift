/// A program's push token as listed: its source name and when it was made (the token itself is never kept).
public struct PushTokenRecord: Equatable, Sendable {
    /// The source name the token stands for.
    public var name: String
    /// When the token was made.
    public var created: Date
}

extension JSONFileStore {
    /// Makes a push token for the program `name`: 32 random bytes (256 bits) as URL-safe base64 without padding,
    /// prefixed `hkp_`. Only its SHA-256 digest is kept, in `push-tokens.json` (written atomically under the
    /// exclusive lock, mode 0600), so the token is returned this once and cannot be shown again.
    ///
    /// The name acts as a source: ``HealthStore`` checks its writes against the owner's decisions like any other's.
    ///
    /// - Parameters:
    ///   - name: The source name the token stands for.
    ///   - now: When it is made, as recorded.
    /// - Returns: The token.
    /// - Throws: ``PushTokenError/exists(_:)`` when `name` has a token already, ``PushTokenError/ownerName(_:)`` for
    ///   the owner's name, ``TextError/sourceName(_:)`` for a name ``TextRules`` refuses, store errors.
    public func createPushToken(for name: String, now: Date) throws -> String {
        var generator = SystemRandomNumberGenerator()
        return try createPushToken(for: name, now: now, using: &generator)
    }

    /// ``createPushToken(for:now:)`` with the random bytes from `generator` (which must be cryptographically secure
    /// outside tests).
    public func createPushToken<Generator: RandomNumberGenerator>(for name: String, now: Date, using generator: inout Generator) throws -> String {
        try TextRules.checkSourceName(name)
        guard name != AuthorizationState.ownerSource else { throw PushTokenError.ownerName(name) }
        var bytes: [UInt8] = []
        for _ in 0..<4 {
            let word = generator.next()
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        let token = "hkp_" + Self.base64URL(bytes)
        let entry = PushTokens.Entry(name: name, sha256: PushTokens.digest(of: token), created: now)
        try updatePrivateDocument(PushTokens.fileName, initial: PushTokens()) { tokens in
            guard !tokens.tokens.contains(where: { $0.name == name }) else { throw PushTokenError.exists(name) }
            tokens.tokens.append(entry)
            tokens.tokens.sort { $0.name < $1.name }
        }
        return token
    }

    /// The programs that have a push token, sorted by name.
    ///
    /// - Throws: ``StoreError/corrupt(_:line:reason:)`` when `push-tokens.json` is not valid.
    public func pushTokens() throws -> [PushTokenRecord] {
        try privateDocument(PushTokens.fileName, default: PushTokens()).tokens.map { PushTokenRecord(name: $0.name, created: $0.created) }
    }

    /// Revokes the push token of `name`: a request carrying it is refused from then on.
    ///
    /// - Throws: ``PushTokenError/notFound(_:)`` when `name` has no token, store errors.
    public func revokePushToken(for name: String) throws {
        try updatePrivateDocument(PushTokens.fileName, initial: PushTokens()) { tokens in
            guard tokens.tokens.contains(where: { $0.name == name }) else { throw PushTokenError.notFound(name) }
            tokens.tokens.removeAll { $0.name == name }
        }
    }

    /// The source name a push token stands for, or nil when no stored token matches. The digest of `token` is
    /// compared with every stored digest in full, so the time taken does not tell how close a guess was.
    ///
    /// - Throws: ``StoreError/corrupt(_:line:reason:)`` when `push-tokens.json` is not valid;
    ///   ``StoreError/notMounted(_:mountPoint:)`` when there is no store because the disk it is on is not mounted.
    public func source(forPushToken token: String) throws -> String? {
        if let name = try privateDocument(PushTokens.fileName, default: PushTokens()).name(forToken: token) { return name }
        // No such token. With no store at all, the store may be on a disk that is missing now (its tokens are there).
        if try !isExistingStore() { try refuseStoreOnMissingDisk() }
        return nil
    }

    /// URL-safe base64 (RFC 4648 §5) without padding.
    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var text: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            var value = 0
            for (offset, byte) in chunk.enumerated() { value |= Int(byte) << (16 - 8 * offset) }
            for position in 0...chunk.count { text.append(alphabet[(value >> (18 - 6 * position)) & 0x3F]) }
            index += 3
        }
        return String(decoding: text, as: UTF8.self)
    }
}
