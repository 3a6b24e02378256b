/// Checks bytes for well-formed UTF-8 (Unicode's definition: no overlong forms, no surrogates, nothing above
/// U+10FFFF), eight ASCII bytes at a time, so that store lines with a name like "Jane’s iPhone" stay on the
/// fast paths.
enum UTF8Validation {
    /// The offset of the first byte of the first ill-formed sequence, or nil when all `count` bytes are valid.
    static func firstInvalidOffset(_ base: UnsafePointer<UInt8>, count: Int) -> Int? {
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index < count {
            // Skip ASCII eight bytes at a time.
            while index + 8 <= count,
                  raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                index += 8
            }
            guard index < count else { return nil }
            let lead = base[index]
            if lead < 0x80 { index += 1; continue }
            let width: Int
            var lowest: UInt8 = 0x80, highest: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: width = 2
            case 0xE0: width = 3; lowest = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: width = 3
            case 0xED: width = 3; highest = 0x9F
            case 0xF0: width = 4; lowest = 0x90
            case 0xF1...0xF3: width = 4
            case 0xF4: width = 4; highest = 0x8F
            default: return index
            }
            guard index + width <= count else { return index }
            let second = base[index + 1]
            guard second >= lowest, second <= highest else { return index }
            for offset in 2..<width where base[index + offset] & 0xC0 != 0x80 { return index }
            index += width
        }
        return nil
    }

    /// Whether all the bytes are well-formed UTF-8.
    static func isValid(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        return firstInvalidOffset(base, count: bytes.count) == nil
    }
}
