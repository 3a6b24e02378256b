import TextSupport

/// Turns the elements of a Health Auto Export payload's `stateOfMind` array into typed ``StateOfMind`` samples (see
/// docs/IMPORT.md, "Health Auto Export moods").
///
/// An element is `{"id", "start", "end", "kind", "labels": [...], "associations": [...], "valence",
/// "valenceClassification", "metadata"}`. HAE's documentation and its payloads disagree on spellings (its page shows
/// `"kind": "mood"`, `"labels": ["Calm"]` and a classification `1`; payloads carry `"very_pleasant"`), so words are
/// read in any case and with `_`, `-` or spaces (`Daily Mood`, `daily_mood`, `dailyMood`), or as HealthKit's raw
/// values:
/// - `kind`: HealthKit's kinds, `mood`/`daily` for a daily mood, `emotion`/`momentary` for a momentary emotion.
///   Missing or another word: refused (it cannot be told which HealthKit kind it is).
/// - `valence`: a number in -1...1, required; anything else is refused.
/// - `labels`, `associations`: HealthKit's words (``StateOfMind/Label``, ``StateOfMind/Association``). A word outside
///   HealthKit's sets is not dropped: it is kept as written in the metadata `HAE:labels` / `HAE:associations` (JSON).
/// - `valenceClassification` is HealthKit's function of the valence (``StateOfMind/valenceClassification``), so it is
///   not stored.
/// - `metadata`: kept, each entry under its key (text, or a number); a key the import sets itself (the sync marks,
///   `HAE…`) is kept as `HAE:metadata:<key>`.
/// - Identity: the sync identifier `HAE|stateOfMind|<id>` with the source, so a re-send is unchanged or replaces the
///   stored mood (also when its time changed); without an `id`, `HAE|stateOfMind|<start, UTC>`. `id` is kept as
///   `HKExternalUUID`.
/// - An element an earlier version kept untyped (type `HealthAutoExport_stateOfMind`, sync identifier
///   `HAE|stateOfMind|<start, UTC>|<id>`) is replaced by the typed mood when the element arrives again, so it is not
///   held twice (``HAECandidate/former``).
enum HAEStateOfMind {
    /// The payload array they come in.
    static let array = "stateOfMind"
    /// The fields read into the mood's typed parts; the rest are kept as `HAE:<key>` metadata.
    private static let understood: Set<String> = [
        "id", "start", "end", "date", "startDate", "endDate", "kind", "labels", "associations", "valence",
        "valenceClassification", "metadata", "source",
    ]

