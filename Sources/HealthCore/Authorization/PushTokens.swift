/// The tokens of programs that push samples to a server on the store (such as an app on a phone), kept as SHA-256
/// digests only: the document `push-tokens.json`, which only the push-token API of ``JSONFileStore`` reads and
/// changes.
///
/// A token stands for a source name; the source then needs the owner's permission for each type it writes, like any
/// other source (``HealthStore/decideAuthorization(for:allow:share:read:)``).
struct PushTokens: Codable, Equatable, Sendable {
    /// The document's file name in the store folder.
    static let fileName = "push-tokens.json"

    /// One program's token.
    struct Entry: Codable, Equatable, Sendable {
        /// The source name the token stands for.
        var name: String
        /// The lower-case hex SHA-256 digest of the token's UTF-8 bytes.
        var sha256: String
        /// When the token was made.
        var created: Date
    }

    /// The document's format version.
    var version = 1
    /// The tokens, one per name, sorted by name.
    var tokens: [Entry] = []

    init() {}

    init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        guard version == 1 else {
            throw DecodingError.dataCorruptedError(forKey: .version, in: container,
                                                   debugDescription: "version \(version) is newer than the version 1 this version of HealthCore reads")
        }
        tokens = try container.decode([Entry].self, forKey: .tokens)
        for entry in tokens where entry.sha256.utf8.count != 64 || !entry.sha256.utf8.allSatisfy(Self.isHexDigit) {
            throw DecodingError.dataCorruptedError(forKey: .tokens, in: container,
                                                   debugDescription: "the digest of '\(entry.name)' is not 64 hex digits")
        }
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte)
    }

    /// The hex SHA-256 digest of `token`.
    static func digest(of token: String) -> String {
        let hex = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in SHA256.digest(Array(token.utf8)) { text += [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]] }
        return String(decoding: text, as: UTF8.self)
    }

    /// The name whose token is `token`, comparing its digest with every stored digest in full (time independent of
    /// where a digest first differs, and of which entry matches).
    func name(forToken token: String) -> String? {
        let presented = Array(Self.digest(of: token).utf8)
        var found: String?
        for entry in tokens {
            let stored = Array(entry.sha256.utf8)
            var difference: UInt8 = stored.count == presented.count ? 0 : 1
            for index in 0..<min(stored.count, presented.count) { difference |= stored[index] ^ presented[index] }
            if difference == 0 && found == nil { found = entry.name }
        }
        return found
    }
}
