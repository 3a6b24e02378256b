import TextSupport

/// Converts between a typed state of mind and the form the Health XML and CSV exports write it in, which an import
/// reads back as the same state of mind.
///
/// Apple's own export has no element for a state of mind (the DTD of `HealthKit Export Version: 14` lists none), so a
/// state of mind is a `Record` of type `HKDataTypeStateOfMind` whose `value` is HealthKit's constant for its kind
/// (`HKStateOfMindKindMomentaryEmotion`, `HKStateOfMindKindDailyMood`, as category values are written by their
/// constants), with four metadata entries:
///
/// | key | value |
/// |---|---|
/// | `HKStateOfMindValence` | the valence, a number (`hkctlType="number"` in Health XML) |
/// | `HKStateOfMindValenceClassification` | its band's constant (`HKStateOfMindValenceClassificationPleasant`); derived, so an import ignores it |
/// | `HKStateOfMindLabels` | the labels' constants, comma-separated (`HKStateOfMindLabelCalm,HKStateOfMindLabelGrateful`); absent when none |
/// | `HKStateOfMindAssociations` | the associations' constants (`HKStateOfMindAssociationWork`); absent when none |
///
/// The keys are HealthCore's (HealthKit has no metadata keys for these); a state of mind's own metadata keeps its other
/// keys. An import reads HealthKit's constant names, the Swift case names (`calm`, `selfCare`) or raw values; a record
/// whose entries do not read (a word outside HealthKit's sets, a valence outside -1...1) is kept as written, untyped.
enum StateOfMindExportForm {
    static let valenceKey = "HKStateOfMindValence"
    static let classificationKey = "HKStateOfMindValenceClassification"
    static let labelsKey = "HKStateOfMindLabels"
    static let associationsKey = "HKStateOfMindAssociations"

    /// The export form of a typed state of mind (the sample itself when it is not one).
    static func generic(_ typed: Sample) -> Sample {
        guard typed.typeIdentifier == StateOfMind.typeIdentifier, let state = StateOfMind(typed) else { return typed }
        var generic = typed
        generic.detail = nil
        generic.value = .generic(value: constant("HKStateOfMindKind", state.kind.name), unit: nil)
        generic.metadata[valenceKey] = .number(state.valence)
        generic.metadata[classificationKey] = .string(constant("HKStateOfMindValenceClassification", state.valenceClassification.name))
        if !state.labels.isEmpty {
            generic.metadata[labelsKey] = .string(state.labels.map { constant("HKStateOfMindLabel", $0.name) }.joined(separator: ","))
        }
        if !state.associations.isEmpty {
            generic.metadata[associationsKey] = .string(state.associations.map { constant("HKStateOfMindAssociation", $0.name) }
                .joined(separator: ","))
        }
        return generic
    }

    /// The typed state of mind of a record in the export form, or nil to keep it as written (another type, or entries
    /// that do not read).
    static func typed(_ generic: Sample) -> Sample? {
        guard generic.typeIdentifier == StateOfMind.typeIdentifier, generic.detail == nil,
              case let .generic(kindText, _) = generic.value,
              let kind = word(kindText, prefix: "HKStateOfMindKind", as: StateOfMind.Kind.self) else { return nil }
        let valence: Double?
        switch generic.metadata[valenceKey] {
        case let .number(number)?: valence = number
        case let .string(text)?: valence = DecimalParser.parse(text)
        case nil: valence = nil
        }
        guard let valence, valence.isFinite, StateOfMind.valenceRange.contains(valence),
              let labels = words(generic.metadata[labelsKey], prefix: "HKStateOfMindLabel", as: StateOfMind.Label.self),
              let associations = words(generic.metadata[associationsKey], prefix: "HKStateOfMindAssociation",
                                       as: StateOfMind.Association.self) else { return nil }
        var typed = generic
        for key in [valenceKey, classificationKey, labelsKey, associationsKey] { typed.metadata[key] = nil }
        typed.value = .category(kind.rawValue)
        typed.detail = .stateOfMind(StateOfMindDetail(valence: valence, labels: labels, associations: associations))
        return typed
    }

    /// `HKStateOfMindLabel` + `Calm` for the case `calm`.
    private static func constant(_ prefix: String, _ name: String) -> String {
        prefix + name.prefix(1).uppercased() + name.dropFirst()
    }

    private static func word<Word: NamedCase>(_ text: String, prefix: String, as _: Word.Type) -> Word? {
        let trimmed = text.trimmingSpaces()
        return Word.named(trimmed.hasPrefix(prefix) ? String(trimmed.dropFirst(prefix.count)) : trimmed)
    }

    /// The words of a comma-separated entry (none when absent or empty), or nil when one does not read.
    private static func words<Word: NamedCase>(_ value: MetadataValue?, prefix: String, as type: Word.Type) -> [Word]? {
        guard let value else { return [] }
        guard case let .string(text) = value else { return nil }
        var result: [Word] = []
        for part in text.split(separator: ",") {
            guard let word = word(String(part), prefix: prefix, as: type) else { return nil }
            result.append(word)
        }
        return result
    }
}
