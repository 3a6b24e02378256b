extension UUID {
    /// The uuid as the store writes it: 36 lowercase hex digits and dashes, exactly what
    /// `lowercasedText` gives, without FoundationEssentials' formatting and a Unicode-aware lowercasing
    /// (about 7,000 instructions a uuid, against a few hundred here).
    package var lowercasedText: String {
        let digits: StaticString = "0123456789abcdef"
        return withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var position = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    text[position] = digits.utf8Start[Int(byte >> 4)]
                    text[position + 1] = digits.utf8Start[Int(byte & 0x0F)]
                    position += 2
                }
                return position
            }
        }
    }
}
