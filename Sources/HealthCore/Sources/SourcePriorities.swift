/// The priority lists of every type, as kept in the store's `priorities.json`:
/// `{"priorities":{"HKQuantityTypeIdentifierStepCount":["Apple Watch","iPhone"]},"version":1}`.
///
/// Decoding `{}` gives no lists (every type uses ``SourcePriority/automatic``); a document with a newer
/// `version` is refused.
public struct SourcePriorities: Codable, Equatable, Sendable {
    /// The document's name in the store folder.
    public static let documentName = "priorities.json"
    /// The document version this build reads and writes.
    public static let currentVersion = 1

    /// Type identifier → source names, highest first.
    public private(set) var lists: [String: [String]] = [:]

    /// Creates an empty document.
    public init() {}

    /// The priority for the type with this identifier.
    public func priority(for typeIdentifier: String) -> SourcePriority {
        lists[typeIdentifier].map { SourcePriority(uncheckedOrder: $0) } ?? .automatic
    }

    /// Sets the priority of a type; an empty list removes it.
    public mutating func set(_ priority: SourcePriority, for typeIdentifier: String) {
        lists[typeIdentifier] = priority.order.isEmpty ? nil : priority.order
    }

    private enum CodingKeys: String, CodingKey {
        case version, priorities
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decodeIfPresent(Int.self, forKey: .version) ?? SourcePriorities.currentVersion
        guard version <= SourcePriorities.currentVersion else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: [CodingKeys.version],
                debugDescription: SourceError.newerVersion(version, supported: SourcePriorities.currentVersion).description))
        }
        let lists = try container.decodeIfPresent([String: [String]].self, forKey: .priorities) ?? [:]
        for (type, order) in lists {
            do {
                _ = try SourcePriority(order)
            } catch {
                throw DecodingError.dataCorrupted(.init(codingPath: [CodingKeys.priorities], debugDescription: "\(type): \(error)"))
            }
        }
        self.lists = lists
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(SourcePriorities.currentVersion, forKey: .version)
        try container.encode(lists, forKey: .priorities)
    }
}
