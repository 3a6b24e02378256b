import TextSupport

/// The device that recorded a sample, parsed from the `device` attribute of an Apple Health export.
///
/// Exports write HealthKit's debug description of `HKDevice`:
/// `<<HKDevice: 0x600001a2c0f0>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.1>`.
/// The hexadecimal address changes from row to row and from export to export, so it is dropped: the
/// ``normalized`` form (`name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,2, software:10.1`)
/// is what the store keeps in ``Sample/device`` and what identity never depends on.
public struct DeviceDescription: Hashable, Sendable {
    /// One `key:value` pair, in the order written.
    public struct Field: Hashable, Sendable {
        /// The field name (`name`, `manufacturer`, `model`, `hardware`, `software`, ...).
        public var key: String
        /// The value as written.
        public var value: String
    }

    /// The fields in the order written.
    public var fields: [Field]

    /// Parses an export's `device` text (already unescaped); text in another shape is kept as one `name` field.
    public init(exportText text: String) {
        var body = Substring(text)
        if body.hasPrefix("<<HKDevice:"), let close = body.firstRange(ofText: ">, ") {
            body = body[close.upperBound...]
            if body.hasSuffix(">") { body = body.dropLast() }
        } else if body.hasPrefix("<<HKDevice:"), let close = body.firstIndex(of: ">") {
            body = body[body.index(after: close)...]
            if body.hasSuffix(">") { body = body.dropLast() }
        } else if !DeviceDescription.looksLikeFields(body) {
            fields = body.isEmpty ? [] : [Field(key: "name", value: String(body))]
            return
        }
        fields = DeviceDescription.split(body)
    }

    /// Parses the stored form (`name:Apple Watch, model:Watch`).
    public init(normalized text: String) {
        fields = DeviceDescription.split(Substring(text))
    }

    /// The value of `key` (`name`, `manufacturer`, `model`, `hardware`, `software`, ...), if present.
    public func value(_ key: String) -> String? { fields.first { $0.key == key }?.value }

    /// `name:Apple Watch, manufacturer:Apple Inc., ...`, without the memory address.
    public var normalized: String { fields.map { $0.key + ":" + $0.value }.joined(separator: ", ") }

    /// The form an export writes, with a zero address (`<<HKDevice: 0x0>, name:..., ...>`).
    public var exportText: String { "<<HKDevice: 0x0>, " + normalized + ">" }

    private static func looksLikeFields(_ text: Substring) -> Bool {
        guard let colon = text.firstIndex(of: ":") else { return false }
        return text[..<colon].allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } && colon != text.startIndex
    }

    /// Splits at each `, key:` whose key is a plain word, so values may contain commas (`hardware:Watch6,2`) and
    /// even `, ` when no `word:` follows.
    private static func split(_ text: Substring) -> [Field] {
        var fields: [Field] = []
        var rest = text
        while !rest.isEmpty {
            guard let colon = rest.firstIndex(of: ":") else {
                if var last = fields.popLast() {
                    last.value += String(rest)
                    fields.append(last)
                } else {
                    fields.append(Field(key: "name", value: String(rest)))
                }
                break
            }
            let key = String(rest[..<colon])
            var valueEnd = rest.endIndex
            var search = rest.index(after: colon)
            while let separator = rest[search...].firstRange(ofText: ", ") {
                let after = rest[separator.upperBound...]
                if let nextColon = after.firstIndex(of: ":"), nextColon != after.startIndex,
                   after[..<nextColon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
                    valueEnd = separator.lowerBound
                    break
                }
                search = separator.upperBound
            }
            fields.append(Field(key: key, value: String(rest[rest.index(after: colon)..<valueEnd])))
            rest = valueEnd == rest.endIndex ? rest[rest.endIndex...] : rest[rest.index(valueEnd, offsetBy: 2)...]
        }
        return fields
    }
}
