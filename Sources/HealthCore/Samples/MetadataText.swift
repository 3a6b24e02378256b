import TextSupport

/// A sample's metadata as text: one JSON object for JSON and CSV output, `key=value` pairs for tables.
///
/// Keys starting with `@` are the library's own (an import keeps an element's unknown attributes and children under them):
/// JSON and CSV keep them unless asked not to, tables leave them out.
public enum MetadataText: Sendable {
    /// `{"key":"text","other":12}` with sorted keys, numbers as JSON numbers; `{}` for none.
    ///
    /// - Parameter userOnly: Leave out the library's `@` keys.
    public static func json(_ metadata: [String: MetadataValue], userOnly: Bool = false) -> String {
        // Written into one byte buffer: this runs for every sample that `list` prints as CSV or JSON, and most samples
        // carry one key (the zone an add recorded, or HKWasUserEntered), which needs no sorting.
        var out = ByteArraySink()
        out.bytes.reserveCapacity(64)
        out.append(UInt8(ascii: "{"))
        if metadata.count == 1, let (key, value) = metadata.first {
            if !userOnly || !key.hasPrefix("@") { appendEntry(key, value, to: &out) }
        } else if !metadata.isEmpty {
            var first = true
            for key in metadata.keys.sorted() where !userOnly || !key.hasPrefix("@") {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                appendEntry(key, metadata[key]!, to: &out)
            }
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// `"key":"text"` or `"key":12`.
    private static func appendEntry(_ key: String, _ value: MetadataValue, to out: inout ByteArraySink) {
        JSONText.appendQuoted(key, to: &out)
        out.append(UInt8(ascii: ":"))
        switch value {
        case let .string(text): JSONText.appendQuoted(text, to: &out)
        case let .number(number): out.bytes.append(contentsOf: NumberFormatting.json(number).utf8)
        }
    }

    /// The `metadata` field of a CSV row: ``json(_:userOnly:)``, or empty when there is nothing to write.
    public static func csvField(_ metadata: [String: MetadataValue], userOnly: Bool = false) -> String {
        let empty = userOnly ? !metadata.keys.contains(where: { !$0.hasPrefix("@") }) : metadata.isEmpty
        return empty ? "" : json(metadata, userOnly: userOnly)
    }

    /// Whether a table shows anything of `metadata`: a key not starting with `@`, and not the zone a sample was
    /// recorded in (`HKTimeZone`, which an entry typed by a person records).
    public static func hasShownEntries(_ metadata: [String: MetadataValue]) -> Bool {
        metadata.keys.contains(where: isShownInTables)
    }

    private static func isShownInTables(_ key: String) -> Bool { !key.hasPrefix("@") && key != MetadataKeyTimeZone }

    /// `note=after the run; mood=good`: the user's `note` first, then the other keys in order, without the `@`
    /// keys and `HKTimeZone`; empty when there is nothing to show.
    ///
    /// Safe on a terminal line: control characters (a newline, an escape), bidirectional controls and zero-width
    /// characters are written `\u{1B}`, and a key or value longer than 60 characters is shortened with `…`
    /// (``TextRules/shown(_:)``); JSON and CSV keep them whole.
    public static func table(_ metadata: [String: MetadataValue]) -> String {
        let keys = metadata.keys.filter(isShownInTables).sorted { ($0 == "note" ? 0 : 1, $0) < ($1 == "note" ? 0 : 1, $1) }
        return keys.map { key in
            let value: String
            switch metadata[key]! {
            case let .string(text): value = text
            case let .number(number): value = NumberFormatting.json(number)
            }
            return TextRules.shown(key) + "=" + TextRules.shown(value)
        }.joined(separator: "; ")
    }
}
