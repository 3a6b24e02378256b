import TextSupport

/// The start of a uuid as a person copies it from a listing, git-style: at least 8 hexadecimal digits
/// (`1332c702`, `1332c702-7f1a`), dashes where a uuid has them, any case.
public struct UUIDPrefix: Hashable, Sendable, CustomStringConvertible {
    /// The fewest hexadecimal digits a prefix may have.
    public static let minimumDigits = 8

    /// The prefix as typed.
    public let text: String
    /// Its hexadecimal digits' values, in order.
    private let nibbles: [UInt8]

    /// Reads `text`; nil when it is not the start of a uuid of at least ``minimumDigits`` digits.
    public init?(_ text: String) {
        var nibbles: [UInt8] = []
        // A uuid's dashes come after 8, 12, 16 and 20 digits.
        for (offset, byte) in text.utf8.enumerated() {
            if byte == UInt8(ascii: "-") {
                guard [8, 12, 16, 20].contains(nibbles.count), offset == nibbles.count + [8, 12, 16, 20].firstIndex(of: nibbles.count)! else {
                    return nil
                }
                continue
            }
            guard let value = UUIDPrefix.hexValue(byte), nibbles.count < 32 else { return nil }
            nibbles.append(value)
        }
        guard nibbles.count >= UUIDPrefix.minimumDigits else { return nil }
        self.text = text
        self.nibbles = nibbles
    }

    /// Whether `uuid` starts with this prefix.
    public func matches(_ uuid: UUID) -> Bool {
        withUnsafeBytes(of: uuid.uuid) { bytes in
            for (index, nibble) in nibbles.enumerated() {
                let byte = bytes[index / 2]
                if (index % 2 == 0 ? byte >> 4 : byte & 0x0F) != nibble { return false }
            }
            return true
        }
    }

    public var description: String { text }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

/// Why a uuid prefix names no single sample.
public enum UUIDPrefixError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    /// No sample's uuid starts with it.
    case noMatch(String)
    /// Several samples' uuids start with it; the candidates are listed (at most a few).
    case ambiguous(String, candidates: [UUID])
    /// The word is neither a uuid, a uuid prefix nor a type.
    case notAUUID(String)

    public var description: String {
        switch self {
        case let .noMatch(prefix):
            return "'\(prefix)' is not a uuid or a unique uuid prefix: no sample's uuid starts with it; list the samples to see their uuids."
        case let .ambiguous(prefix, candidates):
            return "'\(prefix)' is the start of \(candidates.count == UUIDPrefixError.shownCandidates ? "\(candidates.count) or more" : "\(candidates.count)") "
                + "uuids (\(candidates.map(\.lowercasedText).joined(separator: ", "))); give more of it."
        case let .notAUUID(text):
            return "'\(text)' is not a uuid or a unique uuid prefix (at least \(UUIDPrefix.minimumDigits) hexadecimal digits); list the samples to see their uuids."
        }
    }

    /// How many candidates an ambiguous prefix lists at most.
    public static let shownCandidates = 10

    public var errorDescription: String? { description }
}

extension JSONFileStore {
    /// The samples (not deleted) whose uuid starts with `prefix`, in chronological order, at most `limit`.
    ///
    /// - Throws: ``StoreError``.
    public func samples(withUUIDPrefix prefix: UUIDPrefix, limit: Int = UUIDPrefixError.shownCandidates) throws -> [Sample] {
        try samples(limit: limit, lines: UUIDLineFilter(prefix: prefix)) { prefix.matches($0) }
    }
}
