/// Case-insensitive comparison of ASCII text, byte by byte.
enum ASCIICase {
    /// Whether `bytes` spell `text` when ASCII letters are compared without case.
    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ text: String) -> Bool {
        equal(bytes, text, droppingPrefixOf: 0)
    }

    /// Whether `bytes` spell `text` without its first `prefixLength` bytes, ASCII letters compared without case.
    /// False when `text` is not longer than the prefix.
    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ text: String, droppingPrefixOf prefixLength: Int) -> Bool {
        var text = text
        return text.withUTF8 { text in
            guard text.count > prefixLength || prefixLength == 0, text.count - prefixLength == bytes.count else { return false }
            for offset in 0..<bytes.count where lowered(bytes[offset]) != lowered(text[prefixLength + offset]) {
                return false
            }
            return true
        }
    }

    /// The byte with an ASCII capital letter lowered.
    @inline(__always)
    static func lowered(_ byte: UInt8) -> UInt8 { byte &- 65 < 26 ? byte | 0x20 : byte }
}
