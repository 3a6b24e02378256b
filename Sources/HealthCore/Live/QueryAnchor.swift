/// Where an anchored query left off: HealthKit's `HKQueryAnchor`.
///
/// It wraps the store's ``ChangeAnchor`` (a change number), so it stays valid across restarts, compaction and other
/// processes' writes, and it prints and parses as a ``ChangeAnchor`` does (`v1.<base 36>`).
public struct QueryAnchor: Hashable, Sendable, CustomStringConvertible {
    /// The store's anchor.
    public let changeAnchor: ChangeAnchor

    /// The anchor of a store's position.
    public init(_ changeAnchor: ChangeAnchor) { self.changeAnchor = changeAnchor }

    /// Reads an anchor printed by ``description``.
    ///
    /// - Throws: ``ChangeError/badAnchor(_:)`` when the text is not an anchor.
    public init(parsing text: String) throws { changeAnchor = try ChangeAnchor(parsing: text) }

    /// HealthKit's `HKQueryAnchor(fromValue:)`: the anchor after change number `value`.
    public init(fromValue value: Int) { changeAnchor = ChangeAnchor(sequence: UInt64(max(0, value))) }

    public var description: String { changeAnchor.description }
}

/// An anchor is kept between runs the way HealthKit code keeps one (HealthKit's `HKQueryAnchor` is
/// `NSSecureCoding`): encoded, it is its ``description`` as a single string (`"v1.2s"`), which decodes back to the
/// same anchor.
extension QueryAnchor: Codable {
    /// Decodes an anchor from the string ``encode(to:)`` wrote.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when the string is not an anchor.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(error)")
        }
    }

    /// Encodes the anchor as its ``description``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// A sample that was deleted: HealthKit's `HKDeletedObject`, made from the store's ``Tombstone``.
public struct DeletedObject: Hashable, Sendable {
    /// The deleted sample's uuid.
    public let uuid: UUID
    /// As HealthKit's `metadata`, `[String: Any]?`, keeping only what syncing needs; the store keeps none, so it is nil.
    public var metadata: [String: Any]? { nil }
    /// The deleted sample's type identifier (HealthKit does not say; the store knows).
    public let typeIdentifier: String
    /// When it was deleted.
    public let deletedAt: Date

    /// The deletion a tombstone records.
    public init(_ tombstone: Tombstone) {
        uuid = tombstone.uuid
        typeIdentifier = tombstone.typeIdentifier
        deletedAt = tombstone.deletedAt
    }
}