    static func candidate(_ item: HAEOtherItem, builder: HAESampleBuilder) -> HAEBuilt {
        let type = StateOfMind.typeIdentifier
        func refused(_ reason: String) -> HAEBuilt { .refused(type: type, line: item.line, reason: reason) }
        guard let tree = try? HAEJSONTree.parse(item.json), case let .object(fields) = tree else {
            return refused("an element of 'stateOfMind' must be an object with 'start', 'kind' and 'valence'")
        }
        guard let start = (tree["start"] ?? tree["date"] ?? tree["startDate"])?.date else {
            return refused("the mood has no 'start' date like 2024-02-06 14:00:00 -0800")
        }
        let at = ISODate.format(start, in: .gmt)
        if start.timeIntervalSince(builder.created) > HAESampleBuilder.clockTolerance {
            return refused("the mood at \(at) starts after now: it has already been felt; check the phone's date and time")
        }
        let end = (tree["end"] ?? tree["endDate"])?.date ?? start
        guard end >= start else {
            return refused("the mood ends (\(ISODate.format(end, in: .gmt))) before it starts (\(at))")
        }
        guard let kindValue = tree["kind"], let kind = kind(kindValue) else {
            let written = tree["kind"].map(\.json) ?? "missing"
            return refused("the mood at \(at) has 'kind' \(written); use HealthKit's momentaryEmotion or dailyMood "
                           + "(or emotion, mood)")
        }
        guard let valenceValue = tree["valence"], let valence = valenceValue.number else {
            return refused("the mood at \(at) has 'valence' \(tree["valence"]?.json ?? "missing"), not a number from -1 to 1")
        }
        guard valence.isFinite, StateOfMind.valenceRange.contains(valence) else {
            return refused("the mood at \(at) has 'valence' \(NumberFormatting.json(valence)), outside -1...1 "
                           + "(-1 very unpleasant, 1 very pleasant)")
        }
        var metadata: [String: MetadataValue] = [HAESampleBuilder.aggregationKey: .string("none")]
        func words<Word: NamedCase & Equatable>(_ field: String, as _: Word.Type) -> [Word]? {
            guard let value = tree[field], value.json != "null" else { return [] }
            guard let items = value.items else { return nil }
            var known: [Word] = [], unknown: [HAEJSONTree] = []
            for item in items {
                if let word = item.text.flatMap(Word.named) ?? item.number.flatMap({ Word(rawValue: Int(exactly: $0) ?? 0) }) {
                    if !known.contains(word) { known.append(word) }
                } else {
                    unknown.append(item)
                }
            }
            if !unknown.isEmpty { metadata["HAE:" + field] = .string(HAEJSONTree.array(unknown).json) }
            return known
        }
        guard let labels = words("labels", as: StateOfMind.Label.self) else {
            return refused("the mood at \(at) has 'labels' \(tree["labels"]!.json), not an array of words")
        }
        guard let associations = words("associations", as: StateOfMind.Association.self) else {
            return refused("the mood at \(at) has 'associations' \(tree["associations"]!.json), not an array of words")
        }
        if let extra = tree["metadata"] {
            switch extra {
            case let .object(entries):
                for (key, value) in entries {
                    let reserved = key.hasPrefix("HAE") || key == MetadataKeySyncIdentifier || key == MetadataKeySyncVersion
                    metadata[reserved ? "HAE:metadata:" + key : key] = metadataValue(value)
                }
            case .scalar(.null): break
            default: metadata["HAE:metadata"] = .string(extra.json)
            }
        }
        for (key, value) in fields where !understood.contains(key) {
            if case .scalar(.null) = value { continue }
            metadata["HAE:" + key] = metadataValue(value)
        }
        let id = tree["id"]?.text.flatMap { $0.isEmpty ? nil : $0 }
        if let id { metadata["HKExternalUUID"] = .string(id) }
        let identifier = HAESampleBuilder.syncPrefix + array + "|" + (id ?? at)
        metadata[MetadataKeySyncIdentifier] = .string(identifier)
        if let through = builder.receivedThrough { metadata[HAESampleBuilder.receivedThroughKey] = .string(through) }
        let source = tree["source"]?.text.flatMap { $0.isEmpty ? nil : $0 } ?? builder.defaultSource
        let sample = Sample(typeIdentifier: type, start: start, end: end, value: .category(kind.rawValue), source: source,
                            created: builder.created, metadata: metadata,
                            detail: .stateOfMind(StateOfMindDetail(valence: valence, labels: labels, associations: associations)))
        if let problem = TextRules.problem(in: sample) { return refused(problem) }
        var candidate = HAECandidate(sample: sample, generic: false, syncIdentifier: identifier, line: item.line, metric: array)
        // The identifier an earlier version gave the element it kept untyped (``HAEOtherArrays``): the same fields, read
        // the same way.
        var former = HAESampleBuilder.syncPrefix + array + "|" + ISODate.format(item.start?.date ?? start, in: .gmt)
        if let old = HAEOtherArrays.field("id", in: item.json) ?? HAEOtherArrays.field("name", in: item.json) { former += "|" + old }
        candidate.former = (HAESampleBuilder.untypedPrefix + array, former)
        return .candidate(candidate)
    }

    /// The kind a `kind` value names: HealthKit's names or raw values, or HAE's and the Health app's words.
    static func kind(_ value: HAEJSONTree) -> StateOfMind.Kind? {
        if let number = value.number { return Int(exactly: number).flatMap(StateOfMind.Kind.init(rawValue:)) }
        guard let text = value.text else { return nil }
        if let kind = StateOfMind.Kind(name: text) { return kind }
        switch String(text.lowercased().filter { $0.isLetter }) {
        case "mood", "daily", "dailymoods": return .dailyMood
        case "emotion", "momentary", "momentaryemotions": return .momentaryEmotion
        default: return nil
        }
    }

    private static func metadataValue(_ value: HAEJSONTree) -> MetadataValue {
        switch value {
        case let .scalar(.number(number)): return .number(number)
        case let .scalar(.string(text)): return .string(text)
        default: return .string(value.json)
        }
    }
}
