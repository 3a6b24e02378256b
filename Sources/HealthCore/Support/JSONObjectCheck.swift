/// Whether bytes are one valid JSON document whose top level is an object: what
/// `JSONSerialization.jsonObject(with:) as? [String: Any] != nil` told, without Foundation's `JSONSerialization`.
enum JSONObjectCheck {
    /// True when `bytes` (UTF-8, surrounding whitespace allowed) are a JSON object and nothing else.
    static func isObject(_ bytes: [UInt8]) -> Bool {
        (try? JSONDecoder().decode(AnyObjectProbe.self, from: Data(bytes))) != nil
    }

    /// Decodes only when the top-level value is an object; `JSONDecoder` has parsed and checked the whole document
    /// before it asks for the container.
    private struct AnyObjectProbe: Decodable {
        init(from decoder: Decoder) throws {
            _ = try decoder.container(keyedBy: AnyKey.self)
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
