/// Whether bytes are one valid JSON document whose top level is an object: what
/// `JSONSerialization.jsonObject(with:) as? [String: Any] != nil` told, without Foundation's `JSONSerialization`.
enum JSONObjectCheck {
    /// True when `bytes` (UTF-8, surrounding whitespace allowed) are a JSON object and nothing else.
    static func isObject(_ bytes: [UInt8]) -> Bool {
        (try? JSONDecoder().decode(AnyObjectProbe.self, from: Data(bytes))) != nil
    }

    /// Decodes only when the top-level value is an object, decoding every value inside it: `JSONDecoder` checks a
    /// string's escapes and a number's form only when they are decoded.
    private struct AnyObjectProbe: Decodable {
        init(from decoder: Decoder) throws {
            let object = try decoder.container(keyedBy: AnyKey.self)
            for key in object.allKeys { _ = try object.decode(AnyValueProbe.self, forKey: key) }
        }
    }

    /// Decodes any JSON value, and every value inside it.
    private struct AnyValueProbe: Decodable {
        init(from decoder: Decoder) throws {
            if var array = try? decoder.unkeyedContainer() {
                while !array.isAtEnd { _ = try array.decode(AnyValueProbe.self) }
            } else if (try? decoder.container(keyedBy: AnyKey.self)) != nil {
                _ = try AnyObjectProbe(from: decoder)
            } else {
                let value = try decoder.singleValueContainer()
                if value.decodeNil() || (try? value.decode(Bool.self)) != nil || (try? value.decode(String.self)) != nil {
                    return
                }
                _ = try value.decode(Double.self)
            }
        }
    }

    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
