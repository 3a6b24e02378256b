/// What an import does with the characteristics of an export (date of birth, biological sex, blood type, skin type,
/// and kinds the library keeps generically such as wheelchair use) against those the store already has.
///
/// A characteristic the store does not have yet is added. One the store has with another value keeps the store's
/// value, unless `replace` is true: an export must not rewrite who the
/// person is because a phone was set up differently. Equal values change nothing.
public struct CharacteristicsMerge: Equatable, Sendable {
    /// What happened to one characteristic of the export.
    public enum Outcome: String, Sendable {
        /// The store had none; the export's value is taken.
        case added
        /// The store's value differs and is kept.
        case kept
        /// The store's value differs and is replaced by the export's.
        case replaced
        /// The store already has the export's value.
        case unchanged
    }

    /// One characteristic the export holds.
    public struct Entry: Equatable, Sendable {
        /// The key as ``Characteristics`` names it (`blood-type`), or the export attribute of a generic one.
        public var key: String
        /// The store's value before the import, as text; nil when it had none.
        public var stored: String?
        /// The export's value.
        public var imported: String
        /// What the import does with it.
        public var outcome: Outcome
    }

    /// Every characteristic the export holds, in ``Characteristics/entries`` order.
    public let entries: [Entry]
    /// The characteristics to store.
    public let result: Characteristics

    /// Compares `imported` with `stored` and decides.
    ///
    /// - Parameters:
    ///   - stored: What the store has.
    ///   - imported: What the export holds (unset fields are not part of it).
    ///   - replace: Take the export's value where the two differ.
    public init(stored: Characteristics, imported: Characteristics, replace: Bool) {
        let before = Dictionary(stored.entries.compactMap { entry in entry.value.map { (entry.key, $0) } }) { first, _ in first }
        var result = stored
        var entries: [Entry] = []
        for case let (key, value?) in imported.entries {
            let current = before[key]
            let outcome: Outcome = current == nil ? .added : current == value ? .unchanged : replace ? .replaced : .kept
            if outcome == .added || outcome == .replaced { result.take(key, from: imported) }
            entries.append(Entry(key: key, stored: current, imported: value, outcome: outcome))
        }
        self.entries = entries
        self.result = result
    }

    /// The entries with `outcome`.
    public func entries(_ outcome: Outcome) -> [Entry] { entries.filter { $0.outcome == outcome } }

    /// Whether the store's characteristics change.
    public var changesStore: Bool { entries.contains { $0.outcome == .added || $0.outcome == .replaced } }
}

extension Characteristics {
    /// Copies the characteristic `key` (a key of ``entries``) from `other`.
    mutating func take(_ key: String, from other: Characteristics) {
        switch key {
        case "date-of-birth": dateOfBirth = other.dateOfBirth
        case "biological-sex": biologicalSex = other.biologicalSex
        case "blood-type": bloodType = other.bloodType
        case "skin-type": skinType = other.skinType
        default:
            guard let value = other.generic?[key] else { return }
            generic = generic ?? [:]
            generic![key] = value
        }
    }
}
